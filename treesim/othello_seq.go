package treesim

// OthelloSequential is Sequential over an Othello tree: the plain recursive alpha-beta search,
// fail-soft, with the same shallow searches and transposition table, that the simulation must
// reproduce with one process. It works on the positions directly, not on the simulation's
// nodes.
type OthelloSequential struct {
	tree   *OthelloTree
	idStep int
	tt     boundTable
	kids   [][maxKids]okid
	Nodes  int // searches not answered by the table
	// Expanded and Children count the searches that generated children and their children:
	// the branching factor of the searched tree is their ratio.
	Expanded, Children int
}

// NewOthelloSequential returns a sequential search of tree.
func NewOthelloSequential(tree *OthelloTree, idStep int) *OthelloSequential {
	return &OthelloSequential{tree: tree, idStep: idStep, kids: make([][maxKids]okid, tree.Depth+1)}
}

// Search returns the root's value.
func (q *OthelloSequential) Search() int32 {
	lo, _ := q.search(q.tree.root, 0, q.tree.Depth, -inf, inf)
	return lo
}

func (q *OthelloSequential) search(ps othPos, t, j int, alpha, beta int32) (int32, int32) {
	sig := q.tree.sig(ps, t)
	if depth, lo, hi, ok := q.tt.get(sig); ok && int(depth) >= j && (lo == hi || lo >= beta || hi <= alpha) {
		return lo, hi
	}
	q.Nodes++
	if j == 0 || q.tree.terminal(ps) {
		v := q.tree.value(ps, t)
		store(&q.tt, sig, uint8(j), v, v)
		return v, v
	}
	if pj := j - q.idStep; q.idStep > 0 && pj >= 1 {
		if depth, _, _, ok := q.tt.get(sig); !ok || int(depth) < pj {
			q.search(ps, t, pj, alpha, beta)
		}
	}
	kids := &q.kids[t]
	n := q.tree.children(ps, t, kids[:])
	q.Expanded++
	q.Children += n
	best, hiAll := -inf, -inf
	for i := 0; i < n; i++ {
		clo, chi := q.search(kids[i].pos, t+1, j-1, -beta, -max(alpha, best))
		best = max(best, -chi)
		hiAll = max(hiAll, -clo)
		if best >= beta {
			store(&q.tt, sig, uint8(j), best, inf)
			return best, inf
		}
	}
	store(&q.tt, sig, uint8(j), best, hiAll)
	return best, hiAll
}
