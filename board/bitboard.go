package board

import "math/bits"

// Bitboard helpers over side-relative boards: p holds the discs of the side to move, o those of
// its opponent. These are the hot paths of search and perft; they allocate nothing.

const (
	notFileA = 0xFEFEFEFEFEFEFEFE
	notFileH = 0x7F7F7F7F7F7F7F7F
	// innerCols excludes files a and h, where a horizontal or diagonal run must stop.
	innerCols = 0x7E7E7E7E7E7E7E7E
)

// legalMovesGo is LegalMoves in Go: the parallel-prefix (Kogge-Stone) fill in the four axis
// pairs, two shifts at a time. On x86-64 processors with AVX2, LegalMoves runs the same fill
// in vector registers instead (moves_amd64.s), tested against this one.
func legalMovesGo(p, o uint64) uint64 {
	// The four axes are written out with constant shifts: a shared helper with the shift as
	// an argument is not inlined, and Go's variable shifts carry a range check
	// (BenchmarkLegalMoves against BenchmarkLegalMovesByAxis: see the README's board section).
	inner := o & innerCols
	flh := inner & (p << 1)
	frh := inner & (p >> 1)
	flh |= inner & (flh << 1)
	frh |= inner & (frh >> 1)
	plh := inner & (inner << 1)
	prh := plh >> 1
	flh |= plh & (flh << 2)
	frh |= prh & (frh >> 2)
	flh |= plh & (flh << 2)
	frh |= prh & (frh >> 2)
	flv := o & (p << 8)
	frv := o & (p >> 8)
	flv |= o & (flv << 8)
	frv |= o & (frv >> 8)
	plv := o & (o << 8)
	prv := plv >> 8
	flv |= plv & (flv << 16)
	frv |= prv & (frv >> 16)
	flv |= plv & (flv << 16)
	frv |= prv & (frv >> 16)
	fld := inner & (p << 7)
	frd := inner & (p >> 7)
	fld |= inner & (fld << 7)
	frd |= inner & (frd >> 7)
	pld := inner & (inner << 7)
	prd := pld >> 7
	fld |= pld & (fld << 14)
	frd |= prd & (frd >> 14)
	fld |= pld & (fld << 14)
	frd |= prd & (frd >> 14)
	fla := inner & (p << 9)
	fra := inner & (p >> 9)
	fla |= inner & (fla << 9)
	fra |= inner & (fra >> 9)
	pla := inner & (inner << 9)
	pra := pla >> 9
	fla |= pla & (fla << 18)
	fra |= pra & (fra >> 18)
	fla |= pla & (fla << 18)
	fra |= pra & (fra >> 18)
	return (flh<<1 | frh>>1 | flv<<8 | frv>>8 | fld<<7 | frd>>7 | fla<<9 | fra>>9) &^ (p | o)
}

// Flips uses kindergarten bitboards: each of the four lines through the move is gathered into
// an 8-bit pattern (rows by a shift, files and diagonals by a carry-free multiplication), two
// small tables give the outflanking discs and the discs between, and the result is scattered
// back. Measured here (BenchmarkFlips*, best of several runs of one binary) it takes about 0.6x
// the time of a carry/leading-zero ray version and about 0.9x that of the line-index tables.

// lineMasks holds, per square, the a1-h8 and a8-h1 diagonals through it and its rank and file.
type lineMasks struct {
	diag, anti uint64
	row, col   uint
}

var squareMasks [64]lineMasks

// outflank8[x][o] marks, on an 8-square line with a move at x and opponent discs o, the squares
// just past a non-empty run of opponent discs on either side of x (where the mover's disc must
// stand for the run to flip). between8[x][m] is the set of squares strictly between x and the
// squares of m.
var outflank8, between8 [8][256]uint8

// fileDeposit[b] spreads the 8 bits of b over file a (bit i to rank i).
var fileDeposit [256]uint64

const (
	fileA      = 0x0101010101010101
	fileGather = 0x0102040810204080 // gathers file a into the top byte, rank i to bit i
)

func init() {
	for sq := 0; sq < 64; sq++ {
		c, r := sq&7, sq>>3
		var d, a uint64
		for rr := 0; rr < 8; rr++ {
			if cc := c - r + rr; cc >= 0 && cc < 8 {
				d |= 1 << uint(rr*8+cc)
			}
			if cc := c + r - rr; cc >= 0 && cc < 8 {
				a |= 1 << uint(rr*8+cc)
			}
		}
		squareMasks[sq] = lineMasks{diag: d, anti: a, row: uint(r), col: uint(c)}
	}
	for x := 0; x < 8; x++ {
		for o := 0; o < 256; o++ {
			var out uint8
			j := x + 1
			for j < 8 && o>>j&1 != 0 {
				j++
			}
			if j < 8 && j > x+1 {
				out |= 1 << j
			}
			j = x - 1
			for j >= 0 && o>>j&1 != 0 {
				j--
			}
			if j >= 0 && j < x-1 {
				out |= 1 << j
			}
			outflank8[x][o] = out
		}
		for m := 0; m < 256; m++ {
			var b uint8
			for j := 0; j < 8; j++ {
				if m>>j&1 == 0 {
					continue
				}
				lo, hi := min(j, x), max(j, x)
				for k := lo + 1; k < hi; k++ {
					b |= 1 << k
				}
			}
			between8[x][m] = b
		}
	}
	for b := 0; b < 256; b++ {
		for i := 0; i < 8; i++ {
			if b>>i&1 != 0 {
				fileDeposit[b] |= 1 << uint(8*i)
			}
		}
	}
}

// flipsGo is Flips in Go (kindergarten bitboards, above); where the processor has AVX-512,
// Flips runs flipsAVX512 instead (flips_amd64.s), tested against this one.
func flipsGo(p, o uint64, sq Square) uint64 {
	k := &squareMasks[sq&63]
	r, c := k.row&7, k.col&7
	rp := uint8(p >> (8 * r))
	ro := uint8(o >> (8 * r))
	f := uint64(between8[c][outflank8[c][ro]&rp]) << (8 * r)
	cp := uint8((p >> c) & fileA * fileGather >> 56)
	co := uint8((o >> c) & fileA * fileGather >> 56)
	f |= fileDeposit[between8[r][outflank8[r][co]&cp]] << c
	dp := uint8((p & k.diag) * fileA >> 56)
	do := uint8((o & k.diag) * fileA >> 56)
	f |= uint64(between8[c][outflank8[c][do]&dp]) * fileA & k.diag
	ap := uint8((p & k.anti) * fileA >> 56)
	ao := uint8((o & k.anti) * fileA >> 56)
	f |= uint64(between8[c][outflank8[c][ao]&ap]) * fileA & k.anti
	return f
}

// Count is the number of discs on a bitboard.
func Count(b uint64) int { return bits.OnesCount64(b) }

// FirstSquare returns the lowest square of a non-empty bitboard.
func FirstSquare(b uint64) Square { return Square(bits.TrailingZeros64(b)) }

// Neighbours returns the squares next to (in the eight directions) some square of x; they may
// include squares of x itself.
func Neighbours(x uint64) uint64 {
	row := x | (x<<1)&notFileA | (x>>1)&notFileH
	return row<<8 | row>>8 | (x<<1)&notFileA | (x>>1)&notFileH
}

// legalMovesBothGo is the twin of the vector LegalMovesBoth.
func legalMovesBothGo(p, o uint64) (pm, om uint64) { return legalMovesGo(p, o), legalMovesGo(o, p) }
