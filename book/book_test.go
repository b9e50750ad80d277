package book

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

// fakeSearcher is a plain fixed-depth negamax over a simple evaluation (disc difference plus a
// hundredth of a disc per move of mobility), independent of the book code. It counts its
// calls.
type fakeSearcher struct{ calls int }

func evalSimple(p, o uint64) float64 {
	return float64(board.Count(p)-board.Count(o)) + 0.01*float64(board.Count(board.LegalMoves(p, o))-board.Count(board.LegalMoves(o, p)))
}

// negamax returns the value of (p, o) for the side to move, depth plies deep; a pass costs
// no depth, a finished game scores its final disc difference.
func negamax(p, o uint64, depth int) float64 {
	moves := board.LegalMoves(p, o)
	if moves == 0 {
		if board.LegalMoves(o, p) == 0 {
			return float64(board.DiscDiff(p, o))
		}
		return -negamax(o, p, depth)
	}
	if depth == 0 {
		return evalSimple(p, o)
	}
	best := math.Inf(-1)
	for ; moves != 0; moves &= moves - 1 {
		sq := board.FirstSquare(moves)
		f := board.Flips(p, o, sq)
		best = max(best, -negamax(o^f, p|f|sq.Bit(), depth-1))
	}
	return best
}

func (f *fakeSearcher) Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result {
	f.calls++
	return search.Result{Info: search.Info{Depth: lim.Depth, Score: negamax(b.P, b.O, lim.Depth)}}
}

// allLines returns every move sequence of n moves from the start position.
func allLines(n int) [][]board.Square {
	var out [][]board.Square
	var rec func(b board.Board, line []board.Square)
	rec = func(b board.Board, line []board.Square) {
		if len(line) == n {
			out = append(out, append([]board.Square(nil), line...))
			return
		}
		for m := b.LegalMoves(); m != 0; m &= m - 1 {
			sq := board.FirstSquare(m)
			nb := b
			nb.Make(sq)
			rec(nb, append(line, sq))
		}
	}
	rec(board.Start(), nil)
	return out
}

// checkInvariants asserts what every operation must leave: each book move carries the value
// of the position it leads to, each known position the value of its best move, every stored
// move is legal, and the book survives an encode/decode round trip byte for byte.
func checkInvariants(t *testing.T, bk *Book) {
	t.Helper()
	for k, n := range bk.nodes {
		legal := legalSquares(k.P, k.O)
		if len(legal) == 0 {
			if !n.known || n.depth != DepthExact || n.score != toValue(float64(board.DiscDiff(k.P, k.O))) {
				t.Fatalf("finished position %v: known %v depth %d score %d", k, n.known, n.depth, n.score)
			}
			continue
		}
		if n.known != (len(n.moves) > 0) {
			t.Fatalf("position %v: known %v with %d moves", k, n.known, len(n.moves))
		}
		var best *move
		for i := range n.moves {
			mv := &n.moves[i]
			cp, co := child(k.P, k.O, mv.sq)
			ck, _ := keyOf(cp, co)
			c := bk.nodes[ck]
			if mv.inBook != (c != nil) {
				t.Fatalf("position %v move %d: inBook %v, child in book %v", k, mv.sq, mv.inBook, c != nil)
			}
			if c != nil && (mv.value != -c.score || mv.depth != c.depth) {
				t.Fatalf("position %v move %d: value %d depth %d, child has %d depth %d", k, mv.sq, mv.value, mv.depth, c.score, c.depth)
			}
			if best == nil || mv.value > best.value {
				best = mv
			}
		}
		if best != nil && n.score != best.value {
			t.Fatalf("position %v: score %d, best move value %d", k, n.score, best.value)
		}
	}
	data := bk.Encode()
	again, err := Decode(data)
	if err != nil {
		t.Fatalf("decode of an encoded book: %v", err)
	}
	if !bytes.Equal(again.Encode(), data) {
		t.Fatal("encode(decode(encode(book))) differs from encode(book)")
	}
}

