package search

import (
	"math/bits"

	"github.com/othellogo/othello/board"
)

// The midgame tree search: negamax alpha-beta, fail-soft. Far from the leaves it is PVS
// (null-window searches after the first move, a re-search on fail high), probes and stores the
// bounds tables, orders moves and tries Multi-ProbCut; near the leaves it is plain alpha-beta in
// a fixed order of square types, where a table probe or a sort costs more than it saves. The
// switch heights are Config fields so `othello bench` can measure them; the defaults below are
// the measured best on the bench set (see docs/midgame.md).

const (
	// PVS at height >= defaultPVSHeight, plain alpha-beta below. Below defaultTTHeight the
	// search is plain alpha-beta anyway; from 3 to 6 the PVS height changed the bench node
	// count (depth 10) by under 0.3%, and no PVS at all costs 6% more nodes.
	defaultPVSHeight = 3
	// Bounds tables and sorted move order at height >= this: 3 searched 25% fewer nodes than 4
	// in less time; 2 searched 18% fewer nodes again but took longer in the one (noisy) run
	// (bench, depth 10-11, mobility evaluation).
	defaultTTHeight = 3
	// With Multi-ProbCut the tables start one ply lower, where the moves after the table's
	// move keep the fixed order of the last plies (sortHeight): the check searches revisit the
	// same small subtrees, and height-2 entries and moves serve them. Bench (16 MiB, level 4):
	// depth 12 3,607,967 -> 2,832,195 nodes, -13% time; depth 14 10,263,894 -> 8,610,846,
	// -12%; 50 WTHOR positions (30-50 empties) depth 12 14,835,906 -> 13,245,494, -4%; 400
	// games at 25 ms a move against height 3: 50.7%. Without selectivity it costs: depth 11
	// 20,355,863 -> 28,141,407 nodes (+40% time) whatever the table size, so full-width
	// searches keep defaultTTHeight. Sorting at height 2 as well: 2,364,957 nodes at depth
	// 12 but no faster than height 3.
	defaultTTHeightMPC = 2
	sortHeight         = 3
	fastestFirstAt     = 18 // order by fewest opponent moves at this many empties or fewer
	// defaultEvalOrderHeight: from this height moves without a table entry are ordered by a
	// shallow search of each child (the static evaluation from here, one ply more every 3 of
	// height) instead of the mobility/corner score. With Multi-ProbCut most nodes near the
	// leaves have no table move (the previous iteration cut them), and the cheap score found the
	// cutting move first at only 58% of them. Bench (12 positions, level 4, 16 MiB, weights D,
	// bitboard order near the leaves): depth 12 3,934,815 -> 3,559,211 nodes, depth 14
	// 12,909,517 -> 10,368,428 (-19% time); without selectivity, depth 11, -2% nodes. Heights
	// 4 and 6 and one ply every 2 or 4 were worse (with weights F and the static leaf order too).
	defaultEvalOrderHeight = 5
	// sortAlphaDelta (discs): with Multi-ProbCut, orderKey's shallow searches resolve the
	// moves within this much below the node's alpha and above; the others get a bound.
	// Bench level 5: depth 16 4,685,151 -> 4,177,997 nodes, depth 18 15,233,239 ->
	// 12,767,198 (docs/midgame.md); 8 discs or 2 within 2% of 4.
	sortAlphaDelta = 4
	maxPly         = 128
	maxMoves       = 34 // no reachable position has more than 33 legal moves
	scoreInf       = 32000
	pollInterval   = 4096 // poll the stop conditions every this many nodes
)

// orderedMove is a move with its ordering key (higher first) and, at a node of depth by
// deviation value (devHeights), the child's height in 1/devUnit plies, 0 for one ply less
// than the node (8 bytes either way).
type orderedMove struct {
	sq  board.Square
	dh  int16
	key int32
}

