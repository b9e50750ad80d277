package protocol

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/book"
	"github.com/othellogo/othello/search"
)

// fakeBook is a hand-written opening book: a few positions after the start with fixed values,
// so sessions with it are exact. Learn records the game and runs one search with a nil
// progress callback (as the real book does); Save records the path.
type fakeBook struct {
	entries map[[2]uint64]book.Entry
	learned []book.Game
	saved   []string
}

func fakeKey(t testing.TB, transcript string) [2]uint64 {
	_, b, err := board.PlayTranscript(board.Start(), transcript)
	if err != nil {
		t.Fatal(err)
	}
	return [2]uint64{b.P, b.O}
}

func newFakeBook(t testing.TB) *fakeBook {
	mv := func(sq string, score float64, depth int, inBook bool) book.MoveValue {
		s, err := board.ParseSquare(sq)
		if err != nil {
			t.Fatal(err)
		}
		return book.MoveValue{Move: s, Score: score, Depth: depth, InBook: inBook}
	}
	return &fakeBook{entries: map[[2]uint64]book.Entry{
		// e6 is not in the book: a hint for 4 moves searches it.
		fakeKey(t, ""): {Known: true, Score: 0.5, Depth: 20, Wins: 5, Draws: 1, Losses: 4,
			Moves: []book.MoveValue{mv("f5", 0.5, 20, true), mv("d3", 0.25, 10, false), mv("c4", 0, 10, false)}},
		fakeKey(t, "f5"): {Known: true, Score: -0.5, Depth: 20, Wins: 3, Draws: 1, Losses: 2,
			Moves: []book.MoveValue{mv("d6", -0.5, 20, true), mv("f6", -2, 10, false)}},
		fakeKey(t, "f5d6"): {Known: true, Score: 0.5, Depth: book.DepthExact, Wins: 2, Losses: 1,
			Moves: []book.MoveValue{mv("c3", 0.5, book.DepthExact, false)}},
	}}
}

func (f *fakeBook) Lookup(b board.Board) (book.Entry, bool) {
	e, ok := f.entries[[2]uint64{b.P, b.O}]
	return e, ok
}

func (f *fakeBook) Choose(b board.Board, margin float64, rng *rand.Rand) (board.Square, float64, bool) {
	e, ok := f.Lookup(b)
	if !ok || len(e.Moves) == 0 {
		return board.NoSquare, 0, false
	}
	n := 1
	for rng != nil && n < len(e.Moves) && e.Moves[n].Score >= e.Moves[0].Score-margin {
		n++
	}
	m := e.Moves[0]
	if rng != nil {
		m = e.Moves[rng.IntN(n)]
	}
	return m.Move, m.Score, true
}

func (f *fakeBook) Learn(ctx context.Context, s book.Searcher, g book.Game, maxPly int, opt book.Options) (int, int, error) {
	f.learned = append(f.learned, g)
	s.Search(ctx, board.Start(), search.Limits{Depth: opt.Depth}, nil)
	return len(g.Moves) + 1, 1, nil
}

func (f *fakeBook) Save(path string) error {
	f.saved = append(f.saved, path)
	return nil
}

func bookOptions(t *testing.T, o *Options) {
	o.Depth = 2
	o.Book = BookOptions{Book: newFakeBook(t)}
}

// Sessions with the fake book: book moves played from the start and reported as such, book
// lines in hints with the search for the moves the book lacks, learn.
func TestBookScripts(t *testing.T) {
	runScripts(t, "book_nboard*.txt", RunNBoard, func(o *Options) { bookOptions(t, o) })
	runScripts(t, "book_console*.txt", RunConsole, func(o *Options) { bookOptions(t, o) })
	runScripts(t, "book_gtp*.txt", RunGTP, func(o *Options) { bookOptions(t, o) })
}

// runNBoard replays a whole NBoard session, its input held open until the output holds until.
func runNBoard(t *testing.T, opt Options, input, until string) string {
	t.Helper()
	return runHeld(t, RunNBoard, &fakeEngine{noDeep: true}, opt, input, until)
}

const learnGGF = "(;GM[Othello]PC[test]PB[a]PW[b]RE[+10.000]TI[0]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[E6]W[F4]B[E3]W[C5]B[C4]W[E7];)"

