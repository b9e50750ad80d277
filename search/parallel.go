package search

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/internal/ybwc"
)

// Parallel search: an Engine with Config.Threads > 1 has a team of helper Engines, one per
// thread of the pool its endgame solver owns (the same threads split both searches). Helpers
// share the bounds tables and the solver's table and keep their own board, principal
// variations and killer moves. A node at least defaultSplitHeight high that has searched its
// first move alone hands its other moves out to the idle threads (Young Brothers Wait, in
// package ybwc); the root's moves are searched one after the other, each with all threads.

// defaultSplitHeight: lower nodes are searched by one thread (see docs/parallel.md).
const defaultSplitHeight = 4

// midTeam is what the Engines of one search share.
type midTeam struct {
	pool    *ybwc.Pool
	members []*Engine
	// halt is raised by the thread that sees the search's stop condition first.
	halt atomic.Bool
}

// midSplit is a split point of the midgame search. The owner copies into it the settings of
// the running iteration, which a helper takes on when it joins.
type midSplit struct {
	ybwc.Split
	owner          *Engine
	b              board.Board
	ply, height    int
	alpha, beta    int // alpha rises as results come in (Mu)
	best           int // (Mu)
	bestMove       board.Square
	moves          [maxMoves]orderedMove
	next, n        int // moves[next:n] are still to be handed out (Mu)
	pv             [maxPly]board.Square
	pvLen          int // pv[:pvLen]: the best move within the window and its line (Mu)
	settings       iterSettings
	hasPV, pvsNull bool
}

// iterSettings are an Engine's fields that one iteration of a search fixes.
type iterSettings struct {
	gen          uint8
	cur, prev    *boundsTable
	level        int
	mpcT         float64
	ttHeight     int
	leafSolve    int
	mayReachEnd  bool
	hasDeadline  bool
	hardDeadline time.Time
}

func (e *Engine) settings() iterSettings {
	return iterSettings{e.gen, e.cur, e.prev, e.level, e.mpcT, e.ttHeight, e.leafSolve, e.mayReachEnd, e.hasDeadline, e.hardDeadline}
}

func (e *Engine) adopt(s *iterSettings) {
	e.gen, e.cur, e.prev, e.level, e.mpcT = s.gen, s.cur, s.prev, s.level, s.mpcT
	e.ttHeight, e.leafSolve, e.mayReachEnd, e.hasDeadline, e.hardDeadline = s.ttHeight, s.leafSolve, s.mayReachEnd, s.hasDeadline, s.hardDeadline
}

// Join is run by a thread recruited to the split: the remaining moves with its own Engine,
// whose board and ply it restores afterwards (a waiting owner lends its Engine).
func (sp *midSplit) Join(t *ybwc.Thread) {
	e := sp.owner.team.members[t.ID]
	saved, ply, st := e.join(&sp.settings)
	e.b, e.ply = sp.b, sp.ply
	sp.work(e)
	e.b, e.ply = saved, ply
	e.adopt(&st)
}

// join makes e, a thread recruited to a split, take on the split's iteration settings; it
// returns what the caller restores afterwards (a waiting owner lends its Engine).
func (e *Engine) join(st *iterSettings) (board.Board, int, iterSettings) {
	saved, ply, own := e.b, e.ply, e.settings()
	e.adopt(st)
	e.stopped = e.team.halt.Load()
	e.nextPoll = e.nodes + pollInterval
	return saved, ply, own
}

