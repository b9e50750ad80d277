package search

import (
	"context"
	"slices"
	"testing"

	"github.com/othellogo/othello/eval"
)

// TestEvalCacheSearch checks that the evaluation cache (eval.Cache) changes nothing a search
// does: at level 5 and at full width, on the bench positions, the same move, value, principal
// variation and node count with and without it (eval's TestCacheValues checks the values).
func TestEvalCacheSearch(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	if NewEngine(Config{TTMiB: 1, SolverMiB: 1, Eval: ev}).evc == nil {
		t.Fatal("an engine with the pattern evaluation has no evaluation cache")
	}
	if NewEngine(Config{TTMiB: 1, SolverMiB: 1, Eval: ev, NoEvalCache: true}).evc != nil {
		t.Fatal("NoEvalCache: the engine has a cache")
	}
	depth := 12
	if testing.Short() {
		depth = 9
	}
	for _, sel := range []int{5, 0} {
		for i, b := range BenchPositions()[:6] {
			var res [2]Result
			for k, off := range []bool{false, true} {
				e := NewEngine(Config{TTMiB: 4, SolverMiB: 1, Eval: ev, NoEvalCache: off})
				res[k] = e.Search(context.Background(), b, Limits{Depth: depth, Selectivity: sel}, nil)
			}
			a, c := res[0], res[1]
			if a.Move != c.Move || a.Score != c.Score || a.Nodes != c.Nodes || !slices.Equal(a.PV, c.PV) {
				t.Fatalf("position %d level %d: with the cache %v %.2f %d nodes %v, without %v %.2f %d nodes %v",
					i, sel, a.Move, a.Score, a.Nodes, a.PV, c.Move, c.Score, c.Nodes, c.PV)
			}
		}
	}
}
