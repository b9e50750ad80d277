package cluster

import (
	"context"
	"math/bits"
	"sort"
	"sync"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

// The controller's other uses: the analysis of a position (every move's value) and a
// Searcher for the book's leaves, both through the workers.

// Searcher has the workers search positions, one task per call (Controller.Search): the
// search a book asks of a search.Engine (book.Searcher), with several calls at once keeping
// several workers busy. Search has no error to return, so the first failure is kept (Err)
// and ends the run through Stop; a search that failed returns an empty result, which the
// book does not use once its context is cancelled.
type Searcher struct {
	C    *Controller
	Stop context.CancelFunc // called on the first failure (nil: none)

	mu  sync.Mutex
	err error
	st  Stats
}

// Search implements book.Searcher: the worker runs search.Engine.Search with lim's depth
// and selectivity.
func (s *Searcher) Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result {
	r, st, err := s.C.Search(ctx, b, lim)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.Add(st)
	if err != nil && ctx.Err() == nil {
		if s.err == nil {
			s.err = err
		}
		if s.Stop != nil {
			s.Stop()
		}
	}
	return r
}

// Err is the first failure of a search, nil if none.
func (s *Searcher) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Stats are the searches' counts summed.
func (s *Searcher) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.st
}

// analysisJobs is how many of a position's moves are solved at once: enough to keep the
// workers busy between one solve's windows, few enough that the moves after the first ones
// are tested against the best values found. Midgame searches are one task each and all go
// out at once, up to searchJobs (each waits on a connection of the controller's pool).
const (
	analysisJobs = 4
	searchJobs   = 12
)

// AnalyzeExact solves the moves of b on the workers: the n best exactly (n <= 0: all), the
// others only shown not to be better than the n-th (a bound), as search.Engine.Analyze's
// exact solve does. The moves come best first, exact before bounds. Each move is a solve
// of its own (Controller.Solve), analysisJobs at once.
func (c *Controller) AnalyzeExact(ctx context.Context, b board.Board, n int) ([]search.MoveScore, Stats, error) {
	if ms, st, err, done := c.analyzePass(ctx, b, func(bb board.Board) ([]search.MoveScore, Stats, error) { return c.AnalyzeExact(ctx, bb, 1) }); done {
		return ms, st, err
	}
	moves := orderMoves(c.opt.Eval, b.P, b.O, c.opt.OrderDepth)
	if n <= 0 || n > len(moves) {
		n = len(moves)
	}
	start := time.Now()
	empties := b.NumEmpties()
	out := make([]search.MoveScore, len(moves))
	var tot Stats
	var mu sync.Mutex
	solveMove := func(i, thr int) error {
		bb := b
		bb.Make(moves[i])
		var o Outcome
		var err error
		if thr <= -64 {
			o, err = c.Solve(ctx, bb.P, bb.O, -64, 64)
		} else if o, err = c.Solve(ctx, bb.P, bb.O, -thr-1, -thr); err == nil && -o.Score > thr {
			var st Stats
			st = o.Stats
			o, err = c.Solve(ctx, bb.P, bb.O, -64, -thr)
			st.Add(o.Stats)
			o.Stats = st
		}
		mu.Lock()
		defer mu.Unlock()
		tot.Add(o.Stats)
		if err != nil {
			return err
		}
		v := -o.Score
		out[i] = search.MoveScore{Move: moves[i], Info: search.Info{Depth: empties, Selectivity: 100, Exact: thr <= -64 || v > thr, Score: float64(v), PV: append([]board.Square{moves[i]}, o.PV...)}}
		return nil
	}
	// The n first moves of the ordering with the full window, then the others against the
	// n-th best of those: a move that beats it is solved exactly too.
	if err := inParallel(ctx, n, analysisJobs, func(i int) error { return solveMove(i, -64) }); err != nil {
		return nil, tot, err
	}
	thr := -64
	if n < len(moves) {
		vals := make([]int, n)
		for i := range vals {
			vals[i] = int(out[i].Score)
		}
		sort.Sort(sort.Reverse(sort.IntSlice(vals)))
		thr = vals[n-1]
	}
	if err := inParallel(ctx, len(moves)-n, analysisJobs, func(i int) error { return solveMove(n+i, thr) }); err != nil {
		return nil, tot, err
	}
	sortMoveScores(out, true)
	for i := range out {
		out[i].Nodes, out[i].Elapsed = tot.Nodes, time.Since(start)
	}
	return out, tot, nil
}

