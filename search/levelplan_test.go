package search

import (
	"context"
	"testing"

	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
)

// TestDepthLevelPlan checks the endgame plan of depth levels: from levelProbableDepth up a
// level solves exactly from levelExact empties, proves win/loss/draw above it up to
// levelProofTop and finds the probable result above that up to levelWLDTop; lower levels keep
// the exact solve at twice the depth and the proof two empties above it; an explicit
// exact-solve point turns the probable band into proofs.
func TestDepthLevelPlan(t *testing.T) {
	for _, c := range []struct {
		depth, empties int
		solve, wld     bool
		wldLevel       int
	}{
		{12, 24, false, false, 0},
		{12, levelWLDTop, false, true, levelWLDSelectivity},
		{12, levelProofTop + 1, false, true, levelWLDSelectivity},
		{12, levelProofTop, false, true, 0},
		{12, levelExact + 1, false, true, 0},
		{12, levelExact, true, false, 0},
		{levelProbableDepth, 20, false, true, levelWLDSelectivity},
		{levelProbableDepth - 1, 20, false, true, 0}, // exact from 18, proofs at 19-20
		{levelProbableDepth - 1, 21, false, false, 0},
		{8, 18, false, true, 0},
		{8, 16, true, false, 0},
	} {
		p := planSearch(Limits{Depth: c.depth, Selectivity: 5}, timePlan{}, c.empties, 0)
		if p.solve != c.solve || p.wldOnly != c.wld || p.wldLevel != c.wldLevel {
			t.Errorf("depth %d at %d empties: plan %+v, want solve %v, wld %v at level %d", c.depth, c.empties, p, c.solve, c.wld, c.wldLevel)
		}
		if c.wld && p.maxDepth != min(c.depth, c.empties) {
			t.Errorf("depth %d at %d empties: midgame to depth %d before the band's solve, want %d", c.depth, c.empties, p.maxDepth, min(c.depth, c.empties))
		}
	}
	if p := planSearch(Limits{Depth: 12, ExactEmpties: 18, WLDEmpties: 22}, timePlan{}, 22, 0); !p.wldOnly || p.wldLevel != 0 {
		t.Errorf("depth 12, exact 18, proofs to 22, at 22 empties: plan %+v, want a proof", p)
	}
	if p := planSearch(Limits{Depth: 12, ExactEmpties: 18}, timePlan{}, 20, 0); p.wldOnly || p.solve {
		t.Errorf("depth 12, exact 18, at 20 empties: plan %+v, want the midgame search alone", p)
	}
}

// TestDepthLevelProbableWLD runs a level's probable band end to end: at 19 empties a depth-10
// search reports a win/loss/draw result at 73% and plays a legal move; the result agrees with
// the exact score on nearly every position (a cut at 73% can err, so a few may differ, but a
// band that ignored its search would miss half of them), and with the band's proofs instead
// (Config.WLDLevel -1) on every one.
func TestDepthLevelProbableWLD(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	probable := NewEngine(Config{TTMiB: 2, SolverMiB: 4, Eval: ev})
	proof := NewEngine(Config{TTMiB: 2, SolverMiB: 4, Eval: ev, WLDLevel: -1})
	s := endgame.NewSolver(4)
	sign := func(x int) int { return clampSign(x, true) }
	lim := Limits{Depth: levelProbableDepth, Selectivity: 5}
	n := 12
	if testing.Short() {
		n = 4
	}
	agree, decided := 0, 0
	for i, b := range randomPositions(31, n, levelProofTop+1) {
		want := s.Solve(b.P, b.O, -64, 64).Score
		r := probable.Search(context.Background(), b, lim, nil)
		if !b.IsLegal(r.Move) {
			t.Fatalf("position %d: illegal move %s", i, r.Move)
		}
		if !r.WLD || r.Exact || r.Selectivity != SelectivityPercent(levelWLDSelectivity) {
			t.Fatalf("position %d: depth %d at %d empties reports %+v, want a win/loss/draw result at %d%%", i, lim.Depth, levelProofTop+1, r.Info, SelectivityPercent(levelWLDSelectivity))
		}
		if want != 0 {
			decided++
			if sign(int(r.Score)) == sign(want) {
				agree++
			}
		}
		if i == 0 {
			// Without the pattern evaluation the solver has no probable cuts: the band
			// proves, and says so.
			rm := NewEngine(Config{TTMiB: 2, SolverMiB: 4}).Search(context.Background(), b, lim, nil)
			if !rm.WLD || rm.Selectivity != 100 || sign(int(rm.Score)) != sign(want) {
				t.Fatalf("position %d, mobility evaluation: %+v, the exact score is %d", i, rm.Info, want)
			}
		}
		rp := proof.Search(context.Background(), b, lim, nil)
		if !rp.WLD || rp.Selectivity != 100 || sign(int(rp.Score)) != sign(want) {
			t.Fatalf("position %d: the band's proof reports %+v, the exact score is %d", i, rp.Info, want)
		}
	}
	if decided > 0 && agree*4 < decided*3 {
		t.Errorf("probable win/loss/draw results agree with the exact score on %d of %d decided positions", agree, decided)
	}
	t.Logf("probable results agree with the exact score on %d of %d decided positions", agree, decided)
}

// TestDepthLevelProofs: from levelProofTop empties down to levelExact+1 a level proves
// win/loss/draw (a result at 100%, never contradicting the exact score) and plays a move that
// keeps the best result; at levelExact it solves exactly.
func TestDepthLevelProofs(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(Config{TTMiB: 2, SolverMiB: 4, Eval: ev})
	s := endgame.NewSolver(4)
	sign := func(x int) int { return clampSign(x, true) }
	lim := Limits{Depth: 12, Selectivity: 5}
	n := 6
	if testing.Short() {
		n = 3
	}
	for _, empties := range []int{levelProofTop, levelExact + 1, levelExact} {
		for i, b := range randomPositions(41, n, empties) {
			want := s.Solve(b.P, b.O, -64, 64).Score
			r := e.Search(context.Background(), b, lim, nil)
			if !b.IsLegal(r.Move) {
				t.Fatalf("%d empties, position %d: illegal move %s", empties, i, r.Move)
			}
			if empties == levelExact {
				if !r.Exact || int(r.Score) != want {
					t.Fatalf("%d empties, position %d: %+v, want the exact score %d", empties, i, r.Info, want)
				}
				continue
			}
			if !r.WLD || r.Exact || r.Selectivity != 100 || sign(int(r.Score)) != sign(want) {
				t.Fatalf("%d empties, position %d: %+v, want a proof of the exact score %d's result", empties, i, r.Info, want)
			}
			c := b
			c.Make(r.Move)
			if got := -s.Solve(c.P, c.O, -64, 64).Score; sign(got) != sign(want) {
				t.Fatalf("%d empties, position %d: %s leads to %d, the position's result is %d", empties, i, r.Move, got, want)
			}
		}
	}
}
