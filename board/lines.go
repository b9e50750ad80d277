package board

import "math/bits"

// The classic index-table design: the board is also kept as 38 ternary line indices, one per
// row (8), column (8), and diagonal of length 3..8 in each direction (11 + 11). Diagonals of
// length 1 and 2 can never have a disc flipped along them and are left out.
//
// A square's code is 2 for black, 1 for empty, 0 for white, and a line's index is
// sum(code_i * 3^i) over its positions i = 0..7. Positions beyond the end of a short diagonal
// count as empty, so every line is an 8-square line and one table of 6561 states serves all.

// NumLines is the number of line indices kept by a Board.
const NumLines = 38

// LineStates is the number of states of an 8-square ternary line (3^8).
const LineStates = 6561

// Line kinds, in the order of the index array.
const (
	FirstRow      = 0  // rows 1..8: position = file
	FirstCol      = 8  // files a..h: position = rank
	FirstDiag     = 16 // a1-h8 direction, file-rank = -5..5: position = rank - first rank
	FirstAntiDiag = 27 // a8-h1 direction, file+rank = 2..12: position = rank - first rank
)

// Codes of a square in a line index.
const (
	CodeWhite = 0
	CodeEmpty = 1
	CodeBlack = 2
)

// Pow3 holds 3^i.
var Pow3 = [9]int{1, 3, 9, 27, 81, 243, 729, 2187, 6561}

// lineSquares[l][i] is the square at position i of line l, or NoSquare past the end.
var lineSquares [NumLines][8]Square

// LineLength[l] is the number of board squares on line l.
var LineLength [NumLines]int

// squareLines lists, for each square, the lines through it and its position on each.
type lineRef struct {
	line uint8
	pos  uint8
	w    uint16 // 3^pos
}

var squareLines [64][4]lineRef
var squareLineCount [64]uint8

// lineDelta is one line a square is on and the square's weight 3^pos in it.
type lineDelta struct {
	line uint8
	w    uint16
}

// squareDeltas holds each square's four line slots for make/undo; a slot beyond the lines the
// square is on has weight 0 (and line 0), so adding it changes nothing.
var squareDeltas [64][4]lineDelta

// emptyLineIndex[l] is the index of line l on an empty board.
var emptyLineIndex [NumLines]uint16

// lineFlipTable[state][pos][color] is the set of positions (bit i = position i) that a disc
// of color (0 = white, 1 = black) placed at pos flips along a line in state.
// It is zero when pos is not empty or nothing is bracketed.
var lineFlipTable [LineStates][8][2]uint8

// lineBits[l][mask] maps a set of positions of line l to a bitboard.
var lineBits [NumLines][256]uint64

func init() {
	for l := range lineSquares {
		for i := range lineSquares[l] {
			lineSquares[l][i] = NoSquare
		}
	}
	for r := 0; r < 8; r++ {
		for c := 0; c < 8; c++ {
			lineSquares[FirstRow+r][c] = SquareAt(c, r)
			lineSquares[FirstCol+c][r] = SquareAt(c, r)
		}
	}
	for k := -5; k <= 5; k++ { // file - rank = k
		i := 0
		for r := 0; r < 8; r++ {
			if c := r + k; c >= 0 && c < 8 {
				lineSquares[FirstDiag+k+5][i] = SquareAt(c, r)
				i++
			}
		}
	}
	for k := 2; k <= 12; k++ { // file + rank = k
		i := 0
		for r := 0; r < 8; r++ {
			if c := k - r; c >= 0 && c < 8 {
				lineSquares[FirstAntiDiag+k-2][i] = SquareAt(c, r)
				i++
			}
		}
	}
	for l := 0; l < NumLines; l++ {
		idx := 0
		for i, sq := range lineSquares[l] {
			idx += CodeEmpty * Pow3[i]
			if sq == NoSquare {
				continue
			}
			LineLength[l]++
			n := squareLineCount[sq]
			squareLines[sq][n] = lineRef{line: uint8(l), pos: uint8(i), w: uint16(Pow3[i])}
			squareLineCount[sq] = n + 1
			squareDeltas[sq][n] = lineDelta{line: uint8(l), w: uint16(Pow3[i])}
		}
		emptyLineIndex[l] = uint16(idx)
		for mask := 0; mask < 256; mask++ {
			var b uint64
			for i := 0; i < 8; i++ {
				if mask>>i&1 != 0 && lineSquares[l][i] != NoSquare {
					b |= lineSquares[l][i].Bit()
				}
			}
			lineBits[l][mask] = b
		}
	}
	var codes [8]int
	for state := 0; state < LineStates; state++ {
		s := state
		for i := range codes {
			codes[i] = s % 3
			s /= 3
		}
		for pos := 0; pos < 8; pos++ {
			if codes[pos] != CodeEmpty {
				continue
			}
			for color := 0; color < 2; color++ {
				me, them := CodeWhite, CodeBlack
				if color == 1 {
					me, them = CodeBlack, CodeWhite
				}
				var flips uint8
				for _, step := range [2]int{-1, 1} {
					var run uint8
					j := pos + step
					for j >= 0 && j < 8 && codes[j] == them {
						run |= 1 << j
						j += step
					}
					if j >= 0 && j < 8 && codes[j] == me {
						flips |= run
					}
				}
				lineFlipTable[state][pos][color] = flips
			}
		}
	}
	initExt()
}

