package search

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
)

// TestHandoverEqualsExact: a search as deep as the empties is an exact solve, whether its
// last empties go to the solver (at several handover points) or the midgame search plays
// them out; with random windows the fail-soft contract holds against exact minimax.
func TestHandoverEqualsExact(t *testing.T) {
	positions := append(randomPositions(21, 8, 9), randomPositions(22, 8, 10)...)
	r := rand.New(rand.NewPCG(23, 24))
	for _, hand := range []int{-1, 4, 8, 12} {
		e := NewEngine(Config{TTMiB: 1, SolverMiB: 1, EndHandover: hand})
		for i, b := range positions {
			want := exactMinimax(b.P, b.O) * e.scale
			h := b.NumEmpties()
			e.begin(context.Background(), b, Limits{}, timePlan{})
			e.nextGeneration()
			if got := e.alphaBeta(-scoreInf, scoreInf, h); got != want {
				t.Fatalf("handover %d: position %d (%s): full window %d, exact %d", hand, i, b.OBF(), got, want)
			}
			for k := 0; k < 6; k++ {
				a := want + (r.IntN(21)-10)*e.scale/2 + r.IntN(e.scale)
				w := 1 + r.IntN(8*e.scale)
				e.nextGeneration()
				v := e.alphaBeta(a, a+w, h)
				switch {
				case v <= a && want > v, v >= a+w && want < v, v > a && v < a+w && v != want:
					t.Fatalf("handover %d: position %d window (%d,%d) gave %d, exact %d", hand, i, a, a+w, v, want)
				}
			}
			if e.b != b {
				t.Fatalf("handover %d: board not restored", hand)
			}
		}
	}
}

// TestTimeControlProbableSolves: under time control with the pattern evaluation, the positions
// of the band above the exact solve get probable solves (at 40 ms a move: exact from 14
// empties, probable at 15-18), reported as solves to the end with their selectivity; when the
// last of them, the exact one, finishes, its score is the solver's.
func TestTimeControlProbableSolves(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(Config{Eval: ev, TTMiB: 1, SolverMiB: 4})
	s := endgame.NewSolver(4)
	probable := 0
	for i, b := range testdataPositions(t, "probable16.obf") {
		var infos []Info
		r := e.Search(context.Background(), b, Limits{MoveTime: 40 * time.Millisecond, Selectivity: 5}, func(in Info) { infos = append(infos, in) })
		if !b.IsLegal(r.Move) {
			t.Fatalf("position %d: illegal move %s", i, r.Move)
		}
		if r.WLD {
			t.Fatalf("position %d: a win/loss/draw proof in the probable band: %+v", i, r.Info)
		}
		for _, in := range infos {
			if in.Depth == 16 && in.Selectivity < 100 {
				probable++
				break
			}
		}
		if r.Exact {
			if want := s.Solve(b.P, b.O, -64, 64).Score; int(r.Score) != want {
				t.Fatalf("position %d: exact %v, the solver says %d", i, r.Score, want)
			}
		}
	}
	if probable == 0 {
		// Whether a solve finishes in 40 ms depends on the machine (the race detector, or a
		// loaded one, is several times slower): fail only when the probable solves would fit.
		opt := endgame.DefaultSolverOptions(4)
		opt.Eval = ev
		ps := endgame.NewSolverWith(opt)
		ps.SetSelectivity(5)
		fastest := fastestSolve(ps, testdataPositions(t, "probable16.obf"), -64, 64)
		if fastest > 10*time.Millisecond {
			t.Skipf("no probable solve finished in 40 ms a move, but on this machine the fastest alone takes %v", fastest)
		}
		t.Errorf("no probable solve finished in 8 positions at 16 empties with 40 ms each (the fastest alone takes %v)", fastest)
	}
}

// fastestSolve is the least time a solve of one of the positions takes alone, each from an
// empty table: whether a timed search can fit such solves depends on the machine.
func fastestSolve(s *endgame.Solver, positions []board.Board, alpha, beta int) time.Duration {
	fastest := time.Hour
	for _, b := range positions {
		s.ClearTable()
		start := time.Now()
		s.Solve(b.P, b.O, alpha, beta)
		fastest = min(fastest, time.Since(start))
	}
	return fastest
}

