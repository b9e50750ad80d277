package search

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/internal/cputime"
	"github.com/othellogo/othello/internal/ybwc"
)

// The bench (othello bench) searches a fixed set of midgame positions to a fixed depth on one
// thread; its total node count is a signature that changes only when the search does, and
// its time and CPU time measure the search's speed.

// benchTranscripts are midgame positions (XOT starts continued by fixed random moves) with 44
// to 24 empties. Changing them changes every bench signature.
var benchTranscripts = [...]string{
	"f5d6c4d3c2b3b4b5c7e2c6d7b7f4a4b1",
	"f5f6c4f4g4c3e6f3e2b4b2h3h4a1f7e3d3e1f2g8",
	"f5f4d3c4g3g4f3f6e6d6d7c6h4c3c7g2e7f7g6e3g8h3",
	"f5d6c6f6f7b6d7f3f4f8a6c7b7a8e6e7e8c5d3c8g4h5h4c2",
	"f5f6d3c5c6f4g5h4g7c7b7f7c4h8g4h3h5b4b3c3b5d6g3b6d7g6",
	"f5f4e3f6d3e2g5c4e7h6b3b4c2b2h4d1g4d2b1e6d7h5f1f2g2g3h7g1",
	"f5f4g3c6e3g5e6f3h6d3d2f7c3g4d6h5e7c2b6b3g2c1h4f2d1d7e2f1c8c4",
	"f5f4d3f6g4c2d2h3g6e6h4e2b1b2f7d7f1h5b3d6c6f8c8b6b5h7b7c4e7d8g5a2",
	"f5f4f3g4e3e6g3f2e1g2c4b4b3f1c3a2d6d2e2f6c5c7a5c6b6d3g5a4d7g6c8e7h6c2",
	"f5f6d3g5g6e3f7h7h5c4b3b4b5c2c3e6f4a3d7c5d2f2a4e1e2g3d1c1g1g7e7g4b2a1b6d6",
	"f5d6c6f4e6c7d3g5f6d7g4d2e7b6c8e8c3b3h6h3",
	"f5d6c4g5c6c5f6f4g4g3h4c3e6f7d3g7g6h5g2f3h3e3h7e7",
}

// BenchPositions returns the bench's positions, always the same.
func BenchPositions() []board.Board {
	out := make([]board.Board, len(benchTranscripts))
	for i, t := range benchTranscripts {
		_, b, err := board.ParseTranscript(t)
		if err != nil {
			panic(fmt.Sprintf("search: bench position %q: %v", t, err))
		}
		out[i] = b
	}
	return out
}

// BenchVariant is one engine configuration of a bench run.
type BenchVariant struct {
	Name        string
	Config      Config
	Selectivity int // Multi-ProbCut level of the searches
}

// BenchTable is the feature on/off table around base: everything on with Multi-ProbCut off,
// then without ordering by the previous iteration's table, without PVS, without killer
// moves; then Multi-ProbCut at level sel (2 when sel is 0) with everything on, without
// killer moves, without the screen and without the static cuts. The first is the one the
// others are compared with.
func BenchTable(base Config, sel int) []BenchVariant {
	if sel == 0 {
		sel = 2
	}
	full := base
	full.NoMPC, full.NoPVS, full.NoPrevOrder, full.NoKiller, full.NoStaticCut = false, false, false, false, false
	noPrev, noPVS, noKiller, noScreen, noStatic := full, full, full, full, full
	noPrev.NoPrevOrder = true
	noPVS.NoPVS = true
	noKiller.NoKiller = true
	noScreen.MPCScreen = -1
	noStatic.NoStaticCut = true
	return []BenchVariant{
		{"full, MPC off", full, 0},
		{"no prev-table ordering", noPrev, 0},
		{"no PVS", noPVS, 0},
		{"no killer moves", noKiller, 0},
		{fmt.Sprintf("full, MPC level %d", sel), full, sel},
		{fmt.Sprintf("MPC level %d, no killer moves", sel), noKiller, sel},
		{fmt.Sprintf("MPC level %d, no screen", sel), noScreen, sel},
		{fmt.Sprintf("MPC level %d, no static cuts", sel), noStatic, sel},
	}
}