// Learning through NBoard with the real book: the game goes into the book file, and a session
// re-opening the file plays from the book (the first move without a search).
func TestNBoardLearnRealBook(t *testing.T) {
	path := filepath.Join(t.TempDir(), "learned.book")
	bk := book.New()
	opt := testOptions(t)
	opt.Book = BookOptions{Book: bk, File: path, LearnDepth: 2}
	out := runNBoard(t, opt, "nboard 2\nset game "+learnGGF+"\nlearn\nping 1\n", "pong 1\n")
	if !regexp.MustCompile(`(?m)^status learned: 9 positions added, [1-9][0-9]* moves searched; saved to .*learned\.book\nlearned\npong 1\n\z`).MatchString(out) {
		t.Fatalf("learn output:\n%s", out)
	}
	reopened, err := book.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if reopened.Len() != 9 {
		t.Errorf("re-opened book has %d positions, want the 9 of the game", reopened.Len())
	}
	_, last, _ := board.PlayTranscript(board.Start(), "f5f6e6f4e3c5c4e7")
	if e, ok := reopened.Lookup(last); !ok || !e.Known {
		t.Errorf("the game's last position: in book %v, entry %+v", ok, e)
	}

	opt.Book = BookOptions{Book: reopened, File: path}
	eng := &fakeEngine{}
	in := "nboard 2\nset depth 3\nset game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)\ngo\nhint 4\n"
	text := runHeld(t, RunNBoard, eng, opt, in, "\nstatus\n")
	want := regexp.MustCompile(`^set myname GoThello\nstatus book move ([A-H][1-8]) -?[0-9.]+\n=== ([A-H][1-8])/-?[0-9.]+/0\nstatus Analyzing\n((?:book [A-H1-8]+ -?[0-9.]+ [01] [0-9]+%?\n){4})status\n$`)
	m := want.FindStringSubmatch(text)
	if m == nil || m[1] != m[2] {
		t.Fatalf("session with the learned book:\n%s", text)
	}
	// The four first moves lead to the same position up to symmetry, which the learned game
	// went through: each has that game and a book continuation.
	for _, l := range strings.Split(strings.TrimSpace(m[3]), "\n") {
		if f := strings.Fields(l); len(f[1]) < 4 || f[3] != "1" {
			t.Errorf("book line %q: want the learned game and a book continuation\n%s", l, text)
		}
	}
	if n := eng.searches.Load(); n != 0 {
		t.Errorf("%d searches; the book should answer go and hint 2 from the start", n)
	}
}

// With --book-random the picks vary with the seed, stay within the margin, and repeat with
// the same seed; without it the best book move is always played.
func TestBookRandom(t *testing.T) {
	bk := book.New()
	g := book.Game{Start: board.Start()}
	if _, _, err := bk.Learn(context.Background(), quietSearcher{&fakeEngine{}}, g, 60, book.Options{Depth: 2}); err != nil {
		t.Fatal(err)
	}
	e, ok := bk.Lookup(board.Start())
	if !ok || len(e.Moves) != 4 {
		t.Fatalf("start position: %v %+v", ok, e)
	}
	picks := func(random bool, seed uint64, margin float64) []board.Square {
		p := newBookPlayer(BookOptions{Book: bk, Random: random, Seed: seed, Margin: margin})
		var out []board.Square
		for range 20 {
			sq, _, ok := p.move(board.Start())
			if !ok {
				t.Fatal("no book move at the start")
			}
			out = append(out, sq)
		}
		return out
	}
	for _, sq := range picks(false, 1, 64) {
		if sq != e.Moves[0].Move {
			t.Fatalf("without randomness the engine played %s, want the best %s", sq, e.Moves[0].Move)
		}
	}
	a, b := picks(true, 7, 64), picks(true, 7, 64)
	seen := map[board.Square]bool{}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("seed 7 gave %v then %v", a, b)
		}
		seen[a[i]] = true
	}
	if len(seen) < 2 {
		t.Errorf("20 random picks among 4 equal moves all gave %v", a)
	}
	for _, sq := range picks(true, 3, 0) {
		if sq != e.Moves[0].Move {
			t.Errorf("margin 0 picked %s, want the best %s", sq, e.Moves[0].Move)
		}
	}
}

