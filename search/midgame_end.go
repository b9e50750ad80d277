package search

import (
	"math/bits"

	"github.com/othellogo/othello/board"
)

// The switch from the midgame search to an exact (or win/loss/draw) solve near the end. The
// root moves keep the order the midgame found; each is solved with a window that keeps the n
// best exact, like searchRoot. endSolve is a compact exact solver (fastest-first ordering, no
// tables) that the engine uses until it is handed the package's full endgame Solver.

// solveRoot solves the root moves exactly (wld false) or for win/loss/draw only, and on
// success replaces their values (scaled discs) and reports true. A stopped solve leaves rm
// unchanged and reports false.
func (e *Engine) solveRoot(rm []rootMove, n int, wld bool) bool {
	res := make([]rootMove, len(rm))
	copy(res, rm)
	const lo, hi = -65, 65
	for i := range res {
		thr := lo
		if i >= n {
			thr = nthBest(res[:i], n) / e.scale
			if thr <= -scoreInf/e.scale {
				thr = lo
			}
		}
		u := e.b.Make(res[i].sq)
		p, o := e.b.P, e.b.O
		e.b.Unmake(u)
		var v int
		switch {
		case wld:
			v = -e.endSolve(p, o, -1, 1)
			if v > 0 {
				v = 1
			} else if v < 0 {
				v = -1
			}
		case thr > lo:
			v = -e.endSolve(p, o, -thr-1, -thr)
			if v > thr && !e.stopped {
				v = -e.endSolve(p, o, -hi, -thr)
			}
		default:
			v = -e.endSolve(p, o, -hi, -lo)
		}
		if e.stopped {
			return false
		}
		res[i].score = v * e.scale
		res[i].exact = wld || v > thr
		res[i].pv = []board.Square{res[i].sq}
	}
	// Best first; a stable sort keeps the midgame order among equals.
	for i := 1; i < len(res); i++ {
		x := res[i]
		j := i
		for j > 0 && (res[j-1].exact == x.exact && res[j-1].score < x.score || !res[j-1].exact && x.exact) {
			res[j] = res[j-1]
			j--
		}
		res[j] = x
	}
	copy(rm, res)
	return true
}

// endSolve returns the fail-soft exact final disc difference of p to move against o.
func (e *Engine) endSolve(p, o uint64, alpha, beta int) int {
	e.nodes++
	if e.nodes >= e.nextPoll {
		e.poll()
	}
	if e.stopped {
		return 0
	}
	moves := board.LegalMoves(p, o)
	if moves == 0 {
		if board.LegalMoves(o, p) == 0 {
			return board.DiscDiff(p, o)
		}
		return -e.endSolve(o, p, -beta, -alpha)
	}
	best := -65
	if bits.OnesCount64(^(p | o)) <= 6 {
		for m := moves; m != 0; m &= m - 1 {
			sq := board.FirstSquare(m)
			f := board.Flips(p, o, sq)
			v := -e.endSolve(o&^f, p|f|sq.Bit(), -beta, -alpha)
			if v > best {
				best = v
				if v > alpha {
					if v >= beta {
						return v
					}
					alpha = v
				}
			}
		}
		return best
	}
	var list [maxMoves]orderedMove
	n := 0
	for m := moves; m != 0 && n < maxMoves; m &= m - 1 {
		sq := board.FirstSquare(m)
		f := board.Flips(p, o, sq)
		cp, co := o&^f, p|f|sq.Bit()
		key := -16*int32(bits.OnesCount64(board.LegalMoves(cp, co))) + 8*int32(bits.OnesCount64(sq.Bit()&cornerSquares))
		list[n] = orderedMove{sq, key}
		n++
	}
	for i := 1; i < n; i++ {
		x := list[i]
		j := i
		for j > 0 && list[j-1].key < x.key {
			list[j] = list[j-1]
			j--
		}
		list[j] = x
	}
	for i := 0; i < n; i++ {
		sq := list[i].sq
		f := board.Flips(p, o, sq)
		cp, co := o&^f, p|f|sq.Bit()
		var v int
		if i > 0 {
			v = -e.endSolve(cp, co, -alpha-1, -alpha)
			if v > alpha && v < beta && !e.stopped {
				v = -e.endSolve(cp, co, -beta, -alpha)
			}
		} else {
			v = -e.endSolve(cp, co, -beta, -alpha)
		}
		if v > best {
			best = v
			if v > alpha {
				if v >= beta {
					return v
				}
				alpha = v
			}
		}
	}
	return best
}
