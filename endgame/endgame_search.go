package endgame

import (
	"math/bits"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
)

// The endgame search proper: search dispatches on the number of empties to deep (table,
// stability, full move ordering), mid (no table, cheap ordering) and the last-4 code.

// endMove is one move of a move list: its square, its flips, its ordering score and the
// opponent's legal moves after it (unknownMoves when genMoves did not need them), which the
// child then need not generate again.
type endMove struct {
	flips uint64
	reply uint64
	sq    int32
	score int32
}

// unknownMoves stands for a set of legal moves not computed: no legal move set has every
// square.
const unknownMoves = ^uint64(0)

// moveList is a fixed-size move list; Othello positions have at most 33 legal moves.
type moveList struct {
	n int
	m [34]endMove
}

// selectBest moves the best-scored move of m[i:] to m[i] (selection sort: cutoffs usually
// come early, so sorting the whole list would be wasted).
func (l *moveList) selectBest(i int) {
	b := i
	for j := i + 1; j < l.n; j++ {
		if l.m[j].score > l.m[b].score {
			b = j
		}
	}
	l.m[i], l.m[b] = l.m[b], l.m[i]
}

// has reports whether sq is in the list.
func (l *moveList) has(sq int) bool {
	for j := 0; j < l.n; j++ {
		if int(l.m[j].sq) == sq {
			return true
		}
	}
	return false
}

// promote gives sq the best score of the list.
func (l *moveList) promote(sq int) {
	for j := 0; j < l.n; j++ {
		if int(l.m[j].sq) == sq {
			l.m[j].score = 1 << 30
		}
	}
}

const corners = 0x8100000000000081

// squareValue is a small static bonus per square for the ordering: corners first, the squares
// next to an empty corner last.
var squareValue = [64]int32{
	18, 4, 16, 12, 12, 16, 4, 18,
	4, 2, 6, 8, 8, 6, 2, 4,
	16, 6, 14, 10, 10, 14, 6, 16,
	12, 8, 10, 0, 0, 10, 8, 12,
	12, 8, 10, 0, 0, 10, 8, 12,
	16, 6, 14, 10, 10, 14, 6, 16,
	4, 2, 6, 8, 8, 6, 2, 4,
	18, 4, 16, 12, 12, 16, 4, 18,
}

// genMoves fills l with the legal moves of p, scored for fastest-first order: fewest
// (corner-weighted) opponent replies, then the mover's corner stability, parity, a penalty
// for the squares next to an empty corner (badSquares) and the static square value.
// moves are p's legal moves, or unknownMoves.
func (s *Solver) genMoves(l *moveList, p, o uint64, empties int, parity uint, ttMove int, moves uint64) {
	l.n = 0
	if moves == unknownMoves {
		moves = board.LegalMoves(p, o)
	}
	// wBad, a quarter mobility unit: FFO #45-#49 1,002.7 M nodes against 1,021.8 M without.
	bad := badSquares(^(p | o))
	scored := uint64(0)
	for ; moves != 0; moves &= moves - 1 {
		sq := bits.TrailingZeros64(moves)
		f := flips(p, o, sq)
		np, no := o^f, p|f|1<<uint(sq)
		m := &l.m[l.n]
		l.n++
		m.sq, m.flips = int32(sq), f
		if sq == ttMove {
			m.score, m.reply = 1<<30, unknownMoves
			continue
		}
		scored++
		rep := board.LegalMoves(np, no)
		m.reply = rep
		score := squareValue[sq] - s.wMob*int32(bits.OnesCount64(rep)+bits.OnesCount64(rep&corners))
		if empties >= potentialEmpties {
			score -= s.wPot * int32(potentialMobility(np, no))
		}
		if empties >= s.cornerEmpties {
			score += s.wCorner * int32(cornerStability(no))
		}
		score -= s.wBad * int32(bad>>uint(sq&63)&1)
		if s.opt.Parity && parity&quadrant[sq] != 0 {
			score += s.wPar
		}
		m.score = score
	}
	if l.n > 1 { // as Edax, which scores no single move
		s.scored += scored
	}
}

