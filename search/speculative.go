package search

import (
	"fmt"
	"math"
	"math/bits"
	"sync"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/internal/ybwc"
)

// Speculative tasks (seed paper 000, Ura, Tsuruoka and Chikayama, sections 2-3): under Young
// Brothers Wait a thread is idle whenever no split point is open, above all while the first
// thread searches the eldest brother at each node of its path. In speculative mode such a
// thread takes a speculative task instead: a younger brother, not yet searched, of a node
// on the first thread's current path, searched with the window it is predicted to get, its
// results kept in the shared tables where the first thread finds them when it gets there.
//
// The first thread publishes each node of its path at least specMinHeight high while it
// searches the node's first move, with the probability P that the node's other moves will be
// searched at all: they are unless the first move's value v1 reaches beta, and v1 is
// predicted, as in the paper, as normal around the node's shallower value (its entry from the
// previous iteration, else the static evaluation's Multi-ProbCut prediction) with the
// residual deviation of the Multi-ProbCut fit for the node's stage and height. An idle thread
// takes a younger brother of the published node of highest P (within specTie; ties go to the
// node nearest the root) and searches it with a null window at the predicted alpha,
// max(alpha, v1) with v1 at its predicted mean. The first thread retracts a node when its
// first move is done, and that aborts the tasks on it; the thread's own search is unchanged
// (it only finds more in the tables), so its values are those of Young Brothers Wait. A split
// point that recruits a speculating thread comes first: the task lends its Engine to the
// split's work at its next node (serve) and goes on afterwards.
//
// The queue has one lock, taken where a node is published or retracted (nodes of the first
// thread's path, at least specMinHeight high, while their first move is searched) and where a
// task is taken; never at the nodes below.

// ParallelMode chooses what the threads of a parallel search do when no split point is open
// (Config.Parallel).
type ParallelMode int

const (
	// ParallelDefault is the measured better of the two (defaultParallel).
	ParallelDefault ParallelMode = iota
	// ParallelYBWC: Young Brothers Wait alone; an idle thread waits for a split point.
	ParallelYBWC
	// ParallelSpeculative: an idle thread takes speculative tasks (this file).
	ParallelSpeculative
)

// defaultParallel is the mode of ParallelDefault (docs/parallel.md, "Speculative tasks").
const defaultParallel = ParallelYBWC

// ParseParallel reads a mode's name: "ybwc" or "speculative".
func ParseParallel(s string) (ParallelMode, error) {
	switch s {
	case "ybwc":
		return ParallelYBWC, nil
	case "speculative":
		return ParallelSpeculative, nil
	}
	return 0, fmt.Errorf("parallel mode %q: want ybwc or speculative", s)
}

func (m ParallelMode) String() string {
	switch m {
	case ParallelYBWC:
		return "ybwc"
	case ParallelSpeculative:
		return "speculative"
	}
	return defaultParallel.String()
}

const (
	// specMinHeight: lower nodes are not published; their brothers are too small a task
	// to pay for the lock and the search's start-up.
	specMinHeight = 6
	// specTie: probabilities closer than this rank as equal (the paper's "close enough to 1").
	specTie = 0.02
	// specShift moves the null window of a task below the predicted value of the first move,
	// in deviations: a task's fail-low bound then serves for first moves a little worse than
	// predicted, at the price of a costlier search.
	specShift = 0.0
)

// Node states of the queue: the younger brothers are still in the bitboard (unordered),
// being ordered by a thread, or in the list.
const (
	specUnordered = iota
	specOrdering
	specOrdered
)

// specNode is a published node of the first thread's path.
type specNode struct {
	epoch       uint32 // publications of this slot: a task's node is still its own if equal
	b           board.Board
	ply, height int
	window      [2]int // the younger brothers' window, (a, a+1) for a null window
	alpha       int    // the node's own lower bound, which orders its moves
	p           float64
	state       int
	rest        uint64 // the younger brothers before ordering
	moves       [maxMoves]orderedMove
	n, next     int                            // moves[next:n] are still to be taken
	runners     [(MaxThreads + 63) / 64]uint64 // threads (bits by ID) running tasks of this node
	settings    iterSettings
}

