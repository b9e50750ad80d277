package patterns

import "github.com/othellogo/othello/board"

// diagOffset[n] is the index of the empty padding of a diagonal of length n: the line index
// minus diagOffset[n] is the n-square configuration.
var diagOffset [9]uint32

func initLineTables() {
	for n := 1; n <= 8; n++ {
		diagOffset[n] = uint32((board.LineStates - pow3(n)) / 2)
	}
}

// extOffset[i] is the table offset of the pattern of extra index i (board.Ext), instance 30+i.
var extOffset = [board.NumExt]uint32{
	oE, oE, oE, oE,
	oC25, oC25, oC25, oC25, oC25, oC25, oC25, oC25,
	oC33, oC33, oC33, oC33,
}

// Indices writes into idx the flat table index (Offset of the pattern + configuration) of every
// instance, in the side to move's view: a disc of the side to move is digit 2. It reads only
// the line and extra indices; it allocates nothing.
func Indices(b *board.Board, idx *[NumInstances]uint32) {
	L := &b.Lines
	const (
		r0, r1, r2, r3, r4, r5, r6, r7 = board.FirstRow + 0, board.FirstRow + 1, board.FirstRow + 2, board.FirstRow + 3, board.FirstRow + 4, board.FirstRow + 5, board.FirstRow + 6, board.FirstRow + 7
		c0, c1, c2, c3, c4, c5, c6, c7 = board.FirstCol + 0, board.FirstCol + 1, board.FirstCol + 2, board.FirstCol + 3, board.FirstCol + 4, board.FirstCol + 5, board.FirstCol + 6, board.FirstCol + 7
		d0                             = board.FirstDiag + 5 // file - rank = 0
		a0                             = board.FirstAntiDiag + 5
	)
	idx[0] = oHV2 + uint32(L[r1])
	idx[1] = oHV2 + uint32(L[r6])
	idx[2] = oHV2 + uint32(L[c1])
	idx[3] = oHV2 + uint32(L[c6])
	idx[4] = oHV3 + uint32(L[r2])
	idx[5] = oHV3 + uint32(L[r5])
	idx[6] = oHV3 + uint32(L[c2])
	idx[7] = oHV3 + uint32(L[c5])
	idx[8] = oHV4 + uint32(L[r3])
	idx[9] = oHV4 + uint32(L[r4])
	idx[10] = oHV4 + uint32(L[c3])
	idx[11] = oHV4 + uint32(L[c4])

	const off4, off5, off6, off7 = (6561 - 81) / 2, (6561 - 243) / 2, (6561 - 729) / 2, (6561 - 2187) / 2
	idx[12] = oD4 - off4 + uint32(L[d0+4])
	idx[13] = oD4 - off4 + uint32(L[d0-4])
	idx[14] = oD4 - off4 + uint32(L[a0-4])
	idx[15] = oD4 - off4 + uint32(L[a0+4])
	idx[16] = oD5 - off5 + uint32(L[d0+3])
	idx[17] = oD5 - off5 + uint32(L[d0-3])
	idx[18] = oD5 - off5 + uint32(L[a0-3])
	idx[19] = oD5 - off5 + uint32(L[a0+3])
	idx[20] = oD6 - off6 + uint32(L[d0+2])
	idx[21] = oD6 - off6 + uint32(L[d0-2])
	idx[22] = oD6 - off6 + uint32(L[a0-2])
	idx[23] = oD6 - off6 + uint32(L[a0+2])
	idx[24] = oD7 - off7 + uint32(L[d0+1])
	idx[25] = oD7 - off7 + uint32(L[d0-1])
	idx[26] = oD7 - off7 + uint32(L[a0-1])
	idx[27] = oD7 - off7 + uint32(L[a0+1])
	idx[28] = oD8 + uint32(L[d0])
	idx[29] = oD8 + uint32(L[a0])

	for i, x := range b.Ext {
		idx[30+i] = extOffset[i] + uint32(x)
	}

	if !b.BlackToMove {
		for i := range idx {
			idx[i] = flipBase[i] - idx[i]
		}
	}
}