// potentialEmpties is the fewest empties at which genMoves weighs potential mobility: below it
// the term orders no better (FFO #45-#46 467.9 M nodes without it against 466.0 M) and costs
// 2-3% of the time (13.6-13.8 s of CPU against 13.9-14.4 s, three alternating runs); without
// it at all, 479.2 M nodes.
const potentialEmpties = 10

// cornerEmpties is the fewest empties at which genMoves weighs the mover's corner stability
// (cornerStability) after the move, wCorner a half mobility unit per disc: FFO #45-#49
// 1,047.7 M nodes against 1,155.6 M without it; from 9 empties 1,064.8 M, from 11 1,060.6 M;
// weights 16-24 within 1%, 40 +3%. Discs stable along the whole edge instead order no better
// and cost more (docs/tried-and-rejected.md).
const cornerEmpties = 10

// cornerStability counts the corners of x and the edge squares next to x's corners: discs
// that can never be flipped, a cheap part of stability (Edax weighs the same count).
func cornerStability(x uint64) int {
	st := ((x&0x0100000000000001)<<1 | (x&0x8000000000000080)>>1 | (x&0x0000000000000081)<<8 | (x&0x8100000000000000)>>8 | corners) & x
	return bits.OnesCount64(st)
}

// badSquares returns the squares next to the empty corners among empty (the C and X squares
// of those corners): a move there often hands the corner to the opponent. The four corner
// bits are gathered into an index by one multiplication (no two partial products meet).
func badSquares(empty uint64) uint64 {
	return badSquaresOf[(empty&corners)*0x1040000000000041>>60]
}

// badSquaresOf[i] is badSquares for the empty corners given by the bits of i (a1, h1, a8,
// h8): the union of those corners' neighbours (filled in init, after neighbours).
var badSquaresOf [16]uint64

// potentialMobility counts the empty squares next to p's opponent o... here: next to the
// discs of no, where np (to move) could later play.
func potentialMobility(np, no uint64) int {
	const notA, notH = 0xFEFEFEFEFEFEFEFE, 0x7F7F7F7F7F7F7F7F
	x := no
	adj := (x<<1)&notA | (x>>1)&notH | x<<8 | x>>8 | (x<<9)&notA | (x>>9)&notH | (x<<7)&notH | (x>>7)&notA
	return bits.OnesCount64(adj &^ (np | no))
}

// search dispatches on the number of empties.
func (s *Solver) search(p, o uint64, alpha, beta, empties int, parity uint) int {
	if empties >= s.ttMin {
		return s.deep(p, o, alpha, beta, empties, parity)
	}
	if empties > 4 || !s.opt.Last4 {
		return s.mid(p, o, alpha, beta, empties, parity, unknownMoves)
	}
	return s.last(p, o, alpha, beta, empties)
}

// child searches a child of deep: below the table's part mid, with the legal moves genMoves
// found (one move generation fewer per node).
func (s *Solver) child(p, o uint64, alpha, beta, empties int, parity uint, moves uint64) int {
	if empties < s.ttMin {
		return s.mid(p, o, alpha, beta, empties, parity, moves)
	}
	return s.search(p, o, alpha, beta, empties, parity)
}

// last solves positions with at most 4 empties with the hand-written code.
func (s *Solver) last(p, o uint64, alpha, beta, empties int) int {
	e := ^(p | o)
	switch empties {
	case 4:
		return s.solve4(p, o, alpha, beta)
	case 3:
		x1 := bits.TrailingZeros64(e)
		e &= e - 1
		x2 := bits.TrailingZeros64(e)
		e &= e - 1
		return s.solve3(p, o, alpha, beta, x1, x2, bits.TrailingZeros64(e))
	case 2:
		x1 := bits.TrailingZeros64(e)
		e &= e - 1
		return s.solve2(p, o, alpha, beta, x1, bits.TrailingZeros64(e))
	case 1:
		s.nodes++
		return solve1(p, bits.TrailingZeros64(e))
	}
	return finalScore(p, o)
}