// Learn without a book, or with a book that fails to save, still answers "learned".
func TestNBoardLearnFailures(t *testing.T) {
	opt := testOptions(t)
	out := runNBoard(t, opt, "learn\n", "learned\n")
	if out != "status no opening book: the game is not stored\nlearned\n" {
		t.Errorf("no book: %q", out)
	}
	opt.Book = BookOptions{Book: book.New(), File: filepath.Join(t.TempDir(), "no-such-dir", "x.book"), LearnDepth: 1}
	out = runNBoard(t, opt, "set game "+learnGGF+"\nlearn\n", "learned\n")
	if !strings.HasPrefix(out, "status Learning the game\nstatus learn: saving the book to ") || !strings.HasSuffix(out, "learned\n") {
		t.Errorf("unwritable book file: %q", out)
	}
	fb := newFakeBook(t)
	opt.Book = BookOptions{Book: fb}
	out = runNBoard(t, opt, "set game "+learnGGF+"\nlearn\n", "learned\n")
	if !strings.Contains(out, "kept in memory only") || len(fb.saved) != 0 || len(fb.learned) != 1 || len(fb.learned[0].Moves) != 8 {
		t.Errorf("embedded book: output %q, saved %v, learned %d games", out, fb.saved, len(fb.learned))
	}
}

// quit stops a learn's searches at once: the game's positions are saved (their moves are
// searched by a later learn) and "learned" is still written. The fake engine's searches at
// depth 50 wait for their cancellation, so only quit can end this learn.
func TestNBoardQuitStopsLearning(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.book")
	opt := testOptions(t)
	opt.Book = BookOptions{Book: book.New(), File: path, LearnDepth: fakeDeep}
	var out bytes.Buffer
	in := "set game " + learnGGF + "\nlearn\nquit\n"
	if err := RunNBoard(context.Background(), &fakeEngine{}, strings.NewReader(in), &out, opt); err != nil {
		t.Fatal(err)
	}
	want := "status Learning the game\nstatus learned: 9 positions added, 0 moves searched (interrupted: the moves not searched yet are searched by the next learn); saved to " + path + "\nlearned\n"
	if out.String() != want {
		t.Fatalf("output %q\nwant %q", out.String(), want)
	}
	bk, err := book.Load(path)
	if err != nil || bk.Len() != 9 {
		t.Fatalf("saved book: %v, %d positions", err, bk.Len())
	}
}

// OpenBook: the embedded book, none, a book file, one that does not exist yet (an empty book
// that learn creates) and one that cannot be read (no book, a note, an error in the log).
func TestOpenBook(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "saved.book")
	bk := book.New()
	if err := bk.Save(saved); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(dir, "corrupt.book")
	if err := os.WriteFile(corrupt, []byte("GOTHBOOK but not really a book"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "new.book")
	for _, c := range []struct {
		path, file, note, log string
		book, empty           bool
	}{
		{path: "default", book: true},
		{path: "", book: true},
		{path: "none"},
		{path: "-"},
		{path: saved, file: saved, book: true, empty: true},
		{path: missing, file: missing, book: true, empty: true, log: "does not exist yet"},
		{path: corrupt, note: "opening book not used: book " + corrupt + ": corrupt book", log: "corrupt book"},
	} {
		var log bytes.Buffer
		opt := OpenBook(c.path, BookOptions{Margin: 2, Seed: 7}, zerolog.New(&log).Level(zerolog.InfoLevel))
		if (opt.Book != nil) != c.book || opt.File != c.file || !strings.HasPrefix(opt.Note, c.note) || (c.note == "") != (opt.Note == "") ||
			opt.Margin != 2 || opt.Seed != 7 || !strings.Contains(log.String(), c.log) || (c.log == "") != (log.Len() == 0) {
			t.Errorf("OpenBook(%q): %+v, log %q", c.path, opt, log.String())
			continue
		}
		if c.book && (opt.Book.(*book.Book).Len() == 0) != c.empty {
			t.Errorf("OpenBook(%q): %d positions", c.path, opt.Book.(*book.Book).Len())
		}
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("OpenBook created %s: %v", missing, err)
	}
	if data, _ := os.ReadFile(corrupt); string(data) != "GOTHBOOK but not really a book" {
		t.Error("OpenBook changed the corrupt book file")
	}
}
