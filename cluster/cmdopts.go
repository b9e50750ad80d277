package cluster

import (
	"context"
	"fmt"
	"time"

	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/bigmem"
	"github.com/othellogo/othello/search"
)

// The settings of the othello worker and solve --redis commands, their checks and runs; the
// commands bind their flags to the fields and only wire.

// WorkerRun is a worker command's run: the cluster (Redis servers, TLS, key), the threads,
// the local table in MiB, the fewest empties at which the global table is asked, no global
// table, the delay added to every round trip, the queue's visibility timeout, the
// evaluation, the tables of the midgame engine that runs search tasks in MiB, and the
// WorkerOptions' name, give-up time, task bounds and log. Infof logs the start and the
// global table's statistics at the end.
type WorkerRun struct {
	Access
	Threads, HashMiB, GlobalEmpties int
	SearchMiB                       int
	NoGlobal, NoPrefetch            bool
	Delay, Visibility               time.Duration
	Eval                            *eval.Evaluator
	WorkerOptions
	Infof func(format string, args ...any)
}

// Check refuses a malformed cluster, threads outside 1-256, tables outside 0-65536 MiB
// and task bounds out of range.
func (r WorkerRun) Check() error {
	if err := r.Access.Check(); err != nil {
		return err
	}
	switch {
	case r.Threads < 1 || r.Threads > 256:
		return fmt.Errorf("--threads %d: want 1 to 256", r.Threads)
	case r.HashMiB < 0 || r.HashMiB > 1<<16:
		return fmt.Errorf("--hash %d: want 0 to 65536 MiB", r.HashMiB)
	case r.SearchMiB < 0 || r.SearchMiB > 1<<16:
		return fmt.Errorf("--tt %d: want 0 to 65536 MiB", r.SearchMiB)
	}
	return r.WorkerOptions.checkBounds()
}

// TableBytes is the memory of the worker's tables: the solver's and the midgame engine's
// (made at the first search task), for a check at start-up.
func (r WorkerRun) TableBytes() uint64 {
	a, b := bigmem.MiB(r.HashMiB, 1), search.TableBytes(search.Config{TTMiB: r.SearchMiB})
	if a+b < a {
		return ^uint64(0)
	}
	return a + b
}

// Run connects to the servers and solves the queue's tasks until ctx ends.
func (r WorkerRun) Run(ctx context.Context) error {
	cl, err := r.Access.Resolve()
	if err != nil {
		return err
	}
	list := cl.Servers
	q, err := NewRedisQueue(ctx, QueueOptions{Server: list[0], Key: cl.Key, Logf: r.WorkerOptions.Warnf, Delay: r.Delay, Visibility: r.Visibility})
	if err != nil {
		return err
	}
	defer q.Close()
	opt := r.WorkerOptions
	opt.Solver = endgame.DefaultSolverOptions(r.HashMiB)
	opt.Solver.Threads = r.Threads
	opt.Solver.Eval = r.Eval
	opt.Solver.GlobalEmpties = r.GlobalEmpties
	opt.Search = search.Config{TTMiB: r.SearchMiB, Eval: r.Eval, Threads: r.Threads}
	opt.Weights = WeightsID(r.Eval)
	table := "no global table"
	if !r.NoGlobal {
		to := TableOptions{Servers: list, Key: cl.Key, Delay: r.Delay, PrefetchEmpties: r.GlobalEmpties}
		if r.NoPrefetch {
			to.PrefetchEmpties = 0
		}
		tab, err := NewRedisTable(to)
		if err != nil {
			return err
		}
		defer func() {
			st := tab.Stats()
			r.Infof("global table: %d probes (%d prefetched), %d hits, %d entries rejected, %.3f s waiting; %d stores, %d dropped, %d batches", st.Probes, st.Prefetched, st.Hits, st.Rejected, st.ProbeTime.Seconds(), st.Stores, st.Dropped, st.Batches)
			tab.Close()
		}()
		opt.Table = tab
		table = fmt.Sprintf("global table on %d server(s)", len(list))
	}
	w := NewWorker(q, opt)
	defer func() {
		if n := q.Dropped(); n > 0 {
			r.Infof("worker %s: %d malformed, unsigned or out-of-bounds task(s) dropped", w.Name(), n)
		}
	}()
	r.Infof("worker %s: queue on %s, %s, %d thread(s), local table %d MiB, build %q, weights %s, %s", w.Name(), list[0], table, r.Threads, r.HashMiB, w.opt.Build, w.opt.Weights, keyNote(cl.Key))
	return w.Run(ctx)
}

// keyNote says whether the cluster's messages are signed.
func keyNote(k *Key) string {
	if k == nil {
		return "no cluster key (loopback only)"
	}
	return "messages signed with the cluster key"
}

// DsolveOptions are those of solve --redis (and its alias dsolve): the run, with the
// cluster, the split and the positions solved (endgame.SelectProblems) as text.
type DsolveOptions struct {
	ProblemRun
	Access
	SplitName, Only string
}

// Check reads the cluster and the split into the run, refusing malformed ones.
func (o *DsolveOptions) Check() error {
	cl, err := o.Access.Resolve()
	if err != nil {
		return err
	}
	sp, err := ParseSplit(o.SplitName)
	if err != nil {
		return err
	}
	o.Cluster, o.Options.Split = cl, sp
	return nil
}

// Select sets the run's file and positions (First from the file's name when not positive)
// and selects those of Only, refusing a selection outside them.
func (o *DsolveOptions) Select(path string, problems []endgame.Problem) error {
	o.Path, o.Problems = path, problems
	if o.First <= 0 {
		o.First = endgame.FirstNumber(path)
	}
	var err error
	o.Selected, err = endgame.SelectProblems(o.Only, o.First, len(problems))
	return err
}

// ReadBase reads the single-process run of BasePath, when set.
func (o *DsolveOptions) ReadBase() error {
	if o.BasePath == "" {
		return nil
	}
	var err error
	o.Base, err = ReadBase(o.BasePath)
	return err
}
