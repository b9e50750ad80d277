package endgame

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/internal/cputime"
	"github.com/othellogo/othello/internal/ybwc"
)

// ProblemOptions say how RunProblems solves a set of problems.
type ProblemOptions struct {
	Solver      SolverOptions // the options of each job's solver (Threads: threads per position)
	Selectivity int           // endgame Multi-ProbCut level (0: exact)
	WLD         bool          // prove only win/loss/draw (window -1..1)
	Jobs        int           // positions solved at once, one solver each (0: one)
	// AllMoves also solves every legal move of each position exactly (ProblemResult.Moves) and
	// checks the moves against the problem's known move scores.
	AllMoves bool
	// Progress, when not nil, is called every ProgressInterval while a position is being
	// solved, from a goroutine of its own, with the problem's index and where its solve is.
	Progress         func(index int, p ProblemProgress)
	ProgressInterval time.Duration
	// NewPresearcher, when not nil, makes each job's Presearcher, which searches every
	// position before its exact or win/loss/draw solve (not before a probable one).
	NewPresearcher func() Presearcher
	// Context, when not nil, stops the run when it ends: the positions being solved report
	// Interrupted with the nodes they searched, and no other position starts.
	Context context.Context
}

// ProblemProgress is where the solve of a position is: the nodes so far (the presearch's
// included), the time since it began and, while the presearch runs, the depth its search
// has completed (PresearchDepth, 0 before the first iteration).
type ProblemProgress struct {
	Nodes          uint64
	Elapsed        time.Duration
	InPresearch    bool
	PresearchDepth int
}

// A Presearcher searches a position before its solve, to order the solver's top plies and
// to centre its first aspiration window. A midgame search lives above this package, hence the
// interface. Presearch stops when ctx ends (PresearchResult.Interrupted); Progress may be
// called from another goroutine meanwhile and gives the depth completed and its nodes.
type Presearcher interface {
	Presearch(ctx context.Context, b board.Board) PresearchResult
	Progress() (depth int, nodes uint64)
}

// PresearchResult is what a Presearcher found.
type PresearchResult struct {
	Hint     func(p, o uint64) int // a move hint for the solver (Solver.SetMoveHint); nil: none
	Guess    int                   // the expected score, with HasGuess (Solver.SolveNear)
	HasGuess bool
	Nodes    uint64 // the nodes it searched
	// Interrupted: the context stopped it; Hint and Guess are then not to be used.
	Interrupted bool
}

// ProblemResult is one solved problem.
type ProblemResult struct {
	Index int // the problem's index in the slice given to RunProblems
	SolveResult
	// PresearchNodes are the nodes of the presearch (ProblemOptions.NewPresearcher), counted
	// in Nodes too.
	PresearchNodes uint64
	Elapsed        time.Duration
	// CPU is the CPU time of the whole process meanwhile (zero where it is not measured): with
	// one position at a time and one thread, steadier than Elapsed on a loaded machine.
	CPU   time.Duration
	Moves []MoveScoreKnown // with AllMoves: every legal move's exact score, best first
	// Wrong says the score disagrees with the problem's best known score (only by sign with
	// WLD) or, with AllMoves, a move's score with its known one. BadMove then names the first
	// such move, as "h1 +12 (file +14)", when the position's score itself agrees.
	Wrong   bool
	BadMove string
}

// ProblemTotals sum the results of RunProblems.
type ProblemTotals struct {
	Positions      int
	Nodes          uint64 // presearches included
	PresearchNodes uint64
	OrderingNodes  uint64        // SolveResult.OrderingNodes, not in Nodes
	ScoredNodes    uint64        // SolveResult.ScoredNodes, not in Nodes
	Time, CPU      time.Duration // sums of the results' Elapsed and CPU
	Wrong          int           // results with Wrong set
	// Parallel sums the thread pools' counts (zero with one thread per position).
	Parallel ybwc.Stats
	// Interrupted: the run's context stopped it; Positions counts those reported, the last
	// of them interrupted, and Nodes also those of the positions stopped beside it.
	Interrupted bool
}

func (t *ProblemTotals) add(r ProblemResult) {
	t.Nodes += r.Nodes
	t.PresearchNodes += r.PresearchNodes
	t.OrderingNodes += r.OrderingNodes
	t.ScoredNodes += r.ScoredNodes
	t.Time += r.Elapsed
	t.CPU += r.CPU
	if r.Wrong {
		t.Wrong++
	}
}

