package cluster

import (
	"math/bits"
	"sort"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
)

// orderMoves returns the legal moves of p (to move) against o, best first by a shallow
// alpha-beta search of depth plies over the pattern evaluation (ev nil: a mobility
// evaluation). The controller orders only the few nodes it splits, so the search can be a
// plain one.
func orderMoves(ev *eval.Evaluator, p, o uint64, depth int) []board.Square {
	b := board.FromColors(p, o, true)
	type scored struct {
		sq board.Square
		v  int
	}
	var ms []scored
	for m := board.LegalMoves(p, o); m != 0; m &= m - 1 {
		sq := board.Square(bits.TrailingZeros64(m))
		u := b.Make(sq)
		v := -shallow(ev, &b, -1<<30, 1<<30, depth-1)
		b.Unmake(u)
		ms = append(ms, scored{sq, v})
	}
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].v > ms[j].v })
	out := make([]board.Square, len(ms))
	for i, m := range ms {
		out[i] = m.sq
	}
	return out
}

func shallow(ev *eval.Evaluator, b *board.Board, alpha, beta, depth int) int {
	moves := board.LegalMoves(b.P, b.O)
	if moves == 0 {
		if board.LegalMoves(b.O, b.P) == 0 {
			return board.DiscDiff(b.P, b.O) * 1 << 16
		}
		u := b.Pass()
		v := -shallow(ev, b, -beta, -alpha, depth)
		b.Unmake(u)
		return v
	}
	if depth <= 0 {
		if ev != nil {
			return ev.Eval(b)
		}
		return 8 * (bits.OnesCount64(moves) - bits.OnesCount64(board.LegalMoves(b.O, b.P)))
	}
	best := -1 << 30
	for ; moves != 0; moves &= moves - 1 {
		u := b.Make(board.Square(bits.TrailingZeros64(moves)))
		v := -shallow(ev, b, -beta, -alpha, depth-1)
		b.Unmake(u)
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
