// Package ybwc is the thread pool of the Young Brothers Wait Concept parallel search
// (Feldmann; the baseline of the seed papers 000 and 003), shared by the midgame search and
// the endgame solver: a node searches its first move alone, and only then may its remaining
// moves (the "young brothers") be handed out to idle threads at a split point.
//
// A Pool owns a fixed set of threads: thread 0 is the goroutine that runs the search, threads
// 1..n-1 are worker goroutines started for a search (Start) and ended after it (Stop). A
// search that wants help at a node fills a Split of its own (preallocated, per thread and
// nesting level: nothing is allocated per node) and calls Pool.Split, which hands it to the
// idle threads; each of them runs the split's Task.Join with its own search state, and the
// split's owner, once its own share is done, waits in Pool.Wait, where it may help the splits
// its helpers open beneath it ("helpful master"). A cutoff at a split aborts it and every
// split beneath it through an atomic flag (Split.Aborted), which the searches poll.
//
// Locks are taken only at split points (recruiting, handing out a move, reporting a result,
// leaving), never at the nodes between them.
package ybwc

import (
	"sync"
	"sync/atomic"
	"time"
)

// Task is the work of a split point: Join searches the split's remaining moves with the state
// of thread t until none is left or the split is aborted.
type Task interface {
	Join(t *Thread)
}

// Split is the pool's part of a split point; a search embeds it in its own split point type
// and sets its task once (Init).
type Split struct {
	// Mu guards the search's fields of the split point (moves handed out, window, best
	// value) and, inside this package, the count of threads working on it.
	Mu            sync.Mutex
	parent        *Split
	aborted       atomic.Bool
	workers       int // threads in the split, its master included (Mu)
	masterWaiting bool
	master        *Thread
	task          Task
	nodes         uint64 // nodes handed over by the helpers (Mu)
}

// Init makes task the split's work. Call it once, when the split point is allocated.
func (s *Split) Init(task Task) { s.task = task }

// Task returns the split's work (nil before Init).
func (s *Split) Task() Task { return s.task }

// Abort ends the split: the threads on it and on every split beneath it stop their searches.
func (s *Split) Abort() { s.aborted.Store(true) }

// Aborted reports whether s or a split it lies beneath was aborted. It is safe on nil (no
// split: false).
func (s *Split) Aborted() bool {
	for x := s; x != nil; x = x.parent {
		if x.aborted.Load() {
			return true
		}
	}
	return false
}

// HandNodes moves the nodes a helper counted since n0 (its counter *count) to the split, to
// be counted once, by its owner (Nodes); the helper's next poll moves back with its counter.
func (s *Split) HandNodes(count, nextPoll *uint64, n0 uint64) {
	d := *count - n0
	*count -= d
	*nextPoll -= d
	s.Mu.Lock()
	s.nodes += d
	s.Mu.Unlock()
}

// Nodes returns the nodes the helpers handed over; the owner reads it after Wait.
func (s *Split) Nodes() uint64 { return s.nodes }

// Parent is the split s was opened beneath (nil: none).
func (s *Split) Parent() *Split { return s.parent }

// beneath reports whether s lies beneath (or is) anc.
func (s *Split) beneath(anc *Split) bool {
	for x := s; x != nil; x = x.parent {
		if x == anc {
			return true
		}
	}
	return false
}

// Thread is one thread of a pool.
type Thread struct {
	ID   int
	wake chan *Split // a split to join, or nil: the split this thread waits on is finished
	// Split is the innermost split the thread works in (nil: none); the thread's searches
	// stop when it is aborted. Only the thread itself reads or writes it.
	Split *Split
	// idle: may be recruited (pool.mu); idleFor, when set, limits the recruiting to splits
	// beneath it (a master waiting for its helpers).
	idle    bool
	idleFor *Split
	// Speculative work (spec.go): the split of the thread's running speculative task, whether
	// it runs one (pool.mu), and the signal that new work may be there.
	spec   Split
	inSpec bool
	nudge  chan struct{}
	// recruited: a split point recruited the thread during a speculative task, which serves
	// it (Pool.Serve) and goes on; served is the time spent so.
	recruited atomic.Bool
	hold      atomic.Bool
	served    time.Duration
}