// alphaBeta returns the fail-soft negamax value of e.b searched to height plies (passes do
// not count), from the side to move's view. A stopped search returns 0; callers check
// e.stopped before using any value.
func (e *Engine) alphaBeta(alpha, beta, height int) int {
	e.nodes++
	// The fraction of a ply the parent handed down (depth by deviation value); every node
	// takes it on entry, so that no other search below sees it.
	rem := e.devRem
	e.devRem = 0
	if e.nodes >= e.nextPoll {
		e.poll()
	}
	ply := e.ply
	e.pvLen[ply] = ply
	if e.stopped {
		return 0
	}
	// No score leaves [-64, 64] discs (a wipeout), and the evaluation stays within them too
	// (evaluate): a window above or below that range is decided before any move. Without
	// this test a node won by 64 discs searched with alpha at +64 (every move after the
	// first at a node already won by 64) has no move that fails high, so it searches all
	// of them, each reply again one move deep and its children all, a tree that doubles
	// with every ply: FFO #39 (+64, 26 empties) took 344 M nodes to depth 20, against
	// 1.8 M for its exact solve (docs/midgame.md).
	if v, decided := e.beyondScores(alpha, beta); decided {
		return v
	}
	if height >= e.ttHeight && e.th.Split != nil {
		if e.speculating && e.th.Recruited() {
			e.serve()
		}
		if e.th.Split.Aborted() {
			e.stopped = true
			return 0
		}
	}
	if e.mayReachEnd && height <= e.endHandover && e.b.NumEmpties() <= height {
		// The search reaches the end of the game from here: the solver is faster.
		return e.endNode(alpha, beta)
	}
	if height <= 0 {
		if e.mayReachEnd && e.b.P|e.b.O == ^uint64(0) {
			return board.DiscDiff(e.b.P, e.b.O) * e.scale // a full board: the final score
		}
		if e.b.NumEmpties() <= e.leafSolve {
			// A few empties from the end the solver's exact value costs little more than
			// the evaluation and has none of its error (defaultLeafSolve).
			return e.endNode(alpha, beta)
		}
		return e.evaluate()
	}
	p, o := e.b.P, e.b.O
	moves := board.LegalMoves(p, o)
	if moves == 0 {
		if board.LegalMoves(o, p) == 0 {
			return board.DiscDiff(p, o) * e.scale
		}
		e.devRem = rem
		return e.searchPass(alpha, beta, height)
	}
	if height < e.ttHeight {
		if e.level > 0 && height >= staticCutMin {
			if v, cut := e.staticCut(alpha, beta, height); cut {
				return v
			}
		}
		return e.alphaBetaLeafward(alpha, beta, height, moves)
	}

	key := boundsHash(p, o)
	hashMove := board.NoSquare
	en, ok := e.cur.probe(key, e.gen)
	if e.cfg.NoTable {
		ok = false
	}
	if !ok && e.usePrev && !e.cfg.NoTable {
		// The previous iteration's entry orders the moves, and when it searched this position
		// deep enough (a Multi-ProbCut check search, or a transposition nearer the root) its
		// bounds hold as well.
		en, ok = e.prev.probe(key, e.gen-1)
	}
	if ok {
		hashMove = board.Square(en.move)
		if int(en.height) >= height && int(en.sel) <= e.level {
			lo, up := int(en.lower), int(en.upper)
			if lo >= beta || lo == up {
				return lo
			}
			if up <= alpha {
				return up
			}
		}
	}

	if e.level > 0 && height >= staticCutMin {
		if v, cut := e.probCut(alpha, beta, height); cut {
			return v
		}
	}

	// The table's move is searched before the others are even ordered: when it refutes the
	// node, ordering them would be wasted. At a node of depth by deviation value the table's
	// move keeps the full height and the others get theirs when they are ordered.
	var list [maxMoves]orderedMove
	n, ordered := 0, false
	dev := e.dev != nil && height >= e.devHeight && e.b.NumEmpties() > fastestFirstAt
	if hashMove != board.NoSquare && moves&hashMove.Bit() != 0 {
		list[0] = orderedMove{sq: hashMove}
		n = 1
		moves &^= hashMove.Bit()
	}
	best, bestMove := -scoreInf, board.NoSquare
	a := alpha
	pvs := height >= e.pvsHeight
	for i := 0; ; i++ {
		if i == n {
			if ordered || moves == 0 {
				break
			}
			if height < sortHeight {
				// The table's move first, then the killer and the fixed order of the last
				// plies.
				n += staticOrder(list[n:], moves, e.killer[ply]&moves)
			} else {
				n0 := n
				n += e.orderMoves(list[n:], moves, height, a, e.exactOrderKeys())
				if dev {
					e.devHeights(list[:n], n0, best, height, rem)
				}
			}
			ordered = true
		}
		if i > 0 && height >= e.splitHeight && (ordered || moves == 0) {
			if b, bm, ok := e.trySplit(list[i:n], a, beta, height, best, bestMove, pvs); ok {
				if e.stopped {
					return 0
				}
				best, bestMove = b, bm
				break
			}
		}
		// Speculative mode: the first thread publishes the node while it searches the first
		// move, so that an idle thread may search the others ahead of it (speculative.go).
		published := false
		if i == 0 && e.specQ != nil && height >= specMinHeight && height+ply >= e.rootHeight {
			var rest []orderedMove
			restBits := moves
			if ordered {
				rest, restBits = list[1:n], 0
			}
			if len(rest) > 0 || restBits != 0 {
				mu, sigma := e.specPredict(height, &en, ok)
				e.specPublish(a, beta, height, rest, restBits, mu, sigma, pvs)
				published = true
			}
		}
		sq := list[i].sq
		// Copying the board back after the child's search is cheaper than Unmake's second
		// pass over the line indices (bench: -8% time at depth 11, -17% at depth 12 level 4,
		// the same nodes). Here, near the leaves and in orderKey.
		ch, chRem := height-1, 0
		if dh := int(list[i].dh); dh != 0 {
			ch, chRem = dh>>devShift, dh&devMask
		}
		saved := e.b
		e.b.Make(sq)
		e.ply++
		var v int
		e.devRem = chRem
		if pvs && i > 0 {
			v = -e.alphaBeta(-a-1, -a, ch)
			if v > a && v < beta && !e.stopped {
				e.devRem = chRem
				v = -e.alphaBeta(-beta, -a, ch)
			}
		} else {
			v = -e.alphaBeta(-beta, -a, ch)
		}
		e.ply--
		e.b = saved
		if published {
			e.specRetract()
		}
		if e.stopped {
			return 0
		}
		if v > best {
			best, bestMove = v, sq
			if v > a {
				if v >= beta {
					if height < sortHeight && !e.cfg.NoKiller {
						e.killer[ply] = sq.Bit()
					}
					break
				}
				a = v
				e.updatePV(ply, sq)
			}
		}
	}
	lo, up := -scoreInf, scoreInf
	switch {
	case best >= beta:
		lo = best
	case best > alpha:
		lo, up = best, best
	default:
		up = best
	}
	if !e.cfg.NoTable {
		e.cur.store(key, e.gen, height, lo, up, int(bestMove), e.level)
	}
	return best
}

