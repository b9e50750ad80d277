package endgame

import "math/bits"

// Stable discs can never be flipped again, whatever is played. Counting (a subset of) the
// opponent's stable discs bounds the side to move's final score from above by
// 64 - 2*stable, which proves many fail-lows in the endgame without a search.
//
// The stable set found here is a safe under-estimate built from three facts:
//   - an edge disc can only flip along its edge, and which edge discs can ever flip is decided
//     once for every edge pattern by trying all continuations on that edge (edgeStable);
//   - a disc on a line that is full cannot flip along that line;
//   - a disc is stable when in each of the four directions its line is full, or it touches the
//     board edge, or a stable disc of its own colour on that line.

// edgeStable[p][o] is the set of p's discs on an 8-square edge (bit i = square i) that no
// sequence of moves on that edge can flip. Zero for overlapping p and o.
var edgeStable [256][256]uint8

// byteToFileA[b] spreads byte b onto file a: bit i goes to square a(i+1), bit 8i.
var byteToFileA [256]uint64

func init() {
	done := make([]bool, 256*256)
	for p := 0; p < 256; p++ {
		for o := 0; o < 256; o++ {
			if p&o == 0 {
				findEdgeStable(p, o, done)
			}
		}
	}
	for b := 0; b < 256; b++ {
		for i := 0; i < 8; i++ {
			if b>>uint(i)&1 != 0 {
				byteToFileA[b] |= 1 << uint(8*i)
			}
		}
	}
}

// findEdgeStable fills edgeStable[p][o]: p's discs that stay p's after any move by either
// side on any empty square of the edge (with the flips that move makes along the edge), and
// recursively after any continuation.
func findEdgeStable(p, o int, done []bool) uint8 {
	if done[p<<8|o] {
		return edgeStable[p][o]
	}
	stable := uint8(p)
	empty := ^(p | o) & 0xFF
	for x := 0; x < 8 && stable != 0; x++ {
		if empty>>uint(x)&1 == 0 {
			continue
		}
		// p plays x.
		f := edgeFlips(p, o, x)
		np, no := p|f|1<<uint(x), o&^f
		stable &= findEdgeStable(np, no, done)
		// o plays x: p's discs are the opponent's there.
		f = edgeFlips(o, p, x)
		np, no = p&^f, o|f|1<<uint(x)
		stable &= findEdgeStable(np, no, done)
	}
	done[p<<8|o] = true
	edgeStable[p][o] = stable
	return stable
}

// edgeFlips returns the discs of o that p flips on an 8-square line by playing x.
func edgeFlips(p, o, x int) int {
	f := 0
	for _, d := range [2]int{-1, 1} {
		var run int
		y := x + d
		for y >= 0 && y < 8 && o>>uint(y)&1 != 0 {
			run |= 1 << uint(y)
			y += d
		}
		if y >= 0 && y < 8 && p>>uint(y)&1 != 0 {
			f |= run
		}
	}
	return f
}

// fullLines returns, for each of the four directions, the squares whose line in that
// direction is completely occupied. The diagonals: the empty squares spread both ways along
// them by shifts of 1, 2 and 4 steps; the squares they do not reach have full diagonals
// (no loop over the diagonals with a branch each).
func fullLines(occ uint64) (h, v, d, a uint64) {
	const notA, notH = 0xFEFEFEFEFEFEFEFE, 0x7F7F7F7F7F7F7F7F
	x := occ & (occ >> 4)
	x &= x >> 2
	x &= x >> 1
	h = (x & fileA) * 0xFF
	y := occ & (occ >> 32)
	y &= y >> 16
	y &= y >> 8
	v = (y & 0xFF) * fileA
	e := ^occ
	d = ^(spreadUp(e, 9, notA) | spreadDown(e, 9, notH))
	a = ^(spreadUp(e, 7, notH) | spreadDown(e, 7, notA))
	return
}

// spreadUp spreads x towards higher squares by steps of s, never into the squares outside
// mask (those a step would wrap into); spreadDown the same towards lower squares.
func spreadUp(x uint64, s uint, mask uint64) uint64 {
	x |= mask & (x << s)
	mask &= mask << s
	x |= mask & (x << (2 * s))
	mask &= mask << (2 * s)
	return x | mask&(x<<(4*s))
}

func spreadDown(x uint64, s uint, mask uint64) uint64 {
	x |= mask & (x >> s)
	mask &= mask >> s
	x |= mask & (x >> (2 * s))
	mask &= mask >> (2 * s)
	return x | mask&(x>>(4*s))
}

// stableDiscs returns a subset of p's discs that can never flip (see the file comment).
func stableDiscs(p, o uint64) uint64 {
	const (
		edges   = 0xFF818181818181FF
		notA    = 0xFEFEFEFEFEFEFEFE
		notH    = 0x7F7F7F7F7F7F7F7F
		fileH   = 0x8080808080808080
		rank1   = 0x00000000000000FF
		rank8   = 0xFF00000000000000
		borderH = fileA | fileH
		borderV = rank1 | rank8
		border  = edges
	)
	if p&edges == 0 {
		return 0
	}
	s := uint64(edgeStable[p&0xFF][o&0xFF]) |
		uint64(edgeStable[p>>56][o>>56])<<56 |
		byteToFileA[edgeStable[colByte(p, 0)][colByte(o, 0)]] |
		byteToFileA[edgeStable[colByte(p, 7)][colByte(o, 7)]]<<7
	h, v, d, a := fullLines(p | o)
	s |= p & h & v & d & a
	if s == 0 {
		return 0
	}
	// Interior discs: safe in a direction when the line is full or a stable neighbour of the
	// same colour sits on it. (Edge discs were settled by the edge table.)
	h |= borderH
	v |= borderV
	d |= border
	a |= border
	cand := p &^ s &^ edges
	for {
		n := cand &
			(h | (s<<1)&notA | (s>>1)&notH) &
			(v | s<<8 | s>>8) &
			(d | (s<<9)&notA | (s>>9)&notH) &
			(a | (s<<7)&notH | (s>>7)&notA)
		if n == 0 {
			return s
		}
		s |= n
		cand &^= n
	}
}

// colByte gathers file c of x into a byte, bit i = rank i+1.
func colByte(x uint64, c uint) int {
	return int(((x >> c) & fileA) * 0x0102040810204080 >> 56)
}

// stableCount is the number of stable discs of p (see stableDiscs).
func stableCount(p, o uint64) int { return bits.OnesCount64(stableDiscs(p, o)) }