// buildFull builds the book of every line of n moves, leaves searched at depth d.
func buildFull(t *testing.T, n, d int) (*Book, *fakeSearcher) {
	t.Helper()
	bk := New()
	for _, line := range allLines(n) {
		if _, err := bk.AddGame(Game{Start: board.Start(), Moves: line}, n); err != nil {
			t.Fatal(err)
		}
	}
	fs := &fakeSearcher{}
	if _, err := bk.Evaluate(context.Background(), fs, Options{Depth: d}); err != nil {
		t.Fatal(err)
	}
	return bk, fs
}

// With every position of the first n moves in the book and the moves leaving it searched d
// deep, negamax propagation must give each position exactly the value of a direct negamax
// search reaching the same depth, and each move the value of its child.
func TestFullTreeMatchesNegamax(t *testing.T) {
	const n, d = 3, 2
	bk, fs := buildFull(t, n, d)
	checkInvariants(t, bk)
	// 1 + 1 + 3 + 14 positions up to ply 3 under symmetry, and one leaf search per distinct
	// position at ply 4 reached from them.
	if got := bk.Len(); got != 19 {
		t.Errorf("positions %d, want 19", got)
	}
	t.Logf("positions %d, leaves searched %d", bk.Len(), fs.calls)
	checked := 0
	for ply := 0; ply <= n; ply++ {
		for _, line := range allLines(ply) {
			b := board.Start()
			for _, m := range line {
				b.Make(m)
			}
			e, ok := bk.Lookup(b)
			if !ok || !e.Known {
				t.Fatalf("%s: not in the book", board.Transcript(line))
			}
			want := toValue(negamax(b.P, b.O, n-ply+1+d)).discs()
			if e.Score != want {
				t.Errorf("%s: book %.2f, negamax %.2f", board.Transcript(line), e.Score, want)
			}
			if len(e.Moves) != board.Count(b.LegalMoves()) {
				t.Errorf("%s: %d move values, %d legal moves", board.Transcript(line), len(e.Moves), board.Count(b.LegalMoves()))
			}
			for _, mv := range e.Moves {
				nb := b
				if !b.IsLegal(mv.Move) {
					t.Fatalf("%s: book move %s is illegal", board.Transcript(line), mv.Move)
				}
				nb.Make(mv.Move)
				if want := -toValue(negamax(nb.P, nb.O, n-ply+d)).discs(); mv.Score != want {
					t.Errorf("%s %s: book %.2f, negamax %.2f", board.Transcript(line), mv.Move, mv.Score, want)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("nothing checked")
	}
}

func TestLookupUnderSymmetry(t *testing.T) {
	bk, _ := buildFull(t, 2, 1)
	_, b, err := board.ParseTranscript("f5d6")
	if err != nil {
		t.Fatal(err)
	}
	base, ok := bk.Lookup(b)
	if !ok {
		t.Fatal("f5d6 not in the book")
	}
	for k := 0; k < 8; k++ {
		tb := b.Transformed(k)
		e, ok := bk.Lookup(tb)
		if !ok || e.Score != base.Score || len(e.Moves) != len(base.Moves) {
			t.Fatalf("symmetry %d: %v %+v", k, ok, e)
		}
		want := map[board.Square]float64{}
		for _, m := range base.Moves {
			want[board.TransformSquare(m.Move, k)] = m.Score
		}
		for _, m := range e.Moves {
			if !tb.IsLegal(m.Move) {
				t.Fatalf("symmetry %d: move %s illegal", k, m.Move)
			}
			if v, ok := want[m.Move]; !ok || v != m.Score {
				t.Errorf("symmetry %d: move %s value %.2f, want %.2f (%v)", k, m.Move, m.Score, v, ok)
			}
		}
	}
}

func TestChoose(t *testing.T) {
	bk, _ := buildFull(t, 2, 2)
	b := board.Start()
	e, _ := bk.Lookup(b)
	sq, score, ok := bk.Choose(b, 0, nil)
	if !ok || sq != e.Moves[0].Move || score != e.Moves[0].Score {
		t.Fatalf("Choose without randomness: %s %.2f %v, want %s", sq, score, ok, e.Moves[0].Move)
	}
	// The four first moves are symmetric: with a margin and randomness all four must come up,
	// and nothing else.
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[board.Square]int{}
	for i := 0; i < 400; i++ {
		sq, _, ok := bk.Choose(b, 0.5, rng)
		if !ok || !b.IsLegal(sq) {
			t.Fatalf("Choose: %s %v", sq, ok)
		}
		seen[sq]++
	}
	if len(seen) != 4 {
		t.Errorf("random choice among 4 equal moves saw %v", seen)
	}
	// A margin never admits a move worse than the best by more than the margin.
	_, b2, _ := board.ParseTranscript("f5d6")
	e2, _ := bk.Lookup(b2)
	for i := 0; i < 200; i++ {
		_, s, ok := bk.Choose(b2, 1, rng)
		if !ok || s < e2.Moves[0].Score-1 {
			t.Fatalf("Choose with margin 1 gave %.2f, best %.2f", s, e2.Moves[0].Score)
		}
	}
	_, far, _ := board.ParseTranscript("f5d6c3d3c4f4")
	if _, _, ok := bk.Choose(far, 1, rng); ok {
		t.Error("Choose found a book move outside the book")
	}
	var none *Book
	if _, _, ok := none.Choose(b, 1, rng); ok {
		t.Error("a nil book chose a move")
	}
}

func TestAddGameIllegal(t *testing.T) {
	bk, _ := buildFull(t, 1, 1)
	before := bk.Encode()
	moves := []board.Square{board.F5, board.A1}
	if _, err := bk.AddGame(Game{Start: board.Start(), Moves: moves}, 10); err == nil || !strings.Contains(err.Error(), "not legal") {
		t.Fatalf("illegal game: %v", err)
	}
	if !bytes.Equal(bk.Encode(), before) {
		t.Error("an illegal game changed the book")
	}
}

func TestGameStatistics(t *testing.T) {
	bk := New()
	moves, _, _ := board.ParseTranscript("f5d6c3")
	for _, r := range []int{10, 10, -4, 0} {
		if _, err := bk.AddGame(Game{Start: board.Start(), Moves: moves, Result: r, HasResult: true}, 3); err != nil {
			t.Fatal(err)
		}
	}
	e, _ := bk.Lookup(board.Start()) // black to move
	if e.Wins != 2 || e.Draws != 1 || e.Losses != 1 {
		t.Errorf("start: %d/%d/%d, want 2/1/1", e.Wins, e.Draws, e.Losses)
	}
	_, b, _ := board.ParseTranscript("f5") // white to move
	e, _ = bk.Lookup(b)
	if e.Wins != 1 || e.Draws != 1 || e.Losses != 2 {
		t.Errorf("f5: %d/%d/%d, want 1/1/2", e.Wins, e.Draws, e.Losses)
	}
}

// An interrupted Evaluate keeps a consistent book, and finishing it later gives the same book
// as an uninterrupted run.
func TestEvaluateCancelAndResume(t *testing.T) {
	full, fs := buildFull(t, 3, 1)
	bk := New()
	for _, line := range allLines(3) {
		bk.AddGame(Game{Start: board.Start(), Moves: line}, 3)
	}
	ctx, cancel := context.WithCancel(context.Background())
	stopAt := fs.calls / 2
	n, err := bk.Evaluate(ctx, &fakeSearcher{}, Options{Depth: 1, Progress: func(done, total int) {
		if done == stopAt {
			cancel()
		}
	}})
	// A search that finished before the cancellation still counts: one more at most.
	if !errors.Is(err, context.Canceled) || n < stopAt || n > stopAt+1 {
		t.Fatalf("cancelled Evaluate: %d leaves, %v; want %d or one more, and context.Canceled", n, err, stopAt)
	}
	checkInvariants(t, bk)
	n2, err := bk.Evaluate(context.Background(), &fakeSearcher{}, Options{Depth: 1})
	if err != nil || n+n2 != fs.calls {
		t.Fatalf("resumed Evaluate: %d + %d leaves (%v), want %d", n, n2, err, fs.calls)
	}
	if !bytes.Equal(bk.Encode(), full.Encode()) {
		t.Error("the resumed book differs from the one built in one go")
	}
}

func TestDeviateExtendLearn(t *testing.T) {
	bk, _ := buildFull(t, 1, 2)
	fs := &fakeSearcher{}
	before := bk.Len()
	added, searched, err := bk.Extend(context.Background(), fs, Options{Depth: 2}, 6)
	if err != nil || added == 0 || searched != fs.calls {
		t.Fatalf("Extend: %d added, %d searched (%d calls), %v", added, searched, fs.calls, err)
	}
	if bk.Len() != before+added {
		t.Errorf("Extend: %d positions, want %d", bk.Len(), before+added)
	}
	checkInvariants(t, bk)
	before = bk.Len()
	added, _, err = bk.Deviate(context.Background(), fs, Options{Depth: 2}, 2, 6, 3)
	if err != nil || added == 0 || added > 3 || bk.Len() != before+added {
		t.Fatalf("Deviate: %d added (limit 3), %d -> %d positions, %v", added, before, bk.Len(), err)
	}
	checkInvariants(t, bk)
	// After deviation, no move within the margin is left unexplored... only when no limit.
	added, _, _ = bk.Deviate(context.Background(), fs, Options{Depth: 2}, 2, 3, 0)
	for k, n := range bk.nodes {
		if k.ply() >= 3 || !n.known {
			continue
		}
		for _, mv := range n.moves {
			if !mv.inBook && mv.depth != DepthExact && n.score-mv.value <= 200 {
				t.Errorf("after Deviate: a move %.2f below the best is still unexplored", (n.score - mv.value).discs())
			}
		}
	}
	t.Logf("last Deviate added %d", added)

	moves, _, _ := board.ParseTranscript("f5f6e6f4e3c5c4")
	before = bk.Len()
	added, _, err = bk.Learn(context.Background(), fs, Game{Start: board.Start(), Moves: moves, Result: 6, HasResult: true}, 60, Options{Depth: 2})
	if err != nil || bk.Len() != before+added {
		t.Fatalf("Learn: %d added, %v", added, err)
	}
	b := board.Start()
	for _, m := range moves {
		b.Make(m)
		if e, ok := bk.Lookup(b); !ok || !e.Known {
			t.Fatalf("after Learn: position after %s unknown", m)
		}
	}
	checkInvariants(t, bk)
}

func TestPassPositions(t *testing.T) {
	// A whole real game with a pass: the position where a side must pass is a book position
	// whose one move is the pass.
	moves, _, err := board.ParseTranscript("f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7paa7a8a1pag1g2h2h1")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []Game{{Start: board.Start(), Moves: moves}} {
		pass := -1
		for i, m := range g.Moves {
			if m == board.NoSquare {
				pass = i
				break
			}
		}
		if pass < 0 {
			continue
		}
		bk := New()
		if _, err := bk.AddGame(g, 60); err != nil {
			t.Fatal(err)
		}
		if _, err := bk.Evaluate(context.Background(), &fakeSearcher{}, Options{Depth: 1}); err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, bk)
		b := g.Start
		for _, m := range g.Moves[:pass] {
			b.Play(m)
		}
		e, ok := bk.Lookup(b)
		if !ok || len(e.Moves) != 1 || e.Moves[0].Move != board.NoSquare || !e.Moves[0].InBook {
			t.Fatalf("pass position: %v %+v", ok, e)
		}
		if _, _, ok := bk.Choose(b, 0, nil); ok {
			t.Error("Choose offered a move where the side to move must pass")
		}
		return
	}
	t.Fatal("no game with a pass in the fixture")
}

func TestSaveLoadAndCorruption(t *testing.T) {
	bk, _ := buildFull(t, 2, 1)
	dir := t.TempDir()
	path := filepath.Join(dir, "b.book")
	if err := bk.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	data := bk.Encode()
	if !bytes.Equal(got.Encode(), data) {
		t.Fatal("loaded book differs")
	}
	// Every truncation and every single-byte change is caught.
	for n := 0; n < len(data); n++ {
		if _, err := Decode(data[:n]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d bytes: %v", n, err)
		}
	}
	if _, err := Decode(append(append([]byte(nil), data...), 0)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("one byte appended: %v", err)
	}
	for i := range data {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0x10
		if _, err := Decode(bad); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("byte %d changed: %v", i, err)
		}
	}
	os.WriteFile(path, data[:len(data)/2], 0o644)
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("truncated file: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.book")); err == nil {
		t.Error("a missing file loaded")
	}
}