// The static move order near the leaves, where sorting costs more than it saves: corners,
// then the other edge squares except the C-squares, then the rest, X-squares last. Bench (12
// positions, 16 MiB): depth 12 level 4 4,176,044 -> 3,606,538 nodes, depth 14 level 4
// 12,151,854 -> 10,354,995, depth 11 full width 23,010,899 -> 20,355,863, against bitboard
// order; corners / rest / X-squares alone gave 3,719,850, 10,808,124, 21,621,983.
const (
	leafEdges = 0xFF818181818181FF &^ cornerSquares &^ cSquares
	leafInner = ^uint64(cornerSquares | xSquares | leafEdges)
	cSquares  = 0x4281000000008142
)

// leafClasses splits moves into the classes of the fixed order, best first: the killer (a
// move of moves or 0), then the square types.
//
// The killer is the move that last refuted a node of the same ply below sortHeight
// (Engine.killer): that node was a sibling or a cousin, its position nearly this one, and
// the move that refuted it often refutes this one. Tried first (after the table's move at
// height 2), it saves the evaluation of the moves the square-type order would try before
// it. Bench depth 16 level 5: 13,218,339 -> 11,737,230 nodes, 8-11% less time (three
// alternating runs); at height 1 alone 12,603,108. Killers at heights 3-4 as well, ahead of
// the mobility order there, searched 12,246,438 nodes in more time than at heights 1-2
// alone, so those heights keep their order (docs/midgame.md, commit 0471440).
func leafClasses(moves, killer uint64) [5]uint64 {
	moves &^= killer
	return [5]uint64{killer, moves & cornerSquares, moves & leafEdges, moves & leafInner, moves & xSquares}
}

// staticOrder fills list with the moves in the fixed order of the last plies: the killer
// (a move of moves or 0) first, then by square type.
func staticOrder(list []orderedMove, moves, killer uint64) int {
	n := 0
	for _, class := range leafClasses(moves, killer) {
		for m := class; m != 0 && n < len(list); m &= m - 1 {
			list[n] = orderedMove{sq: board.FirstSquare(m)}
			n++
		}
	}
	return n
}

