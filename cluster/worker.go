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
	// Bounds of the tasks the worker takes (0: 40 empties for a solve, depth 40 for a
	// search, 1 h): a task beyond them is dropped before it is solved, and a task that
	// runs for MaxTaskTime is stopped and reported failed to its controller.
	MaxEmpties, MaxDepth int
	MaxTaskTime          time.Duration
	// Build and Weights identify the worker's engine (""/"": BuildID() and WeightsID of
	// Search.Eval, else Solver.Eval): a task of a controller that runs another is refused.
	Build, Weights string
	// Logf, when set, gets one line per task and per queue failure; Warnf (Logf when nil) a
	// line per task refused or dropped.
	Logf, Warnf func(format string, args ...any)
}

// The default bounds of the tasks a worker takes.
const (
	defaultMaxEmpties  = 40
	defaultMaxDepth    = 40
	defaultMaxTaskTime = time.Hour
)

// checkBounds refuses task bounds out of range (zero is the default).
func (o WorkerOptions) checkBounds() error {
	switch {
	case o.MaxEmpties < 0 || o.MaxEmpties > 60:
		return fmt.Errorf("--max-empties %d: want 1 to 60", o.MaxEmpties)
	case o.MaxDepth < 0 || o.MaxDepth > 60:
		return fmt.Errorf("--max-depth %d: want 1 to 60", o.MaxDepth)
	case o.MaxTaskTime < 0:
		return fmt.Errorf("--max-task-time %v: want a positive duration", o.MaxTaskTime)
	}
	return nil
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
	if opt.MaxEmpties <= 0 {
		opt.MaxEmpties = defaultMaxEmpties
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = defaultMaxDepth
	}
	if opt.MaxTaskTime <= 0 {
		opt.MaxTaskTime = defaultMaxTaskTime
	}
	if opt.Build == "" {
		opt.Build = BuildID()
	}
	if opt.Weights == "" {
		ev := opt.Search.Eval
		if ev == nil {
			ev = opt.Solver.Eval
		}
		opt.Weights = WeightsID(ev)
	}
	if opt.Warnf == nil {
		opt.Warnf = opt.Logf
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

func (w *Worker) warnf(format string, args ...any) {
	if w.opt.Warnf != nil {
		w.opt.Warnf(format, args...)
	}
}

// check returns why the worker will not solve t: a task outside its bounds (it is
// dropped) or of another engine (refused: it goes back to the queue).
func (w *Worker) check(t Task) (drop, refuse string) {
	empties := board.Count(^(t.P | t.O))
	switch {
	case t.Job == "" || len(t.Job) > 64 || t.ID < 0:
		return "no job or task number", ""
	case t.P&t.O != 0:
		return "discs of both colours on one square", ""
	case t.Depth < 0 || t.Depth > 60:
		return fmt.Sprintf("depth %d", t.Depth), ""
	case t.Depth == 0 && empties > w.opt.MaxEmpties:
		return fmt.Sprintf("a solve of %d empties (this worker's -max-empties %d)", empties, w.opt.MaxEmpties), ""
	case t.Depth == 0 && (t.Alpha < -65 || t.Beta > 65 || t.Alpha >= t.Beta):
		return fmt.Sprintf("window (%d,%d)", t.Alpha, t.Beta), ""
	case t.Depth > w.opt.MaxDepth:
		return fmt.Sprintf("a search to depth %d (this worker's -max-depth %d)", t.Depth, w.opt.MaxDepth), ""
	case t.Sel < 0 || t.Sel > search.MaxSelectivity:
		return fmt.Sprintf("selectivity %d", t.Sel), ""
	case t.Build != w.opt.Build || t.Weights != w.opt.Weights:
		return "", fmt.Sprintf("the controller runs build %q with weights %s, this worker build %q with weights %s", t.Build, t.Weights, w.opt.Build, w.opt.Weights)
	}
	return "", ""
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
		if drop, refuse := w.check(d.Task); drop != "" || refuse != "" {
			var err error
			if drop != "" {
				w.warnf("task %s/%d dropped: %s", d.Task.Job, d.Task.ID, drop)
				err = w.q.Drop(ctx, d)
			} else {
				w.warnf("task %s/%d refused: %s", d.Task.Job, d.Task.ID, refuse)
				err = w.q.Refuse(ctx, d, Result{Job: d.Task.Job, ID: d.Task.ID, Move: -1, Worker: w.opt.Name, Build: w.opt.Build, Weights: w.opt.Weights, Refused: refuse})
				// The task went back to the queue, for a worker of the controller's build.
				select {
				case <-ctx.Done():
				case <-time.After(w.opt.Wait):
				}
			}
			if err != nil && ctx.Err() == nil {
				w.logf("%v", err)
			}
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
	case r.Failed != "":
		return " (failed: " + r.Failed + ")"
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
	r = Result{Job: t.Job, ID: t.ID, Move: -1, Worker: w.opt.Name, Build: w.opt.Build, Weights: w.opt.Weights, Reclaimed: d.Reclaimed, Fetch: d.Fetch, Idle: d.Idle}
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
	end, withdrawn, overtime := w.extend(ctx, d, func() { stop.Store(true) })
	res := w.s.Solve(t.P, t.O, t.Alpha, t.Beta)
	end()
	r.Nodes = res.Nodes
	if res.Interrupted {
		switch {
		case withdrawn():
			r.Cancelled = true
			return r, true
		case overtime():
			r.Failed = fmt.Sprintf("stopped after the worker's -max-task-time %v", w.opt.MaxTaskTime)
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
// controller withdraws the task (then withdrawn reports true), after MaxTaskTime (then
// overtime reports true) or when ctx ends.
func (w *Worker) extend(ctx context.Context, d *Delivery, stop func()) (end func(), withdrawn, overtime func() bool) {
	var cancelled, late atomic.Bool
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(w.opt.Poll)
		defer tick.Stop()
		limit := time.NewTimer(w.opt.MaxTaskTime)
		defer limit.Stop()
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
			case <-limit.C:
				late.Store(true)
				stop()
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); wg.Wait() }, cancelled.Load, late.Load
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
	end, withdrawn, overtime := w.extend(ctx, d, cancel)
	b := board.FromColors(t.P, t.O, true)
	res := w.eng.Search(sctx, b, search.Limits{Depth: t.Depth, Selectivity: t.Sel}, nil)
	end()
	r.Nodes = res.Nodes
	if sctx.Err() != nil {
		switch {
		case withdrawn():
			r.Cancelled = true
			return r, true
		case overtime():
			r.Failed = fmt.Sprintf("stopped after the worker's -max-task-time %v", w.opt.MaxTaskTime)
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