// bookDirFiles lists the files of dir but for the lock files Save leaves.
func bookDirFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".lock") {
			names = append(names, e.Name())
		}
	}
	return names
}

// failingWriter passes n bytes through, then fails: a disk that fills up or a write cut short.
type failingWriter struct {
	w interface{ Write([]byte) (int, error) }
	n int
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k, _ := f.w.Write(p[:f.n])
		f.n = 0
		return k, errors.New("simulated write failure")
	}
	f.n -= len(p)
	return f.w.Write(p)
}

func TestInterruptedSaveKeepsPreviousBook(t *testing.T) {
	small, _ := buildFull(t, 1, 1)
	big, _ := buildFull(t, 3, 1)
	dir := t.TempDir()
	path := filepath.Join(dir, "b.book")
	if err := small.Save(path); err != nil {
		t.Fatal(err)
	}
	data := big.Encode()
	err := writeAtomic(path, data, func(w io.Writer) io.Writer { return &failingWriter{w: w, n: len(data) / 2} })
	if err == nil || !strings.Contains(err.Error(), "untouched") {
		t.Fatalf("failed write: %v", err)
	}
	got, err := Load(path)
	if err != nil || !bytes.Equal(got.Encode(), small.Encode()) {
		t.Fatalf("after a failed write the previous book is gone: %v", err)
	}
	if entries := bookDirFiles(t, dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
}

func TestEvaluateWithHelpers(t *testing.T) {
	one, _ := buildFull(t, 3, 1)
	bk := New()
	for _, line := range allLines(3) {
		bk.AddGame(Game{Start: board.Start(), Moves: line}, 3)
	}
	fs := []*fakeSearcher{{}, {}, {}, {}}
	n, err := bk.Evaluate(context.Background(), fs[0], Options{Depth: 1, Helpers: []Searcher{fs[1], fs[2], fs[3]}})
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, f := range fs {
		calls += f.calls
	}
	if calls != n {
		t.Errorf("%d leaves, %d searches", n, calls)
	}
	// The fake searcher keeps no state between searches: the book must be the same.
	if !bytes.Equal(bk.Encode(), one.Encode()) {
		t.Error("the book built with helpers differs")
	}
}

func TestAddGamesMinGames(t *testing.T) {
	var games []Game
	for _, tr := range []string{"f5d6c3", "f5d6c5", "f5f6e6"} {
		moves, _, _ := board.ParseTranscript(tr)
		games = append(games, Game{Start: board.Start(), Moves: moves, Result: 2, HasResult: true})
	}
	bk := New()
	added, err := bk.AddGames(games, 10, 2)
	if err != nil || added != 3 || bk.Len() != 3 {
		t.Fatalf("added %d, %d positions, %v; want start, f5 and f5d6", added, bk.Len(), err)
	}
	bk.Evaluate(context.Background(), &fakeSearcher{}, Options{Depth: 1})
	checkInvariants(t, bk)
	_, b, _ := board.ParseTranscript("f5")
	e, _ := bk.Lookup(b)
	if e.Wins+e.Draws+e.Losses != 3 {
		t.Errorf("f5: %d games, want 3", e.Wins+e.Draws+e.Losses)
	}
	for _, m := range e.Moves {
		if m.InBook != (m.Move.String() == "d6") {
			t.Errorf("f5 %s: in book %v", m.Move, m.InBook)
		}
	}
	games = append(games, Game{Start: board.Start(), Moves: []board.Square{board.A1}})
	if _, err := New().AddGames(games, 10, 1); err == nil || !strings.Contains(err.Error(), "game 4") {
		t.Errorf("illegal game: %v", err)
	}
}

// Between AddGame and Evaluate, the moves with no value yet are neither shown nor saved.
func TestUnsearchedMovesStayOut(t *testing.T) {
	bk := New()
	moves, _, _ := board.ParseTranscript("f5d6c3")
	bk.AddGame(Game{Start: board.Start(), Moves: moves}, 3)
	if e, ok := bk.Lookup(board.Start()); !ok || len(e.Moves) != 0 || e.Known {
		t.Errorf("start before any search: %v %+v", ok, e)
	}
	again, err := Decode(bk.Encode())
	if err != nil || again.Len() != bk.Len() || again.Stats().Moves != 0 {
		t.Fatalf("saving an unsearched book: %v", err)
	}
	again.Evaluate(context.Background(), &fakeSearcher{}, Options{Depth: 1})
	checkInvariants(t, again)
}

// The embedded book decodes, is consistent, and (when not empty) knows the start position.
func TestDefaultBook(t *testing.T) {
	bk, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, bk)
	if bk.Len() == 0 {
		t.Log("the embedded book is empty")
		return
	}
	if e, ok := bk.Lookup(board.Start()); !ok || !e.Known || len(e.Moves) != 4 {
		t.Errorf("start position in the default book: %v %+v", ok, e)
	}
	if changed := bk.Fix(); changed != 0 {
		t.Errorf("Fix changed %d values of the default book: it was saved unpropagated", changed)
	}
	for _, path := range []string{"", "default"} {
		if b2, err := Open(path); err != nil || b2.Len() != bk.Len() {
			t.Errorf("Open(%q): %v", path, err)
		}
	}
	if b2, err := Open("none"); err != nil || b2 != nil {
		t.Errorf("Open(none): %v", err)
	}
}

