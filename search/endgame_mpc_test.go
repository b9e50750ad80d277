package search

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/othellogo/othello/board"
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

// TestProbableSolves: probable solves need far fewer nodes than exact ones and land near the
// exact scores; an exact solve on the table they filled still gets the exact score (their
// bounds are kept apart by level); without the pattern evaluation there is no selectivity.
func TestProbableSolves(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	if s := NewSolver(1); func() int { s.SetSelectivity(3); return s.level }() != 0 {
		t.Fatal("selectivity without an evaluation")
	}
	opt := DefaultSolverOptions(16)
	opt.Eval = ev
	s := NewSolverWith(opt)
	exact := NewSolver(16)
	r := rand.New(rand.NewPCG(31, 32))
	n := 12
	if testing.Short() {
		n = 6
	}
	var exactNodes, probNodes uint64
	errSum := 0
	for k := 0; k < n; {
		p, o, ok := randomPosition(r, 18)
		if !ok || board.LegalMoves(p, o) == 0 {
			continue
		}
		k++
		exact.ClearTable()
		want := exact.Solve(p, o, -64, 64)
		exactNodes += want.Nodes
		s.ClearTable()
		s.SetSelectivity(MaxSelectivity)
		got := s.Solve(p, o, -64, 64)
		probNodes += got.Nodes
		errSum += abs(got.Score - want.Score)
		s.SetSelectivity(0)
		if v := s.Solve(p, o, -64, 64).Score; v != want.Score {
			t.Fatalf("%s: exact solve after a probable one: %d, want %d", obf(p, o), v, want.Score)
		}
	}
	if probNodes*2 > exactNodes {
		t.Errorf("probable solves took %d nodes, exact ones %d: the cuts do not prune", probNodes, exactNodes)
	}
	if mean := float64(errSum) / float64(n); mean > 6 {
		t.Errorf("probable solves miss by %.1f discs on average", mean)
	}
	t.Logf("%d positions of 18 empties: exact %d nodes, probable (level %d) %d, mean error %.2f discs",
		n, exactNodes, MaxSelectivity, probNodes, float64(errSum)/float64(n))
}