// work searches moves of the split until none is left or the split is aborted; every
// thread's nodes end up counted once, with the owner.
func (sp *midSplit) work(e *Engine) {
	n0 := e.nodes
	ply := sp.ply
	for !e.stopped {
		sp.Mu.Lock()
		if sp.next >= sp.n {
			sp.Mu.Unlock()
			break
		}
		m := sp.moves[sp.next]
		sp.next++
		a, beta := sp.alpha, sp.beta
		sp.Mu.Unlock()
		sq, ch, chRem := m.sq, sp.height-1, 0
		if dh := int(m.dh); dh != 0 {
			ch, chRem = dh>>devShift, dh&devMask
		}
		saved := e.b
		e.b.Make(sq)
		e.ply = ply + 1
		var v int
		e.devRem = chRem
		if sp.pvsNull {
			v = -e.alphaBeta(-a-1, -a, ch)
			if v > a && v < beta && !e.stopped {
				e.devRem = chRem
				v = -e.alphaBeta(-beta, -a, ch)
			}
		} else {
			v = -e.alphaBeta(-beta, -a, ch)
		}
		e.ply = ply
		e.b = saved
		if e.stopped {
			break
		}
		sp.Mu.Lock()
		if v > sp.best {
			sp.best, sp.bestMove = v, sq
			if v > sp.alpha {
				if v >= sp.beta {
					sp.Abort()
				} else {
					sp.alpha = v
					sp.pv[0] = sq
					end := e.pvLen[ply+1]
					sp.pvLen = 1 + copy(sp.pv[1:], e.pv[ply+1][ply+1:end])
					sp.hasPV = true
				}
			}
		}
		sp.Mu.Unlock()
	}
	if e != sp.owner {
		sp.HandNodes(&e.nodes, &e.nextPoll, n0)
	}
}

// trySplit hands list[i:n] of the node at e.b out to idle threads, searches its own share and
// waits for the helpers. It returns false when no thread was idle (nothing was searched);
// otherwise the node's best value and move, given the best so far. The moves carry their
// children's heights of depth by deviation value (orderedMove.dh) into the split's copy.
func (e *Engine) trySplit(list []orderedMove, alpha, beta, height, best int, bestMove board.Square, pvs bool) (int, board.Square, bool) {
	tm := e.team
	if tm == nil || e.nSplits >= len(e.splits) || !tm.pool.HasIdle() {
		return 0, 0, false
	}
	sp := &e.splits[e.nSplits]
	sp.b, sp.ply, sp.height = e.b, e.ply, height
	sp.alpha, sp.beta, sp.best, sp.bestMove = alpha, beta, best, bestMove
	sp.n = copy(sp.moves[:], list)
	sp.next, sp.pvLen, sp.hasPV, sp.pvsNull = 0, 0, false, pvs
	sp.settings = e.settings()
	if !tm.pool.Split(e.th, &sp.Split) {
		return 0, 0, false
	}
	e.nSplits++
	sp.work(e)
	tm.pool.Wait(e.th, &sp.Split)
	e.nSplits--
	e.nodes += sp.Nodes()
	e.stopped = tm.halt.Load() || e.th.Split.Aborted()
	if sp.hasPV && !e.stopped {
		ply := e.ply
		copy(e.pv[ply][ply:], sp.pv[:sp.pvLen])
		e.pvLen[ply] = ply + sp.pvLen
	}
	return sp.best, sp.bestMove, true
}

// newTeam gives e its helpers, one per thread of its solver's pool beyond the first.
func (e *Engine) newTeam() {
	n := e.solver.Threads()
	tm := &midTeam{pool: e.solver.Pool(), members: make([]*Engine, n)}
	tm.members[0] = e
	for i := 1; i < n; i++ {
		h := &Engine{}
		h.configure(e.cfg)
		h.solver = e.solver.Member(i)
		h.cur, h.prev = e.cur, e.prev
		h.usePrev = e.usePrev
		h.mpc = e.mpc
		h.dev = e.dev
		h.ctx = context.Background()
		tm.members[i] = h
	}
	for i, m := range tm.members {
		m.team = tm
		m.th = tm.pool.Thread(i)
		for k := range m.splits {
			m.splits[k].owner = m
			m.splits[k].Init(&m.splits[k])
		}
	}
	e.team = tm
	mode := e.cfg.Parallel
	if mode == ParallelDefault {
		mode = defaultParallel
	}
	if n > 1 && mode == ParallelSpeculative {
		e.specQ = &specQueue{team: tm}
		tm.pool.SetSpeculator(e.specQ)
	}
}

