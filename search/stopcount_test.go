package search

import (
	"context"
	"testing"

	"github.com/othellogo/othello/board"
)

// A stopped search counts every node it searched, the stopped iteration's too: a search of
// the start position with no limit but a node count reports at least that count, where the
// last completed iteration's count was reported before (43,199 nodes after 650 s).
func TestStoppedSearchCountsItsNodes(t *testing.T) {
	e := NewEngine(Config{TTMiB: 1})
	start := board.Start()
	for _, lim := range []Limits{{Nodes: 300000}, ForcedSolveLimits(60)} {
		lim.Nodes = 300000
		var last Info
		r := e.Search(context.Background(), start, lim, func(in Info) { last = in })
		if !start.IsLegal(r.Move) || r.Nodes < lim.Nodes || r.Nodes < last.Nodes || r.Depth != last.Depth {
			t.Fatalf("%+v: move %v, %d nodes at depth %d; the last iteration, depth %d, had %d", lim, r.Move, r.Nodes, r.Depth, last.Depth, last.Nodes)
		}
	}
}

// A forced solve (ForcedSolveLimits) is iterative deepening to the end at full width: each
// depth is reported, and cancelling it keeps the deepest iteration's move and all its nodes.
func TestForcedSolveIsIterative(t *testing.T) {
	e := NewEngine(Config{TTMiB: 1})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	depth, start := 0, board.Start()
	r := e.Search(ctx, start, ForcedSolveLimits(60), func(in Info) {
		if in.Depth != depth+1 || in.Selectivity != 100 {
			t.Errorf("iteration %+v after depth %d", in, depth)
		}
		depth = in.Depth
		if depth == 6 {
			cancel()
		}
	})
	if depth != 6 || r.Depth != 6 || !start.IsLegal(r.Move) {
		t.Fatalf("forced solve cancelled at depth 6: ended at %d, result %+v", depth, r)
	}
}

// A cancelled presearch says so, with its nodes, and gives no hint.
func TestPresearchInterrupted(t *testing.T) {
	ps := testdataPositions(t, "fforum-40-59.obf")
	pre := NewPresearch(defaultEval(t), 1, 4)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := pre.Presearch(ctx, ps[len(ps)-1])
	if !r.Interrupted || r.Hint != nil || r.HasGuess {
		t.Fatalf("cancelled presearch: %+v", r)
	}
	if d, _ := pre.Progress(); d > 1 {
		t.Fatalf("cancelled presearch reached depth %d", d)
	}
}