// RunProblems solves the problems whose indexes are selected, Jobs at a time, each job with
// a solver of its own, and hands every result to report in the order of selected as soon as
// it and those before it are done. An error from report stops the run (the positions being
// solved are finished first) and is returned.
func RunProblems(problems []Problem, selected []int, opt ProblemOptions, report func(ProblemResult) error) (ProblemTotals, error) {
	alpha, beta := -64, 64
	if opt.WLD {
		alpha, beta = -1, 1
	}
	queue := make(chan int)
	stop := make(chan struct{})
	results := make([]chan ProblemResult, len(selected))
	for i := range results {
		results[i] = make(chan ProblemResult, 1)
	}
	var wg sync.WaitGroup
	var statsMu sync.Mutex
	var stats ybwc.Stats
	for w := 0; w < max(opt.Jobs, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := NewSolverWith(opt.Solver)
			s.SetSelectivity(opt.Selectivity)
			var pre Presearcher
			if opt.NewPresearcher != nil && opt.Selectivity == 0 {
				pre = opt.NewPresearcher()
			}
			for i := range queue {
				results[i] <- solveProblem(s, pre, &problems[selected[i]], selected[i], alpha, beta, opt)
			}
			st := s.ParallelStats()
			statsMu.Lock()
			stats.Splits += st.Splits
			stats.Joins += st.Joins
			stats.Idle += st.Idle
			stats.Busy += st.Busy
			statsMu.Unlock()
		}()
	}
	go func() {
		defer close(queue)
		for i := range selected {
			select {
			case queue <- i:
			case <-stop:
				return
			}
		}
	}()
	tot := ProblemTotals{Positions: len(selected)}
	var err error
	last := len(selected) - 1
	for i := range selected {
		r := <-results[i]
		tot.add(r)
		err = report(r)
		if err != nil || r.Interrupted {
			last, tot.Interrupted = i, r.Interrupted
			close(stop)
			break
		}
	}
	wg.Wait()
	if tot.Interrupted {
		// The positions being solved beside it stopped too: their nodes count, their
		// results are not shown.
		tot.Positions = last + 1
		for _, ch := range results[last+1:] {
			select {
			case r := <-ch:
				tot.Nodes += r.Nodes
			default:
			}
		}
	}
	tot.Parallel = stats
	return tot, err
}

// solveProblem solves one problem with s, after the presearch of pre when not nil, and checks
// the result against its known scores.
func solveProblem(s *Solver, pre Presearcher, pr *Problem, index, alpha, beta int, opt ProblemOptions) ProblemResult {
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	var stop, presearching atomic.Bool
	s.SetStop(&stop)
	done, reported := make(chan struct{}), make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			stop.Store(true)
		case <-done:
		}
	}()
	presearching.Store(pre != nil)
	if opt.Progress != nil && opt.ProgressInterval > 0 {
		go reportProgress(s, pre, &presearching, index, opt, done, reported)
	} else {
		close(reported)
	}
	start, cpu := time.Now(), cputime.Process()
	var ps PresearchResult
	guess := noGuess
	if pre != nil {
		ps = pre.Presearch(ctx, pr.Board)
		presearching.Store(false)
		if !ps.Interrupted {
			s.SetMoveHint(ps.Hint)
			defer s.SetMoveHint(nil)
		}
		if ps.HasGuess {
			guess = ps.Guess
		}
	}
	var r ProblemResult
	if ps.Interrupted {
		r = ProblemResult{Index: index, SolveResult: SolveResult{Move: board.NoSquare, Interrupted: true}, PresearchNodes: ps.Nodes}
	} else {
		r = ProblemResult{Index: index, SolveResult: s.SolveNear(pr.Board.P, pr.Board.O, alpha, beta, guess), PresearchNodes: ps.Nodes}
	}
	r.Nodes += ps.Nodes
	if opt.AllMoves && !r.Interrupted {
		var nodes uint64
		r.Moves, nodes = s.SolveAllMoves(pr.Board)
		r.Nodes += nodes
		// A stop during the moves' solves leaves some of their scores meaningless.
		r.Interrupted = stop.Load()
	}
	r.Elapsed, r.CPU = time.Since(start), cputime.Process()-cpu
	close(done)
	<-reported // no progress report comes after the result
	s.SetStop(nil)
	if r.Interrupted {
		return r
	}
	if known, ok := pr.Best(); ok && !scoreAgrees(r.Score, known, opt.WLD) {
		r.Wrong = true
	}
	if opt.AllMoves && !r.Wrong {
		r.BadMove = movesDisagree(r.Moves, pr.Scores)
		r.Wrong = r.BadMove != ""
	}
	return r
}