// ExtendRounds is Extend repeated, stopping when a round adds nothing; LearnGames is Learn over
// games, naming a game that fails and passing cancellation through.
func TestExtendRoundsLearnGames(t *testing.T) {
	a, _ := buildFull(t, 1, 2)
	b, _ := buildFull(t, 1, 2)
	fs := &fakeSearcher{}
	added, searched, err := a.ExtendRounds(context.Background(), fs, Options{Depth: 2}, 6, 2)
	if err != nil || searched != fs.calls {
		t.Fatalf("ExtendRounds: %d added, %d searched (%d calls), %v", added, searched, fs.calls, err)
	}
	want := 0
	for r := 0; r < 2; r++ {
		n, _, _ := b.Extend(context.Background(), &fakeSearcher{}, Options{Depth: 2}, 6)
		want += n
	}
	if added != want || a.Len() != b.Len() {
		t.Errorf("ExtendRounds added %d (%d positions), two Extends %d (%d)", added, a.Len(), want, b.Len())
	}
	if added, _, err := a.ExtendRounds(context.Background(), fs, Options{Depth: 2}, 1, 5); err != nil || added != 0 {
		t.Errorf("nothing to extend: %d added, %v", added, err)
	}

	var games []Game
	for _, line := range []string{"f5f6e6f4e3c5c4", "f5d6c3d3c4f4", "f5d6c5f4e3f6d3"} {
		moves, _, _ := board.ParseTranscript(line)
		games = append(games, Game{Start: board.Start(), Moves: moves})
	}
	bk := New()
	added, _, err = bk.LearnGames(context.Background(), fs, games, 60, Options{Depth: 1})
	if err != nil || added != bk.Len() || added < 10 {
		t.Fatalf("LearnGames: %d added, %d positions, %v", added, bk.Len(), err)
	}
	checkInvariants(t, bk)
	bad := Game{Start: board.Start(), Moves: []board.Square{board.F5, board.A1}}
	if _, _, err := New().LearnGames(context.Background(), fs, []Game{games[0], bad}, 60, Options{Depth: 1}); err == nil || !strings.Contains(err.Error(), "game 2") {
		t.Errorf("illegal second game: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := New().LearnGames(ctx, fs, games, 60, Options{Depth: 1}); !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), "game") {
		t.Errorf("cancelled: %v", err)
	}
}

func TestLoadOrNew(t *testing.T) {
	dir := t.TempDir()
	if bk, err := LoadOrNew(filepath.Join(dir, "absent.book")); err != nil || bk == nil || bk.Len() != 0 {
		t.Fatalf("absent file: %v", err)
	}
	bad := filepath.Join(dir, "bad.book")
	os.WriteFile(bad, []byte("junk"), 0o644)
	if _, err := LoadOrNew(bad); !errors.Is(err, ErrCorrupt) {
		t.Errorf("corrupt file: %v", err)
	}
}

// A game whose start position the book file cannot hold (fewer than 4 discs, or none) is
// refused by AddGame and Learn (NBoard's learn) and leaves the book unchanged; the book saved
// afterwards loads.
func TestImpossibleStartRefused(t *testing.T) {
	for _, c := range []struct {
		name  string
		start board.Board
		moves []board.Square
	}{
		{"two discs", board.FromColors(board.D5.Bit(), board.D4.Bit(), true), []board.Square{board.SquareAt(3, 2)}},
		{"empty board", board.FromColors(0, 0, true), nil},
	} {
		bk, _ := buildFull(t, 1, 1)
		before := bk.Encode()
		g := Game{Start: c.start, Moves: c.moves, Result: 2, HasResult: true}
		if _, err := bk.AddGame(g, 60); err == nil || !strings.Contains(err.Error(), "fewer than 4 discs") {
			t.Errorf("%s: AddGame: %v, want a refusal saying why", c.name, err)
		}
		if _, _, err := bk.Learn(context.Background(), &fakeSearcher{}, g, 60, Options{Depth: 1}); err == nil {
			t.Errorf("%s: Learn accepted the game", c.name)
		}
		if !bytes.Equal(bk.Encode(), before) {
			t.Errorf("%s: a refused game changed the book", c.name)
		}
		path := filepath.Join(t.TempDir(), "b.book")
		if err := bk.Save(path); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path); err != nil {
			t.Errorf("%s: the saved book does not load: %v", c.name, err)
		}
	}
}

