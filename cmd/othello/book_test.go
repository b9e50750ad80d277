package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/book"
	"github.com/othellogo/othello/search"
)

// TestBookCommands runs the book's life cycle through the binary with the real engine at a
// small depth: build, stats, show, deviate, extend, learn, fix, export, import.
func TestBookCommands(t *testing.T) {
	dir := t.TempDir()
	bk := filepath.Join(dir, "t.book")
	code, out, errOut := runCmd(t, "", "book", "build", "--book", bk, "--moves", "6", "--min-games", "2", "--depth", "2", "--tt", "1", "../../book/testdata/book-games.txt", "../../book/testdata/WTH_1977.wtb")
	if code != 0 || !strings.Contains(out, "leaves searched") {
		t.Fatalf("build: code %d\n%s\n%s", code, out, errOut)
	}
	built, err := book.Load(bk)
	if err != nil || built.Len() == 0 {
		t.Fatalf("built book: %v", err)
	}
	code, out, _ = runCmd(t, "", "book", "stats", "--book", bk)
	if code != 0 || !strings.Contains(out, "start position:") || !strings.Contains(out, "2:") {
		t.Errorf("stats: code %d\n%s", code, out)
	}
	code, out, _ = runCmd(t, "", "book", "show", "--book", bk, "f5d6")
	if code != 0 || !strings.Contains(out, "book value") || !strings.Contains(out, "c3") {
		t.Errorf("show: code %d\n%s", code, out)
	}
	code, out, _ = runCmd(t, "", "book", "show", "--book", bk, "--", "-------------------------OOO-----XXX---------------------------- X")
	if code != 0 || !strings.Contains(out, "not in the book") {
		t.Errorf("show outside the book: code %d\n%s", code, out)
	}
	for _, c := range [][]string{
		{"deviate", "--margin", "1", "--limit", "5"},
		{"extend", "--moves", "8"},
		{"learn", "../../book/testdata/learn.ggf"},
		{"fix"},
	} {
		args := append([]string{"book", c[0], "--book", bk}, c[1:]...)
		if c[0] != "fix" {
			args = append(args[:4], append([]string{"--depth", "2", "--tt", "1"}, args[4:]...)...)
		}
		code, out, errOut := runCmd(t, "", args...)
		if code != 0 {
			t.Fatalf("%s: code %d\n%s\n%s", c[0], code, out, errOut)
		}
	}
	code, out, _ = runCmd(t, "", "book", "show", "--book", bk, "f5f6e6f4e3c5c4e7")
	if code != 0 || !strings.Contains(out, "book value") {
		t.Errorf("the learned game's last position: code %d\n%s", code, out)
	}
	text := filepath.Join(dir, "t.txt")
	if code, _, errOut := runCmd(t, "", "book", "export", "--book", bk, "-o", text); code != 0 {
		t.Fatalf("export: %s", errOut)
	}
	copyBook := filepath.Join(dir, "copy.book")
	if code, _, errOut := runCmd(t, "", "book", "import", "--book", copyBook, text); code != 0 {
		t.Fatalf("import: %s", errOut)
	}
	a, _ := book.Load(bk)
	b, _ := book.Load(copyBook)
	if a.Len() != b.Len() {
		t.Errorf("imported copy: %d positions, original %d", b.Len(), a.Len())
	}
}

func TestBookCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.book")
	os.WriteFile(bad, []byte("GOTHBOOK\x01\x00\x00\x00garbage"), 0o644)
	code, _, errOut := runCmd(t, "", "book", "stats", "--book", bad)
	if code == 0 || !strings.Contains(errOut, "corrupt book") {
		t.Errorf("corrupt book: code %d, %q", code, errOut)
	}
	illegal := filepath.Join(dir, "illegal.txt")
	os.WriteFile(illegal, []byte("f5d6\nf5a1\n"), 0o644)
	code, _, errOut = runCmd(t, "", "book", "build", "--book", filepath.Join(dir, "x.book"), "--depth", "1", illegal)
	if code == 0 || !strings.Contains(errOut, "line 2") {
		t.Errorf("illegal transcript: code %d, %q", code, errOut)
	}
	if _, err := os.Stat(filepath.Join(dir, "x.book")); err == nil {
		t.Error("a failed build wrote a book")
	}
	txt := filepath.Join(dir, "bad.txt")
	os.WriteFile(txt, []byte("f5 +1 3\nf5d6 x 3\n"), 0o644)
	code, _, errOut = runCmd(t, "", "book", "import", "--book", filepath.Join(dir, "y.book"), txt)
	if code == 0 || !strings.Contains(errOut, "line 2") {
		t.Errorf("bad import: code %d, %q", code, errOut)
	}
	for _, args := range [][]string{
		{"book"},
		{"book", "frob"},
		{"book", "build", "../../book/testdata/book-games.txt"},
		{"book", "show", "f5a1"},
		{"book", "build", "--book", "x", "--depth", "0", "../../book/testdata/book-games.txt"},
	} {
		if code, _, _ := runCmd(t, "", args...); code != 2 {
			t.Errorf("%v: code %d, want 2", args, code)
		}
	}
	// The embedded default book is valid.
	if code, out, errOut := runCmd(t, "", "book", "stats"); code != 0 || !strings.Contains(out, "embedded book") {
		t.Errorf("stats of the embedded book: code %d\n%s\n%s", code, out, errOut)
	}
}