// AnalyzeDepth searches every move of b on the workers to lim's depth (each move's position
// one ply less, a midgame search task of its own) and returns them best first.
func (c *Controller) AnalyzeDepth(ctx context.Context, b board.Board, lim search.Limits) ([]search.MoveScore, Stats, error) {
	if ms, st, err, done := c.analyzePass(ctx, b, func(bb board.Board) ([]search.MoveScore, Stats, error) { return c.AnalyzeDepth(ctx, bb, lim) }); done {
		return ms, st, err
	}
	var moves []board.Square
	for m := b.LegalMoves(); m != 0; m &= m - 1 {
		moves = append(moves, board.Square(bits.TrailingZeros64(m)))
	}
	start := time.Now()
	out := make([]search.MoveScore, len(moves))
	var tot Stats
	var mu sync.Mutex
	err := inParallel(ctx, len(moves), searchJobs, func(i int) error {
		bb := b
		bb.Make(moves[i])
		var r search.Result
		var st Stats
		var err error
		if bb.GameOver() {
			r.Exact, r.Score, r.Depth, r.Selectivity = true, float64(bb.FinalScore()), 0, 100
		} else {
			r, st, err = c.Search(ctx, bb, search.Limits{Depth: max(lim.Depth-1, 1), Selectivity: lim.Selectivity})
		}
		mu.Lock()
		defer mu.Unlock()
		tot.Add(st)
		if err != nil {
			return err
		}
		depth := r.Depth + 1
		if r.Exact {
			depth = b.NumEmpties()
		}
		out[i] = search.MoveScore{Move: moves[i], Info: search.Info{Depth: depth, Selectivity: r.Selectivity, Exact: r.Exact, Score: -r.Score, PV: append([]board.Square{moves[i]}, r.PV...)}}
		return nil
	})
	if err != nil {
		return nil, tot, err
	}
	sortMoveScores(out, false)
	for i := range out {
		out[i].Nodes, out[i].Elapsed = tot.Nodes, time.Since(start)
	}
	return out, tot, nil
}

// analyzePass answers a position without a legal move: the final score when the game is
// over, else the analysis of the opponent's position after the pass (again), negated;
// done is false when b has moves.
func (c *Controller) analyzePass(ctx context.Context, b board.Board, again func(board.Board) ([]search.MoveScore, Stats, error)) (ms []search.MoveScore, st Stats, err error, done bool) {
	if b.LegalMoves() != 0 {
		return nil, st, nil, false
	}
	m := search.MoveScore{Move: board.NoSquare}
	if b.GameOver() {
		m.Exact, m.Score, m.Selectivity = true, float64(b.FinalScore()), 100
		return []search.MoveScore{m}, st, nil, true
	}
	bb := b
	bb.Pass()
	r, st, err := again(bb)
	if err != nil || len(r) == 0 {
		return nil, st, err, true
	}
	m.Info = r[0].Info
	m.Score = -m.Score
	m.PV = append([]board.Square{board.NoSquare}, m.PV...)
	return []search.MoveScore{m}, st, nil, true
}

// sortMoveScores puts the moves best first; exactFirst puts exact values before bounds.
func sortMoveScores(ms []search.MoveScore, exactFirst bool) {
	sort.SliceStable(ms, func(i, j int) bool {
		if exactFirst && ms[i].Exact != ms[j].Exact {
			return ms[i].Exact
		}
		return ms[i].Score > ms[j].Score
	})
}

// inParallel runs f(0) .. f(n-1), jobs at a time, and returns the first error (the calls
// after it are not started).
func inParallel(ctx context.Context, n, jobs int, f func(int) error) error {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	sem := make(chan struct{}, jobs)
	for i := 0; i < n; i++ {
		mu.Lock()
		stop := first != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			if err := f(i); err != nil {
				mu.Lock()
				if first == nil {
					first = err
				}
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}
