package flagconfig

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestApply(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "othello.toml")
	parse := func(text string, args ...string) (*flag.FlagSet, *string, *int, error) {
		os.WriteFile(cfg, []byte(text), 0o644)
		fs := flag.NewFlagSet("othello book build", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		moves, depth := fs.String("moves", "", ""), fs.Int("depth", 1, "")
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		return fs, moves, depth, Apply(fs, cfg)
	}
	if _, moves, depth, err := parse("[\"book build\"]\nmoves = \"f5d6c3\"\ndepth = 7\n[perft]\nmoves = \"x\"\n"); err != nil || *moves != "f5d6c3" || *depth != 7 {
		t.Errorf("defaults not applied: %q %d %v", *moves, *depth, err)
	}
	if _, moves, depth, err := parse("[\"book build\"]\nmoves = \"f5d6c3\"\ndepth = 7\n", "-moves", "f5"); err != nil || *moves != "f5" || *depth != 7 {
		t.Errorf("the command line does not win: %q %d %v", *moves, *depth, err)
	}
	if _, moves, _, err := parse("[perft]\nmoves = 1\n"); err != nil || *moves != "" {
		t.Errorf("another command's table applied: %q %v", *moves, err)
	}
	for text, want := range map[string]string{
		"[\"book build\"]\nmovez = 1\n":     `unknown option "movez"`,
		"[\"book build\"]\ndepth = \"x\"\n": "depth = x",
		"[\"book build\"\n":                 "config ",
		"\"book build\" = 3\n":              "must be a table",
	} {
		if _, _, _, err := parse(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
	fs := flag.NewFlagSet("othello perft", flag.ContinueOnError)
	if err := Apply(fs, filepath.Join(dir, "missing.toml")); err == nil || !strings.Contains(err.Error(), "missing.toml") {
		t.Errorf("missing file: %v", err)
	}
	if TableName("othello gtp") != "gtp" || TableName("othello") != "othello" {
		t.Error("TableName")
	}
}
