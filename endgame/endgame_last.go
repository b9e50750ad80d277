package endgame

import (
	"math/bits"

	"github.com/othellogo/othello/board"
)

// The last four empty squares: here the cost per node is all that matters, so there is no move
// list, no table and no ordering beyond the region parity of solve4; the moves are unrolled and
// the very last move is scored by counting its flips from tables, without making it.

// lastFlipCount[sq].n[line][pattern] is the number of discs that a move on sq flips along one
// of its four lines (0 row, 1 column, 2 a1-h8 diagonal, 3 a8-h1 diagonal) when every square but
// sq is occupied: pattern is the mover's discs on that line, gathered into one byte by
// lineByte. With a full board, the flip count of the last move depends on the mover's discs
// alone. The square's diagonals are kept beside its counts, so that lastFlips reads one entry
// and is small enough to be inlined.
var lastFlipCount [64]struct {
	diag, anti uint64
	n          [4][256]uint8
}

// diagMask[sq] and antiMask[sq] are the a1-h8 and a8-h1 diagonals through sq.
var diagMask, antiMask [64]uint64

// quadrant[sq] is the bit of the 4x4 corner region of sq, for the parity of empty squares.
var quadrant [64]uint

// neighbours[sq] is the set of squares adjacent to sq: a move on sq needs an opponent disc
// there, a cheap test that rejects most illegal squares before computing flips.
var neighbours [64]uint64

const fileA = 0x0101010101010101

// lineByte gathers the bits of x on line l through sq into one byte: for rows and both
// diagonals bit i is the square on file i; for columns bit i is the square on rank i. The
// multiplications cannot carry, as every partial product lands on its own bit.
func lineByte(x uint64, sq, l int) int {
	switch l {
	case 0:
		return int(x>>(uint(sq)&^7)) & 0xFF
	case 1:
		return int(((x >> (uint(sq) & 7)) & fileA) * 0x0102040810204080 >> 56)
	case 2:
		return int((x & diagMask[sq]) * fileA >> 56)
	default:
		return int((x & antiMask[sq]) * fileA >> 56)
	}
}