// stabilityCutoff reports whether the opponent's stable discs prove score <= alpha, with the
// bound. It is only tried when alpha is high enough for a proof to be likely, and when the
// opponent holds enough discs for one.
func (s *Solver) stabilityCutoff(p, o uint64, alpha int) (int, bool) {
	if alpha < s.stabAlpha || 64-2*bits.OnesCount64(o) > alpha {
		return 0, false
	}
	bound := 64 - 2*stableCount(o, p)
	return bound, bound <= alpha
}

// stabilityAlpha is the lowest alpha at which the nodes of 4 empties or more try a stability
// cutoff: below it the opponent would need too many stable discs for a proof to be found
// often enough to pay for the test. Tried at 4 and 5 empties too (Edax does so from alpha 6
// and 8): FFO #45-#49 730.3 M nodes against 987.2 M without, 4-8% less time
// (docs/endgame.md).
const stabilityAlpha = 4

// deep is the negascout of nodes far from the leaves: stability cutoff, table, fastest-first.
func (s *Solver) deep(p, o uint64, alpha, beta, empties int, parity uint) int {
	s.nodes++
	if s.nodes >= s.nextPoll {
		s.poll()
	}
	if s.stopped {
		return 0
	}
	if s.th != nil && s.th.Split != nil && s.th.Split.Aborted() {
		s.stopped = true
		return 0
	}
	if v, ok := s.stabilityCutoff(p, o, alpha); ok {
		return v
	}
	ttMove := noMove
	if s.opt.Table {
		if e, ok := s.probe(p, o, empties); ok {
			ttMove = int(e.move)
			if int(e.sel) <= s.level {
				lo, hi := int(e.lower), int(e.upper)
				if lo >= beta {
					return lo
				}
				if hi <= alpha || lo == hi {
					return hi
				}
				alpha, beta = max(alpha, lo), min(beta, hi)
			}
		}
	}
	if ttMove == noMove && s.hint != nil && empties >= HintEmpties {
		ttMove = s.hint(p, o)
	}
	if s.level > 0 && empties >= endMPCMin && s.opt.Eval != nil {
		if v, ok := s.probCut(p, o, alpha, beta, empties); ok {
			return v
		}
	}
	list := &s.lists[empties]
	s.genMoves(list, p, o, empties, parity, ttMove, unknownMoves)
	if empties > s.ttMin && s.opt.Table {
		// The children's buckets are prefetched first, so that their cache misses overlap,
		// instead of coming one at a time in the children.
		s.tt.prefetch(list, p, o)
	}
	if empties >= s.etcEmpties && s.opt.Table {
		// Enhanced transposition cutoff: a child whose table bound already refutes the
		// window ends the node before any search.
		for i := 0; i < list.n; i++ {
			m := &list.m[i]
			s.scored++
			if e, ok := s.tt.probe(o^m.flips, p|m.flips|1<<uint(m.sq)); ok && int(e.sel) <= s.level && -int(e.upper) >= beta {
				return -int(e.upper)
			}
		}
	}
	if list.n == 0 {
		if board.LegalMoves(o, p) == 0 {
			return finalScore(p, o)
		}
		return -s.deep(o, p, -beta, -alpha, empties, parity)
	}
	// The shallow-search sort waits until the table's move has been searched: when that
	// move refutes the node, the sort would be wasted.
	sortAt := list.n
	if empties >= s.sortDeep {
		sortAt = 0
		if ttMove != noMove && list.has(ttMove) {
			sortAt = 1
		}
	}
	best, bestMove := -inf, noMove
	a := alpha
	for i := 0; i < list.n; i++ {
		if i == sortAt {
			s.sortByShallowSearch(list, p, o, ttMove)
		}
		if i > 0 && empties >= s.splitEmpties {
			if b, bm, ok := s.trySplit(list, i, p, o, a, beta, empties, parity, best, bestMove, false); ok {
				if s.stopped {
					return 0
				}
				best, bestMove = b, bm
				break
			}
		}
		list.selectBest(i)
		m := &list.m[i]
		np, no := o^m.flips, p|m.flips|1<<uint(m.sq)
		q := parity ^ quadrant[m.sq]
		var v int
		if i == 0 {
			v = -s.child(np, no, -beta, -a, empties-1, q, m.reply)
		} else {
			v = -s.child(np, no, -a-1, -a, empties-1, q, m.reply)
			if v > a && v < beta {
				v = -s.child(np, no, -beta, -v, empties-1, q, m.reply)
			}
		}
		if s.stopped {
			return 0
		}
		if v > best {
			best = v
			if v > a {
				bestMove = int(m.sq)
				a = v
				if v >= beta {
					break
				}
			}
		}
	}
	if s.opt.Table {
		s.store(p, o, empties, alpha, beta, best, bestMove)
	}
	return best
}

