package search

import (
	"context"
	"slices"
	"testing"

	"github.com/othellogo/othello/eval"
)

// TestEvalCacheValues checks that a cached value is the evaluator's own: along random games
// (about 3,000 positions, more than a third of the slots, so slots are overwritten by other
// positions), each position's value through the cache, asked twice, equals Eval on it.
func TestEvalCacheValues(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(Config{TTMiB: 1, SolverMiB: 1, Eval: ev})
	if e.evc == nil {
		t.Fatal("an engine with the pattern evaluation has no evaluation cache")
	}
	if NewEngine(Config{TTMiB: 1, SolverMiB: 1, Eval: ev, NoEvalCache: true}).evc != nil {
		t.Fatal("NoEvalCache: the engine has a cache")
	}
	replaced := 0
	for _, empties := range []int{50, 40, 30, 20, 12} {
		for _, b := range randomPositions(uint64(7+empties), 600, empties) {
			e.b = b
			want := ev.Eval(&b)
			sl := e.evc.slot(b.P, b.O)
			if sl.p|sl.o != 0 {
				replaced++
			}
			for k := range 2 {
				if got := e.evaluate(); got != want {
					t.Fatalf("%s: %d through the cache (call %d), %d from the evaluator", b.OBF(), got, k+1, want)
				}
				if sl.p != b.P || sl.o != b.O {
					t.Fatalf("%s: not kept in its slot after an evaluation", b.OBF())
				}
			}
		}
	}
	if replaced == 0 {
		t.Fatal("no slot was overwritten: the test did not exercise replacement")
	}
	t.Logf("%d of 3,000 positions replaced another in their slot", replaced)
}

// TestEvalCacheSearch checks that the cache changes nothing a search does: at level 5 and at
// full width, on the bench positions, the same move, value, principal variation and node
// count with and without it.
func TestEvalCacheSearch(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
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
