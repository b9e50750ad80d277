package ybwc

import "time"

// Speculative tasks (seed paper 000, Ura, Tsuruoka and Chikayama: idle processes take the
// not-yet-searched nodes most likely to survive pruning, best first). A worker thread with no
// split point to join asks the pool's Speculator for a task and runs it; the pool knows
// nothing of what the task is. The thread stays recruitable while it speculates (certain work
// before speculative work): a split point that recruits it raises Thread.Recruited, which the
// task polls at its nodes; the task then serves the split with its own search state (Serve,
// as a waiting master lends its state) and goes on. Where the task cannot poll (HoldServe) the
// recruit aborts it instead. Speculative searches never split themselves (Pool.Split refuses
// a speculating thread), so an abort never has to unwind helpers.

// Speculator gives idle threads speculative work; a search sets it on its pool
// (SetSpeculator) for the searches that want it.
type Speculator interface {
	// Speculate runs one speculative task, if there is one, with thread t and reports
	// whether it ran one. During the task t.Split is the thread's speculative split, which
	// the task polls (Split.Aborted) and which is aborted when the pool stops (or recruits
	// t under HoldServe); the speculator may abort it too (Thread.AbortSpec). The task also
	// polls Thread.Recruited and calls Pool.Serve when it is raised.
	Speculate(t *Thread) bool
	// Pending reports whether a task may be waiting (a thread about to sleep asks).
	Pending() bool
}

// SetSpeculator makes s the source of the idle threads' speculative tasks (nil: none). Call
// it between searches.
func (p *Pool) SetSpeculator(s Speculator) { p.speculator = s }

// Nudge tells the sleeping worker threads that speculative work may be waiting; it costs an
// atomic load when none sleeps.
func (p *Pool) Nudge() {
	if p.sleepers.Load() == 0 {
		return
	}
	for _, t := range p.threads[1:] {
		select {
		case t.nudge <- struct{}{}:
		default:
		}
	}
}

// AddSpecNodes counts nodes searched by speculative tasks (Stats.SpecNodes): they belong to
// no split point, so no owner adds them to a search's count.
func (p *Pool) AddSpecNodes(n uint64) { p.specNodes.Add(n) }

// AbortSpec ends t's running speculative task, if any (safe from any thread; a task that
// starts later is not affected).
func (t *Thread) AbortSpec() { t.spec.Abort() }

// speculate runs one speculative task with worker t if it is still idle; it reports whether
// a task ran.
func (p *Pool) speculate(t *Thread) bool {
	p.mu.Lock()
	if !t.idle {
		p.mu.Unlock()
		return false // recruited meanwhile: the split is on t.wake
	}
	t.inSpec = true
	t.recruited.Store(false)
	t.hold.Store(false)
	t.spec.parent = nil
	t.spec.aborted.Store(false)
	p.mu.Unlock()
	t.Split = &t.spec
	ran := p.speculator.Speculate(t)
	t.Split = nil
	p.mu.Lock()
	t.inSpec = false
	if ran {
		p.stats.SpecTasks++
	}
	p.mu.Unlock()
	return ran
}

// Recruited reports whether a split point recruited t during its speculative task: the task
// calls Serve at once (it polls this where it polls its split).
func (t *Thread) Recruited() bool { return t.recruited.Load() }

// Serve joins the split point that recruited t during its speculative task and returns when
// t has left it; the task then goes on. The task's search state must be ready to be borrowed,
// as a waiting master's is (Task.Join restores what it changes).
func (p *Pool) Serve(t *Thread) {
	start := time.Now()
	sp := <-t.wake
	t.recruited.Store(false)
	if sp == nil {
		return
	}
	p.mu.Lock()
	t.inSpec = false // the split's work may split
	p.mu.Unlock()
	own := t.Split
	t.Split = sp
	sp.task.Join(t)
	t.Split = own
	p.leave(sp)
	p.mu.Lock()
	t.inSpec = true
	t.idle, t.idleFor = true, nil
	p.idle.Add(1)
	p.mu.Unlock()
	t.served += time.Since(start)
}

// HoldServe marks the speculative task of t as in code that does not poll Recruited (hold
// true) or back out of it: a split point that recruits t meanwhile aborts the task instead.
// After HoldServe(true) the task checks Recruited once more, since a recruit may have come
// just before.
func (t *Thread) HoldServe(hold bool) { t.hold.Store(hold) }