// Pool is a fixed set of threads; see the package comment.
type Pool struct {
	mu      sync.Mutex
	threads []*Thread
	idle    atomic.Int32 // threads that may be recruited now
	started int          // nesting count of Start
	wg      sync.WaitGroup
	stats   Stats
	// MaxPerSplit caps the threads recruited to one split point, its master included (0: no
	// cap).
	MaxPerSplit int
	// speculator, when set, gives idle worker threads speculative tasks (spec.go); sleepers
	// counts the worker threads blocked waiting for a split or a nudge.
	speculator Speculator
	sleepers   atomic.Int32
	specNodes  atomic.Uint64
}

// New returns a pool of n threads (at least 1), thread 0 being the caller's.
func New(n int) *Pool {
	p := &Pool{threads: make([]*Thread, max(n, 1))}
	for i := range p.threads {
		// Room for one split to join and one end-of-wait signal: never more are pending.
		p.threads[i] = &Thread{ID: i, wake: make(chan *Split, 2), nudge: make(chan struct{}, 1)}
	}
	return p
}

// Stats counts what a pool did over its searches: what grows with the number of threads and
// that two cores cannot show as time.
type Stats struct {
	Splits uint64        // split points opened (with at least one helper)
	Joins  uint64        // threads recruited to a split point
	Idle   time.Duration // time the worker goroutines spent waiting for work, summed
	Busy   time.Duration // time they spent on split points, summed
	// Speculative tasks (spec.go): how many the worker goroutines ran (or began before an
	// abort), the time they spent on them and the nodes they searched.
	SpecTasks uint64
	Spec      time.Duration
	SpecNodes uint64
}

// Stats returns the counts since the pool was made (or ResetStats). Call it between searches.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.stats
	st.SpecNodes = p.specNodes.Load()
	return st
}

// ResetStats zeroes the counts.
func (p *Pool) ResetStats() {
	p.mu.Lock()
	p.stats = Stats{}
	p.specNodes.Store(0)
	p.mu.Unlock()
}

// Size is the number of threads, the caller's included.
func (p *Pool) Size() int { return len(p.threads) }

// Thread returns thread i.
func (p *Pool) Thread(i int) *Thread { return p.threads[i] }

// Start launches the worker goroutines, idle, for a search. Nested calls (a search that starts
// another, as the midgame search starts the solver) only count; the outermost one launches.
func (p *Pool) Start() {
	p.started++
	if p.started > 1 || len(p.threads) == 1 {
		return
	}
	p.mu.Lock()
	for _, t := range p.threads[1:] {
		t.idle, t.idleFor, t.Split = true, nil, nil
		p.idle.Add(1)
		p.wg.Add(1)
		go p.run(t)
	}
	p.threads[0].Split = nil
	p.mu.Unlock()
}

// Stop ends the worker goroutines after the search (the outermost call to Stop does). Every
// split is over by then: a master always waits for its helpers.
func (p *Pool) Stop() {
	p.started--
	if p.started > 0 || len(p.threads) == 1 {
		return
	}
	p.mu.Lock()
	for _, t := range p.threads[1:] {
		if t.idle {
			p.idle.Add(-1)
		}
		t.idle = false
		t.spec.Abort()
		close(t.wake)
	}
	p.mu.Unlock()
	p.wg.Wait()
	for _, t := range p.threads[1:] {
		t.wake = make(chan *Split, 2)
	}
}

// HasIdle reports whether a thread may be recruited now: a cheap test before filling a split.
func (p *Pool) HasIdle() bool { return p.idle.Load() > 0 }