// specQueue is the published nodes, a stack that follows the first thread's path.
type specQueue struct {
	mu    sync.Mutex
	team  *midTeam
	nodes [maxPly]specNode
	depth int
}

// pick returns the index of the node whose next task ranks first, or -1 (q.mu held): the
// highest P, and among equals the node nearest the root, whose brothers are the largest tasks
// (the paper takes the leftmost, here the deepest: its tasks are cut short when the first
// thread finishes the first move there, which it soon does; depth 16 level 5, shallowest
// first took 10% less time than YBWC, deepest first 7%, docs/parallel.md).
func (q *specQueue) pick() int {
	best, bestP := -1, -1.0
	for s := 0; s < q.depth; s++ {
		nd := &q.nodes[s]
		switch {
		case nd.state == specOrdering, nd.state == specOrdered && nd.next >= nd.n, nd.state == specUnordered && nd.rest == 0:
			continue
		}
		if nd.p > bestP+specTie {
			best, bestP = s, nd.p
		}
	}
	return best
}

// Pending reports whether a task is waiting (ybwc.Speculator).
func (q *specQueue) Pending() bool {
	if q.team.halt.Load() {
		return false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.pick() >= 0
}

// Speculate runs one task with thread t: the next younger brother of the best node, searched
// with t's Engine, whose state it restores (ybwc.Speculator).
func (q *specQueue) Speculate(t *ybwc.Thread) bool {
	if q.team.halt.Load() {
		return false
	}
	q.mu.Lock()
	s := q.pick()
	if s < 0 {
		q.mu.Unlock()
		return false
	}
	nd := &q.nodes[s]
	word, bit := t.ID/64, uint64(1)<<uint(t.ID%64)
	nd.runners[word] |= bit
	epoch := nd.epoch
	b, ply, height, w, st, alpha := nd.b, nd.ply, nd.height, nd.window, nd.settings, nd.alpha
	var rest uint64
	var sq board.Square
	j := -1
	if nd.state == specUnordered {
		nd.state, rest = specOrdering, nd.rest
	} else {
		j, sq = nd.next, nd.moves[nd.next].sq
		nd.next++
	}
	q.mu.Unlock()

	e := q.team.members[t.ID]
	saved, savedPly, own := e.join(&st)
	e.speculating = true
	n0 := e.nodes
	if j < 0 {
		// The first thread has not ordered the brothers (it searches the table's move before
		// ordering the others): this thread does, as the first thread will.
		var list [maxMoves]orderedMove
		e.b, e.ply = b, ply
		n := e.orderMoves(list[:], rest, height, alpha, e.exactOrderKeys())
		q.mu.Lock()
		if nd.epoch == epoch && nd.state == specOrdering {
			if e.stopped {
				nd.state = specUnordered
			} else {
				nd.n = copy(nd.moves[:], list[:n])
				nd.state, nd.next = specOrdered, 0
				if nd.next < nd.n {
					j, sq = nd.next, nd.moves[nd.next].sq
					nd.next++
				}
			}
		}
		q.mu.Unlock()
	}
	if j >= 0 && !e.stopped {
		e.b, e.ply = b, ply
		e.b.Make(sq)
		e.ply = ply + 1
		e.devRem = 0
		a, beta := w[0], w[1]
		v := -e.alphaBeta(-a-1, -a, height-1)
		if v > a && v < beta && beta > a+1 && !e.stopped {
			v = -e.alphaBeta(-beta, -a, height-1)
		}
	}
	q.mu.Lock()
	if nd.epoch == epoch {
		nd.runners[word] &^= bit
		if e.stopped && j >= 0 && nd.next == j+1 {
			// Aborted while the node stands (recruited inside the solver, or the search
			// stopped): the brother is given back, its finished subtrees are in the tables.
			nd.next = j
		}
	}
	q.mu.Unlock()
	e.speculating = false
	d := e.nodes - n0
	e.nodes -= d
	e.nextPoll -= d
	q.team.pool.AddSpecNodes(d)
	e.b, e.ply = saved, savedPly
	e.adopt(&own)
	return true
}

// specPredict is the predicted value and deviation of the node at e.b searched to height:
// around its table entry's value (from the previous iteration, a shallower search) if it has
// one, else the static evaluation's Multi-ProbCut prediction; with the deviation of the
// Multi-ProbCut fit of its stage and height.
func (e *Engine) specPredict(height int, en *boundsEntry, ok bool) (mu, sigma float64) {
	sc := float64(e.scale)
	st, h := mpcStageOf(e.b.NumEmpties()), min(height, mpcMaxHeight)
	sigma = 2 * sc
	var pre *mpcPair
	if e.mpc != nil {
		pre = &e.mpc.pre[st][h]
		if pr := &e.mpc.pairs[st][h]; pr.ok {
			sigma = pr.sigma * sc
		} else if pre.ok {
			sigma = pre.sigma * sc
		}
	}
	switch {
	case ok:
		mu = float64(boundsEstimate(en))
	case pre != nil && pre.ok:
		mu, sigma = pre.a*float64(e.evaluate())+pre.b*sc, pre.sigma*sc
	default:
		mu = float64(e.evaluate())
	}
	return mu, sigma
}

// specPublish publishes the node at e.b, whose first move the first thread is about to
// search with the window (alpha, beta): its younger brothers are list (ordered) or rest (not
// yet ordered). nullWindow: they get null windows (PVS).
func (e *Engine) specPublish(alpha, beta, height int, list []orderedMove, rest uint64, mu, sigma float64, nullWindow bool) {
	p := 1.0
	if beta < scoreInf {
		// v1 <= beta-1 on the integers: the brothers are searched.
		p = 0.5 * math.Erfc(-(float64(beta)-0.5-mu)/(sigma*math.Sqrt2))
	}
	a := int(math.Round(mu - specShift*sigma))
	a = min(max(a, alpha), beta-1)
	q := e.specQ
	q.mu.Lock()
	nd := &q.nodes[q.depth]
	q.depth++
	nd.epoch++
	nd.b, nd.ply, nd.height, nd.p = e.b, e.ply, height, p
	nd.window = [2]int{a, a + 1}
	nd.alpha = alpha
	if !nullWindow {
		nd.window[1] = beta
	}
	nd.n, nd.next, nd.runners, nd.rest = 0, 0, [len(nd.runners)]uint64{}, rest
	nd.state = specUnordered
	if list != nil {
		nd.n = copy(nd.moves[:], list)
		nd.state = specOrdered
	}
	nd.settings = e.settings()
	q.mu.Unlock()
	q.team.pool.Nudge()
}

// specRetract withdraws the last published node and aborts its tasks.
func (e *Engine) specRetract() {
	q := e.specQ
	q.mu.Lock()
	q.depth--
	nd := &q.nodes[q.depth]
	nd.epoch++
	for w, r := range nd.runners {
		for ; r != 0; r &= r - 1 {
			q.team.pool.Thread(64*w + bits.TrailingZeros64(r)).AbortSpec()
		}
	}
	nd.runners = [len(nd.runners)]uint64{}
	q.mu.Unlock()
}

// specPublishRoot publishes the root (e.b) while its first move is searched: the other moves
// in their order, each to be searched with a null window at the first one's predicted value
// (its value in the previous iteration).
func (e *Engine) specPublishRoot(rm []rootMove, height int) {
	var list [maxMoves]orderedMove
	n := 0
	for _, m := range rm[1:] {
		if n < len(list) {
			list[n] = orderedMove{sq: m.sq}
			n++
		}
	}
	en := boundsEntry{lower: int16(rm[0].score), upper: int16(rm[0].score)}
	mu, sigma := e.specPredict(height, &en, rm[0].exact)
	e.specPublish(-scoreInf, scoreInf, height, list[:n], 0, mu, sigma, true)
}

// serve lends the engine of a speculative task to the split point that recruited its thread,
// then lets the task go on: the split's work restores the board and the iteration's settings
// (as a waiting owner's), its nodes go to the split; the principal variations and killer moves
// it overwrites are heuristics of the task, whose results are only the tables' entries.
func (e *Engine) serve() {
	e.speculating = false
	e.team.pool.Serve(e.th)
	e.speculating = true
	e.stopped = e.team.halt.Load()
}
