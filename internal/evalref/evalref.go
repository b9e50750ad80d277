// Package evalref keeps the pattern sum as it was before its speed-up, as the reference that
// the tests of packages patterns and eval compare the faster code with and the baseline of
// their benchmarks. Nothing outside tests uses it.
package evalref

import (
	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/patterns"
)

// Table offsets of the patterns in a stage's full table (patterns.Offset as constants).
const (
	oHV2 = 0
	oHV3 = oHV2 + 6561
	oHV4 = oHV3 + 6561
	oD4  = oHV4 + 6561
	oD5  = oD4 + 81
	oD6  = oD5 + 243
	oD7  = oD6 + 729
	oD8  = oD7 + 2187
	oE   = oD8 + 6561
	oC25 = oE + 59049
	oC33 = oC25 + 59049
)

const off4, off5, off6, off7 = (6561 - 81) / 2, (6561 - 243) / 2, (6561 - 729) / 2, (6561 - 2187) / 2

// TableSize is patterns.TableSize.
const TableSize = patterns.TableSize

// Sum is patterns.Sum as it was before the slices of the corner blocks were computed by
// arithmetic: they came from tables lo5T, hi5rT, lo3T, hi3rT of 6561 entries each.
func Sum(w *[TableSize]int16, b *board.Board) int {
	if b.BlackToMove {
		return sumBlackRef(w, &b.Lines, b.P, b.O)
	}
	return sumWhiteRef(w, &b.Lines, b.O, b.P)
}

func sumBlackRef(w *[TableSize]int16, L *[board.NumLines]uint16, black, white uint64) int {
	at := func(x, k uint32) int { return int(w[x]) }
	const (
		kHV2 = 2*oHV2 + 6560
		kHV3 = 2*oHV3 + 6560
		kHV4 = 2*oHV4 + 6560
		kD4  = 2*oD4 + 80
		kD5  = 2*oD5 + 242
		kD6  = 2*oD6 + 728
		kD7  = 2*oD7 + 2186
		kD8  = 2*oD8 + 6560
		kE   = 2*oE + 59048
		kC25 = 2*oC25 + 59048
		kC33 = 2*oC33 + 19682
	)
	const (
		r0, r1, r2, r3, r4, r5, r6, r7 = board.FirstRow + 0, board.FirstRow + 1, board.FirstRow + 2, board.FirstRow + 3, board.FirstRow + 4, board.FirstRow + 5, board.FirstRow + 6, board.FirstRow + 7
		c0, c1, c2, c3, c4, c5, c6, c7 = board.FirstCol + 0, board.FirstCol + 1, board.FirstCol + 2, board.FirstCol + 3, board.FirstCol + 4, board.FirstCol + 5, board.FirstCol + 6, board.FirstCol + 7
		d0                             = board.FirstDiag + 5
		a0                             = board.FirstAntiDiag + 5
	)
	s := at(oHV2+uint32(L[r1]), kHV2) + at(oHV2+uint32(L[r6]), kHV2) + at(oHV2+uint32(L[c1]), kHV2) + at(oHV2+uint32(L[c6]), kHV2)
	s += at(oHV3+uint32(L[r2]), kHV3) + at(oHV3+uint32(L[r5]), kHV3) + at(oHV3+uint32(L[c2]), kHV3) + at(oHV3+uint32(L[c5]), kHV3)
	s += at(oHV4+uint32(L[r3]), kHV4) + at(oHV4+uint32(L[r4]), kHV4) + at(oHV4+uint32(L[c3]), kHV4) + at(oHV4+uint32(L[c4]), kHV4)
	s += at(oD4-off4+uint32(L[d0+4]), kD4) + at(oD4-off4+uint32(L[d0-4]), kD4) + at(oD4-off4+uint32(L[a0-4]), kD4) + at(oD4-off4+uint32(L[a0+4]), kD4)
	s += at(oD5-off5+uint32(L[d0+3]), kD5) + at(oD5-off5+uint32(L[d0-3]), kD5) + at(oD5-off5+uint32(L[a0-3]), kD5) + at(oD5-off5+uint32(L[a0+3]), kD5)
	s += at(oD6-off6+uint32(L[d0+2]), kD6) + at(oD6-off6+uint32(L[d0-2]), kD6) + at(oD6-off6+uint32(L[a0-2]), kD6) + at(oD6-off6+uint32(L[a0+2]), kD6)
	s += at(oD7-off7+uint32(L[d0+1]), kD7) + at(oD7-off7+uint32(L[d0-1]), kD7) + at(oD7-off7+uint32(L[a0-1]), kD7) + at(oD7-off7+uint32(L[a0+1]), kD7)
	s += at(oD8+uint32(L[d0]), kD8) + at(oD8+uint32(L[a0]), kD8)

	b2 := uint32(1 + black>>9&1 - white>>9&1)
	g2 := uint32(1 + black>>14&1 - white>>14&1)
	b7 := uint32(1 + black>>49&1 - white>>49&1)
	g7 := uint32(1 + black>>54&1 - white>>54&1)
	s += at(oE+uint32(L[r0])+6561*b2+19683*g2, kE) + at(oE+uint32(L[r7])+6561*b7+19683*g7, kE)
	s += at(oE+uint32(L[c0])+6561*b2+19683*b7, kE) + at(oE+uint32(L[c7])+6561*g2+19683*g7, kE)

	s += at(oC25+uint32(lo5T[L[r0]])+243*uint32(lo5T[L[r1]]), kC25) + at(oC25+uint32(lo5T[L[c0]])+243*uint32(lo5T[L[c1]]), kC25)
	s += at(oC25+uint32(hi5rT[L[r0]])+243*uint32(hi5rT[L[r1]]), kC25) + at(oC25+uint32(lo5T[L[c7]])+243*uint32(lo5T[L[c6]]), kC25)
	s += at(oC25+uint32(lo5T[L[r7]])+243*uint32(lo5T[L[r6]]), kC25) + at(oC25+uint32(hi5rT[L[c0]])+243*uint32(hi5rT[L[c1]]), kC25)
	s += at(oC25+uint32(hi5rT[L[r7]])+243*uint32(hi5rT[L[r6]]), kC25) + at(oC25+uint32(hi5rT[L[c7]])+243*uint32(hi5rT[L[c6]]), kC25)

	s += at(oC33+uint32(lo3T[L[r0]])+27*uint32(lo3T[L[r1]])+729*uint32(lo3T[L[r2]]), kC33)
	s += at(oC33+uint32(hi3rT[L[r0]])+27*uint32(hi3rT[L[r1]])+729*uint32(hi3rT[L[r2]]), kC33)
	s += at(oC33+uint32(lo3T[L[r7]])+27*uint32(lo3T[L[r6]])+729*uint32(lo3T[L[r5]]), kC33)
	s += at(oC33+uint32(hi3rT[L[r7]])+27*uint32(hi3rT[L[r6]])+729*uint32(hi3rT[L[r5]]), kC33)
	return s
}