func (p *Pool) run(t *Thread) {
	defer p.wg.Done()
	var idle, busy, spec time.Duration
	mark := time.Now()
	for {
		var sp *Split
		var ok bool
		select {
		case sp, ok = <-t.wake:
		default:
			if p.speculator != nil {
				now := time.Now()
				t.served = 0
				ran := p.speculate(t)
				if ran {
					idle += now.Sub(mark)
					mark = time.Now()
					spec += mark.Sub(now) - t.served
					busy += t.served
					continue
				}
			}
			// Counted before the last look for work, so that a task published after the
			// look finds the thread counted and nudges it.
			p.sleepers.Add(1)
			if p.speculator != nil && p.speculator.Pending() {
				p.sleepers.Add(-1)
				continue
			}
			select {
			case sp, ok = <-t.wake:
			case <-t.nudge:
				p.sleepers.Add(-1)
				continue
			}
			p.sleepers.Add(-1)
		}
		if !ok {
			break
		}
		if sp == nil {
			continue
		}
		now := time.Now()
		idle += now.Sub(mark)
		t.Split = sp
		sp.task.Join(t)
		t.Split = nil
		p.leave(sp)
		mark = time.Now()
		busy += mark.Sub(now)
		p.mu.Lock()
		t.idle, t.idleFor = true, nil
		p.idle.Add(1)
		p.mu.Unlock()
	}
	idle += time.Since(mark)
	p.mu.Lock()
	p.stats.Idle += idle
	p.stats.Busy += busy
	p.stats.Spec += spec
	p.mu.Unlock()
}

// Split opens sp, owned by thread t at its current node, and hands it to the idle threads
// that may take it. It returns false when none could (sp is then not open and t goes on
// alone); otherwise t runs its own share (sp's task with its own state, or its own loop) and
// then calls Wait.
func (p *Pool) Split(t *Thread, sp *Split) bool {
	p.mu.Lock()
	if t.inSpec {
		// Speculative work is never shared: a split beneath it would recruit threads that
		// certain work may need at any moment.
		p.mu.Unlock()
		return false
	}
	var recruits [64]*Thread
	n := 0
	for _, h := range p.threads {
		if p.MaxPerSplit > 0 && n+1 >= p.MaxPerSplit || n == len(recruits) {
			break
		}
		if h.idle && h != t && (h.idleFor == nil || t.Split != nil && t.Split.beneath(h.idleFor)) {
			recruits[n] = h
			n++
		}
	}
	if n == 0 {
		p.mu.Unlock()
		return false
	}
	sp.parent, sp.master, sp.workers, sp.masterWaiting, sp.nodes = t.Split, t, 1+n, false, 0
	sp.aborted.Store(false)
	t.Split = sp
	p.stats.Splits++
	p.stats.Joins += uint64(n)
	for _, h := range recruits[:n] {
		if h.inSpec {
			// Certain work first: the task serves the split at once, or drops out where
			// it cannot (HoldServe).
			h.recruited.Store(true)
			if h.hold.Load() {
				h.spec.Abort()
			}
		}
		h.idle, h.idleFor = false, nil
		p.idle.Add(-1)
		h.wake <- sp
	}
	p.mu.Unlock()
	return true
}

// leave takes a helper off sp, and tells sp's master when it was the last one.
func (p *Pool) leave(sp *Split) {
	sp.Mu.Lock()
	sp.workers--
	signal := sp.workers == 1 && sp.masterWaiting
	if signal {
		sp.masterWaiting = false
	}
	master := sp.master
	sp.Mu.Unlock()
	if signal {
		master.wake <- nil
	}
}

// Wait returns when every helper of sp, opened by thread t, has left it, and closes sp (t's
// innermost split is again the one above). Meanwhile t may be recruited to the splits opened
// beneath sp, and it joins them with its own state: the caller must have its search state
// ready to be borrowed (a Task.Join restores what it changes).
func (p *Pool) Wait(t *Thread, sp *Split) {
	waiting := false
	for {
		sp.Mu.Lock()
		if sp.workers == 1 {
			sp.Mu.Unlock()
			if waiting {
				// The last helper left while t was helping beneath sp (its leave from that
				// split let the helper finish): it has sent, or is sending, the end signal.
				<-t.wake
			}
			break
		}
		waiting = true
		sp.masterWaiting = true
		sp.Mu.Unlock()
		p.mu.Lock()
		t.idle, t.idleFor = true, sp
		p.idle.Add(1)
		p.mu.Unlock()
		x := <-t.wake
		if x == nil {
			// The last helper left; nothing can have recruited t since (a split beneath sp
			// would hold its owner, a helper of sp, in sp until t had helped it).
			p.mu.Lock()
			if t.idle {
				t.idle, t.idleFor = false, nil
				p.idle.Add(-1)
			}
			p.mu.Unlock()
			break
		}
		waiting = true
		t.Split = x
		x.task.Join(t)
		t.Split = sp
		p.leave(x)
	}
	t.Split = sp.parent
}
