package search

import (
	"context"
	"math"
	"sync/atomic"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
)

// Presearch is the midgame search an exact solve of many empties starts with, as Edax and
// Egaroucid iterate shallower searches before the exact one: its table's best moves order the
// solver's top plies (endgame.Solver.SetMoveHint), better than the solver's own shallow sorts.
// It implements endgame.Presearcher; its depth and level are measured in docs/endgame.md.
type Presearch struct {
	e *Engine
	// Margin, Level and MaxDepth are PresearchMargin, PresearchLevel and PresearchMaxDepth
	// unless changed (for measurements).
	Margin, Level, MaxDepth int
	// depth and nodes are those of the last iteration completed, for Progress.
	depth atomic.Int32
	nodes atomic.Uint64
}

const (
	// PresearchMargin: the presearch goes this many plies short of the end of the game.
	PresearchMargin = 6
	// PresearchLevel is its Multi-ProbCut level (Limits.Selectivity).
	PresearchLevel = 3
	// PresearchMaxDepth caps its depth: FFO #59 (34 empties) took minutes at depth 28.
	PresearchMaxDepth = 20
)

// NewPresearch makes a presearch over the pattern evaluation ev with threads threads and
// tables of tableMiB MiB.
func NewPresearch(ev *eval.Evaluator, threads, tableMiB int) *Presearch {
	return &Presearch{e: NewEngine(Config{TTMiB: tableMiB, Eval: ev, Threads: max(threads, 1)}),
		Margin: PresearchMargin, Level: PresearchLevel, MaxDepth: PresearchMaxDepth}
}

// PresearchBytes is the memory NewPresearch allocates with tables of tableMiB MiB, its
// solver's included (TableBytes).
func PresearchBytes(tableMiB int) uint64 { return TableBytes(Config{TTMiB: tableMiB}) }

// Presearch searches b to Margin plies short of the end (at most MaxDepth plies deep) at
// Level and returns the move hint of its table and root, its score rounded to
// an even number of discs as the solve's first guess, and its nodes; nothing when b has too
// few empties for the solver to ask a hint below its root. When ctx ends it stops, with its
// nodes so far and Interrupted.
func (ps *Presearch) Presearch(ctx context.Context, b board.Board) endgame.PresearchResult {
	ps.depth.Store(0)
	ps.nodes.Store(0)
	if b.NumEmpties() <= endgame.HintEmpties {
		return endgame.PresearchResult{}
	}
	lim := Limits{Depth: max(1, min(b.NumEmpties()-ps.Margin, ps.MaxDepth)), Selectivity: ps.Level, ExactEmpties: 1}
	r := ps.e.Search(ctx, b, lim, func(in Info) {
		ps.depth.Store(int32(in.Depth))
		ps.nodes.Store(in.Nodes)
	})
	if ctx.Err() != nil {
		return endgame.PresearchResult{Nodes: r.Nodes, Interrupted: true}
	}
	// The root's moves are searched apart from the table: its best move is the result's.
	root, rp, ro := int(r.Move), b.P, b.O
	if r.Move == board.NoSquare {
		root = endgame.NoMove
	}
	hint := func(p, o uint64) int {
		if p == rp && o == ro {
			return root
		}
		return ps.e.midgameHint(p, o)
	}
	return endgame.PresearchResult{Hint: hint, Guess: 2 * int(math.Round(r.Score/2)), HasGuess: true, Nodes: r.Nodes}
}

// Progress is the depth and the nodes of the last iteration the running (or last) Presearch
// completed; it may be called from another goroutine.
func (ps *Presearch) Progress() (depth int, nodes uint64) {
	return int(ps.depth.Load()), ps.nodes.Load()
}