// The writer refuses what the reader refuses: a book holding a position the file format
// cannot hold is not saved, and the previous file stays.
func TestSaveRefusesWhatLoadRefuses(t *testing.T) {
	bk, _ := buildFull(t, 1, 1)
	path := filepath.Join(t.TempDir(), "b.book")
	if err := bk.Save(path); err != nil {
		t.Fatal(err)
	}
	good, _ := os.ReadFile(path)
	bk.nodes[Key{P: board.D5.Bit(), O: board.D4.Bit()}] = &node{}
	if err := bk.Save(path); err == nil || !strings.Contains(err.Error(), "fewer than 4 discs") {
		t.Errorf("Save of a book with a 2-disc position: %v, want a refusal", err)
	}
	if now, _ := os.ReadFile(path); !bytes.Equal(now, good) {
		t.Error("the refused save changed the file")
	}
	// A file an earlier version wrote with such a position: Load refuses it, LoadRepair
	// (book fix) leaves the position out and keeps the others.
	os.WriteFile(path, bk.Encode(), 0o644)
	if _, err := Load(path); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("Load of a file with a 2-disc position: %v", err)
	}
	fixed, dropped, err := LoadRepair(path)
	if err != nil || dropped != 1 || fixed.Len() != bk.Len()-1 {
		t.Fatalf("LoadRepair: %v, %d dropped, %d of %d positions", err, dropped, fixed.Len(), bk.Len())
	}
	if err := fixed.Save(path); err != nil {
		t.Fatal(err)
	}
}

// ValidGames keeps the games the book takes and names the others with the reason.
func TestValidGames(t *testing.T) {
	good := Game{Name: "a.ggf: game 1", Start: board.Start(), Moves: []board.Square{board.F5}}
	bad := Game{Name: "a.ggf: game 2", Start: board.FromColors(board.D5.Bit(), board.D4.Bit(), true)}
	illegal := Game{Start: board.Start(), Moves: []board.Square{board.A1}}
	valid, skipped := ValidGames([]Game{good, bad, illegal})
	if len(valid) != 1 || valid[0].Name != good.Name || len(skipped) != 2 ||
		!strings.Contains(skipped[0].Error(), "a.ggf: game 2: the start position has 2 discs, fewer than 4") ||
		!strings.Contains(skipped[1].Error(), "game 3: move 1 (a1) is not legal") {
		t.Errorf("ValidGames: %d valid, skipped %v", len(valid), skipped)
	}
}
