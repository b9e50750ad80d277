package book

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
	"github.com/rs/zerolog"
)

// testRunner is a Runner with the real engine at depth 2, its log and output in buffers.
func testRunner(threads int) (Runner, *bytes.Buffer, *bytes.Buffer) {
	var log, out bytes.Buffer
	r := Runner{Search: SearchConfig{Depth: 2, TTMiB: 1, Threads: threads, EvalName: "mobility"},
		Log: zerolog.New(&log), Out: &out}
	return r, &log, &out
}

// The book's life cycle with the real engine at a small depth: build, stats, show, deviate,
// extend, learn, fix, export, import.
func TestRunnerLifeCycle(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.book")
	r, log, out := testRunner(2)
	games, err := ReadValidGames([]string{"testdata/book-games.txt", "testdata/WTH_1977.wtb"}, r.Log)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := r.Run(ctx, path, "book build", BuildWork(games, 6, 2)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "leaves searched") || !strings.Contains(log.String(), `"message":"lines added"`) ||
		!strings.Contains(log.String(), `"threads":2`) {
		t.Fatalf("build: output %q, log %q", out, log)
	}
	bk, err := LoadOrDefault(path)
	if err != nil || bk.Len() == 0 {
		t.Fatalf("built book: %v", err)
	}
	var st bytes.Buffer
	bk.Stats().Write(&st, path)
	if !strings.Contains(st.String(), "start position:") || !strings.Contains(st.String(), "2:") {
		t.Errorf("stats:\n%s", st.String())
	}
	show := func(bk *Book, obf, moves string) string {
		b, err := board.ParsePosition(obf, moves)
		if err != nil {
			t.Fatal(err)
		}
		var w bytes.Buffer
		bk.Show(&w, b)
		return w.String()
	}
	if s := show(bk, "", "f5d6"); !strings.Contains(s, "book value") || !strings.Contains(s, "c3") {
		t.Errorf("show f5d6:\n%s", s)
	}
	if s := show(bk, "-------------------------OOO-----XXX---------------------------- X", ""); !strings.Contains(s, "not in the book") {
		t.Errorf("show outside the book:\n%s", s)
	}
	learn, err := ReadValidGames([]string{"testdata/learn.ggf"}, r.Log)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		what string
		work Work
		want string
	}{
		{"book deviate", DeviateWork(1, 20, 5), "positions added\n"},
		{"book extend", ExtendWork(8, 1), "positions added\n"},
		{"book learn", LearnWork(learn, 60), "1 games learned, "},
	} {
		out.Reset()
		if err := r.Run(ctx, path, w.what, w.work); err != nil || !strings.Contains(out.String(), w.want) {
			t.Fatalf("%s: %v\n%s", w.what, err, out)
		}
	}
	out.Reset()
	if err := FixFile(path, r.Log, out); err != nil || !strings.Contains(out.String(), "positions changed value") {
		t.Fatalf("fix: %v, %q", err, out)
	}
	bk, _ = LoadOrDefault(path)
	if s := show(bk, "", "f5f6e6f4e3c5c4e7"); !strings.Contains(s, "book value") {
		t.Errorf("the learned game's last position:\n%s", s)
	}
	text := filepath.Join(dir, "t.txt")
	if _, _, err := bk.ExportFile(text); err != nil {
		t.Fatal(err)
	}
	copied, err := ImportFiles(filepath.Join(dir, "copy.book"), []string{text}, nil, r.Log)
	if err != nil || copied.Len() != bk.Len() {
		t.Fatalf("imported copy: %v, %d positions, original %d", err, copied.Len(), bk.Len())
	}
	if again, _ := Load(filepath.Join(dir, "copy.book")); again == nil || again.Len() != bk.Len() {
		t.Errorf("the imported copy was not saved")
	}
}

