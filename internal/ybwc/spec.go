package ybwc

// Speculative tasks (seed paper 000, Ura, Tsuruoka and Chikayama: idle processes take the
// not-yet-searched nodes most likely to survive pruning, best first). A worker thread with no
// split point to join asks the pool's Speculator for a task and runs it; the pool knows
// nothing of what the task is. The thread stays recruitable while it speculates: a split
// point that recruits it aborts its task (certain work before speculative work), and the
// thread joins the split as soon as its search sees the abort. Speculative searches never
// split (Pool.Split refuses a speculating thread), so an abort never has to unwind helpers.

// Speculator gives idle threads speculative work; a search sets it on its pool
// (SetSpeculator) for the searches that want it.
type Speculator interface {
	// Speculate runs one speculative task, if there is one, with thread t and reports
	// whether it ran one. During the task t.Split is the thread's speculative split, which
	// the task polls (Split.Aborted) and which is aborted when the pool recruits t or stops;
	// the speculator may abort it too (Thread.AbortSpec).
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