// A game whose start position has fewer than 4 discs is skipped, with a warning naming it,
// by book learn and book build: the other games are learned and the book stays readable.
func TestBookSkipsImpossibleStart(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile("../../book/testdata/learn.ggf")
	if err != nil {
		t.Fatal(err)
	}
	bad := "(;GM[Othello]PC[test]PB[a]PW[b]TY[8]RE[?]BO[8 ---------------------------O-------*---------------------------- *]B[d3];)\n"
	games := filepath.Join(dir, "mixed.ggf")
	os.WriteFile(games, append(append([]byte(bad), good...), bad...), 0o644)
	for _, cmd := range []string{"learn", "build"} {
		bk := filepath.Join(dir, cmd+".book")
		code, out, errOut := runCmd(t, "", "book", cmd, "--book", bk, "--depth", "1", "--tt", "1", games)
		if code != 0 || !strings.Contains(errOut, "mixed.ggf: game 1") || !strings.Contains(errOut, "mixed.ggf: game 3") ||
			!strings.Contains(errOut, "fewer than 4 discs") {
			t.Errorf("%s: code %d, want 0 and warnings naming games 1 and 3\n%s\n%s", cmd, code, out, errOut)
		}
		if code, out, errOut := runCmd(t, "", "book", "show", "--book", bk, "f5f6e6f4"); code != 0 || !strings.Contains(out, "book value") {
			t.Errorf("%s: the book after it: code %d\n%s\n%s", cmd, code, out, errOut)
		}
	}
}

// book export -o onto the book file itself is refused, and the book is left as it was.
func TestBookExportOntoItself(t *testing.T) {
	dir := t.TempDir()
	bk := filepath.Join(dir, "b.book")
	if code, _, errOut := runCmd(t, "", "book", "learn", "--book", bk, "--depth", "1", "--tt", "1", "../../book/testdata/learn.ggf"); code != 0 {
		t.Fatalf("learn: %s", errOut)
	}
	before, _ := os.ReadFile(bk)
	for _, out := range []string{bk, filepath.Join(dir, ".", "b.book")} {
		code, _, errOut := runCmd(t, "", "book", "export", "--book", bk, "-o", out)
		if code != 2 || !strings.Contains(errOut, "is the book file") {
			t.Errorf("export -o %s: code %d, %q; want a refusal", out, code, errOut)
		}
	}
	if after, _ := os.ReadFile(bk); string(after) != string(before) {
		t.Error("the book file changed")
	}
}

// nullSearcher stands for an engine in a run cut short before any search.
type nullSearcher struct{}

func (nullSearcher) Search(context.Context, board.Board, search.Limits, func(search.Info)) search.Result {
	return search.Result{}
}

// book extend run again after an interruption goes on with the recorded round instead of
// doing another: the book is the one of a run that was not interrupted.
func TestBookExtendResumes(t *testing.T) {
	dir := t.TempDir()
	whole, resumed := filepath.Join(dir, "whole.book"), filepath.Join(dir, "resumed.book")
	for _, bk := range []string{whole, resumed} {
		if code, _, errOut := runCmd(t, "", "book", "learn", "--book", bk, "--depth", "1", "--tt", "1", "../../book/testdata/learn.ggf"); code != 0 {
			t.Fatalf("learn: %s", errOut)
		}
	}
	extend := func(bk string) string {
		code, out, errOut := runCmd(t, "", "book", "extend", "--book", bk, "--moves", "12", "--rounds", "1", "--depth", "1", "--tt", "1")
		if code != 0 {
			t.Fatalf("extend: code %d\n%s\n%s", code, out, errOut)
		}
		return out + errOut
	}
	if out := extend(whole); !regexp.MustCompile(`(?m)^[1-9]\d* positions added`).MatchString(out) {
		t.Fatalf("the uninterrupted extension added nothing:\n%s", out)
	}
	// The interrupted run: the round's positions added, nothing searched, saved.
	job, err := book.StartJob(resumed, book.ExtendWork(12, 1))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := job.Run(ctx, nullSearcher{}, book.Options{Depth: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	if err := job.Save(); err != nil {
		t.Fatal(err)
	}
	if out := extend(resumed); !strings.Contains(out, "going on with the interrupted book extend") || !strings.Contains(out, "0 positions added") {
		t.Errorf("extend run again:\n%s", out)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(resumed)
	if !bytes.Equal(a, b) {
		t.Errorf("the resumed extension (%d bytes) differs from the uninterrupted one (%d bytes)", len(b), len(a))
	}
	if _, err := os.Stat(resumed + ".progress"); !os.IsNotExist(err) {
		t.Errorf("progress file left after the work is done: %v", err)
	}
}

// A book file that cannot be written is refused before any search.
func TestBookRefusesUnwritablePathUpFront(t *testing.T) {
	dir := t.TempDir()
	bk := filepath.Join(dir, "no", "such", "dir", "b.book")
	for _, args := range [][]string{
		{"book", "build", "--book", bk, "--depth", "1", "--tt", "1", "../../book/testdata/book-games.txt"},
		{"book", "learn", "--book", bk, "--depth", "1", "--tt", "1", "../../book/testdata/learn.ggf"},
		{"book", "import", "--book", bk, "../../book/testdata/book-games.txt"},
		{"book", "build", "--book", dir, "--depth", "1", "--tt", "1", "../../book/testdata/book-games.txt"},
		{"book", "export", "-o", filepath.Join(dir, "no", "t.txt")},
	} {
		code, _, stderr := runCmd(t, "", args...)
		if code != 2 || !strings.Contains(stderr, "cannot write") || strings.Contains(stderr, "searching with") {
			t.Errorf("%v: code %d, stderr %q; want a usage error before any search", args, code, stderr)
		}
	}
}