// alphaBetaLeafward is plain fail-soft alpha-beta in the fixed order (killer, then square
// types), for the last plies.
func (e *Engine) alphaBetaLeafward(alpha, beta, height int, moves uint64) int {
	if height == 1 && e.bitboardEval && e.b.NumEmpties() > e.leafSolve+1 {
		return e.alphaBetaFrontier(alpha, beta, moves)
	}
	// At height 1 every child is a leaf, evaluated unless the solver takes it (leafSolve).
	// With the evaluation cache its leaves are valued here, as alphaBeta would at height 0:
	// a leaf whose value the cache holds without making the move (no line-index update), the
	// others made and evaluated without alphaBeta's tests for inner nodes. The same values,
	// node counts and principal variations (TestEvalCacheSearch).
	leaves := height == 1 && e.leafChildren()
	best := -scoreInf
	ply := e.ply
	p, o := e.b.P, e.b.O
	for _, class := range leafClasses(moves, e.killer[ply]&moves) {
		for m := class; m != 0; m &= m - 1 {
			sq := board.FirstSquare(m)
			var v int
			if leaves {
				v = -e.leaf(sq, board.Flips(p, o, sq), p, o, -beta, -alpha)
			} else {
				saved := e.b
				e.b.Make(sq)
				e.ply++
				v = -e.alphaBeta(-beta, -alpha, height-1)
				e.ply--
				e.b = saved
			}
			if v > best {
				best = v
				if v > alpha {
					if v >= beta {
						if !e.cfg.NoKiller {
							e.killer[ply] = sq.Bit()
						}
						return v
					}
					alpha = v
					e.updatePV(ply, sq)
				}
			}
		}
	}
	return best
}

// leaf is alphaBeta(alpha, beta, 0) of the child of move sq, flipping f, (at e.ply+1) for a
// position p, o (e.b) whose children are evaluated (neither a full board nor within the
// solver's leafSolve), with the evaluation cache: the value from the cache without making
// the move when it holds the child, else the move made and the child evaluated.
func (e *Engine) leaf(sq board.Square, f, p, o uint64, alpha, beta int) int {
	e.nodes++
	if e.nodes >= e.nextPoll {
		e.poll()
	}
	e.pvLen[e.ply+1] = e.ply + 1
	if e.stopped {
		return 0
	}
	if v, decided := e.beyondScores(alpha, beta); decided {
		return v
	}
	if v, ok := e.evc.Lookup(o&^f, p|f|sq.Bit()); ok {
		return v
	}
	saved := e.b
	e.b.MakeFlips(sq, f)
	v := e.evc.Eval(&e.b)
	e.b = saved
	return v
}

// leafChildren reports whether leaf may value the children of e.b: the engine has the
// evaluation cache, and a child is evaluated at height 0 (neither a full board nor within
// the solver's leafSolve).
func (e *Engine) leafChildren() bool {
	return e.evc != nil && e.b.NumEmpties()-1 > max(e.leafSolve, 0)
}

// beyondScores decides a node whose window lies above or below every score (a wipeout, the
// evaluation's bound): its value is that bound, before any move (see alphaBeta).
func (e *Engine) beyondScores(alpha, beta int) (int, bool) {
	ms := e.maxScore
	switch {
	case alpha >= ms:
		return ms, true
	case beta <= -ms:
		return -ms, true
	}
	return 0, false
}

// alphaBetaFrontier is height 1 for an evaluation that needs only the bitboards: each child
// is evaluated without making the move on the board (no line-index update).
func (e *Engine) alphaBetaFrontier(alpha, beta int, moves uint64) int {
	best := -scoreInf
	p, o := e.b.P, e.b.O
	ply := e.ply
	for m := moves; m != 0; m &= m - 1 {
		sq := board.FirstSquare(m)
		f := board.Flips(p, o, sq)
		e.nodes++
		np, no := o&^f, p|f|sq.Bit()
		var v int
		if e.mayReachEnd && np|no == ^uint64(0) {
			v = -board.DiscDiff(np, no) * e.scale
		} else {
			v = -mobilityEval(np, no)
		}
		if v > best {
			best = v
			if v > alpha {
				if v >= beta {
					return v
				}
				alpha = v
				e.pvLen[ply+1] = ply + 1
				e.updatePV(ply, sq)
			}
		}
	}
	return best
}

// searchPass searches the position after a forced pass; a pass costs no height.
func (e *Engine) searchPass(alpha, beta, height int) int {
	ply := e.ply
	e.b.Pass()
	e.ply++
	v := -e.alphaBeta(-beta, -alpha, height)
	e.ply--
	e.b.Pass()
	if v > alpha && v < beta {
		e.updatePV(ply, board.NoSquare)
	}
	return v
}

// updatePV makes the principal variation at ply sq followed by that of ply+1.
func (e *Engine) updatePV(ply int, sq board.Square) {
	if ply+1 >= maxPly {
		return
	}
	e.pv[ply][ply] = sq
	end := e.pvLen[ply+1]
	copy(e.pv[ply][ply+1:end], e.pv[ply+1][ply+1:end])
	e.pvLen[ply] = end
}