// Threads is the number of threads the engine searches with.
func (e *Engine) Threads() int { return len(e.team.members) }

// ParallelStats returns the thread pool's counts (splits, joins, the helpers' idle and busy
// time) since the engine was made or ResetParallelStats.
func (e *Engine) ParallelStats() ybwc.Stats { return e.team.pool.Stats() }

// ResetParallelStats zeroes the pool's counts.
func (e *Engine) ResetParallelStats() { e.team.pool.ResetStats() }

// rootSplit shares out the root's moves after the first one: each thread takes the next move
// and searches it with a null window at the n-th best exact value known when it takes it
// (searchRoot's rule, with whatever the other threads have finished by then).
type rootSplit struct {
	ybwc.Split
	owner    *Engine
	b        board.Board
	rm       []rootMove
	done     []bool
	height   int
	n        int
	next     int // (Mu)
	settings iterSettings
}

// Join is run by a thread recruited to the root split.
func (sp *rootSplit) Join(t *ybwc.Thread) {
	e := sp.owner.team.members[t.ID]
	saved, ply, st := e.join(&sp.settings)
	sp.work(e)
	e.b, e.ply = saved, ply
	e.adopt(&st)
}

func (sp *rootSplit) work(e *Engine) {
	n0 := e.nodes
	for !e.stopped {
		sp.Mu.Lock()
		if sp.next >= len(sp.rm) {
			sp.Mu.Unlock()
			break
		}
		j := sp.next
		sp.next++
		thr := -scoreInf
		if j >= sp.n {
			var finished []rootMove
			for k := range sp.rm {
				if sp.done[k] {
					finished = append(finished, sp.rm[k])
				}
			}
			thr = nthBest(finished, sp.n)
		}
		sq := sp.rm[j].sq
		sp.Mu.Unlock()
		e.b = sp.b
		e.b.Make(sq)
		e.ply = 1
		v, failedHigh := e.rootChild(thr, sp.height)
		e.ply = 0
		if e.stopped {
			if failedHigh && sp.n == 1 {
				sp.Mu.Lock()
				sp.rm[j].salvage(thr)
				sp.done[j] = true
				sp.Mu.Unlock()
			}
			break
		}
		sp.Mu.Lock()
		m := &sp.rm[j]
		m.score, m.exact, m.lower = v, v > thr, false
		if m.exact {
			m.pv = append(append(m.pv[:0], m.sq), e.pv[1][1:e.pvLen[1]]...)
		} else {
			m.pv = append(m.pv[:0], m.sq)
		}
		sp.done[j] = true
		sp.Mu.Unlock()
	}
	if e != sp.owner {
		sp.HandNodes(&e.nodes, &e.nextPoll, n0)
	}
}

// searchRootParallel searches rm[1:] with the idle threads; it returns false when none was
// idle (nothing was searched).
func (e *Engine) searchRootParallel(rm []rootMove, done []bool, height, n int) bool {
	tm := e.team
	if len(tm.members) == 1 || !tm.pool.HasIdle() {
		return false
	}
	sp := &e.root
	sp.owner, sp.b, sp.rm, sp.done, sp.height, sp.n = e, e.b, rm, done, height, n
	sp.next = 1
	sp.settings = e.settings()
	if sp.Task() == nil {
		sp.Init(sp)
	}
	if !tm.pool.Split(e.th, &sp.Split) {
		return false
	}
	saved := e.b
	sp.work(e)
	tm.pool.Wait(e.th, &sp.Split)
	e.b, e.ply = saved, 0
	e.nodes += sp.Nodes()
	e.stopped = tm.halt.Load()
	return true
}