func (s *Solver) poll() {
	s.nextPoll = s.nodes + pollNodes
	if s.thread == 0 {
		s.progress.Store(s.nodes)
	}
	if s.stop != nil && s.stop.Load() || !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.stopped = true
		if s.team != nil {
			s.team.halt.Store(true)
		}
	}
	if s.team != nil && (s.team.halt.Load() || s.aborted()) {
		s.stopped = true
	}
}

// Window returns the exact score of p to move against o within (alpha, beta), fail-soft,
// for a midgame search that hands the last empties of a search over to the solver: no
// aspiration, no new table generation, no principal variation. It also returns the nodes it
// searched and whether the stop flag or the deadline ended it (the score is then meaningless).
func (s *Solver) Window(p, o uint64, alpha, beta int) (score int, nodes uint64, stopped bool) {
	if s.thread != 0 {
		s.adopt() // a helper of a parallel midgame search: the settings of its solves
	}
	s.stopped = false
	n0 := s.nodes
	s.nextPoll = s.nodes + pollNodes
	empties := bits.OnesCount64(^(p | o))
	// The sort threshold follows this window's root, not the last solve's (nor the team's).
	s.setSortDeep(empties)
	score = s.search(p, o, alpha, beta, empties, s.rootParity(p, o))
	return score, s.nodes - n0, s.stopped
}

// midOrderEmpties: from this many empties on, mid sorts the moves fastest-first; below it the
// parity order is cheaper than the nodes it saves. From 7 since the stability cutoffs at 4
// and 5 empties (b5c1fb1; from 6 before): FFO #40-#49 7% more nodes in 1.9% less time, and
// less time on each of #45-#49, #51 and #52 (docs/endgame.md).
const midOrderEmpties = 7

