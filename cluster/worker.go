package cluster

import (
	"context"
	"fmt"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/search"
)

// WorkerOptions configure a Worker.
type WorkerOptions struct {
	// Name identifies the worker in the queue and in results ("": host-pid).
	Name string
	// Solver configures the worker's solver (threads, local table, ordering); its Global
	// field is set to Table.
	Solver endgame.SolverOptions
	// Table is the global table (nil: none, only the local one).
	Table *RedisTable
	// Search configures the midgame engine of search tasks (made at the first one; its
	// tables live as long as the worker).
	Search search.Config
	// Wait is how long one request for a task blocks (0: 1 s).
	Wait time.Duration
	// Poll is how often a solving worker extends its task and looks whether the controller
	// withdrew it (0: 100 ms).
	Poll time.Duration
	// GiveUp: Run returns when the queue has failed for this long without a break (0: 30 s).
	GiveUp time.Duration
	// Logf, when set, gets one line per task and per queue failure.
	Logf func(format string, args ...any)
}

// Worker is a Searcher: it takes tasks from the queue one at a time, solves each with its
// solver (the local table lives as long as the worker, across tasks and jobs), offers the
// task's result to the global table and posts it.
type Worker struct {
	q   Queue
	opt WorkerOptions
	s   *endgame.Solver
	eng *search.Engine // nil until the first search task
}

// NewWorker returns a worker on q.
func NewWorker(q Queue, opt WorkerOptions) *Worker {
	if opt.Name == "" {
		host, _ := os.Hostname()
		opt.Name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	if opt.Wait <= 0 {
		opt.Wait = time.Second
	}
	if opt.Poll <= 0 {
		opt.Poll = 100 * time.Millisecond
	}
	if opt.GiveUp <= 0 {
		opt.GiveUp = 30 * time.Second
	}
	so := opt.Solver
	so.Global = nil
	if opt.Table != nil {
		so.Global = opt.Table
	}
	return &Worker{q: q, opt: opt, s: endgame.NewSolverWith(so)}
}

// Name is the worker's name in the queue.
func (w *Worker) Name() string { return w.opt.Name }

func (w *Worker) logf(format string, args ...any) {
	if w.opt.Logf != nil {
		w.opt.Logf(format, args...)
	}
}

// Run takes and solves tasks until ctx is cancelled (then it gives its unfinished task back
// and returns nil) or the queue has failed for GiveUp without a break (then it returns the
// error; the task it holds goes to another worker after the visibility timeout).
func (w *Worker) Run(ctx context.Context) error {
	var post time.Duration
	var failing time.Time
	fail := func(err error) error {
		if failing.IsZero() {
			failing = time.Now()
		}
		if time.Since(failing) >= w.opt.GiveUp {
			return err
		}
		w.logf("%v (retrying)", err)
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
		return nil
	}
	for ctx.Err() == nil {
		d, err := w.q.Next(ctx, w.opt.Name, w.opt.Wait)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			if err := fail(err); err != nil {
				return err
			}
			continue
		}
		failing = time.Time{}
		if d == nil {
			continue
		}
		r, ok := w.solve(ctx, d)
		if !ok {
			rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			err := w.q.Release(rctx, d)
			cancel()
			return err
		}
		r.Post = post
		for {
			start := time.Now()
			err := w.q.Complete(ctx, d, r)
			post = time.Since(start)
			if err == nil || ctx.Err() != nil {
				break
			}
			if err := fail(err); err != nil {
				return err
			}
		}
		failing = time.Time{}
		w.logf("task %s/%d window (%d,%d): score %d, %d nodes, %.3f s%s", d.Task.Job, d.Task.ID, d.Task.Alpha, d.Task.Beta, r.Score, r.Nodes, r.Search.Seconds(), note(r))
	}
	return nil
}

func note(r Result) string {
	switch {
	case r.Cancelled:
		return " (withdrawn)"
	case r.FromTable:
		return " (global table)"
	case r.Reclaimed:
		return " (taken over)"
	}
	return ""
}

