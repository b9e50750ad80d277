package treesim

import "fmt"

// Tree is one artificial game tree of uniform branching factor and depth, generated lazily from
// a seed. A node is named by its signature: the root is 0 and the children of node s, best
// first, are s*B+1 .. s*B+B, so a signature is the node's path. Values are negamax values:
// seen from the side to move at the node.
//
// A node's provisional value h is the sum of the edge values on its path, each seen from the
// side that chose the edge: a child's value seen from its parent is the parent's provisional
// value plus the edge value, so h(child) = -h(parent) - edge. Children are ordered by their
// provisional values, best for the parent first, as the paper orders them by the mean of their
// predicted distributions. A leaf's value is its provisional value plus a draw from the
// distribution of a depth-ConvergeDepth subtree's value (Model.deep), so every node's value is
// predicted by its provisional value plus Model.Eps with deviation Model.SigmaR.
//
// Besides the tree itself a Tree keeps the bounds found by its oracle (Value), which answers
// the pseudo shallow searches; it is not safe for concurrent use.
type Tree struct {
	M     *Model
	Depth int
	seed  uint64
	// known holds bounds on subtree values found by Value, by signature.
	known boundTable
	kids  [][]kid // scratch per depth for Value
}

// kid is a child: its signature and provisional value.
type kid struct {
	sig uint64
	h   int32
}

// NewTree returns the tree of the given seed.
func NewTree(m *Model, depth int, seed uint64) (*Tree, error) {
	if err := checkShape(m.B, depth); err != nil {
		return nil, err
	}
	t := &Tree{M: m, Depth: depth, seed: splitmix(seed ^ 0x5eed7ee5)}
	t.kids = make([][]kid, depth+1)
	for i := range t.kids {
		t.kids[i] = make([]kid, m.B)
	}
	return t, nil
}

// checkShape refuses trees whose signatures or order keys would not fit in 56 bits.
func checkShape(b, depth int) error {
	if depth < 1 {
		return fmt.Errorf("depth %d: want at least 1", depth)
	}
	p := 1.0
	for i := 0; i < depth+1; i++ {
		p *= float64(b + 1)
	}
	if p >= 1<<56 {
		return fmt.Errorf("branching %d, depth %d: tree too large for 64-bit signatures", b, depth)
	}
	return nil
}

// children writes the children of node sig (provisional value h) into out, best first.
func (t *Tree) children(sig uint64, h int32, out []kid) {
	b := len(out)
	var edges [32]int32
	for i := 0; i < b; i++ {
		edges[i] = t.M.edge.draw(splitmix(t.seed ^ splitmix(sig<<5|uint64(i))))
	}
	// Insertion sort, largest edge (best for the parent) first; equal edges keep their draw order.
	for i := 1; i < b; i++ {
		e := edges[i]
		k := i
		for k > 0 && edges[k-1] < e {
			edges[k] = edges[k-1]
			k--
		}
		edges[k] = e
	}
	for i := 0; i < b; i++ {
		out[i] = kid{sig*uint64(b) + 1 + uint64(i), -h - edges[i]}
	}
}

// leafValue is the value of the leaf sig, whose provisional value is h.
func (t *Tree) leafValue(sig uint64, h int32) int32 {
	return h + t.M.leaf.draw(splitmix(t.seed^splitmix(sig<<5|31)))
}

// Value returns the exact negamax value of node sig (provisional value h) at the given tree
// depth. It is the oracle behind the pseudo shallow searches: a search that stops above the
// leaves still sees every node's true value, as in the paper, where shallow searches differ
// from deep ones only in how far they go.
func (t *Tree) Value(sig uint64, h int32, depth int) int32 {
	lo, _ := t.bound(sig, h, depth, -inf, inf)
	return lo
}

// bound is a fail-soft alpha-beta search of the subtree under the remembered bounds: it returns
// lo <= value <= hi with lo == hi when the value lies inside (alpha, beta).
func (t *Tree) bound(sig uint64, h int32, depth int, alpha, beta int32) (int32, int32) {
	if depth == t.Depth {
		v := t.leafValue(sig, h)
		return v, v
	}
	_, lo, hi, ok := t.known.get(sig)
	if ok && (lo == hi || lo >= beta || hi <= alpha) {
		return lo, hi
	}
	if !ok {
		lo, hi = -inf, inf
	}
	kids := t.kids[depth]
	t.children(sig, h, kids)
	best, hiAll := -inf, -inf
	for i := range kids {
		c := kids[i] // kids is scratch reused by deeper calls at this depth only
		a := max(alpha, best)
		clo, chi := t.bound(c.sig, c.h, depth+1, -beta, -a)
		best = max(best, -chi)
		hiAll = max(hiAll, -clo)
		if best >= beta {
			hiAll = inf
			break
		}
	}
	lo, hi = max(lo, best), min(hi, hiAll)
	t.known.put(sig, 0, lo, hi)
	return lo, hi
}