// mid is the alpha-beta (fail-soft) of nodes between the table and the last-4 code.
// moves are p's legal moves, or unknownMoves.
func (s *Solver) mid(p, o uint64, alpha, beta, empties int, parity uint, moves uint64) int {
	if empties <= 4 && s.opt.Last4 {
		return s.last(p, o, alpha, beta, empties)
	}
	if empties == 0 {
		return finalScore(p, o)
	}
	s.nodes++
	if v, ok := s.stabilityCutoff(p, o, alpha); ok {
		return v
	}
	if empties >= s.midOrder {
		list := &s.lists[empties]
		s.genMoves(list, p, o, empties, parity, noMove, moves)
		if list.n == 0 {
			om := board.LegalMoves(o, p)
			if om == 0 {
				return finalScore(p, o)
			}
			return -s.mid(o, p, -beta, -alpha, empties, parity, om)
		}
		best := -inf
		for i := 0; i < list.n; i++ {
			list.selectBest(i)
			m := &list.m[i]
			v := -s.mid(o^m.flips, p|m.flips|1<<uint(m.sq), -beta, -alpha, empties-1, parity^quadrant[m.sq], m.reply)
			if v > best {
				best = v
				if v > alpha {
					alpha = v
					if v >= beta {
						return v
					}
				}
			}
		}
		return best
	}
	// Few empties: the legal moves, those in odd regions first; no sorting. One move
	// generation instead of a neighbour test and the flips of the illegal squares it lets by:
	// FFO #45-#49 side by side 45.40 and 45.38 s against 45.56 and 45.87 (in the last-4 code
	// it made no difference).
	best := -inf
	legal := moves
	if legal == unknownMoves {
		legal = board.LegalMoves(p, o)
	}
	first := uint64(0) // without parity, all moves in the second class
	if s.opt.Parity {
		var odd uint64
		for q := 0; q < 4; q++ {
			if parity&(1<<uint(q)) != 0 {
				odd |= quadrantMask[q]
			}
		}
		first = legal & odd
	}
	// Within each parity class, the squares next to an empty corner come last: FFO #45-#49
	// 1,021.8 M nodes against 1,047.7 M (with squares next to any corner, 1,036.4 M).
	bad := badSquares(^(p | o))
	if s.opt.noBadOrder {
		bad = 0
	}
	sets := [4]uint64{first, legal &^ first}
	nsets := 2
	if legal&bad != 0 {
		sets = [4]uint64{first &^ bad, first & bad, legal &^ first &^ bad, legal &^ first & bad}
		nsets = 4
	}
	for pass := 0; pass < nsets; pass++ {
		xs := sets[pass]
		for ; xs != 0; xs &= xs - 1 {
			sq := bits.TrailingZeros64(xs)
			f := flips(p, o, sq)
			var v int
			if empties == 5 && s.opt.Last4 {
				// Straight to the last-4 code, past mid's and last's dispatch.
				v = -s.solve4(o^f, p|f|1<<uint(sq), -beta, -alpha)
			} else {
				v = -s.mid(o^f, p|f|1<<uint(sq), -beta, -alpha, empties-1, parity^quadrant[sq], unknownMoves)
			}
			if v > best {
				best = v
				if v > alpha {
					alpha = v
					if v >= beta {
						return v
					}
				}
			}
		}
	}
	if best == -inf {
		om := board.LegalMoves(o, p)
		if om == 0 {
			return finalScore(p, o)
		}
		return -s.mid(o, p, -beta, -alpha, empties, parity, om)
	}
	return best
}

// quadrantMask[q] is the 4x4 corner region whose bit in quadrant[] is 1<<q.
var quadrantMask = [4]uint64{0x000000000F0F0F0F, 0x00000000F0F0F0F0, 0x0F0F0F0F00000000, 0xF0F0F0F000000000}

// sortByShallowSearch rescores the moves of a node far from the leaves by a shallow search,
// which sees further than the replies counted by genMoves: with the pattern evaluation when
// the Solver has one, else with the mobility fallback (orderingEval).
func (s *Solver) sortByShallowSearch(l *moveList, p, o uint64, ttMove int) {
	if s.opt.Eval != nil {
		s.sortByEval(l, p, o, ttMove)
		return
	}
	for i := 0; i < l.n; i++ {
		m := &l.m[i]
		if int(m.sq) == ttMove {
			continue
		}
		np, no := o^m.flips, p|m.flips|1<<uint(m.sq)
		v := -s.shallow(np, no, -1<<20, 1<<20, s.sortDepth-1)
		m.score = int32(v)*16 + m.score/8
	}
}

// orderingEval is the fallback evaluation: corner-weighted mobility and potential mobility,
// and corners held, from p's view.
func orderingEval(p, o uint64) int {
	mp, mo := board.LegalMoves(p, o), board.LegalMoves(o, p)
	v := 8 * (bits.OnesCount64(mp) + bits.OnesCount64(mp&corners) - bits.OnesCount64(mo) - bits.OnesCount64(mo&corners))
	v += 2 * (potentialMobility(o, p) - potentialMobility(p, o))
	v += 24 * (bits.OnesCount64(p&corners) - bits.OnesCount64(o&corners))
	return v
}

