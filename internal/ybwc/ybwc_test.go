package ybwc

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// countSplit counts the leaves of a uniform tree of branching b below a node of height h,
// sharing the children after the first among the pool's threads at every node of height 2 or
// more: every leaf must be counted exactly once, whatever the threads do.
type countSplit struct {
	Split
	w      *counter
	b, h   int
	next   int   // (Mu)
	leaves int64 // (Mu)
}

type counter struct {
	pool   *Pool
	splits [][]countSplit // per thread, per nesting level
	depth  []int
}

func (sp *countSplit) Join(t *Thread) { sp.work(t) }

func (sp *countSplit) work(t *Thread) {
	for {
		sp.Mu.Lock()
		if sp.next >= sp.b || sp.Aborted() {
			sp.Mu.Unlock()
			return
		}
		sp.next++
		sp.Mu.Unlock()
		n := sp.w.count(t, sp.b, sp.h-1)
		sp.Mu.Lock()
		sp.leaves += n
		sp.Mu.Unlock()
	}
}

func (c *counter) count(t *Thread, b, h int) int64 {
	if h == 0 {
		return 1
	}
	total := c.count(t, b, h-1)
	if h >= 2 && c.pool.HasIdle() && c.depth[t.ID] < len(c.splits[t.ID]) {
		sp := &c.splits[t.ID][c.depth[t.ID]]
		sp.w, sp.b, sp.h, sp.next, sp.leaves = c, b, h, 1, 0
		if c.pool.Split(t, &sp.Split) {
			c.depth[t.ID]++
			sp.work(t)
			c.pool.Wait(t, &sp.Split)
			c.depth[t.ID]--
			return total + sp.leaves
		}
	}
	for i := 1; i < b; i++ {
		total += c.count(t, b, h-1)
	}
	return total
}

func TestCountLeaves(t *testing.T) {
	for _, threads := range []int{1, 2, 3, 8} {
		p := New(threads)
		c := &counter{pool: p, splits: make([][]countSplit, threads), depth: make([]int, threads)}
		for i := range c.splits {
			c.splits[i] = make([]countSplit, 8)
			for k := range c.splits[i] {
				c.splits[i][k].Init(&c.splits[i][k])
			}
		}
		for run := 0; run < 5; run++ {
			p.Start()
			got := c.count(p.Thread(0), 5, 7)
			p.Stop()
			if got != 78125 {
				t.Fatalf("%d threads: %d leaves, want 78125", threads, got)
			}
		}
		st := p.Stats()
		if threads > 1 && (st.Splits == 0 || st.Joins < st.Splits) {
			t.Fatalf("%d threads: stats %+v", threads, st)
		}
		if threads == 1 && st.Splits != 0 {
			t.Fatalf("one thread split: %+v", st)
		}
	}
}

// Aborted is seen through every split beneath the aborted one.
func TestAbortedChain(t *testing.T) {
	var a, b, c Split
	b.parent, c.parent = &a, &b
	if c.Aborted() || (*Split)(nil).Aborted() {
		t.Fatal("aborted before any abort")
	}
	a.Abort()
	if !c.Aborted() || !b.Aborted() {
		t.Fatal("an abort above not seen")
	}
	if !c.beneath(&a) || a.beneath(&c) {
		t.Fatal("beneath")
	}
}

// spinner's speculative tasks run until they are aborted; a speculating thread may not split.
type spinner struct {
	pool                   *Pool
	started, split, served atomic.Int64
}

func (s *spinner) Pending() bool { return true }

func (s *spinner) Speculate(t *Thread) bool {
	s.started.Add(1)
	var sp Split
	if s.pool.Split(t, &sp) {
		s.split.Add(1)
	}
	for !t.Split.Aborted() {
		if t.Recruited() {
			s.pool.Serve(t)
			s.served.Add(1)
		}
		runtime.Gosched()
	}
	return true
}

// Idle threads take speculative tasks, and a split point recruits them all the same: the task
// serves the split and goes on (else the count would wait forever); Stop aborts it.
func TestSpeculativeTasksServeSplits(t *testing.T) {
	for _, threads := range []int{2, 3, 8} {
		p := New(threads)
		s := &spinner{pool: p}
		p.SetSpeculator(s)
		c := &counter{pool: p, splits: make([][]countSplit, threads), depth: make([]int, threads)}
		for i := range c.splits {
			c.splits[i] = make([]countSplit, 8)
			for k := range c.splits[i] {
				c.splits[i][k].Init(&c.splits[i][k])
			}
		}
		for run := 0; run < 5; run++ {
			p.Start()
			got := c.count(p.Thread(0), 5, 7)
			p.Stop()
			if got != 78125 {
				t.Fatalf("%d threads: %d leaves, want 78125", threads, got)
			}
		}
		st := p.Stats()
		if st.Splits == 0 || st.SpecTasks == 0 || s.started.Load() == 0 || s.served.Load() == 0 || s.split.Load() != 0 {
			t.Fatalf("%d threads: stats %+v, %d tasks started, %d splits served, %d splits from speculative tasks", threads, st, s.started.Load(), s.served.Load(), s.split.Load())
		}
	}
}
