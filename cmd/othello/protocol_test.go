package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The protocol subcommands run the real search through the binary's entry point.
func TestProtocolCommands(t *testing.T) {
	code, out, errOut := runCmd(t, "nboard 2\nset depth 2\ngo\n", "nboard", "-tt", "1")
	if code != 0 || !strings.HasPrefix(out, "set myname GoThello\n") || !strings.Contains(out, "=== ") {
		t.Errorf("nboard: code %d, output %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCmd(t, "1 name\n2 play b f5\n3 genmove w\nquit\n", "gtp", "-depth", "2", "-tt", "1")
	if code != 0 || !strings.HasPrefix(out, "=1 GoThello\n\n=2 \n\n=3 ") {
		t.Errorf("gtp: code %d, output %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCmd(t, "f5\nhint 2\nmoves\n", "console", "-depth", "2", "-tt", "1")
	if code != 0 || !strings.Contains(out, " 2. ") || !strings.HasSuffix(out, "f5\n") {
		t.Errorf("console: code %d, output %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCmd(t, "f5\nmoves\n", "play", "-depth", "2", "-tt", "1")
	if code != 0 || !strings.Contains(out, "GoThello plays ") {
		t.Errorf("play: code %d, output %q, stderr %q", code, out, errOut)
	}
	code, out, _ = runCmd(t, "moves\n", "play", "-color", "white", "-depth", "1", "-tt", "1", "-name", "Tester")
	if code != 0 || !strings.Contains(out, "Tester plays ") {
		t.Errorf("play as white: the engine should open; code %d, output %q", code, out)
	}
	for _, bad := range [][]string{
		{"play", "-color", "green"},
		{"nboard", "-depth", "0"},
		{"gtp", "-depth", "61"},
		{"console", "-time", "-1s"},
		{"gtp", "-eval", "nonsense"},
	} {
		code, _, errOut := runCmd(t, "", bad...)
		if code != 2 || errOut == "" {
			t.Errorf("%v: code %d, stderr %q; want a usage error", bad, code, errOut)
		}
	}
}

// Protocol defaults from the TOML config file.
func TestProtocolConfig(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "othello.toml")
	if err := os.WriteFile(cfg, []byte("[gtp]\nname = \"Configured\"\ntt = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "name\n", "-config", cfg, "gtp")
	if code != 0 || out != "= Configured\n\n" {
		t.Errorf("code %d, output %q, stderr %q", code, out, errOut)
	}
}

// With no subcommand and no terminal, the binary prints its usage (a terminal gets the console).
func TestNoCommandOffTerminal(t *testing.T) {
	code, out, _ := runCmd(t, "")
	if code != 0 || !strings.Contains(out, "usage: othello") {
		t.Errorf("code %d, output %q", code, out)
	}
}
