package patterns

import (
	"unsafe"

	"github.com/othellogo/othello/board"
)

// Table is one stage's full weight table as the evaluation keeps it: the weights, then room
// for the vector sum, which reads each weight as the low half of 4 bytes.
type Table struct {
	W [TableSize]int16
	_ [2]int16
}

// vecPerm[i] is the word, counted from board.Board.Lines (the extra indices follow the lines),
// that instance i reads: instances 0..31 in the first 32 entries, 32..45 in the next.
// vecBase[0][i] + word is instance i's table index with black to move and vecBase[1][i] -
// word with white to move. Both are derived from Indices at start-up and checked by the tests
// on random games.
var vecPerm [64]uint16
var vecBase [2][48]int32

// instanceWords lists the word each instance reads, in Indices' order.
var instanceWords = [NumInstances]int{
	board.FirstRow + 1, board.FirstRow + 6, board.FirstCol + 1, board.FirstCol + 6,
	board.FirstRow + 2, board.FirstRow + 5, board.FirstCol + 2, board.FirstCol + 5,
	board.FirstRow + 3, board.FirstRow + 4, board.FirstCol + 3, board.FirstCol + 4,
	d0 + 4, d0 - 4, a0 - 4, a0 + 4,
	d0 + 3, d0 - 3, a0 - 3, a0 + 3,
	d0 + 2, d0 - 2, a0 - 2, a0 + 2,
	d0 + 1, d0 - 1, a0 - 1, a0 + 1,
	d0, a0,
	ext + 0, ext + 1, ext + 2, ext + 3, ext + 4, ext + 5, ext + 6, ext + 7,
	ext + 8, ext + 9, ext + 10, ext + 11, ext + 12, ext + 13, ext + 14, ext + 15,
}

const (
	d0  = board.FirstDiag + 5
	a0  = board.FirstAntiDiag + 5
	ext = board.NumLines
)

func initVector() {
	var b board.Board
	if unsafe.Offsetof(b.Ext) != unsafe.Offsetof(b.Lines)+2*board.NumLines {
		panic("patterns: the board's extra indices do not follow its line indices")
	}
	for i, wd := range instanceWords {
		vecPerm[i] = uint16(wd)
	}
	for k, blackToMove := range []bool{true, false} {
		b := board.Start()
		if !blackToMove {
			b.Pass()
		}
		var idx [NumInstances]uint32
		Indices(&b, &idx)
		words := (*[board.NumLines + board.NumExt]uint16)(unsafe.Pointer(&b.Lines))
		for i, wd := range instanceWords {
			if blackToMove {
				vecBase[k][i] = int32(idx[i]) - int32(words[wd])
			} else {
				vecBase[k][i] = int32(idx[i]) + int32(words[wd])
			}
		}
	}
}
