package treesim

import (
	"bytes"
	"context"
	"math/bits"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/search"
)

func othelloSetupT(t testing.TB) *othelloSetup {
	t.Helper()
	s, err := newOthelloSetup(Config{Depth: 4, Orders: []Order{Method}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func positions(t testing.TB, file string) []board.Board {
	t.Helper()
	ps, err := LoadPositions("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func othTree(t testing.TB, o *othelloSetup, b board.Board, depth int) *OthelloTree {
	t.Helper()
	tr, err := NewOthelloTree(b, depth, o.ev, o.pred)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// othMinimax is the plain negamax value of the tree, every node visited, its moves taken
// straight from the board in square order: a pass is a ply, a finished game is worth its disc
// difference, a leaf its evaluation (an endgame tree's: its game's final score).
func othMinimax(tr *OthelloTree, b board.Board, depth int) int32 {
	p, o := b.P, b.O
	moves := board.LegalMoves(p, o)
	if moves == 0 && board.LegalMoves(o, p) == 0 {
		return int32(board.DiscDiff(p, o) * eval.Scale)
	}
	if depth == tr.Depth {
		if tr.exact {
			return othMinimax(&OthelloTree{Depth: depth + 64, ev: tr.ev, exact: true}, b, depth)
		}
		return int32(tr.ev.Eval(&b))
	}
	if moves == 0 {
		b.Pass()
		return -othMinimax(tr, b, depth+1)
	}
	best := -inf
	for m := moves; m != 0; m &= m - 1 {
		c := b
		c.Make(board.FirstSquare(m))
		best = max(best, -othMinimax(tr, c, depth+1))
	}
	return best
}

// A node's children are its legal moves, each once, or the pass, or nothing at the end.
func TestOthelloChildrenAreTheMoves(t *testing.T) {
	o := othelloSetupT(t)
	ps := append(positions(t, "midgame.txt")[:4], positions(t, "endgame.obf")...)
	// Random games from the endgame positions to their ends: positions with a pass, and
	// finished games.
	r := rand.New(rand.NewPCG(3, 4))
	passes, ends := 0, 0
	for _, b := range positions(t, "endgame.obf") {
		for range 20 {
			c := b
			for !c.GameOver() {
				m := c.LegalMoves()
				if m == 0 {
					passes++
					ps = append(ps, c)
					c.Pass()
					continue
				}
				for k := r.IntN(bits.OnesCount64(m)); k > 0; k-- {
					m &= m - 1
				}
				c.Make(board.FirstSquare(m))
			}
			ends++
			ps = append(ps, c)
		}
	}
	if passes == 0 || ends == 0 {
		t.Fatalf("the random games gave %d passes, %d ends", passes, ends)
	}
	for depth := 1; depth <= 10; depth++ {
		for _, b := range ps {
			tr := othTree(t, o, b, 10)
			var kids [maxKids]okid
			n := tr.children(othPos{b.P, b.O}, 10-depth, kids[:])
			moves := board.LegalMoves(b.P, b.O)
			want := map[othPos]bool{}
			for m := moves; m != 0; m &= m - 1 {
				c := b
				c.Make(board.FirstSquare(m))
				want[othPos{c.P, c.O}] = true
			}
			if moves == 0 && board.LegalMoves(b.O, b.P) != 0 {
				want[othPos{b.O, b.P}] = true
			}
			if n != len(want) {
				t.Fatalf("height %d: %d children, %d moves", depth, n, len(want))
			}
			for _, k := range kids[:n] {
				if !want[k.pos] {
					t.Fatalf("height %d: child %x %x is no move", depth, k.pos.p, k.pos.o)
				}
				delete(want, k.pos)
				cb := boardOf(k.pos)
				if h := tr.static(&cb); h != k.h {
					t.Errorf("child static value %d, evaluation %d", k.h, h)
				}
			}
		}
	}
}

// With one process every order searches the Othello tree as the independent sequential search
// does, node for node; at any number of processes every order finds the tree's minimax value.
func TestOthelloSimulation(t *testing.T) {
	o := othelloSetupT(t)
	type shape struct {
		file   string
		n      int
		depth  int
		procs  []int
		idStep []int
	}
	shapes := []shape{
		{"midgame.txt", 3, 4, []int{3, 64, 4096}, []int{0, 2}},
		{"endgame.obf", 2, 12, []int{16, 1024}, []int{2}},
	}
	if !testing.Short() {
		shapes = []shape{
			{"midgame.txt", 8, 5, []int{2, 16, 256, 16384}, []int{0, 1, 2}},
			{"midgame.txt", 3, 7, []int{16, 1024}, []int{2}},
			{"endgame.obf", 8, 12, []int{16, 256, 4096}, []int{1, 2}},
		}
	}
	s := NewSim()
	for _, c := range shapes {
		ps := positions(t, c.file)[:c.n]
		for i, b := range ps {
			if c.file == "endgame.obf" && !testing.Short() {
				// A smaller endgame tree as well, its leaves at the game's end or one pass short.
				c2 := b
				c2.Make(board.FirstSquare(c2.LegalMoves()))
				ps = append(ps, c2)
			}
			tr := othTree(t, o, b, c.depth)
			want := othMinimax(tr, b, 0)
			if v := tr.value(tr.root, 0); v != want {
				t.Fatalf("%s %d depth %d: oracle %d, minimax %d", c.file, i, c.depth, v, want)
			}
			for _, id := range c.idStep {
				q := NewOthelloSequential(tr, id)
				if v := q.Search(); v != want {
					t.Fatalf("%s %d depth %d idstep %d: sequential %d, minimax %d", c.file, i, c.depth, id, v, want)
				}
				for _, ord := range []Order{Method, NoDist, DepthFirst, YBWC} {
					res, err := s.RunOthello(tr, Options{ord, 1, id, false, false, false})
					if err != nil {
						t.Fatal(err)
					}
					if res.Steps != q.Nodes || res.Nodes != q.Nodes || res.Value != want {
						t.Errorf("%s %d depth %d idstep %d %v, one process: %d steps, %d nodes, value %d; sequential %d nodes, value %d",
							c.file, i, c.depth, id, ord, res.Steps, res.Nodes, res.Value, q.Nodes, want)
					}
					for _, p := range c.procs {
						res, err := s.RunOthello(tr, Options{ord, p, id, false, false, false})
						if err != nil {
							t.Fatal(err)
						}
						if res.Value != want {
							t.Errorf("%s %d depth %d idstep %d %v P=%d: value %d, minimax %d", c.file, i, c.depth, id, ord, p, res.Value, want)
						}
						if res.Nodes > p*res.Steps || res.Nodes < res.Steps || res.Steps > q.Nodes+1 && p == 1 {
							t.Errorf("%s %d %v P=%d: %d nodes in %d steps", c.file, i, ord, p, res.Nodes, res.Steps)
						}
					}
				}
			}
		}
	}
}

// Endgame trees are worth the exact game value, which the endgame solver finds on its own.
func TestOthelloEndgameTreeIsExact(t *testing.T) {
	o := othelloSetupT(t)
	ps := positions(t, "endgame.obf")
	if testing.Short() {
		ps = ps[:2]
	}
	solver := endgame.NewSolver(4)
	for i, b := range ps {
		tr := othTree(t, o, b, 12)
		v := tr.value(tr.root, 0)
		want := solver.Solve(b.P, b.O, -64, 64).Score
		if int(v) != want*eval.Scale {
			t.Errorf("position %d: tree value %d (%d discs), solver %d", i+1, v, int(v)/eval.Scale, want)
		}
	}
}

// The prediction is the evaluation's Multi-ProbCut fit of the value at a height on the static
// value, in evaluation units, with every stage and height filled.
func TestPredictionFromMPC(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	p, err := PredictionFor(ev)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := search.WriteMPC(&text, search.MPCFor(ev)); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, line := range strings.Split(text.String(), "\n") {
		f := strings.Fields(line)
		if len(f) != 7 || f[2] != "0" || strings.HasPrefix(f[0], "#") {
			continue
		}
		var v [6]float64
		for i := range v {
			if v[i], err = strconv.ParseFloat(f[i], 64); err != nil {
				t.Fatal(err)
			}
		}
		st, h, a, b, sd := int(v[0]), int(v[1]), v[3], v[4], v[5]
		m, s := p.At(st*10+5, h, 1000)
		if d := m - (a*1000 + b*eval.Scale); d > 1e-9 || d < -1e-9 || s != sd*eval.Scale {
			t.Errorf("stage %d height %d: mean %v sd %v, fit a %v b %v sigma %v", st, h, m, s, a, b, sd)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no static regressions in the fit")
	}
	for e := 0; e <= 60; e++ {
		for h := 1; h < predHeights; h++ {
			if m, s := p.At(e, h, 0); !(s > 0) || m != m {
				t.Fatalf("empties %d height %d: mean %v sd %v", e, h, m, s)
			}
		}
	}
}

func TestReadPositions(t *testing.T) {
	ps, err := ReadPositions(strings.NewReader("# comment\n\nf5d6\n" +
		"---------------------------OX------XO--------------------------- X ; start\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].NumEmpties() != 58 || ps[1].P != board.Start().P || ps[1].O != board.Start().O {
		t.Errorf("read %d positions: %+v", len(ps), ps)
	}
	for _, bad := range []string{"", "# only a comment\n", "f5z9\n", "XXXX\n"} {
		if _, err := ReadPositions(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	if _, err := LoadPositions("testdata/no-such-file"); err == nil {
		t.Error("missing file: no error")
	}
}

// Run over Othello trees gives the same report whatever the number of workers, and refuses
// what only artificial trees have.
func TestRunOthello(t *testing.T) {
	cfg := Config{Depth: 4, Procs: []int{1, 16}, Orders: []Order{Method, YBWC}, IDStep: 2,
		Positions: positions(t, "midgame.txt")[:3], Source: "midgame.txt", Workers: 1}
	a, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 3
	b, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Sequential != b.Sequential || a.Cells[0][1] != b.Cells[0][1] || a.Cells[1][1] != b.Cells[1][1] {
		t.Errorf("reports differ with the workers: %+v %+v", a.Cells, b.Cells)
	}
	if c := a.Cells[0][0]; c.Steps.Mean != a.Sequential.Mean || c.Speedup.Mean != 1 {
		t.Errorf("one process: %+v, sequential %v", c, a.Sequential)
	}
	var out bytes.Buffer
	a.Write(&out)
	for _, want := range []string{"Othello trees of 3 positions", "speedup", "ybwc", "overhead"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
	for _, bad := range []Config{
		{Depth: 13, Procs: []int{1}, Orders: []Order{Method}, Positions: cfg.Positions},
		{Depth: 4, Procs: []int{1}, Orders: []Order{Exact}, Positions: cfg.Positions},
		{Depth: 4, Procs: []int{1}, Orders: []Order{Method}, FreeLeaves: true, Positions: cfg.Positions},
	} {
		if _, err := Run(context.Background(), bad, nil); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	if _, err := os.Stat("testdata/midgame.txt"); err != nil {
		t.Fatal(err)
	}
}