func sumWhiteRef(w *[TableSize]int16, L *[board.NumLines]uint16, black, white uint64) int {
	at := func(x, k uint32) int { return int(w[k-x]) }
	const (
		kHV2 = 2*oHV2 + 6560
		kHV3 = 2*oHV3 + 6560
		kHV4 = 2*oHV4 + 6560
		kD4  = 2*oD4 + 80
		kD5  = 2*oD5 + 242
		kD6  = 2*oD6 + 728
		kD7  = 2*oD7 + 2186
		kD8  = 2*oD8 + 6560
		kE   = 2*oE + 59048
		kC25 = 2*oC25 + 59048
		kC33 = 2*oC33 + 19682
	)
	const (
		r0, r1, r2, r3, r4, r5, r6, r7 = board.FirstRow + 0, board.FirstRow + 1, board.FirstRow + 2, board.FirstRow + 3, board.FirstRow + 4, board.FirstRow + 5, board.FirstRow + 6, board.FirstRow + 7
		c0, c1, c2, c3, c4, c5, c6, c7 = board.FirstCol + 0, board.FirstCol + 1, board.FirstCol + 2, board.FirstCol + 3, board.FirstCol + 4, board.FirstCol + 5, board.FirstCol + 6, board.FirstCol + 7
		d0                             = board.FirstDiag + 5
		a0                             = board.FirstAntiDiag + 5
	)
	s := at(oHV2+uint32(L[r1]), kHV2) + at(oHV2+uint32(L[r6]), kHV2) + at(oHV2+uint32(L[c1]), kHV2) + at(oHV2+uint32(L[c6]), kHV2)
	s += at(oHV3+uint32(L[r2]), kHV3) + at(oHV3+uint32(L[r5]), kHV3) + at(oHV3+uint32(L[c2]), kHV3) + at(oHV3+uint32(L[c5]), kHV3)
	s += at(oHV4+uint32(L[r3]), kHV4) + at(oHV4+uint32(L[r4]), kHV4) + at(oHV4+uint32(L[c3]), kHV4) + at(oHV4+uint32(L[c4]), kHV4)
	s += at(oD4-off4+uint32(L[d0+4]), kD4) + at(oD4-off4+uint32(L[d0-4]), kD4) + at(oD4-off4+uint32(L[a0-4]), kD4) + at(oD4-off4+uint32(L[a0+4]), kD4)
	s += at(oD5-off5+uint32(L[d0+3]), kD5) + at(oD5-off5+uint32(L[d0-3]), kD5) + at(oD5-off5+uint32(L[a0-3]), kD5) + at(oD5-off5+uint32(L[a0+3]), kD5)
	s += at(oD6-off6+uint32(L[d0+2]), kD6) + at(oD6-off6+uint32(L[d0-2]), kD6) + at(oD6-off6+uint32(L[a0-2]), kD6) + at(oD6-off6+uint32(L[a0+2]), kD6)
	s += at(oD7-off7+uint32(L[d0+1]), kD7) + at(oD7-off7+uint32(L[d0-1]), kD7) + at(oD7-off7+uint32(L[a0-1]), kD7) + at(oD7-off7+uint32(L[a0+1]), kD7)
	s += at(oD8+uint32(L[d0]), kD8) + at(oD8+uint32(L[a0]), kD8)

	b2 := uint32(1 + black>>9&1 - white>>9&1)
	g2 := uint32(1 + black>>14&1 - white>>14&1)
	b7 := uint32(1 + black>>49&1 - white>>49&1)
	g7 := uint32(1 + black>>54&1 - white>>54&1)
	s += at(oE+uint32(L[r0])+6561*b2+19683*g2, kE) + at(oE+uint32(L[r7])+6561*b7+19683*g7, kE)
	s += at(oE+uint32(L[c0])+6561*b2+19683*b7, kE) + at(oE+uint32(L[c7])+6561*g2+19683*g7, kE)

	s += at(oC25+uint32(lo5T[L[r0]])+243*uint32(lo5T[L[r1]]), kC25) + at(oC25+uint32(lo5T[L[c0]])+243*uint32(lo5T[L[c1]]), kC25)
	s += at(oC25+uint32(hi5rT[L[r0]])+243*uint32(hi5rT[L[r1]]), kC25) + at(oC25+uint32(lo5T[L[c7]])+243*uint32(lo5T[L[c6]]), kC25)
	s += at(oC25+uint32(lo5T[L[r7]])+243*uint32(lo5T[L[r6]]), kC25) + at(oC25+uint32(hi5rT[L[c0]])+243*uint32(hi5rT[L[c1]]), kC25)
	s += at(oC25+uint32(hi5rT[L[r7]])+243*uint32(hi5rT[L[r6]]), kC25) + at(oC25+uint32(hi5rT[L[c7]])+243*uint32(hi5rT[L[c6]]), kC25)

	s += at(oC33+uint32(lo3T[L[r0]])+27*uint32(lo3T[L[r1]])+729*uint32(lo3T[L[r2]]), kC33)
	s += at(oC33+uint32(hi3rT[L[r0]])+27*uint32(hi3rT[L[r1]])+729*uint32(hi3rT[L[r2]]), kC33)
	s += at(oC33+uint32(lo3T[L[r7]])+27*uint32(lo3T[L[r6]])+729*uint32(lo3T[L[r5]]), kC33)
	s += at(oC33+uint32(hi3rT[L[r7]])+27*uint32(hi3rT[L[r6]])+729*uint32(hi3rT[L[r5]]), kC33)
	return s
}

// The slice tables of sumRef: lo5T[L] is positions 0..4 of line state L, hi5rT[L] positions
// 7, 6, 5, 4, 3, lo3T and hi3rT likewise for three positions.
var lo5T, hi5rT, lo3T, hi3rT [board.LineStates]uint16

func init() {
	for l := 0; l < board.LineStates; l++ {
		var d [8]int
		x := l
		for i := range d {
			d[i] = x % 3
			x /= 3
		}
		lo5T[l] = uint16(d[0] + 3*d[1] + 9*d[2] + 27*d[3] + 81*d[4])
		hi5rT[l] = uint16(d[7] + 3*d[6] + 9*d[5] + 27*d[4] + 81*d[3])
		lo3T[l] = uint16(d[0] + 3*d[1] + 9*d[2])
		hi3rT[l] = uint16(d[7] + 3*d[6] + 9*d[5])
	}
}
