package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/othellogo/othello/book"
)

// The protocol subcommands run the real search through the binary's entry point.
func TestProtocolCommands(t *testing.T) {
	code, out, errOut := runCmdHeld(t, "nboard 2\nset depth 2\ngo\n", "=== ", "nboard", "-tt", "1")
	if code != 0 || !strings.HasPrefix(out, "set myname GoThello\n") || !strings.Contains(out, "=== ") {
		t.Errorf("nboard: code %d, output %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCmd(t, "1 name\n2 play b f5\n3 genmove w\nquit\n", "gtp", "-depth", "2", "-tt", "1")
	if code != 0 || !strings.HasPrefix(out, "=1 GoThello\n\n=2 \n\n=3 ") {
		t.Errorf("gtp: code %d, output %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCmd(t, "f5\nhint 2\nmoves\nquit\n", "console", "-depth", "2", "-tt", "1")
	if code != 0 || !strings.Contains(out, " 2. ") || !strings.HasSuffix(out, "f5\n") {
		t.Errorf("console: code %d, output %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCmd(t, "f5\nmoves\nquit\n", "play", "-depth", "2", "-tt", "1")
	if code != 0 || !strings.Contains(out, "GoThello plays ") {
		t.Errorf("play: code %d, output %q, stderr %q", code, out, errOut)
	}
	code, out, _ = runCmd(t, "moves\nquit\n", "play", "-color", "white", "-depth", "1", "-tt", "1", "-name", "Tester")
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

// The book flags through the binary (protocol.NewEngine and OpenBook are tested in their
// package): NBoard's learn writes the --book file with -book-learn-depth, the console plays
// from it, -no-book plays without it, and a corrupt book is reported and play goes on.
func TestProtocolBook(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "learned.book")
	const game = "set game (;GM[Othello]PB[a]PW[b]RE[+4.000]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4]B[E3]W[C5];)\n"
	code, out, errOut := runCmdHeld(t, "nboard 2\n"+game+"learn\nping 1\n", "pong 1\n", "nboard", "-tt", "1", "-book", path, "-book-learn-depth", "2")
	if code != 0 || !strings.Contains(out, "status learned: 7 positions added") || !strings.Contains(out, "saved to "+path) {
		t.Fatalf("learn: code %d\n%s\n%s", code, out, errOut)
	}
	if bk, err := book.Load(path); err != nil || bk.Len() != 7 {
		t.Fatalf("re-opened book: %v", err)
	}
	code, out, errOut = runCmd(t, "hint 1\ngo\nquit\n", "console", "-depth", "2", "-tt", "1", "-book", path)
	if code != 0 || !strings.Contains(out, "book 2, 1 games") || !strings.Contains(out, ", book)") {
		t.Errorf("console with the learned book: code %d\n%s\n%s", code, out, errOut)
	}
	code, out, _ = runCmd(t, "go\nquit\n", "console", "-depth", "2", "-tt", "1", "-book", path, "-no-book")
	if code != 0 || strings.Contains(out, "book") {
		t.Errorf("console -no-book: code %d\n%s", code, out)
	}
	bad := filepath.Join(dir, "bad.book")
	os.WriteFile(bad, []byte("GOTHBOOK but not really a book"), 0o644)
	code, out, errOut = runCmd(t, "1 genmove b\nquit\n", "gtp", "-depth", "2", "-tt", "1", "-book", bad)
	if code != 0 || !strings.HasPrefix(out, "=1 ") || !strings.Contains(errOut, "corrupt book") {
		t.Errorf("gtp with a corrupt book: code %d\n%s\n%s", code, out, errOut)
	}
	for _, args := range [][]string{{"nboard", "-book-margin", "-1"}, {"gtp", "-book-margin", "NaN"}, {"nboard", "-book-learn-depth", "0"}} {
		if code, _, errOut := runCmd(t, "", args...); code != 2 || errOut == "" {
			t.Errorf("%v: code %d, stderr %q; want a usage error", args, code, errOut)
		}
	}
}