// LineSquares returns the squares of line l in position order (NoSquare past the end).
func LineSquares(l int) [8]Square { return lineSquares[l] }

// LinesFromBits computes the 38 line indices of a board given by its black and white discs.
// Each line's discs of a colour are gathered into a byte whose bit i is the line's position i
// (a shift for rows; a multiply for columns and diagonals, as in Flips), and a table gives that
// byte's ternary weight: index = 3280 (all empty) + weight(black) - weight(white), as black's
// code is one above empty and white's one below. The tests compare it with linesFromSquares,
// its square-by-square twin.
func LinesFromBits(black, white uint64) [NumLines]uint16 {
	var lines [NumLines]uint16
	const allEmpty = 3280 // sum of 3^i, i = 0..7
	for r := 0; r < 8; r++ {
		lines[FirstRow+r] = uint16(allEmpty + int(ternary8[uint8(black>>(8*r))]) - int(ternary8[uint8(white>>(8*r))]))
	}
	for c := 0; c < 8; c++ {
		bc := uint8((black >> c) & fileA * fileGather >> 56)
		wc := uint8((white >> c) & fileA * fileGather >> 56)
		lines[FirstCol+c] = uint16(allEmpty + int(ternary8[bc]) - int(ternary8[wc]))
	}
	for k := 0; k < 11; k++ {
		g := &diagGathers[k]
		bd := uint8((black&g.mask)*fileA>>56) >> g.shift
		wd := uint8((white&g.mask)*fileA>>56) >> g.shift
		lines[FirstDiag+k] = uint16(allEmpty + int(ternary8[bd]) - int(ternary8[wd]))
		g = &antiGathers[k]
		ba := bits.Reverse8(uint8((black&g.mask)*fileA>>56)) >> g.shift
		wa := bits.Reverse8(uint8((white&g.mask)*fileA>>56)) >> g.shift
		lines[FirstAntiDiag+k] = uint16(allEmpty + int(ternary8[ba]) - int(ternary8[wa]))
	}
	return lines
}

// ternary8[x] is the sum of 3^i over the set bits i of x.
var ternary8 [256]uint16

// diagGather says how to gather a diagonal's discs into a byte with bit i at position i: mask
// the diagonal, collapse it by files (one square per file), then shift right (for the a8-h1
// direction, whose positions run against the files, after reversing the byte).
type diagGather struct {
	mask  uint64
	shift uint8
}

var diagGathers, antiGathers [11]diagGather

func init() {
	for x := range ternary8 {
		for i := 0; i < 8; i++ {
			if x>>i&1 != 0 {
				ternary8[x] += uint16(Pow3[i])
			}
		}
	}
	for k := 0; k < 11; k++ {
		for _, t := range []struct {
			g    *diagGather
			line int
			rev  bool
		}{{&diagGathers[k], FirstDiag + k, false}, {&antiGathers[k], FirstAntiDiag + k, true}} {
			sq0 := lineSquares[t.line][0] // position 0: the lowest rank
			for _, sq := range lineSquares[t.line] {
				if sq != NoSquare {
					t.g.mask |= sq.Bit()
				}
			}
			if t.rev {
				t.g.shift = uint8(7 - sq0.Col())
			} else {
				t.g.shift = uint8(sq0.Col())
			}
		}
	}
}

// LineFlips returns the discs flipped by a disc of the given color (black true) placed on sq,
// computed from the line indices alone through the line tables. It is the reference twin of
// the bitboard Flips.
func LineFlips(lines *[NumLines]uint16, sq Square, black bool) uint64 {
	color := 0
	if black {
		color = 1
	}
	var f uint64
	n := squareLineCount[sq]
	for k := uint8(0); k < n; k++ {
		ref := squareLines[sq][k]
		f |= lineBits[ref.line][lineFlipTable[lines[ref.line]][ref.pos][color]]
	}
	return f
}

// LineLegalMoves returns the legal moves of the given color computed from the line indices.
func LineLegalMoves(lines *[NumLines]uint16, black bool) uint64 {
	color := 0
	if black {
		color = 1
	}
	var moves uint64
	for l := 0; l < NumLines; l++ {
		state := lines[l]
		for pos := 0; pos < LineLength[l]; pos++ {
			if lineFlipTable[state][pos][color] != 0 {
				moves |= lineSquares[l][pos].Bit()
			}
		}
	}
	return moves
}