func init() {
	for sq := 0; sq < 64; sq++ {
		c, r := sq&7, sq>>3
		quadrant[sq] = 1 << uint((r>>2)*2+c>>2)
		for d := 0; d < 64; d++ {
			dc, dr := d&7, d>>3
			if dc-dr == c-r {
				diagMask[sq] |= 1 << uint(d)
			}
			if dc+dr == c+r {
				antiMask[sq] |= 1 << uint(d)
			}
			if d != sq && abs(dc-c) <= 1 && abs(dr-r) <= 1 {
				neighbours[sq] |= 1 << uint(d)
			}
		}
	}
	for i := range badSquaresOf {
		for c, sq := range [4]int{0, 7, 56, 63} {
			if i&(1<<uint(c)) != 0 {
				badSquaresOf[i] |= neighbours[sq]
			}
		}
	}
	for sq := 0; sq < 64; sq++ {
		lastFlipCount[sq].diag, lastFlipCount[sq].anti = diagMask[sq], antiMask[sq]
		bit := uint64(1) << uint(sq)
		lines := [4]uint64{0xFF << (uint(sq) &^ 7), fileA << (uint(sq) & 7), diagMask[sq], antiMask[sq]}
		for l, m := range lines {
			m &^= bit
			// Every subset of the line (carry-rippler enumeration) as the mover's discs, the
			// rest of the line as the opponent's.
			for sub := uint64(0); ; sub = (sub - m) & m {
				f := board.Flips(sub, m&^sub, board.Square(sq)) & m
				lastFlipCount[sq].n[l][lineByte(sub, sq, l)] = uint8(bits.OnesCount64(f))
				if sub == m {
					break
				}
			}
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// lastFlips returns how many discs the owner of p flips by playing sq on an otherwise full
// board (zero: the move is illegal).
func lastFlips(p uint64, sq int) int {
	t := &lastFlipCount[sq&63]
	return int(t.n[0][uint8(p>>(uint(sq)&^7))]) +
		int(t.n[1][uint8(((p>>(uint(sq)&7))&fileA)*0x0102040810204080>>56)]) +
		int(t.n[2][uint8((p&t.diag)*fileA>>56)]) +
		int(t.n[3][uint8((p&t.anti)*fileA>>56)])
}

// solve1 returns the final score, for the owner of p, of a board whose only empty square is sq.
func solve1(p uint64, sq int) int { return solve1Below(p, sq, -inf) }

// solve1Below is solve1 that may stop early when the score is at most alpha: it then returns
// an upper bound <= alpha (fail-soft). When the owner of p cannot play sq, the opponent's
// flips can only lower the score of the board without that move, so they are counted only
// when that score is above alpha.
func solve1Below(p uint64, sq, alpha int) int {
	np := bits.OnesCount64(p)
	if n := lastFlips(p, sq); n != 0 {
		return 2*(np+n+1) - 64
	}
	// Nobody else can play: 63 discs, the empty square goes to the winner.
	u := 2*np - 64
	if 2*np > 63 {
		u += 2
	}
	if u <= alpha {
		return u
	}
	o := ^p &^ (1 << uint(sq&63))
	if n := lastFlips(o, sq); n != 0 {
		return 2*(np-n) - 64
	}
	return u
}

// solve2 solves a position with the two empty squares x1 and x2. Each position with one empty
// square reached counts as a node, as in the generic search.
func (s *Solver) solve2(p, o uint64, alpha, beta int, x1, x2 int) int {
	s.nodes++
	best := -inf
	if neighbours[x1&63]&o != 0 {
		if f := flips(p, o, x1); f != 0 {
			s.nodes++
			best = -solve1Below(o^f, x2, -beta)
			if best >= beta {
				return best
			}
		}
	}
	if neighbours[x2&63]&o != 0 {
		if f := flips(p, o, x2); f != 0 {
			s.nodes++
			if v := -solve1Below(o^f, x1, -beta); v > best {
				best = v
			}
			return best
		}
	}
	if best != -inf {
		return best
	}
	// p must pass: the opponent plays, or the game is over.
	s.nodes++
	best = inf
	if neighbours[x1&63]&p != 0 {
		if f := flips(o, p, x1); f != 0 {
			s.nodes++
			best = solve1Below(p^f, x2, alpha)
			if best <= alpha {
				return best
			}
		}
	}
	if neighbours[x2&63]&p != 0 {
		if f := flips(o, p, x2); f != 0 {
			s.nodes++
			if v := solve1Below(p^f, x1, alpha); v < best {
				best = v
			}
			return best
		}
	}
	if best != inf {
		return best
	}
	return finalScore(p, o)
}

// solve3 solves a position with the three empty squares x1, x2, x3 (tried in that order).
func (s *Solver) solve3(p, o uint64, alpha, beta int, x1, x2, x3 int) int {
	s.nodes++
	best := -inf
	if neighbours[x1&63]&o != 0 {
		if f := flips(p, o, x1); f != 0 {
			best = -s.solve2(o^f, p|f|1<<uint(x1), -beta, -alpha, x2, x3)
			if best >= beta {
				return best
			}
			if best > alpha {
				alpha = best
			}
		}
	}
	if neighbours[x2&63]&o != 0 {
		if f := flips(p, o, x2); f != 0 {
			v := -s.solve2(o^f, p|f|1<<uint(x2), -beta, -alpha, x1, x3)
			if v >= beta {
				return v
			}
			if v > best {
				best = v
				if v > alpha {
					alpha = v
				}
			}
		}
	}
	if neighbours[x3&63]&o != 0 {
		if f := flips(p, o, x3); f != 0 {
			if v := -s.solve2(o^f, p|f|1<<uint(x3), -beta, -alpha, x1, x2); v > best {
				best = v
			}
		}
	}
	if best != -inf {
		return best
	}
	if board.LegalMoves(o, p) == 0 {
		return finalScore(p, o)
	}
	return -s.solve3(o, p, -beta, -alpha, x1, x2, x3)
}

// solve4 solves a position with four empty squares. Squares alone in their quadrant are tried
// first (parity): a lone empty square often ends a region with the last move there. The
// stability cutoff is tried here too (with the one at 5 empties, FFO #45-#49 730.3 M nodes
// instead of 987.2 M).
func (s *Solver) solve4(p, o uint64, alpha, beta int) int {
	s.nodes++
	if v, ok := s.stabilityCutoff(p, o, alpha); ok {
		return v
	}
	e := ^(p | o)
	x1 := bits.TrailingZeros64(e)
	e &= e - 1
	x2 := bits.TrailingZeros64(e)
	e &= e - 1
	x3 := bits.TrailingZeros64(e)
	e &= e - 1
	x4 := bits.TrailingZeros64(e)
	if !s.opt.noBadOrder {
		// The squares next to an empty corner last, then the parity order: FFO #45-#49
		// 992.5 M nodes against 1,002.7 M. Sorting by square class every time cost more.
		all := ^(p | o)
		if b := badSquares(all) & all; b != 0 {
			g := all &^ b
			var xs [4]int
			k := 0
			for ; g != 0; g &= g - 1 {
				xs[k&3] = bits.TrailingZeros64(g)
				k++
			}
			for ; b != 0; b &= b - 1 {
				xs[k&3] = bits.TrailingZeros64(b)
				k++
			}
			x1, x2, x3, x4 = xs[0], xs[1], xs[2], xs[3]
		}
	}
	if s.opt.Parity {
		// Squares come in increasing order, so equal quadrants are adjacent except for the
		// pairs split by a row boundary; sort the four by quadrant, then put the quadrants
		// holding an odd number of them first.
		q1, q2, q3, q4 := quadrant[x1&63], quadrant[x2&63], quadrant[x3&63], quadrant[x4&63]
		if q1 == q2 && q3 != q4 { // 2-1-1 or 3-1 layouts: move the pair to the end
			if q3 == q1 {
				x1, x4 = x4, x1 // (q q q r) -> (r q q q)
			} else if q4 == q1 {
				x1, x3 = x3, x1 // (q q r q) -> (r q q q)
			} else {
				x1, x2, x3, x4 = x3, x4, x1, x2 // (q q r s) -> (r s q q)
			}
		} else if q2 == q3 && q1 != q2 && q4 != q2 { // (r q q s) -> (r s q q)
			x2, x4 = x4, x2
		} else if q1 == q3 && q2 != q1 && q4 != q1 { // (q r q s) -> (r s q q)
			x1, x2, x3, x4 = x2, x4, x1, x3
		} else if q2 == q4 && q1 != q2 && q3 != q2 { // (r q s q) -> (r s q q)
			x2, x3 = x3, x2
		} else if q1 == q4 && q2 != q1 && q3 != q1 && q2 != q3 { // (q r s q) -> (r s q q)
			x1, x3 = x3, x1
		}
	}
	return s.solve4Ordered(p, o, alpha, beta, x1, x2, x3, x4)
}

func (s *Solver) solve4Ordered(p, o uint64, alpha, beta int, x1, x2, x3, x4 int) int {
	best := -inf
	if neighbours[x1&63]&o != 0 {
		if f := flips(p, o, x1); f != 0 {
			best = -s.solve3(o^f, p|f|1<<uint(x1), -beta, -alpha, x2, x3, x4)
			if best >= beta {
				return best
			}
			if best > alpha {
				alpha = best
			}
		}
	}
	if neighbours[x2&63]&o != 0 {
		if f := flips(p, o, x2); f != 0 {
			v := -s.solve3(o^f, p|f|1<<uint(x2), -beta, -alpha, x1, x3, x4)
			if v >= beta {
				return v
			}
			if v > best {
				best = v
				if v > alpha {
					alpha = v
				}
			}
		}
	}
	if neighbours[x3&63]&o != 0 {
		if f := flips(p, o, x3); f != 0 {
			v := -s.solve3(o^f, p|f|1<<uint(x3), -beta, -alpha, x1, x2, x4)
			if v >= beta {
				return v
			}
			if v > best {
				best = v
				if v > alpha {
					alpha = v
				}
			}
		}
	}
	if neighbours[x4&63]&o != 0 {
		if f := flips(p, o, x4); f != 0 {
			if v := -s.solve3(o^f, p|f|1<<uint(x4), -beta, -alpha, x1, x2, x3); v > best {
				best = v
			}
		}
	}
	if best != -inf {
		return best
	}
	if board.LegalMoves(o, p) == 0 {
		return finalScore(p, o)
	}
	s.nodes++
	return -s.solve4Ordered(o, p, -beta, -alpha, x1, x2, x3, x4)
}

// finalScore is the score of a finished game for the owner of p, empty squares to the winner.
func finalScore(p, o uint64) int {
	np, no := bits.OnesCount64(p), bits.OnesCount64(o)
	d := np - no
	if d > 0 {
		return d + 64 - np - no
	}
	if d < 0 {
		return d - (64 - np - no)
	}
	return 0
}
