package search

import "math/bits"

// flips is the solver's branch-free twin of board.Flips (a test asserts they agree): in each of
// the 8 directions the first square that is not an opponent disc is isolated with one bit
// trick, and the run before it flips when that square is the mover's. Rays towards higher
// squares take the lowest bit of the non-opponent squares, rays towards lower squares the
// highest (a leading-zero count); no branch depends on the position.
func flips(p, o uint64, sq int) uint64 {
	r := &flipRays[sq&63]
	no := ^o
	var f uint64

	x := no & r[0]
	out := x & -x & p
	t := out - 1
	f |= t & r[0] & (t>>63 - 1)
	x = no & r[1]
	out = x & -x & p
	t = out - 1
	f |= t & r[1] & (t>>63 - 1)
	x = no & r[2]
	out = x & -x & p
	t = out - 1
	f |= t & r[2] & (t>>63 - 1)
	x = no & r[3]
	out = x & -x & p
	t = out - 1
	f |= t & r[3] & (t>>63 - 1)

	out = (1 << 63 >> uint(bits.LeadingZeros64(no&r[4]))) & p
	f |= -out << 1 & r[4]
	out = (1 << 63 >> uint(bits.LeadingZeros64(no&r[5]))) & p
	f |= -out << 1 & r[5]
	out = (1 << 63 >> uint(bits.LeadingZeros64(no&r[6]))) & p
	f |= -out << 1 & r[6]
	out = (1 << 63 >> uint(bits.LeadingZeros64(no&r[7]))) & p
	f |= -out << 1 & r[7]
	return f
}

// flipRays[sq][d] are the squares beyond sq in direction d: 0-3 towards higher squares (+1, +7,
// +8, +9), 4-7 towards lower squares (-1, -7, -8, -9). A ray that cannot flip anything (fewer
// than two squares) is empty.
var flipRays [64][8]uint64

func init() {
	dcol := [8]int{1, -1, 0, 1, -1, 1, 0, -1}
	drow := [8]int{0, 1, 1, 1, 0, -1, -1, -1}
	for sq := 0; sq < 64; sq++ {
		for d := 0; d < 8; d++ {
			var m uint64
			n := 0
			for c, r := sq&7+dcol[d], sq>>3+drow[d]; c >= 0 && c < 8 && r >= 0 && r < 8; c, r = c+dcol[d], r+drow[d] {
				m |= 1 << uint(r*8+c)
				n++
			}
			if n >= 2 {
				flipRays[sq][d] = m
			}
		}
	}
}