// solve solves the delivered task; false when ctx ended it.
func (w *Worker) solve(ctx context.Context, d *Delivery) (r Result, ok bool) {
	t := d.Task
	r = Result{Job: t.Job, ID: t.ID, Move: -1, Worker: w.opt.Name, Reclaimed: d.Reclaimed, Fetch: d.Fetch, Idle: d.Idle}
	tab := w.opt.Table
	var st0 TableStats
	if tab != nil {
		st0 = tab.Stats()
	}
	start := time.Now()
	defer func() {
		r.Search = time.Since(start)
		if tab != nil {
			st := tab.Stats().Sub(st0)
			r.Probe, r.Probes, r.Hits = st.ProbeTime, st.Probes, st.Hits
		}
	}()
	if t.Depth > 0 {
		return w.search(ctx, d, r)
	}
	// The global table may settle the task at once: a task given back by a worker that
	// died after storing its result, or a window the table's bounds already decide.
	if tab != nil {
		if e, ok := tab.Probe(t.P, t.O); ok {
			if v, ok := settles(e, t.Alpha, t.Beta); ok {
				r.Score, r.FromTable = v, true
				if e.Lower == e.Upper && e.Move < 64 {
					r.Move = int(e.Move)
				}
				return r, true
			}
		}
	}
	var stop atomic.Bool
	w.s.SetStop(&stop)
	defer w.s.SetStop(nil)
	end, withdrawn := w.extend(ctx, d, func() { stop.Store(true) })
	res := w.s.Solve(t.P, t.O, t.Alpha, t.Beta)
	end()
	r.Nodes = res.Nodes
	if res.Interrupted {
		if withdrawn() {
			r.Cancelled = true
			return r, true
		}
		return r, false
	}
	r.Score = res.Score
	if res.Move != board.NoSquare {
		r.Move = int(res.Move)
	}
	for _, sq := range res.PV {
		r.PV = append(r.PV, int(sq))
	}
	if tab != nil {
		tab.Store(t.P, t.O, entryOf(t, res))
	}
	return r, true
}

// extend extends d every Poll until the returned end is called, and calls stop when the
// controller withdraws the task (then withdrawn reports true) or ctx ends.
func (w *Worker) extend(ctx context.Context, d *Delivery, stop func()) (end func(), withdrawn func() bool) {
	var cancelled atomic.Bool
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(w.opt.Poll)
		defer tick.Stop()
		for {
			if c, err := w.q.Extend(ctx, d); err != nil {
				if ctx.Err() == nil {
					w.logf("%v", err)
				}
			} else if c {
				cancelled.Store(true)
				stop()
				return
			}
			select {
			case <-done:
				return
			case <-ctx.Done():
				stop()
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); wg.Wait() }, cancelled.Load
}

// search runs a midgame search task with the worker's engine, as a local search with the
// same limits would.
func (w *Worker) search(ctx context.Context, d *Delivery, r Result) (Result, bool) {
	t := d.Task
	if w.eng == nil {
		w.eng = search.NewEngine(w.opt.Search)
	}
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	end, withdrawn := w.extend(ctx, d, cancel)
	b := board.FromColors(t.P, t.O, true)
	res := w.eng.Search(sctx, b, search.Limits{Depth: t.Depth, Selectivity: t.Sel}, nil)
	end()
	r.Nodes = res.Nodes
	if sctx.Err() != nil {
		if withdrawn() {
			r.Cancelled = true
			return r, true
		}
		return r, false
	}
	r.Value, r.Depth, r.Exact, r.SelPct = res.Score, res.Depth, res.Exact, res.Selectivity
	r.Score = int(math.Round(res.Score))
	if res.Move != board.NoSquare {
		r.Move = int(res.Move)
	}
	for _, sq := range res.PV {
		r.PV = append(r.PV, int(sq))
	}
	return r, true
}

// settles returns the fail-soft answer the bounds lower <= score <= upper give for the
// window (alpha, beta), if they give one.
func settles(e endgame.GlobalEntry, alpha, beta int) (int, bool) {
	lo, hi := int(e.Lower), int(e.Upper)
	switch {
	case lo >= beta:
		return lo, true
	case hi <= alpha:
		return hi, true
	case lo == hi:
		return lo, true
	}
	return 0, false
}

// entryOf is the global table's entry for a task's result.
func entryOf(t Task, res endgame.SolveResult) endgame.GlobalEntry {
	e := endgame.GlobalEntry{Lower: -64, Upper: 64, Move: endgame.NoMove, Empties: uint8(board.Count(^(t.P | t.O)))}
	if res.Score > t.Alpha {
		e.Lower = int8(res.Score)
	}
	if res.Score < t.Beta {
		e.Upper = int8(res.Score)
	}
	if res.Move != board.NoSquare && (res.Score > t.Alpha || e.Lower == e.Upper) {
		e.Move = uint8(res.Move)
	}
	return e
}
