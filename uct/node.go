package uct

import (
	"sync"
	"sync/atomic"

	"github.com/othellogo/othello/board"
)

// rewardOne is a reward of 1 (a win) in the fixed point of node.value: rewards are summed
// with an atomic add, so they are integers. A draw is rewardOne/2; a cut-off playout's win
// probability is rounded to 1/rewardOne.
const rewardOne = 1 << 16

// node is one position of the tree, reached by move from its parent. Its statistics are
// counted for the player who played move (the side to move at the parent), so that the
// parent picks the child with the best statistics.
//
// Concurrency: the statistics are atomic counters, read and added without a lock. visits is
// added to when a simulation passes on its way down, value when it comes back up, so a
// simulation in flight counts as a loss for the moment (the virtual loss that spreads the
// threads over the tree; with one thread nothing reads the node in between). A lock per node
// would serialise every thread on the root at each simulation; the atomics cost one locked
// add per node per direction. The small mutex guards only the expansion, which happens once
// per node: the children are built under it and published with an atomic store, so a reader
// that loads a non-nil children pointer sees them complete.
type node struct {
	visits atomic.Int32 // simulations started through this node
	move   board.Square // the move from the parent (board.NoSquare: a pass)
	pruned atomic.Bool  // root moves only: dropped by the pruning rule for now
	value  atomic.Uint64
	// sq is the sum of the squared rewards (rewardOne for a squared reward of 1), for the
	// variance of UCB1-Tuned and of the paper's equation 10; kept only when one of them is on.
	sq       atomic.Uint64
	children atomic.Pointer[[]node] // nil until expanded; empty at the end of the game
	mu       sync.Mutex             // guards expansion
}

// mean is the average reward of the node's simulations (in flight ones count as losses).
func (n *node) mean() float64 {
	v := n.visits.Load()
	if v == 0 {
		return 0
	}
	return float64(n.value.Load()) / (float64(v) * rewardOne)
}

// kids returns the children, or nil before expansion.
func (n *node) kids() []node {
	if p := n.children.Load(); p != nil {
		return *p
	}
	return nil
}

// expanded reports whether the children are known (possibly none: the game is over).
func (n *node) expanded() bool { return n.children.Load() != nil }

// expand builds the children of n, whose position is b, unless another thread did it first,
// and returns how many nodes it added. A position without a move but with a move for the
// opponent has one child, the pass; a finished game has none.
func (n *node) expand(b *board.Board) int {
	n.mu.Lock()
	if n.children.Load() != nil {
		n.mu.Unlock()
		return 0
	}
	moves := b.LegalMoves()
	var ks []node
	switch {
	case moves != 0:
		ks = make([]node, board.Count(moves))
		for i := range ks {
			ks[i].move = board.FirstSquare(moves)
			moves &= moves - 1
		}
	case board.LegalMoves(b.O, b.P) != 0:
		ks = make([]node, 1)
		ks[0].move = board.NoSquare
	default:
		ks = []node{}
	}
	n.children.Store(&ks)
	n.mu.Unlock()
	return len(ks)
}

// play makes move on b, a pass for board.NoSquare.
func play(b *board.Board, move board.Square) {
	if move == board.NoSquare {
		b.Pass()
		return
	}
	b.Make(move)
}

// detach copies the statistics and the children of n into a node of its own, so that the
// array n lives in (its siblings and their subtrees) can be collected. No search may be
// running on the tree.
func detach(n *node) *node {
	r := &node{move: n.move}
	r.visits.Store(n.visits.Load())
	r.value.Store(n.value.Load())
	r.sq.Store(n.sq.Load())
	r.children.Store(n.children.Load())
	return r
}

// countNodes counts the nodes below n (n excluded).
func countNodes(n *node) int {
	ks := n.kids()
	c := len(ks)
	for i := range ks {
		c += countNodes(&ks[i])
	}
	return c
}

// sameBoard compares positions (the line indices follow from the discs).
func sameBoard(a, b *board.Board) bool {
	return a.P == b.P && a.O == b.O && a.BlackToMove == b.BlackToMove
}

// findNode looks for the position b in the tree below root (position rb) at most depth plies
// down and returns its node, or nil.
func findNode(root *node, rb board.Board, b *board.Board, depth int) *node {
	if sameBoard(&rb, b) {
		return root
	}
	if depth == 0 || rb.NumEmpties() < b.NumEmpties() {
		return nil
	}
	ks := root.kids()
	for i := range ks {
		cb := rb
		play(&cb, ks[i].move)
		if n := findNode(&ks[i], cb, b, depth-1); n != nil {
			return n
		}
	}
	return nil
}
