package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The book subcommands' flags reach package book (its Runner, tested there with the real
// engine): every subcommand once, at depth 1.
func TestBookCommands(t *testing.T) {
	dir := t.TempDir()
	bk, text := filepath.Join(dir, "t.book"), filepath.Join(dir, "t.txt")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"build", "--book", bk, "--moves", "6", "--min-games", "2", "--games", "50", "--depth", "1", "--tt", "1", "--threads", "2", "../../book/testdata/book-games.txt"}, "leaves searched"},
		{[]string{"deviate", "--book", bk, "--margin", "1", "--limit", "5", "--depth", "1", "--tt", "1"}, "positions added"},
		{[]string{"extend", "--book", bk, "--moves", "8", "--depth", "1", "--tt", "1"}, "positions added"},
		{[]string{"learn", "--book", bk, "--depth", "1", "--tt", "1", "../../book/testdata/learn.ggf"}, "1 games learned"},
		{[]string{"fix", "--book", bk}, "changed value"},
		{[]string{"stats", "--book", bk}, "start position:"},
		{[]string{"stats"}, "embedded book"},
		{[]string{"show", "--book", bk, "f5f6e6f4e3c5c4e7"}, "book value"},
		{[]string{"show", "--book", bk, "--", "-------------------------OOO-----XXX---------------------------- X"}, "not in the book"},
		{[]string{"export", "--book", bk, "-o", text}, ""},
		{[]string{"import", "--book", filepath.Join(dir, "copy.book"), text}, "copy.book: "},
		{[]string{"help"}, "learn"},
	} {
		code, out, errOut := runCmd(t, "", append([]string{"book"}, c.args...)...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Fatalf("book %v: code %d\n%s\n%s", c.args, code, out, errOut)
		}
	}
}

// Usage errors, an export onto the book file itself, and a book file that cannot be written
// are refused before any search, leaving the book as it was.
func TestBookCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bk := filepath.Join(dir, "b.book")
	if code, _, errOut := runCmd(t, "", "book", "learn", "--book", bk, "--depth", "1", "--tt", "1", "../../book/testdata/learn.ggf"); code != 0 {
		t.Fatalf("learn: %s", errOut)
	}
	before, _ := os.ReadFile(bk)
	missing := filepath.Join(dir, "no", "such", "dir", "b.book")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"book"}, "want a book command"},
		{[]string{"book", "frob"}, "unknown book command"},
		{[]string{"book", "build", "../../book/testdata/book-games.txt"}, "want --book FILE"},
		{[]string{"book", "show", "f5a1"}, "a1"},
		{[]string{"book", "show", "f5", "d6"}, "at most one position"},
		{[]string{"book", "build", "--book", "x", "--depth", "0", "../../book/testdata/book-games.txt"}, "want depth 1-60"},
		{[]string{"book", "build", "--book", "x", "--eval", "nonsense", "../../book/testdata/book-games.txt"}, "nonsense"},
		{[]string{"book", "build", "--book", "x", "--moves", "61", "../../book/testdata/book-games.txt"}, "--moves 0-60"},
		{[]string{"book", "learn", "--book", "x"}, "want game files"},
		{[]string{"book", "import", "--book", "x"}, "want at least one text file"},
		{[]string{"book", "export", "--book", bk, "-o", bk}, "is the book file"},
		{[]string{"book", "export", "--book", bk, "-o", filepath.Join(dir, ".", "b.book")}, "is the book file"},
		{[]string{"book", "build", "--book", missing, "--depth", "1", "--tt", "1", "../../book/testdata/book-games.txt"}, "cannot write"},
		{[]string{"book", "learn", "--book", missing, "--depth", "1", "--tt", "1", "../../book/testdata/learn.ggf"}, "cannot write"},
		{[]string{"book", "import", "--book", missing, "../../book/testdata/book-games.txt"}, "cannot write"},
		{[]string{"book", "build", "--book", dir, "--depth", "1", "--tt", "1", "../../book/testdata/book-games.txt"}, "cannot write"},
		{[]string{"book", "export", "-o", filepath.Join(dir, "no", "t.txt")}, "cannot write"},
	} {
		code, _, errOut := runCmd(t, "", c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "searching with") {
			t.Errorf("%v: code %d, stderr %q; want a usage error naming %q before any search", c.args, code, errOut, c.want)
		}
	}
	if after, _ := os.ReadFile(bk); string(after) != string(before) {
		t.Error("the book file changed")
	}
	if code, _, errOut := runCmd(t, "", "book", "stats", "--book", filepath.Join(dir, "absent.book")); code != 1 || !strings.Contains(errOut, "absent.book") {
		t.Errorf("stats of a missing book: code %d, %q", code, errOut)
	}
}
