package search

import (
	"bytes"
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
)

// The genetic algorithm finds the minimum of a shifted sphere and of a function with its
// minimum on a bound, runs the same from the same seed, and never leaves the bounds.
func TestMinimize(t *testing.T) {
	target := []float64{0.7, 1.9, -0.4, 1.1, 2.5, 0.2, 1.3}
	lo := []float64{-1, -1, -1, -1, -1, -1, -1}
	hi := []float64{3, 3, 3, 3, 3, 3, 3}
	calls := 0
	sphere := func(x []float64) float64 {
		calls++
		s := 0.0
		for i := range x {
			if x[i] < lo[i] || x[i] > hi[i] {
				t.Fatalf("x[%d] = %v outside [%v, %v]", i, x[i], lo[i], hi[i])
			}
			s += (x[i] - target[i]) * (x[i] - target[i])
		}
		return s
	}
	o := GAOptions{Population: 24, Generations: 150, Seed: 3}
	var last GAStep
	steps := 0
	x, v := Minimize(sphere, lo, hi, o, func(s GAStep) {
		if s.Value > last.Value && steps > 0 {
			t.Fatalf("generation %d: best %v worse than %v", s.Generation, s.Value, last.Value)
		}
		last = s
		steps++
	})
	if steps != o.Generations+1 || last.Evaluations != calls || calls != 24+150*12 {
		t.Errorf("%d reports, %d evaluations reported, %d calls", steps, last.Evaluations, calls)
	}
	if v > 0.01 {
		t.Errorf("sphere: best %v at %v, want near 0 at %v", v, x, target)
	}
	for i := range x {
		if math.Abs(x[i]-target[i]) > 0.1 {
			t.Errorf("sphere: x[%d] = %v, want %v", i, x[i], target[i])
		}
	}
	x2, v2 := Minimize(sphere, lo, hi, o, nil)
	if v2 != v || !equalFloats(x, x2) {
		t.Errorf("same seed, different result: %v %v and %v %v", x, v, x2, v2)
	}
	// The minimum on a bound: f falls towards hi in every coordinate.
	edge := func(x []float64) float64 {
		s := 0.0
		for _, xi := range x {
			s -= xi
		}
		return s
	}
	x, v = Minimize(edge, lo, hi, GAOptions{Population: 16, Generations: 80, Seed: 4}, nil)
	if v > -7*3+0.2 {
		t.Errorf("edge: best %v at %v, want near %v", v, x, -21.0)
	}
	// A start individual that is already the best stays the best.
	x, _ = Minimize(sphere, lo, hi, GAOptions{Population: 8, Generations: 3, Seed: 5, Start: [][]float64{target}}, nil)
	if !equalFloats(x, target) {
		t.Errorf("start at the minimum: ended at %v", x)
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// randomGames plays n random games to the end (move lists without passes).
func randomGames(seed uint64, n int) [][]board.Square {
	rng := rand.New(rand.NewPCG(seed, 9))
	var games [][]board.Square
	for len(games) < n {
		b := board.Start()
		var moves []board.Square
		for !b.GameOver() {
			m := b.LegalMoves()
			if m == 0 {
				b.Pass()
				continue
			}
			for k := rng.IntN(board.Count(m)); k > 0; k-- {
				m &= m - 1
			}
			sq := board.FirstSquare(m)
			b.Make(sq)
			moves = append(moves, sq)
		}
		games = append(games, moves)
	}
	return games
}

// Positions come one a game, within the empties asked for, with a move to play, the same
// from the same seed; references of them round-trip through the text form, which refuses
// malformed lines.
func TestDevPositionsAndRefs(t *testing.T) {
	games := randomGames(1, 30)
	games = append(games, []board.Square{board.SquareAt(0, 0)}) // illegal: skipped
	ps := DevPositions(games, 20, 30, 40, 7)
	if len(ps) != 20 {
		t.Fatalf("%d positions, want 20", len(ps))
	}
	seen := map[board.Board]bool{}
	for _, b := range ps {
		if e := b.NumEmpties(); e < 30 || e > 40 || b.LegalMoves() == 0 || seen[b] {
			t.Fatalf("position %s: %d empties", b.OBF(), e)
		}
		seen[b] = true
	}
	if again := DevPositions(games, 20, 30, 40, 7); again[5] != ps[5] {
		t.Error("same seed, different positions")
	}
	if other := DevPositions(games, 20, 30, 40, 8); other[0] == ps[0] && other[1] == ps[1] {
		t.Error("another seed, the same positions")
	}

	refs, err := DevReferences(context.Background(), Config{TTMiB: 1, SolverMiB: 1}, ps[:4], 3, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range refs {
		if len(r.Moves) != board.Count(r.Board.LegalMoves()) || r.Depth != 3 {
			t.Fatalf("reference %+v", r)
		}
		best := r.Moves[0]
		if r.Loss(best.Move) != 0 || r.Loss(board.NoSquare) != 0 {
			t.Errorf("loss of the best move %v: %v", best.Move, r.Loss(best.Move))
		}
		for _, m := range r.Moves {
			if l := r.Loss(m.Move); l < 0 || math.Abs(l-(best.Value-m.Value)) > 1e-9 {
				t.Errorf("loss of %v: %v", m.Move, l)
			}
		}
	}
	var buf bytes.Buffer
	if err := WriteDevRefs(&buf, refs); err != nil {
		t.Fatal(err)
	}
	back, err := ReadDevRefs(bytes.NewReader(buf.Bytes()))
	if err != nil || len(back) != len(refs) {
		t.Fatalf("read back: %d refs, %v\n%s", len(back), err, buf.String())
	}
	for i := range refs {
		if back[i].Board != refs[i].Board || back[i].Depth != 3 || len(back[i].Moves) != len(refs[i].Moves) {
			t.Fatalf("ref %d: %+v, want %+v", i, back[i], refs[i])
		}
		for k, m := range refs[i].Moves {
			if back[i].Moves[k].Move != m.Move || math.Abs(back[i].Moves[k].Value-m.Value) > 0.0005 {
				t.Fatalf("ref %d move %d: %+v, want %+v", i, k, back[i].Moves[k], m)
			}
		}
	}
	line := strings.SplitN(buf.String(), "\n", 3)[1]
	obf := line[:66]
	for _, bad := range []string{
		obf,                                // no moves or depth
		obf + "; depth 3",                  // no moves
		obf + " x; depth 3",                // junk after the side
		obf + "; depth 0" + line[66+9:],    // bad depth
		line + "; a1 +1.0",                 // an illegal move
		line + line[66+9:],                 // moves twice
		strings.Replace(line, ".", "x", 1), // bad value
		strings.Replace(line, "; depth 3", "", 1),
		line[:strings.LastIndex(line, ";")], // a legal move missing
		strings.Replace(line, " +", " +99", 1),
	} {
		if _, err := ReadDevRefs(strings.NewReader(bad + "\n")); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func FuzzReadDevRefs(f *testing.F) {
	f.Add("---------------------------OX------XO--------------------------- X; depth 4; d3 +0.5; c4 +0.5; f5 +0.5; e6 +0.5\n")
	f.Add("% comment\n\n")
	f.Fuzz(func(t *testing.T, s string) {
		refs, err := ReadDevRefs(strings.NewReader(s))
		if err != nil {
			return
		}
		for _, r := range refs {
			if len(r.Moves) != board.Count(r.Board.LegalMoves()) || r.Depth < 1 {
				t.Fatalf("accepted %q as %+v", s, r)
			}
		}
	})
}

// The accuracy of a configuration is a function of the references, the limits and the
// number of workers; the fit on a few positions returns a table within the bounds that is no
// worse on them than one ply a child (which it starts from).
func TestDevAccuracyAndFit(t *testing.T) {
	ps := DevPositions(randomGames(2, 40), 8, 28, 36, 1)
	refs, err := DevReferences(context.Background(), Config{TTMiB: 1, SolverMiB: 1}, ps, 6, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{TTMiB: 1, SolverMiB: 1}
	lim := Limits{Nodes: 3000, Selectivity: 2}
	a := DevAccuracy(cfg, refs, lim, 2)
	b := DevAccuracy(cfg, refs, lim, 2)
	if a.Loss != b.Loss || a.Nodes != b.Nodes || a.Positions != 8 || a.Nodes < 3000 || a.Depth < 1 {
		t.Fatalf("two runs: %+v and %+v", a, b)
	}
	m, se := MeanSE(a.Losses)
	if m != a.Loss || se != a.LossSE || a.LossSE < 0 {
		t.Errorf("mean %v se %v, reported %v %v", m, se, a.Loss, a.LossSE)
	}
	if m, se := MeanSE([]float64{1, 2, 3, 4}); m != 2.5 || math.Abs(se-math.Sqrt(5.0/3/4)) > 1e-12 {
		t.Errorf("MeanSE: %v %v", m, se)
	}
	dev := cfg
	dev.DepthByDeviation, dev.DevCost = true, FlatDevCost(1)
	if d := DevAccuracy(dev, refs, lim, 2); d.Loss != a.Loss || d.Nodes != a.Nodes {
		t.Errorf("one ply a child: %+v, plain %+v", d, a)
	}
	lim2 := Limits{Nodes: 6000, Selectivity: 2}
	a2 := DevAccuracy(cfg, refs, lim2, 2)
	c, loss := FitDevCost(cfg, refs, []Limits{lim, lim2}, 2, 0.5, 2, nil, GAOptions{Population: 4, Generations: 1, Seed: 1}, nil)
	if err := c.valid(); err != nil || loss > (a.Loss+a2.Loss)/2 {
		t.Errorf("fit: %v (%v), loss %v, plain %v", c, err, loss, a.Loss)
	}
	for _, v := range c.Cost {
		if v < 0.5 || v > 2 {
			t.Errorf("fit: %v outside the bounds", c)
		}
	}
}