// shallow is a fixed-depth alpha-beta over the mobility fallback evaluation.
func (s *Solver) shallow(p, o uint64, alpha, beta, depth int) int {
	if depth <= 0 {
		return orderingEval(p, o)
	}
	moves := board.LegalMoves(p, o)
	if moves == 0 {
		if board.LegalMoves(o, p) == 0 {
			return finalScore(p, o) * 1024
		}
		return -s.shallow(o, p, -beta, -alpha, depth-1)
	}
	best := -1 << 30
	for ; moves != 0; moves &= moves - 1 {
		sq := bits.TrailingZeros64(moves)
		f := flips(p, o, sq)
		v := -s.shallow(o^f, p|f|1<<uint(sq), -beta, -alpha, depth-1)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if v >= beta {
					break
				}
			}
		}
	}
	return best
}

// sortByEval is sortByShallowSearch with the pattern evaluation: the board with its line
// indices is built once for the node, and the shallow search makes and unmakes moves on it.
func (s *Solver) sortByEval(l *moveList, p, o uint64, ttMove int) {
	b := board.FromColors(p, o, true)
	empties := bits.OnesCount64(^(p | o))
	depth := s.sortDepth
	if empties >= s.sortDeeper {
		depth += 2
	}
	if s.opt.sortStep > 0 {
		depth += max(0, empties-s.sortDeep) / s.opt.sortStep
	}
	// Cheapest first by the fastest-first score, then each move's search only needs to tell
	// whether it comes within the margin of the best so far: below that its fail-soft bound
	// ranks it well enough (a negative margin: full windows). See docs/endgame.md.
	for i := 1; i < l.n; i++ {
		for j := i; j > 0 && l.m[j].score > l.m[j-1].score; j-- {
			l.m[j], l.m[j-1] = l.m[j-1], l.m[j]
		}
	}
	best := -1 << 20
	for i := 0; i < l.n; i++ {
		m := &l.m[i]
		if int(m.sq) == ttMove {
			continue
		}
		lo := -1 << 20
		if s.sortMargin > 0 {
			lo = max(best-s.sortMargin, lo)
		}
		u := b.Make(board.Square(m.sq))
		v := -s.shallowEval(&b, -1<<20, -lo, depth-1)
		b.Unmake(u)
		best = max(best, v)
		m.score = int32(v)*4 + m.score/8
	}
}

// shallowEval is a fixed-depth alpha-beta over the pattern evaluation.
func (s *Solver) shallowEval(b *board.Board, alpha, beta, depth int) int {
	s.evalNodes++
	if depth <= 0 {
		return s.opt.Eval.Eval(b)
	}
	moves := board.LegalMoves(b.P, b.O)
	if moves == 0 {
		if board.LegalMoves(b.O, b.P) == 0 {
			return finalScore(b.P, b.O) * eval.Scale
		}
		u := b.Pass()
		v := -s.shallowEval(b, -beta, -alpha, depth-1)
		b.Unmake(u)
		return v
	}
	// Corners first and the squares next to them last: the alpha-beta cuts sooner than in
	// square order (FFO #45-#49 11% fewer evaluation nodes, #56 8%; docs/endgame.md).
	best := -1 << 30
	for _, ms := range [3]uint64{moves & corners, moves &^ (corners | xSquares), moves & xSquares} {
		for ; ms != 0; ms &= ms - 1 {
			u := b.Make(board.Square(bits.TrailingZeros64(ms)))
			v := -s.shallowEval(b, -beta, -alpha, depth-1)
			b.Unmake(u)
			if v > best {
				best = v
				if v > alpha {
					alpha = v
					if v >= beta {
						return best
					}
				}
			}
		}
	}
	return best
}

// xSquares are the squares diagonally next to the corners.
const xSquares = 0x0042000000004200
