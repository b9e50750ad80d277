package patterns

import "github.com/othellogo/othello/board"

// Slices of a line index, by table: lo5[L] is positions 0..4 of line state L, hi5r[L] positions
// 7, 6, 5, 4, 3 (reversed, so that a corner block read from the far end of a line has its
// corner as digit 0), lo3 and hi3r likewise for three positions.
var lo5, hi5r, lo3, hi3r [board.LineStates]uint16

// diagOffset[n] is the index of the empty padding of a diagonal of length n: the line index
// minus diagOffset[n] is the n-square configuration.
var diagOffset [9]uint32

func initLineTables() {
	for l := 0; l < board.LineStates; l++ {
		var d [8]int
		x := l
		for i := range d {
			d[i] = x % 3
			x /= 3
		}
		lo5[l] = uint16(d[0] + 3*d[1] + 9*d[2] + 27*d[3] + 81*d[4])
		hi5r[l] = uint16(d[7] + 3*d[6] + 9*d[5] + 27*d[4] + 81*d[3])
		lo3[l] = uint16(d[0] + 3*d[1] + 9*d[2])
		hi3r[l] = uint16(d[7] + 3*d[6] + 9*d[5])
	}
	for n := 1; n <= 8; n++ {
		diagOffset[n] = uint32((board.LineStates - pow3(n)) / 2)
	}
}

// Indices writes into idx the flat table index (Offset of the pattern + configuration) of every
// instance, in the side to move's view: a disc of the side to move is digit 2. It reads only
// the line indices and the two bitboards; it allocates nothing.
func Indices(b *board.Board, idx *[NumInstances]uint32) {
	L := &b.Lines
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

	black, white := b.P, b.O
	if !b.BlackToMove {
		black, white = white, black
	}
	// code(s) = 1 + black bit - white bit, for the X-squares b2 (9), g2 (14), b7 (49), g7 (54).
	b2 := uint32(1 + black>>9&1 - white>>9&1)
	g2 := uint32(1 + black>>14&1 - white>>14&1)
	b7 := uint32(1 + black>>49&1 - white>>49&1)
	g7 := uint32(1 + black>>54&1 - white>>54&1)
	idx[30] = oE + uint32(L[r0]) + 6561*b2 + 19683*g2
	idx[31] = oE + uint32(L[r7]) + 6561*b7 + 19683*g7
	idx[32] = oE + uint32(L[c0]) + 6561*b2 + 19683*b7
	idx[33] = oE + uint32(L[c7]) + 6561*g2 + 19683*g7

	idx[34] = oC25 + uint32(lo5[L[r0]]) + 243*uint32(lo5[L[r1]])
	idx[35] = oC25 + uint32(lo5[L[c0]]) + 243*uint32(lo5[L[c1]])
	idx[36] = oC25 + uint32(hi5r[L[r0]]) + 243*uint32(hi5r[L[r1]])
	idx[37] = oC25 + uint32(lo5[L[c7]]) + 243*uint32(lo5[L[c6]])
	idx[38] = oC25 + uint32(lo5[L[r7]]) + 243*uint32(lo5[L[r6]])
	idx[39] = oC25 + uint32(hi5r[L[c0]]) + 243*uint32(hi5r[L[c1]])
	idx[40] = oC25 + uint32(hi5r[L[r7]]) + 243*uint32(hi5r[L[r6]])
	idx[41] = oC25 + uint32(hi5r[L[c7]]) + 243*uint32(hi5r[L[c6]])

	idx[42] = oC33 + uint32(lo3[L[r0]]) + 27*uint32(lo3[L[r1]]) + 729*uint32(lo3[L[r2]])
	idx[43] = oC33 + uint32(hi3r[L[r0]]) + 27*uint32(hi3r[L[r1]]) + 729*uint32(hi3r[L[r2]])
	idx[44] = oC33 + uint32(lo3[L[r7]]) + 27*uint32(lo3[L[r6]]) + 729*uint32(lo3[L[r5]])
	idx[45] = oC33 + uint32(hi3r[L[r7]]) + 27*uint32(hi3r[L[r6]]) + 729*uint32(hi3r[L[r5]])

	if !b.BlackToMove {
		for i := range idx {
			idx[i] = flipBase[i] - idx[i]
		}
	}
}
