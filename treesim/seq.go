package treesim

// Sequential is the plain recursive alpha-beta search that the simulation must reproduce with
// one process: fail-soft, the same shallow searches and the same transposition table. It
// counts the node searches that are not answered by the table.
type Sequential struct {
	tree     *Tree
	idStep   int
	tt       boundTable
	kids     [][]kid
	Nodes    int // searches not answered by the table
	Interior int // those of depth 1 or more
	Distinct int // the distinct nodes among them
	seen     boundTable
}

// NewSequential returns a sequential search of tree.
func NewSequential(tree *Tree, idStep int) *Sequential {
	q := &Sequential{tree: tree, idStep: idStep}
	q.kids = make([][]kid, tree.Depth+1)
	for i := range q.kids {
		q.kids[i] = make([]kid, tree.M.B)
	}
	return q
}

// Search returns the root's value.
func (q *Sequential) Search() int32 {
	lo, _ := q.search(0, 0, 0, q.tree.Depth, -inf, inf)
	return lo
}

func (q *Sequential) search(sig uint64, h int32, t, j int, alpha, beta int32) (int32, int32) {
	if depth, lo, hi, ok := q.tt.get(sig); ok && int(depth) >= j && (lo == hi || lo >= beta || hi <= alpha) {
		return lo, hi
	}
	q.Nodes++
	if _, _, _, ok := q.seen.get(sig); !ok {
		q.seen.put(sig, 0, 0, 0)
		q.Distinct++
	}
	if j == 0 {
		var v int32
		if t == q.tree.Depth {
			v = q.tree.leafValue(sig, h)
		} else {
			v = q.tree.Value(sig, h, t)
		}
		q.store(sig, 0, v, v)
		return v, v
	}
	q.Interior++
	if pj := j - q.idStep; q.idStep > 0 && pj >= 1 {
		if depth, _, _, ok := q.tt.get(sig); !ok || int(depth) < pj {
			q.search(sig, h, t, pj, alpha, beta)
		}
	}
	kids := q.kids[t]
	q.tree.children(sig, h, kids)
	best, hiAll := -inf, -inf
	for i := range kids {
		c := kids[i]
		clo, chi := q.search(c.sig, c.h, t+1, j-1, -beta, -max(alpha, best))
		best = max(best, -chi)
		hiAll = max(hiAll, -clo)
		if best >= beta {
			q.store(sig, uint8(j), best, inf)
			return best, inf
		}
	}
	q.store(sig, uint8(j), best, hiAll)
	return best, hiAll
}

func (q *Sequential) store(sig uint64, depth uint8, lo, hi int32) {
	store(&q.tt, sig, depth, lo, hi)
}
