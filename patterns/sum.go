package patterns

import (
	"github.com/othellogo/othello/board"
)

// Table offsets of the patterns in a stage's full table (Offset as constants).
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
	oEnd = oC33 + 19683
)

// Diagonal padding offsets (see Indices).
const off4, off5, off6, off7 = (6561 - 81) / 2, (6561 - 243) / 2, (6561 - 729) / 2, (6561 - 2187) / 2

// Sum adds up the instance weights of b in table w, reading each index off the board's line
// and extra indices as Indices does and summing at once. The tables are in absolute colours (black =
// 2); for white to move every index x is replaced by its colour-exchanged twin
// 2*offset+size-1-x. The two colours have their own copy of the code so that neither pays
// for the other's index arithmetic.
func Sum(w *[TableSize]int16, b *board.Board) int {
	if b.BlackToMove {
		return sumBlack(w, &b.Lines, &b.Ext)
	}
	return sumWhite(w, &b.Lines, &b.Ext)
}

func sumBlack(w *[TableSize]int16, L *[board.NumLines]uint16, E *[board.NumExt]uint16) int {
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

	s += at(oE+uint32(E[0]), kE) + at(oE+uint32(E[1]), kE)
	s += at(oE+uint32(E[2]), kE) + at(oE+uint32(E[3]), kE)

	s += at(oC25+uint32(E[4]), kC25) + at(oC25+uint32(E[5]), kC25)
	s += at(oC25+uint32(E[6]), kC25) + at(oC25+uint32(E[7]), kC25)
	s += at(oC25+uint32(E[8]), kC25) + at(oC25+uint32(E[9]), kC25)
	s += at(oC25+uint32(E[10]), kC25) + at(oC25+uint32(E[11]), kC25)

	s += at(oC33+uint32(E[12]), kC33)
	s += at(oC33+uint32(E[13]), kC33)
	s += at(oC33+uint32(E[14]), kC33)
	s += at(oC33+uint32(E[15]), kC33)
	return s
}

func sumWhite(w *[TableSize]int16, L *[board.NumLines]uint16, E *[board.NumExt]uint16) int {
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

	s += at(oE+uint32(E[0]), kE) + at(oE+uint32(E[1]), kE)
	s += at(oE+uint32(E[2]), kE) + at(oE+uint32(E[3]), kE)

	s += at(oC25+uint32(E[4]), kC25) + at(oC25+uint32(E[5]), kC25)
	s += at(oC25+uint32(E[6]), kC25) + at(oC25+uint32(E[7]), kC25)
	s += at(oC25+uint32(E[8]), kC25) + at(oC25+uint32(E[9]), kC25)
	s += at(oC25+uint32(E[10]), kC25) + at(oC25+uint32(E[11]), kC25)

	s += at(oC33+uint32(E[12]), kC33)
	s += at(oC33+uint32(E[13]), kC33)
	s += at(oC33+uint32(E[14]), kC33)
	s += at(oC33+uint32(E[15]), kC33)
	return s
}
