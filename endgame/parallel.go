package endgame

import (
	"sync/atomic"
	"time"

	"github.com/othellogo/othello/internal/ybwc"
)

// Parallel solving: a team of Solvers, one per thread of a ybwc.Pool, shares one table; the
// first is the one the caller holds. A node of deep (or the root) with at least splitEmpties
// empties that has searched its first move alone hands its other moves out to the idle
// threads (Young Brothers Wait), each searching with its own Solver. With one thread the pool
// never has an idle thread and the search is the sequential one.

// defaultSplitEmpties: nodes with fewer empties are searched by one thread. See
// docs/parallel.md for the measurement.
const defaultSplitEmpties = 12

// maxSplits is how many split points one thread may own at once (nested along its path).
const maxSplits = 16

// team is what the Solvers of one pool share.
type team struct {
	pool    *ybwc.Pool
	members []*Solver // members[i] searches for thread i
	// halt is raised by the first thread that sees the stop flag or the deadline, so that
	// every thread stops, and a master whose helpers stopped knows its result is incomplete.
	halt atomic.Bool
	// set is the settings of the running solve, written by the setters before it starts
	// (SetSelectivity, SetStop, SetDeadline, SetMoveHint) and copied by each helper.
	set struct {
		level    int
		mpcT     float64
		stop     *atomic.Bool
		deadline time.Time
		hint     func(p, o uint64) int
		sortDeep int
	}
}

// endSplit is a split point of the solver.
type endSplit struct {
	ybwc.Split
	owner          *Solver
	p, o           uint64
	empties        int
	parity         uint
	alpha, beta    int // alpha rises as results come in (Mu)
	best, bestMove int // (Mu)
	root           bool
	moves          [34]endMove
	next, n        int    // moves[next:n] are still to be handed out (Mu)
	evalNodes      uint64 // the helpers' ordering nodes, handed over as they leave (Mu)
	scoredNodes    uint64 // the same for their scored positions (Mu)
}

// Join is run by a helper thread: the split's remaining moves with the helper's Solver.
func (sp *endSplit) Join(t *ybwc.Thread) {
	s := sp.owner.team.members[t.ID]
	if s != sp.owner {
		s.adopt()
	}
	sp.work(s)
}

// adopt takes the settings of the running solve.
func (s *Solver) adopt() {
	st := &s.team.set
	s.level, s.mpcT, s.stop, s.deadline, s.hint = st.level, st.mpcT, st.stop, st.deadline, st.hint
	s.sortDeep = st.sortDeep
	s.stopped = s.team.halt.Load()
}

// work searches moves of the split until none is left or the split is aborted. Every
// thread's nodes end up counted once, with the split's owner.
func (sp *endSplit) work(s *Solver) {
	n0, e0, c0 := s.nodes, s.orderingNodes(), s.scoredNodes()
	for !s.stopped {
		sp.Mu.Lock()
		if sp.next >= sp.n {
			sp.Mu.Unlock()
			break
		}
		m := sp.moves[sp.next]
		sp.next++
		a, beta := sp.alpha, sp.beta
		sp.Mu.Unlock()
		np, no := sp.o^m.flips, sp.p|m.flips|1<<uint(m.sq)
		q := sp.parity ^ quadrant[m.sq]
		v := -s.search(np, no, -a-1, -a, sp.empties-1, q)
		if v > a && v < beta && !s.stopped {
			v = -s.search(np, no, -beta, -v, sp.empties-1, q)
		}
		if s.stopped {
			break
		}
		sp.Mu.Lock()
		if v > sp.best {
			sp.best = v
			if sp.root {
				sp.bestMove = int(m.sq)
			}
			if v > sp.alpha {
				sp.bestMove = int(m.sq)
				sp.alpha = v
				if v >= sp.beta {
					sp.Abort()
				}
			}
		}
		sp.Mu.Unlock()
	}
	if s != sp.owner {
		sp.HandNodes(&s.nodes, &s.nextPoll, n0)
		d, c := s.orderingNodes()-e0, s.scoredNodes()-c0
		s.evalHanded += d
		s.scoredHanded += c
		sp.Mu.Lock()
		sp.evalNodes += d
		sp.scoredNodes += c
		sp.Mu.Unlock()
	}
}

