package search

import (
	"context"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
)

// TestWindowBeyondWipeout: a node whose window lies above +64 discs or below -64 is decided
// in that one node, with a bound on the right side of the window, whatever the height; a
// window that reaches +-64 searches as before.
func TestWindowBeyondWipeout(t *testing.T) {
	for _, cfg := range []Config{{TTMiB: 1}, {TTMiB: 1, Eval: defaultEval(t)}} {
		e := NewEngine(cfg)
		ms := 64 * e.scale
		for _, b := range randomPositions(3, 4, 30) {
			for _, w := range []struct{ alpha, beta int }{{ms, ms + 1}, {ms, scoreInf}, {-scoreInf, -ms}, {-ms - 1, -ms}} {
				e.begin(context.Background(), b, Limits{}, timePlan{})
				e.nextGeneration()
				v := e.alphaBeta(w.alpha, w.beta, 8)
				if e.nodes != 1 || (v > w.alpha && v < w.beta) {
					t.Fatalf("window (%d, %d): %d after %d nodes, want a bound outside it after 1", w.alpha, w.beta, v, e.nodes)
				}
			}
			e.begin(context.Background(), b, Limits{}, timePlan{})
			e.nextGeneration()
			if e.alphaBeta(ms-1, ms, 4); e.nodes < 2 {
				t.Fatalf("window (%d, %d) searched %d nodes", ms-1, ms, e.nodes)
			}
		}
	}
}

// TestEvaluationWithinWipeout: the evaluations never claim more than a wipeout, which the
// test above relies on.
func TestEvaluationWithinWipeout(t *testing.T) {
	e := NewEngine(Config{TTMiB: 1})
	// Black has many moves, corners and no frontier worth the name: the mobility score's
	// terms add up beyond 64 discs before the clamp.
	for _, b := range append(randomPositions(11, 200, 40), board.Board{P: 0x8100000000000081 | 0x00003C3C3C3C0000, O: 0x0000000000000000 | 0x0000C3C3C3C30000}) {
		if v := mobilityEval(b.P, b.O); v > 64*mobilityScale || v < -64*mobilityScale {
			t.Fatalf("mobility evaluation %d beyond 64 discs", v)
		}
		e.b = b
		if v := e.evaluate(); v > e.maxScore || v < -e.maxScore {
			t.Fatalf("evaluation %d beyond %d", v, e.maxScore)
		}
	}
}

// TestPresearchOfWipeout: FFO #39 (26 empties, +64) is a won-by-64 position, where every
// node after its first move was searched in full; the presearch took 344 M nodes, 195 times
// the 1.76 M of the exact solve without it. It must stay within twice the plain solve.
func TestPresearchOfWipeout(t *testing.T) {
	ps := testdataPositions(t, "fforum-20-39.obf")
	b := ps[len(ps)-1]
	if b.NumEmpties() != 26 {
		t.Fatalf("FFO #39 has %d empties, want 26", b.NumEmpties())
	}
	ev := defaultEval(t)
	so := endgame.DefaultSolverOptions(16)
	so.Eval = ev // as othello solve orders it
	sol := endgame.NewSolverWith(so).Solve(b.P, b.O, -64, 64)
	if sol.Score != 64 {
		t.Fatalf("FFO #39 solves to %d, want +64", sol.Score)
	}
	pre := NewPresearch(ev, 1, 16)
	r := pre.Presearch(context.Background(), b)
	if r.Guess != 64 || r.Nodes > 2*sol.Nodes {
		t.Fatalf("presearch of FFO #39: guess %d in %d nodes; the exact solve takes %d", r.Guess, r.Nodes, sol.Nodes)
	}
	t.Logf("presearch %d nodes, plain solve %d", r.Nodes, sol.Nodes)
}

func defaultEval(t *testing.T) *eval.Evaluator {
	t.Helper()
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	return ev
}