// BenchResult is one variant's run over the positions.
type BenchResult struct {
	Nodes     uint64
	Time, CPU time.Duration // wall clock and process CPU time of the searches
	// With reference values (BenchReference): the mean loss of the chosen moves in discs, and
	// the number of positions where the chosen move is worse than the best.
	Loss  float64
	Worse int
	// Parallel is the thread pool's counts over the searches (zero with one thread).
	Parallel ybwc.Stats
}

// BenchReference values every move of each position by a full-width search (cfg without
// Multi-ProbCut) to depth: what RunBench measures the loss of its chosen moves against.
func BenchReference(cfg Config, positions []board.Board, depth int) [][]MoveScore {
	cfg.NoMPC = true
	e := NewEngine(cfg)
	refs := make([][]MoveScore, len(positions))
	for i, b := range positions {
		refs[i] = e.Analyze(context.Background(), b, Limits{Depth: depth}, 64, nil)
	}
	return refs
}

// RunBench searches the positions in turn to depth with one new engine of v's configuration
// and sums the nodes and times; each, when not nil, is called after every position. With
// refs (BenchReference of the same positions), it also measures the loss of the moves chosen.
func RunBench(v BenchVariant, positions []board.Board, depth int, refs [][]MoveScore, each func(i int, r Result, elapsed time.Duration)) BenchResult {
	e := NewEngine(v.Config)
	var res BenchResult
	var lost float64
	for i, b := range positions {
		cpuStart := cputime.Process()
		start := time.Now()
		r := e.Search(context.Background(), b, Limits{Depth: depth, Selectivity: v.Selectivity}, nil)
		el := time.Since(start)
		res.CPU += cputime.Process() - cpuStart
		res.Nodes += r.Nodes
		res.Time += el
		if refs != nil {
			l := moveLoss(refs[i], r.Move)
			lost += l
			if l > 0 {
				res.Worse++
			}
		}
		if each != nil {
			each(i, r, el)
		}
	}
	if refs != nil {
		res.Loss = lost / float64(len(positions))
	}
	res.Parallel = e.ParallelStats()
	return res
}

// moveLoss is what playing move costs against the best of values (every move's value, in
// discs): 0 for a best move; a move missing from values (a pass) costs nothing.
func moveLoss(values []MoveScore, move board.Square) float64 {
	best, got, found := math.Inf(-1), 0.0, false
	for _, v := range values {
		best = math.Max(best, v.Score)
		if v.Move == move {
			got, found = v.Score, true
		}
	}
	if !found {
		return 0
	}
	return best - got
}

// MoveQualityResult is what the moves chosen under a time limit cost against exact move
// scores.
type MoveQualityResult struct {
	Positions    int
	Loss         float64       // mean loss in discs: the best score minus the chosen move's
	Worse        int           // moves that lose discs
	ResultErrors int           // a win turned into a draw or a loss, a draw into a loss
	Time         time.Duration // the searches' total time
}

// MoveQuality searches the first n problems that have a move to play and move scores, each
// for moveTime at selectivity sel with one engine of cfg, and compares the chosen moves with
// the problems' scores. A chosen move the problem has no score for is an error naming the
// problem's line.
func MoveQuality(cfg Config, problems []endgame.Problem, n int, moveTime time.Duration, sel int) (MoveQualityResult, error) {
	e := NewEngine(cfg)
	class := func(v int) int { return min(max(v, -1), 1) }
	var res MoveQualityResult
	lossSum := 0
	for _, pr := range problems {
		if res.Positions >= n {
			break
		}
		best, ok := pr.Best()
		if !ok || pr.Board.LegalMoves() == 0 {
			continue
		}
		r := e.Search(context.Background(), pr.Board, Limits{MoveTime: moveTime, Selectivity: sel}, nil)
		chosen, found := 0, false
		for _, m := range pr.Scores {
			if m.Move == r.Move {
				chosen, found = m.Score, true
			}
		}
		if !found {
			return res, fmt.Errorf("line %d: the file has no score for the chosen move %v", pr.Line, r.Move)
		}
		res.Positions++
		res.Time += r.Elapsed
		lossSum += best - chosen
		if chosen < best {
			res.Worse++
		}
		if class(chosen) < class(best) {
			res.ResultErrors++
		}
	}
	if res.Positions > 0 {
		res.Loss = float64(lossSum) / float64(res.Positions)
	}
	return res, nil
}