// testdataPositions reads the positions of an OBF file of the solver's testdata.
func testdataPositions(t *testing.T, name string) []board.Board {
	t.Helper()
	ps, err := endgame.ReadProblemFile(filepath.Join("..", "endgame", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return endgame.Boards(ps)
}

// TestMidgameHint: after a search, the engine's hint for the positions its iterations stored
// is a legal move there, and it knows some of the root's children.
func TestMidgameHint(t *testing.T) {
	_, b, err := board.ParseTranscript("f5d6c3d3c4f4f6f3g4g3e6b3f2e3e2c5c6e7c7h4g5d2h5d7h3b6c1f1d1g2b4e1c2a3b5")
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(Config{TTMiB: 4})
	e.Search(context.Background(), b, Limits{Depth: 8}, nil)
	known := 0
	for moves := board.LegalMoves(b.P, b.O); moves != 0; moves &= moves - 1 {
		c := b
		c.Make(board.Square(bits.TrailingZeros64(moves)))
		h := e.midgameHint(c.P, c.O)
		if h == endgame.NoMove {
			continue
		}
		known++
		if h < 0 || h > 63 || board.LegalMoves(c.P, c.O)&(1<<uint(h)) == 0 {
			t.Errorf("hint %d is not a legal move of the child", h)
		}
	}
	if known == 0 {
		t.Fatal("no child of the root has a hint")
	}
}

// TestEndWLD: with Config.EndWLD, a timed search whose selective iterations reach the end of
// the game with time left goes on to prove the game result instead of the score: its result
// is reported as win/loss/draw at 100%, it is exact minimax's, and the move played keeps it.
func TestEndWLD(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	lim := Limits{MoveTime: time.Minute, ExactEmpties: 4, Selectivity: 5}
	e := NewEngine(Config{Eval: ev, TTMiB: 1, SolverMiB: 1, EndWLD: true})
	sign := func(v int) int { return max(-1, min(1, v)) }
	for i, b := range randomPositions(32, 8, 10) {
		r := e.Search(context.Background(), b, lim, nil)
		if !b.IsLegal(r.Move) {
			t.Fatalf("position %d: illegal move %s", i, r.Move)
		}
		if !r.WLD || r.Exact || r.Selectivity != 100 || r.Depth != b.NumEmpties() {
			t.Fatalf("position %d (%s): no result proof after the midgame: %+v", i, b.OBF(), r.Info)
		}
		want := sign(exactMinimax(b.P, b.O))
		if int(r.Score) != want {
			t.Fatalf("position %d (%s): proven %v, exact minimax %d", i, b.OBF(), r.Score, want)
		}
		c := b
		c.Play(r.Move)
		if got := sign(-exactMinimax(c.P, c.O)); got != want {
			t.Fatalf("position %d (%s): %s gives %d where the position is %d", i, b.OBF(), r.Move, got, want)
		}
	}
}

// resultAlphaBeta is the game result (-1, 0, 1) of p to move against o by plain fail-hard
// alpha-beta on the final disc difference's sign, within [alpha, beta]: the test's own
// solver, slow but independent of the engine's.
func resultAlphaBeta(p, o uint64, alpha, beta int) int {
	moves := board.LegalMoves(p, o)
	if moves == 0 {
		if board.LegalMoves(o, p) == 0 {
			return max(alpha, min(beta, max(-1, min(1, board.DiscDiff(p, o)))))
		}
		return -resultAlphaBeta(o, p, -beta, -alpha)
	}
	for m := moves; m != 0; m &= m - 1 {
		sq := board.FirstSquare(m)
		f := board.Flips(p, o, sq)
		if v := -resultAlphaBeta(o&^f, p|f|sq.Bit(), -beta, -alpha); v > alpha {
			if alpha = v; alpha >= beta {
				return beta
			}
		}
	}
	return alpha
}

// TestBandWLD: with Config.BandWLD a timed search in the probable band above the exact solve
// goes from its first probable solve to result proofs: a move it reports proven exactly at
// win/loss/draw has exact minimax's result and keeps it. Without the switch the band's last
// solve is a score solve and never a result proof.
func TestBandWLD(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	// 40 ms a move: exact from 14 empties, probable solves at 15-18 (planSearch).
	lim := Limits{MoveTime: 40 * time.Millisecond, Selectivity: 5}
	for _, on := range []bool{false, true} {
		e := NewEngine(Config{Eval: ev, TTMiB: 1, SolverMiB: 1, BandWLD: on})
		proven := 0
		for i, b := range randomPositions(33, 12, 15) {
			r := e.Search(context.Background(), b, lim, nil)
			if !b.IsLegal(r.Move) {
				t.Fatalf("band wld %v, position %d: illegal move %s", on, i, r.Move)
			}
			if !r.WLD {
				continue
			}
			if !on {
				t.Fatalf("position %d (%s): a result proof without the switch: %+v", i, b.OBF(), r.Info)
			}
			if r.Selectivity != 100 {
				continue // a 95% proof: the time ran out before the exact one
			}
			proven++
			want := resultAlphaBeta(b.P, b.O, -1, 1)
			if int(r.Score) != want {
				t.Fatalf("position %d (%s): proven %v, exact minimax %d", i, b.OBF(), r.Score, want)
			}
			c := b
			c.Play(r.Move)
			if got := -resultAlphaBeta(c.P, c.O, -1, 1); got != want {
				t.Fatalf("position %d (%s): %s gives %d where the position is %d", i, b.OBF(), r.Move, got, want)
			}
		}
		if on && proven == 0 {
			t.Fatal("no band position proven at 40 ms a move")
		}
	}
}

// TestEndSolves: by default a timed search whose selective midgame iterations reach the end
// of the game with time left goes on to the exact solve, whose score is exact minimax's; with
// Config.NoEndSolves the move keeps its selective value.
func TestEndSolves(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	// The solve from 4 empties only, so that the midgame iterations play the position out.
	lim := Limits{MoveTime: time.Minute, ExactEmpties: 4, Selectivity: 5}
	for _, on := range []bool{false, true} {
		e := NewEngine(Config{Eval: ev, TTMiB: 1, SolverMiB: 1, NoEndSolves: !on})
		for i, b := range randomPositions(31, 6, 10) {
			var infos []Info
			r := e.Search(context.Background(), b, lim, func(in Info) { infos = append(infos, in) })
			if !b.IsLegal(r.Move) {
				t.Fatalf("end solves %v, position %d: illegal move %s", on, i, r.Move)
			}
			if !on {
				if r.Exact || r.Selectivity == 100 {
					t.Fatalf("position %d: exact without end solves: %+v", i, r.Info)
				}
				continue
			}
			if !r.Exact || r.Depth != b.NumEmpties() || r.Selectivity != 100 {
				t.Fatalf("position %d (%s): not solved after the midgame: %+v", i, b.OBF(), r.Info)
			}
			if want := exactMinimax(b.P, b.O); int(r.Score) != want {
				t.Fatalf("position %d (%s): end solve %v, exact minimax %d", i, b.OBF(), r.Score, want)
			}
			if len(infos) < 2 || infos[len(infos)-2].Exact {
				t.Fatalf("position %d: the exact solve did not follow a selective result: %+v", i, infos)
			}
		}
	}
}

// Leaves are solved from timedLeafSolve empties under a game clock or a long enough time per
// move, from defaultLeafSolve otherwise, and Config.LeafSolve overrides both; a search takes
// its own limits' rule.
func TestLeafSolveFor(t *testing.T) {
	clock := Limits{Remaining: 5 * time.Second}
	for _, c := range []struct {
		cfg  Config
		lim  Limits
		want int
	}{
		{Config{}, Limits{Depth: 10}, defaultLeafSolve},
		{Config{}, Limits{MoveTime: 25 * time.Millisecond}, defaultLeafSolve},
		{Config{}, Limits{MoveTime: timedLeafSolveMoveTime - 1}, defaultLeafSolve},
		{Config{}, Limits{MoveTime: timedLeafSolveMoveTime}, timedLeafSolve},
		{Config{}, Limits{MoveTime: time.Second, Depth: 12}, timedLeafSolve},
		{Config{}, clock, timedLeafSolve},
		{Config{LeafSolve: 4}, clock, 4},
		{Config{LeafSolve: -3}, clock, -1},
		{Config{LeafSolve: 7}, Limits{Depth: 10}, 7},
	} {
		if got := leafSolveFor(c.cfg, c.lim); got != c.want {
			t.Errorf("%+v under %+v: %d, want %d", c.cfg, c.lim, got, c.want)
		}
	}
	e := NewEngine(Config{TTMiB: 1})
	b := board.Start()
	e.Search(context.Background(), b, Limits{Remaining: time.Second}, nil)
	if e.leafSolve != timedLeafSolve {
		t.Errorf("after a search under a clock: leaves solved from %d empties", e.leafSolve)
	}
	e.Search(context.Background(), b, Limits{Depth: 4}, nil)
	if e.leafSolve != defaultLeafSolve {
		t.Errorf("after a depth-limited search: leaves solved from %d empties", e.leafSolve)
	}
	e.Search(context.Background(), b, Limits{MoveTime: timedLeafSolveMoveTime, Depth: 4}, nil)
	if e.leafSolve != timedLeafSolve {
		t.Errorf("after a search at %v a move: leaves solved from %d empties", timedLeafSolveMoveTime, e.leafSolve)
	}
}