// Errors: a game file with an illegal move names the line and writes no book; a bad text line
// names its line and saves nothing; the search settings are checked.
func TestRunnerErrors(t *testing.T) {
	dir := t.TempDir()
	r, _, _ := testRunner(1)
	illegal := filepath.Join(dir, "illegal.txt")
	os.WriteFile(illegal, []byte("f5d6\nf5a1\n"), 0o644)
	if _, err := ReadValidGames([]string{illegal}, r.Log); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("illegal transcript: %v", err)
	}
	txt := filepath.Join(dir, "bad.txt")
	os.WriteFile(txt, []byte("f5 +1 3\nf5d6 x 3\n"), 0o644)
	bk := filepath.Join(dir, "y.book")
	if _, err := ImportFiles(bk, []string{txt}, nil, r.Log); err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "nothing was saved") {
		t.Errorf("bad import: %v", err)
	}
	if _, err := os.Stat(bk); err == nil {
		t.Error("a failed import wrote a book")
	}
	for _, sc := range []SearchConfig{{Depth: 0, TTMiB: 1, Threads: 1}, {Depth: 61, TTMiB: 1, Threads: 1}, {Depth: 2, Selectivity: -1, TTMiB: 1, Threads: 1},
		{Depth: 2, TTMiB: 0, Threads: 1}, {Depth: 2, TTMiB: 1, Threads: 0}, {Depth: 2, TTMiB: 1, Threads: 257}} {
		if sc.Check() == nil {
			t.Errorf("%+v: no error", sc)
		}
	}
	if (SearchConfig{Depth: 2, TTMiB: 1, Threads: 1}).Check() != nil {
		t.Error("good settings refused")
	}
	if got, want := (SearchConfig{TTMiB: 4, Threads: 3}).TableBytes(), uint64(3*(4+16)<<20); got != want {
		t.Errorf("TableBytes %d, want %d (3 engines of 4 MiB bounds tables and the 16 MiB solver table)", got, want)
	}
	if st, err := LoadOrDefault(""); err != nil || st.Len() == 0 {
		t.Errorf("the embedded book: %v", err)
	}
	bad := filepath.Join(dir, "bad.book")
	os.WriteFile(bad, []byte("GOTHBOOK\x01\x00\x00\x00garbage"), 0o644)
	if _, err := LoadOrDefault(bad); err == nil || !strings.Contains(err.Error(), "corrupt book") {
		t.Errorf("corrupt book: %v", err)
	}
}

// A game whose start position has fewer than 4 discs is skipped, with a warning naming it,
// by learn and build: the other games are learned and the book stays readable.
func TestRunnerSkipsImpossibleStart(t *testing.T) {
	dir := t.TempDir()
	good, err := os.ReadFile("testdata/learn.ggf")
	if err != nil {
		t.Fatal(err)
	}
	bad := "(;GM[Othello]PC[test]PB[a]PW[b]TY[8]RE[?]BO[8 ---------------------------O-------*---------------------------- *]B[d3];)\n"
	games := filepath.Join(dir, "mixed.ggf")
	os.WriteFile(games, append(append([]byte(bad), good...), bad...), 0o644)
	for _, kind := range []string{"learn", "build"} {
		r, log, _ := testRunner(1)
		valid, err := ReadValidGames([]string{games}, r.Log)
		if err != nil || len(valid) != 1 || !strings.Contains(log.String(), "mixed.ggf: game 1") || !strings.Contains(log.String(), "mixed.ggf: game 3") ||
			!strings.Contains(log.String(), "fewer than 4 discs") {
			t.Fatalf("%d games, %v; want 1 and warnings naming games 1 and 3\n%s", len(valid), err, log)
		}
		w := LearnWork(valid, 60)
		if kind == "build" {
			w = BuildWork(valid, 20, 1)
		}
		path := filepath.Join(dir, kind+".book")
		if err := r.Run(context.Background(), path, "book "+kind, w); err != nil {
			t.Fatal(err)
		}
		bk, err := Load(path)
		b, _ := board.ParsePosition("", "f5f6e6f4")
		if _, ok := bk.Lookup(b); err != nil || !ok {
			t.Errorf("%s: the book after it: %v, f5f6e6f4 in it %v", kind, err, ok)
		}
	}
	if _, err := ReadValidGames([]string{filepath.Join(dir, "none.ggf")}, zerolog.Nop()); err == nil {
		t.Error("a missing game file: no error")
	}
	only := filepath.Join(dir, "bad.ggf")
	os.WriteFile(only, []byte(bad), 0o644)
	if _, err := ReadValidGames([]string{only}, zerolog.Nop()); err == nil || !strings.Contains(err.Error(), "no game the book can take") {
		t.Errorf("only bad games: %v", err)
	}
}