// trySplit hands the moves list.m[i:] of the node (p, o) out to idle threads, searches its own
// share and waits for the helpers. It returns false when no thread was idle (nothing was
// searched); otherwise the node's best value and move after all of them, given the best so far.
func (s *Solver) trySplit(list *moveList, i int, p, o uint64, alpha, beta, empties int, parity uint, best, bestMove int, root bool) (int, int, bool) {
	tm := s.team
	if tm == nil || s.nSplits >= maxSplits || !tm.pool.HasIdle() {
		return 0, 0, false
	}
	for j := i; j < list.n; j++ {
		list.selectBest(j)
	}
	sp := &s.splits[s.nSplits]
	sp.p, sp.o, sp.empties, sp.parity, sp.root = p, o, empties, parity, root
	sp.alpha, sp.beta, sp.best, sp.bestMove = alpha, beta, best, bestMove
	sp.n = copy(sp.moves[:], list.m[i:list.n])
	sp.next, sp.evalNodes, sp.scoredNodes = 0, 0, 0
	th := tm.pool.Thread(s.thread)
	if !tm.pool.Split(th, &sp.Split) {
		return 0, 0, false
	}
	s.nSplits++
	sp.work(s)
	tm.pool.Wait(th, &sp.Split)
	s.nSplits--
	s.nodes += sp.Nodes()
	s.evalHanded -= sp.evalNodes
	s.scoredHanded -= sp.scoredNodes
	// The owner's children may have stopped because a helper's cutoff aborted the split;
	// only a stop of the whole solve or an abort above the split stops the owner.
	s.stopped = tm.halt.Load() || th.Split.Aborted()
	return sp.best, sp.bestMove, true
}

// aborted reports whether a split this thread works under was aborted (nil team: never).
func (s *Solver) aborted() bool {
	return s.team != nil && s.team.pool.Thread(s.thread).Split.Aborted()
}

// newTeam makes s the first solver of a team of n threads; the others share its table and
// options.
func (s *Solver) newTeam(n int) {
	tm := &team{pool: ybwc.New(n)}
	tm.set.sortDeep = s.sortDeep
	tm.members = make([]*Solver, n)
	tm.members[0] = s
	s.team = tm
	for i := 1; i < n; i++ {
		h := &Solver{}
		h.copyOptions(s)
		h.thread = i
		h.team = tm
		tm.members[i] = h
	}
	for _, m := range tm.members {
		for k := range m.splits {
			m.splits[k].owner = m
			m.splits[k].Init(&m.splits[k])
		}
	}
}

// copyOptions gives s the options and the table of m.
func (s *Solver) copyOptions(m *Solver) {
	s.opt, s.tt, s.ttMin, s.midOrder, s.aspStep = m.opt, m.tt, m.ttMin, m.midOrder, m.aspStep
	s.sortDeep, s.sortDepth, s.etcEmpties, s.sortMargin = m.sortDeep, m.sortDepth, m.etcEmpties, m.sortMargin
	s.wMob, s.wPot, s.wPar = m.wMob, m.wPot, m.wPar
	s.splitEmpties = m.splitEmpties
	s.sortDeeper, s.sortDeepBase = m.sortDeeper, m.sortDeepBase
}

// Threads is the number of threads the solver searches with.
func (s *Solver) Threads() int {
	if s.team == nil {
		return 1
	}
	return len(s.team.members)
}

// Member returns the solver of thread i of s's team (Member(0) is s itself): a search that
// drives the same pool (the midgame search) gives each of its threads that thread's solver.
func (s *Solver) Member(i int) *Solver { return s.team.members[i] }

// Pool returns the thread pool of the solver's team.
func (s *Solver) Pool() *ybwc.Pool { return s.team.pool }

// ParallelStats returns the thread pool's counts (splits, joins, the helpers' idle and busy
// time) since the solver was made or ResetParallelStats.
func (s *Solver) ParallelStats() ybwc.Stats { return s.team.pool.Stats() }

// ResetParallelStats zeroes the pool's counts.
func (s *Solver) ResetParallelStats() { s.team.pool.ResetStats() }