// reportProgress calls opt.Progress every opt.ProgressInterval until done is closed, then
// closes reported; while presearching is set the progress is the presearch's (pre).
func reportProgress(s *Solver, pre Presearcher, presearching *atomic.Bool, index int, opt ProblemOptions, done, reported chan struct{}) {
	defer close(reported)
	start := time.Now()
	t := time.NewTicker(opt.ProgressInterval)
	defer t.Stop()
	var preNodes uint64
	for {
		select {
		case <-done:
			return
		case <-t.C:
			p := ProblemProgress{Elapsed: time.Since(start)}
			if presearching.Load() {
				p.InPresearch = true
				p.PresearchDepth, preNodes = pre.Progress()
				p.Nodes = preNodes
			} else {
				if pre != nil {
					_, preNodes = pre.Progress()
				}
				p.Nodes = preNodes + s.Progress()
			}
			opt.Progress(index, p)
		}
	}
}

// SolveAllMoves solves every legal move of b exactly (a forced pass as one move,
// board.NoSquare) and returns the scores from b's side, best first, with the nodes spent.
func (s *Solver) SolveAllMoves(b board.Board) ([]MoveScoreKnown, uint64) {
	if b.GameOver() {
		return nil, 0
	}
	moves := b.LegalMoves()
	if moves == 0 {
		r := s.Solve(b.P, b.O, -64, 64)
		return []MoveScoreKnown{{Move: board.NoSquare, Score: r.Score}}, r.Nodes
	}
	var out []MoveScoreKnown
	var nodes uint64
	for m := moves; m != 0; m &= m - 1 {
		sq := board.FirstSquare(m)
		child := b
		child.Make(sq)
		r := s.Solve(child.P, child.O, -64, 64)
		nodes += r.Nodes
		out = append(out, MoveScoreKnown{Move: sq, Score: -r.Score})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out, nodes
}

// scoreAgrees compares a solved score with a known one: exactly, or only by result with wld.
func scoreAgrees(score, known int, wld bool) bool {
	if wld {
		return min(max(score, -1), 1) == min(max(known, -1), 1)
	}
	return score == known
}

// movesDisagree names the first move whose score in known differs from the solved ones
// ("" when they all agree).
func movesDisagree(solved, known []MoveScoreKnown) string {
	for _, k := range known {
		for _, m := range solved {
			if m.Move == k.Move && m.Score != k.Score {
				return fmt.Sprintf("%v %+d (file %+d)", m.Move, m.Score, k.Score)
			}
		}
	}
	return ""
}

// FormatOBF is b in .obf form followed by its move scores, "...; G8:+18; H1:+12;" (Edax's
// form; a pass is PA), which ParseProblems reads back.
func FormatOBF(b board.Board, moves []MoveScoreKnown) string {
	var sb strings.Builder
	sb.WriteString(b.OBF())
	sb.WriteString(";")
	for _, m := range moves {
		name := "PA"
		if m.Move != board.NoSquare {
			name = strings.ToUpper(m.Move.String())
		}
		fmt.Fprintf(&sb, " %s:%+d;", name, m.Score)
	}
	return sb.String()
}

// FirstNumber reads the number of a problem file's first position from its name, as in
// fforum-40-59.obf (the FFO files' convention); 1 when the name has no such range.
func FirstNumber(path string) int {
	name := path[strings.LastIndexByte(path, '/')+1:]
	name = strings.TrimSuffix(name, ".obf")
	parts := strings.Split(name, "-")
	if len(parts) < 3 {
		return 1
	}
	var lo, hi int
	if _, err := fmt.Sscan(parts[len(parts)-2], &lo); err != nil || lo < 1 {
		return 1
	}
	if _, err := fmt.Sscan(parts[len(parts)-1], &hi); err != nil || hi < lo {
		return 1
	}
	return lo
}