// orderMoves fills list with the moves, best first: children that the
// previous iteration's table knows (by their value there), then the rest by static value
// (static evaluation in the midgame, fewest opponent moves near the end).
func (e *Engine) orderMoves(list []orderedMove, moves uint64, height, alpha int, exactKeys bool) int {
	p, o := e.b.P, e.b.O
	fastest := bits.OnesCount64(^(p | o)) <= fastestFirstAt
	// The children's table buckets are fetched for all of them before any is looked at:
	// each probe (here in orderKey, then in the child's own search) is a cache miss of its
	// own otherwise, and the processor overlaps prefetches. Bench depth 12 level 5 on 300
	// positions: the same nodes in 10% less time.
	var flips [maxMoves]uint64
	prefetch := height-1 >= e.ttHeight
	n := 0
	for m := moves; m != 0 && n < len(list); m &= m - 1 {
		sq := board.FirstSquare(m)
		f := board.Flips(p, o, sq)
		flips[n] = f
		list[n].sq = sq
		n++
		if prefetch {
			k := boundsHash(o&^f, p|f|sq.Bit())
			e.cur.prefetch(k)
			if e.usePrev {
				e.prev.prefetch(k)
			}
		}
	}
	for i := 0; i < n; i++ {
		sq, f := list[i].sq, flips[i]
		list[i].key = e.orderKey(sq, f, fastest, height, alpha, exactKeys)
	}
	for i := 1; i < n; i++ { // insertion sort, stable, keys descending
		x := list[i]
		j := i
		for j > 0 && list[j-1].key < x.key {
			list[j] = list[j-1]
			j--
		}
		list[j] = x
	}
	return n
}

// exactOrderKeys reports whether the ordering searches resolve every move's value: without
// Multi-ProbCut the windowed ones cost more nodes than they save (bench depth 12 full width
// 49,642,207 nodes against 49,014,808), depth by deviation value needs the values, and
// Config.ExactOrderKeys asks for them.
func (e *Engine) exactOrderKeys() bool {
	return e.level == 0 || e.dev != nil || e.cfg.ExactOrderKeys
}

// orderKey is the ordering key of move sq, flipping f, at a node (e.b) searched with lower
// bound alpha. exactKeys: the shallow searches' values are wanted for every move
// (exactOrderKeys), not only for those near or above alpha.
func (e *Engine) orderKey(sq board.Square, f uint64, fastest bool, height, alpha int, exactKeys bool) int32 {
	p, o := e.b.P, e.b.O
	cp, co := o&^f, p|f|sq.Bit() // the child, its side to move first
	// The previous iteration searched these children two plies less deep than now: below
	// e.ttHeight+2 it stored next to none of them, and each probe is a cache miss. Bench
	// (16 MiB): depth 11 full width the same 20,355,863 nodes in 18-27% less time, depth 12
	// level 4 +0.04% nodes, -12% time.
	if e.usePrev && height >= e.ttHeight+2 {
		if en, ok := e.prev.probe(boundsHash(cp, co), e.gen-1); ok {
			return 1<<24 - int32(boundsEstimate(&en))
		}
	}
	switch {
	case fastest:
		return -16*int32(bits.OnesCount64(board.LegalMoves(cp, co))) + 8*int32(bits.OnesCount64(sq.Bit()&cornerSquares))
	case height < e.evalOrderHeight:
		return -int32(mobilityEval(cp, co))
	}
	// Far from the leaves a shallow search of the child orders better than any static score;
	// its depth grows with the height.
	depth := (height - e.evalOrderHeight) / 3
	// Only the moves within sortAlphaDelta of alpha or above need their value; a move below
	// that is cut as soon as its shallow search shows it, its key a bound (as Edax's
	// sort_alpha).
	top := scoreInf
	if !exactKeys && alpha > -scoreInf+sortAlphaDelta*e.scale {
		top = -(alpha - sortAlphaDelta*e.scale)
	}
	if depth == 0 && e.leafChildren() {
		// The child is a leaf: valued as at height 1 (leaf), from the evaluation cache
		// without making the move when it holds the child.
		return -int32(e.leaf(sq, f, p, o, -scoreInf, top))
	}
	saved := e.b
	e.b.MakeFlips(sq, f)
	e.ply++
	key := -int32(e.alphaBeta(-scoreInf, top, depth))
	e.ply--
	e.b = saved
	return key
}

// boundsEstimate is a single value standing for an entry's bounds.
func boundsEstimate(en *boundsEntry) int {
	lo, up := int(en.lower), int(en.upper)
	switch {
	case lo <= -scoreInf:
		return up
	case up >= scoreInf:
		return lo
	}
	return (lo + up) / 2
}
