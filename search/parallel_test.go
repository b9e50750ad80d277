package search

import (
	"context"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
)

// Without the tables and the selective cuts a depth-limited search's value is the minimax
// value whatever the order in which the moves are searched, so the parallel search must find
// exactly the sequential one's, with any number of threads (more than the cores too) and a
// low split height so that the small trees of a test split often.
func TestParallelMidgameValue(t *testing.T) {
	positions := randomPositions(41, 12, 40)
	depth := 9
	if testing.Short() {
		positions, depth = positions[:6], 7
	}
	cfg := Config{TTMiB: 1, SolverMiB: 1, NoMPC: true, NoTable: true, SplitHeight: 3}
	seq := NewEngine(cfg)
	for _, run := range parallelRuns {
		threads := run.threads
		cfg.Threads, cfg.Parallel = threads, run.mode
		par := NewEngine(cfg)
		for i, b := range positions {
			want := seq.Search(context.Background(), b, Limits{Depth: depth}, nil)
			got := par.Search(context.Background(), b, Limits{Depth: depth}, nil)
			if got.Score != want.Score || got.Depth != want.Depth {
				t.Fatalf("%d threads: position %d (%s): %v at depth %d, sequential %v at %d", threads, i, b.OBF(), got.Score, got.Depth, want.Score, want.Depth)
			}
			if !b.IsLegal(got.Move) || len(got.PV) == 0 || got.PV[0] != got.Move {
				t.Fatalf("%d threads: position %d: move %v, PV %v", threads, i, got.Move, got.PV)
			}
			checkPVLegal(t, b, got.PV)
		}
		checkParallelStats(t, par, run)
	}
}

// parallelRuns are the thread counts and modes the parallel tests run (more threads than
// cores too).
var parallelRuns = []struct {
	threads int
	mode    ParallelMode
}{{2, ParallelYBWC}, {8, ParallelYBWC}, {2, ParallelSpeculative}, {8, ParallelSpeculative}}

// checkParallelStats fails a test whose searches opened no split point, or in speculative
// mode ran no speculative task: it would have tested nothing of the mode.
func checkParallelStats(t *testing.T, e *Engine, run struct {
	threads int
	mode    ParallelMode
}) {
	t.Helper()
	st := e.ParallelStats()
	if st.Splits == 0 {
		t.Fatalf("%d threads, %v: no split point was opened", run.threads, run.mode)
	}
	if run.mode == ParallelSpeculative && (st.SpecTasks == 0 || st.SpecNodes == 0) {
		t.Fatalf("%d threads, %v: no speculative task ran (%+v)", run.threads, run.mode, st)
	}
}

// checkPVLegal replays a principal variation.
func checkPVLegal(t *testing.T, b board.Board, pv []board.Square) {
	t.Helper()
	for _, sq := range pv {
		if sq == board.NoSquare {
			if b.LegalMoves() != 0 {
				t.Fatalf("PV %v: a pass where a move is legal", pv)
			}
			b.Pass()
			continue
		}
		if !b.IsLegal(sq) {
			t.Fatalf("PV %v: %v is illegal", pv, sq)
		}
		b.Make(sq)
	}
}

// With the tables, Multi-ProbCut and the pattern evaluation, a parallel game search reaches
// the end of the game exactly as the sequential one does: the same exact score on positions
// the search solves, and legal moves and principal variations elsewhere.
func TestParallelFullEngine(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	ps, err := endgame.ReadProblemFile("../endgame/testdata/fforum-1-19.obf")
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		ps = ps[:4]
	}
	for _, run := range parallelRuns {
		threads := run.threads
		e := NewEngine(Config{Eval: ev, TTMiB: 4, SolverMiB: 8, Threads: threads, Parallel: run.mode, SplitHeight: 2})
		for i, pr := range ps {
			want, _ := pr.Best()
			r := e.Search(context.Background(), pr.Board, Limits{Depth: 30}, nil)
			if !r.Exact || int(r.Score) != want {
				t.Fatalf("%d threads: FFO #%d: %+v, want exact %d", threads, i+1, r.Info, want)
			}
			checkPVLegal(t, pr.Board, r.PV)
		}
		for i, b := range randomPositions(43, 4, 36) {
			r := e.Search(context.Background(), b, Limits{Depth: 9, Selectivity: 4}, nil)
			if !b.IsLegal(r.Move) || r.Depth != 9 {
				t.Fatalf("%d threads: position %d: %+v", threads, i, r)
			}
			checkPVLegal(t, b, r.PV)
		}
		checkParallelStats(t, e, run)
	}
}

// The parallel midgame search allocates nothing per node: split points are preallocated.
func TestParallelMidgameAllocatesNothingPerNode(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []ParallelMode{ParallelYBWC, ParallelSpeculative} {
		e := NewEngine(Config{Eval: ev, TTMiB: 1, SolverMiB: 1, Threads: 2, SplitHeight: 3, Parallel: mode})
		b := randomPositions(44, 1, 40)[0]
		e.team.pool.Start()
		e.begin(context.Background(), b, Limits{Selectivity: 3}, timePlan{})
		allocs := testing.AllocsPerRun(3, func() {
			e.nextGeneration()
			e.alphaBeta(-scoreInf, scoreInf, 9)
		})
		e.team.pool.Stop()
		if allocs != 0 {
			t.Fatalf("%v: %v allocations per search", mode, allocs)
		}
		checkParallelStats(t, e, struct {
			threads int
			mode    ParallelMode
		}{2, mode})
	}
}