// An interrupted run saves what it did and returns no error; run again, the extension goes on
// with the recorded round instead of doing another, and the book is the one of a run that
// was not interrupted.
func TestRunnerExtendResumes(t *testing.T) {
	dir := t.TempDir()
	whole, resumed := filepath.Join(dir, "whole.book"), filepath.Join(dir, "resumed.book")
	learn, err := ReadValidGames([]string{"testdata/learn.ggf"}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	r, log, out := testRunner(1)
	r.Search.Depth = 1
	for _, path := range []string{whole, resumed} {
		if err := r.Run(context.Background(), path, "book learn", LearnWork(learn, 60)); err != nil {
			t.Fatal(err)
		}
	}
	out.Reset()
	if err := r.Run(context.Background(), whole, "book extend", ExtendWork(12, 1)); err != nil || !regexp.MustCompile(`(?m)^[1-9]\d* positions added`).MatchString(out.String()) {
		t.Fatalf("the uninterrupted extension: %v\n%s", err, out)
	}
	// The interrupted run: the round's positions added, nothing searched, saved.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	log.Reset()
	if err := r.Run(ctx, resumed, "book extend", ExtendWork(12, 1)); err != nil || !strings.Contains(log.String(), "interrupted: the leaves searched so far are kept") {
		t.Fatalf("the interrupted run: %v\n%s", err, log)
	}
	if _, err := os.Stat(resumed + ".progress"); err != nil {
		t.Fatalf("no progress record after the interruption: %v", err)
	}
	out.Reset()
	log.Reset()
	if err := r.Run(context.Background(), resumed, "book extend", ExtendWork(12, 1)); err != nil ||
		!strings.Contains(log.String(), "going on with the interrupted book extend") || !strings.Contains(out.String(), "0 positions added") {
		t.Errorf("extend run again: %v\n%s\n%s", err, log, out)
	}
	a, _ := os.ReadFile(whole)
	b, _ := os.ReadFile(resumed)
	if !bytes.Equal(a, b) {
		t.Errorf("the resumed extension (%d bytes) differs from the uninterrupted one (%d bytes)", len(b), len(a))
	}
	if _, err := os.Stat(resumed + ".progress"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("progress file left after the work is done: %v", err)
	}
}

// BuildOptions and LearnOptions refuse what the commands cannot run with, and make the work
// of the files' games: build takes the first MaxGames.
func TestGameWorkOptions(t *testing.T) {
	games := []string{filepath.Join("testdata", "book-games.txt")}
	for _, c := range []struct {
		err  error
		want string // "" for no error
	}{
		{BuildOptions{Files: games, Moves: 60, MinGames: 1}.Check(), ""},
		{BuildOptions{Moves: 20, MinGames: 1}.Check(), "want game files, --moves 0-60, a non-negative --games and --min-games of at least 1"},
		{BuildOptions{Files: games, Moves: 61, MinGames: 1}.Check(), "--moves 0-60"},
		{BuildOptions{Files: games, Moves: -1, MinGames: 1}.Check(), "--moves 0-60"},
		{BuildOptions{Files: games, Moves: 20, MaxGames: -1, MinGames: 1}.Check(), "a non-negative --games"},
		{BuildOptions{Files: games, Moves: 20, MinGames: 0}.Check(), "--min-games of at least 1"},
		{LearnOptions{Files: games, Moves: 0}.Check(), ""},
		{LearnOptions{Moves: 20}.Check(), "want game files and --moves 0-60"},
		{LearnOptions{Files: games, Moves: 61}.Check(), "want game files and --moves 0-60"},
	} {
		if (c.err == nil) != (c.want == "") || c.err != nil && !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want %q", c.err, c.want)
		}
	}
	log := zerolog.Nop()
	if w, err := (BuildOptions{Files: games, Moves: 6, MaxGames: 5, MinGames: 2}).Work(log); err != nil || w.String() != "book build of 5 games (--moves 6 --min-games 2)" {
		t.Errorf("build: %v, %v", w, err)
	}
	if w, err := (BuildOptions{Files: games, Moves: 6, MinGames: 1}).Work(log); err != nil || w.String() != "book build of 20 games (--moves 6 --min-games 1)" {
		t.Errorf("build of all the games: %v, %v", w, err)
	}
	if w, err := (LearnOptions{Files: games, Moves: 8}).Work(log); err != nil || w.String() != "book learn of 20 games (--moves 8)" {
		t.Errorf("learn: %v, %v", w, err)
	}
	absent := []string{filepath.Join(t.TempDir(), "absent.txt")}
	if _, err := (BuildOptions{Files: absent, MinGames: 1}).Work(log); err == nil {
		t.Error("build of an absent file: no error")
	}
	if _, err := (LearnOptions{Files: absent}).Work(log); err == nil {
		t.Error("learn of an absent file: no error")
	}
}

// CheckExport refuses the book file itself as the text's file, under any of its names.
func TestCheckExport(t *testing.T) {
	dir := t.TempDir()
	bk, other, link := filepath.Join(dir, "b.book"), filepath.Join(dir, "t.txt"), filepath.Join(dir, "l.book")
	os.WriteFile(bk, []byte("x"), 0o644)
	os.WriteFile(other, []byte("x"), 0o644)
	os.Link(bk, link)
	for _, out := range []string{bk, dir + "/./b.book", link} {
		if err := CheckExport(bk, out); err == nil || !strings.Contains(err.Error(), "is the book file itself") {
			t.Errorf("export of %s to %s: %v", bk, out, err)
		}
	}
	for _, c := range [][2]string{{bk, other}, {bk, filepath.Join(dir, "new.txt")}, {"", bk}, {bk, ""}, {filepath.Join(dir, "absent.book"), other}} {
		if err := CheckExport(c[0], c[1]); err != nil {
			t.Errorf("export of %q to %q: %v", c[0], c[1], err)
		}
	}
}
