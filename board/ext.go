package board

import (
	"fmt"
	"unsafe"
)

// The extra indices extend the line indices to the evaluation's pattern instances that are no
// single line: the edge with its two X-squares (4) and the 2x5 (8) and 3x3 (4) corner blocks,
// in the order and digit order of package patterns' instances. Each is kept up to date on
// make/undo like the lines, so that the evaluation reads all 46 instance indices off the
// board instead of slicing them out of two or three line indices. The codes and weights are
// the lines': digit j of index i is the code (black 2, empty 1, white 0) of square
// ExtSquares(i)[j], weighted 3^j.

// NumExt is the number of extra indices kept by a Board.
const NumExt = 16

var extSquareNames = [NumExt]string{
	"a1 b1 c1 d1 e1 f1 g1 h1 b2 g2", // edge + 2X, rows 1 and 8, files a and h
	"a8 b8 c8 d8 e8 f8 g8 h8 b7 g7",
	"a1 a2 a3 a4 a5 a6 a7 a8 b2 b7",
	"h1 h2 h3 h4 h5 h6 h7 h8 g2 g7",
	"a1 b1 c1 d1 e1 a2 b2 c2 d2 e2", // 2x5 corner blocks
	"a1 a2 a3 a4 a5 b1 b2 b3 b4 b5",
	"h1 g1 f1 e1 d1 h2 g2 f2 e2 d2",
	"h1 h2 h3 h4 h5 g1 g2 g3 g4 g5",
	"a8 b8 c8 d8 e8 a7 b7 c7 d7 e7",
	"a8 a7 a6 a5 a4 b8 b7 b6 b5 b4",
	"h8 g8 f8 e8 d8 h7 g7 f7 e7 d7",
	"h8 h7 h6 h5 h4 g8 g7 g6 g5 g4",
	"a1 b1 c1 a2 b2 c2 a3 b3 c3", // 3x3 corner blocks
	"h1 g1 f1 h2 g2 f2 h3 g3 f3",
	"a8 b8 c8 a7 b7 c7 a6 b6 c6",
	"h8 g8 f8 h7 g7 f7 h6 g6 f6",
}

var extSquares [NumExt][]Square

// maxExtPerSquare is the most extra indices a square is on (the X-squares: two edges, two
// 2x5 blocks and a 3x3 block).
const maxExtPerSquare = 5

// extDeltas holds each square's extra index slots for make/undo, padded like squareDeltas
// with weight-0 slots.
var extDeltas [64][maxExtPerSquare]lineDelta

// lineDeltaVec[s][i] is the weight of square s in word i of the line and extra indices (lines
// 0..37, then the extra indices), 64 words to a square for the vector make/undo.
var lineDeltaVec [64][64]uint16

// extMask is the squares on some extra index: make/undo skip the others' slots.
var extMask uint64

// initExt runs after the line tables are built (from the lines' init).
func initExt() {
	var count [64]int
	pow3 := [10]int{1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683}
	for i, names := range extSquareNames {
		for j := 0; j < len(names); j += 3 {
			sq, err := ParseSquare(names[j : j+2])
			if err != nil {
				panic(err)
			}
			n := len(extSquares[i])
			extSquares[i] = append(extSquares[i], sq)
			if count[sq] == maxExtPerSquare {
				panic(fmt.Sprintf("board: square %s on more than %d extra indices", sq, maxExtPerSquare))
			}
			extDeltas[sq][count[sq]] = lineDelta{line: uint8(i), w: uint16(pow3[n])}
			count[sq]++
			extMask |= sq.Bit()
		}
	}
	for sq := range 64 {
		for _, d := range squareDeltas[sq] {
			lineDeltaVec[sq][d.line] += d.w
		}
		for _, d := range extDeltas[sq] {
			lineDeltaVec[sq][NumLines+int(d.line)] += d.w
		}
	}
	var b Board
	if unsafe.Offsetof(b.Ext) != unsafe.Offsetof(b.Lines)+2*NumLines {
		panic("board: the extra indices do not follow the line indices")
	}
	for x := range 243 {
		d, r := x, 0
		for range 5 {
			r = 3*r + d%3
			d /= 3
		}
		rev5[x] = uint8(r)
	}
}

// ExtSquares returns the squares of extra index i in digit order.
func ExtSquares(i int) []Square { return extSquares[i] }

// rev5[x] is x (< 243) with its 5 ternary digits in reverse order; 256 entries, so that a byte
// index needs no bounds check.
var rev5 [256]uint8

// ExtFromLines computes the extra indices of a board from its line indices and its discs, for
// FromColors: the edges are a line plus two squares, the corner blocks slices of two or three
// lines (low digits by remainder, high ones by quotient and reversal). The tests compare it
// with extFromSquares, its square-by-square twin.
func ExtFromLines(L *[NumLines]uint16, black, white uint64) [NumExt]uint16 {
	code := func(sq uint) uint32 { return uint32(1 + black>>sq&1 - white>>sq&1) }
	lo5 := func(l int) uint32 { return uint32(L[l]) % 243 }
	hi5r := func(l int) uint32 { return uint32(rev5[uint8(L[l]/27)]) }
	lo3 := func(l int) uint32 { return uint32(L[l]) % 27 }
	hi3r := func(l int) uint32 { x := uint32(L[l]) / 243; return x%3*9 + x/3%3*3 + x/9 }
	const r0, r1, r2, r5, r6, r7 = FirstRow, FirstRow + 1, FirstRow + 2, FirstRow + 5, FirstRow + 6, FirstRow + 7
	const c0, c1, c6, c7 = FirstCol, FirstCol + 1, FirstCol + 6, FirstCol + 7
	b2, g2, b7, g7 := code(9), code(14), code(49), code(54)
	return [NumExt]uint16{
		uint16(uint32(L[r0]) + 6561*b2 + 19683*g2),
		uint16(uint32(L[r7]) + 6561*b7 + 19683*g7),
		uint16(uint32(L[c0]) + 6561*b2 + 19683*b7),
		uint16(uint32(L[c7]) + 6561*g2 + 19683*g7),
		uint16(lo5(r0) + 243*lo5(r1)),
		uint16(lo5(c0) + 243*lo5(c1)),
		uint16(hi5r(r0) + 243*hi5r(r1)),
		uint16(lo5(c7) + 243*lo5(c6)),
		uint16(lo5(r7) + 243*lo5(r6)),
		uint16(hi5r(c0) + 243*hi5r(c1)),
		uint16(hi5r(r7) + 243*hi5r(r6)),
		uint16(hi5r(c7) + 243*hi5r(c6)),
		uint16(lo3(r0) + 27*lo3(r1) + 729*lo3(r2)),
		uint16(hi3r(r0) + 27*hi3r(r1) + 729*hi3r(r2)),
		uint16(lo3(r7) + 27*lo3(r6) + 729*lo3(r5)),
		uint16(hi3r(r7) + 27*hi3r(r6) + 729*hi3r(r5)),
	}
}
