// Package patterns owns the pattern set of the evaluation: each pattern is an ordered list of
// squares with its symmetric instances on the board, and a configuration of a pattern is the
// ternary number sum(code_i * 3^i) over its squares, in the same code as the board's line
// indices (2 = a disc of the side to move, 1 = empty, 0 = an opponent disc).
//
// The set is Buro's Logistello set ("Experiments with Multi-ProbCut and a New High-Quality
// Evaluation Function for Othello", 1997): rows/columns 2, 3 and 4, the diagonals of length 4
// to 8, the edge with its two X-squares, the 2x5 corner block and the 3x3 corner block, 46
// instances in all. Every instance index is read off the board's 38 line indices (rows,
// columns and diagonals ARE line indices; the corner blocks are slices of two or three row
// or column indices; the edge+2X pattern is the edge line plus two squares), so no per-square
// work is needed.
//
// Symmetric configurations share one weight: Canonical maps every configuration of a pattern
// to the smallest configuration among its images under the board symmetries that map the
// pattern's squares onto themselves (a line reversed, the 3x3 block mirrored on its
// diagonal, the edge+2X pattern mirrored), and Packed numbers the canonical configurations
// densely, which is how weights are stored on disk and trained.
package patterns

import (
	"fmt"

	"github.com/othellogo/othello/board"
)

// Pattern is one pattern: its name and the squares of its first instance in digit order
// (square i carries weight 3^i in the configuration index).
type Pattern struct {
	Name    string
	Squares []board.Square
}

// Size is the number of configurations, 3^len(Squares).
func (p *Pattern) Size() int { return pow3(len(p.Squares)) }

// The patterns, in the order of their tables.
const (
	HV2 = iota
	HV3
	HV4
	Diag4
	Diag5
	Diag6
	Diag7
	Diag8
	Edge2X
	Corner2x5
	Corner3x3
	NumPatterns
)

// NumInstances is the number of pattern instances on the board, the number of weights summed
// by one evaluation.
const NumInstances = 46

// Patterns lists the pattern set. Do not modify.
var Patterns = [NumPatterns]Pattern{
	HV2:       {"hv2", sq("a2 b2 c2 d2 e2 f2 g2 h2")},
	HV3:       {"hv3", sq("a3 b3 c3 d3 e3 f3 g3 h3")},
	HV4:       {"hv4", sq("a4 b4 c4 d4 e4 f4 g4 h4")},
	Diag4:     {"diag4", sq("e1 f2 g3 h4")},
	Diag5:     {"diag5", sq("d1 e2 f3 g4 h5")},
	Diag6:     {"diag6", sq("c1 d2 e3 f4 g5 h6")},
	Diag7:     {"diag7", sq("b1 c2 d3 e4 f5 g6 h7")},
	Diag8:     {"diag8", sq("a1 b2 c3 d4 e5 f6 g7 h8")},
	Edge2X:    {"edge2x", sq("a1 b1 c1 d1 e1 f1 g1 h1 b2 g2")},
	Corner2x5: {"corner2x5", sq("a1 b1 c1 d1 e1 a2 b2 c2 d2 e2")},
	Corner3x3: {"corner3x3", sq("a1 b1 c1 a2 b2 c2 a3 b3 c3")},
}

// Offset[p] is where pattern p's table starts in a stage's flat weight table of TableSize
// entries (full, unpacked: one entry per configuration).
var Offset [NumPatterns + 1]int

// TableSize is the number of entries of one stage's full weight table.
const TableSize = 3*6561 + 81 + 243 + 729 + 2187 + 6561 + 59049 + 59049 + 19683

// InstancePattern[i] is the pattern of instance i, in the order Indices writes them.
var InstancePattern [NumInstances]int

// InstanceSquares[i] lists the squares of instance i in digit order; Indices computes exactly
// sum(code(InstanceSquares[i][j]) * 3^j) for each instance (tests check it).
var InstanceSquares [NumInstances][]board.Square

// flipBase[i] turns the flat index x of instance i, computed in absolute colours (black =
// 2), into the index with colours exchanged: flipBase[i] - x. Every digit d becomes 2-d.
var flipBase [NumInstances]uint32

func sq(list string) []board.Square {
	var out []board.Square
	for i := 0; i < len(list); i += 3 {
		s, err := board.ParseSquare(list[i : i+2])
		if err != nil {
			panic(err)
		}
		out = append(out, s)
	}
	return out
}

func pow3(n int) int {
	r := 1
	for ; n > 0; n-- {
		r *= 3
	}
	return r
}

func init() {
	for p := range Patterns {
		Offset[p+1] = Offset[p] + Patterns[p].Size()
	}
	if Offset[NumPatterns] != TableSize {
		panic(fmt.Sprintf("patterns: TableSize %d, tables sum to %d", TableSize, Offset[NumPatterns]))
	}
	initInstances()
	initLineTables()
	initCanonical()
	initVector()
}

// initInstances lists the instances in the order of Indices, each as the squares of the line
// slices Indices reads.
func initInstances() {
	n := 0
	add := func(p int, squares []board.Square) {
		InstancePattern[n] = p
		InstanceSquares[n] = squares
		size := Patterns[p].Size()
		flipBase[n] = uint32(2*Offset[p] + size - 1)
		n++
	}
	line := func(l int) []board.Square {
		s := board.LineSquares(l)
		return s[:board.LineLength[l]]
	}
	rev := func(s []board.Square) []board.Square {
		out := make([]board.Square, len(s))
		for i := range s {
			out[len(s)-1-i] = s[i]
		}
		return out
	}
	cat := func(parts ...[]board.Square) []board.Square {
		var out []board.Square
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	for _, l := range hvLines[0] {
		add(HV2, line(l))
	}
	for _, l := range hvLines[1] {
		add(HV3, line(l))
	}
	for _, l := range hvLines[2] {
		add(HV4, line(l))
	}
	for k := 0; k < 4; k++ {
		for _, l := range diagLines[k] {
			add(Diag4+k, line(l))
		}
	}
	for _, l := range diag8Lines {
		add(Diag8, line(l))
	}
	for _, e := range edgeLines {
		add(Edge2X, cat(line(e.line), []board.Square{board.Square(e.x1), board.Square(e.x2)}))
	}
	for _, c := range corners {
		a, b := line(c.lines[0]), line(c.lines[1])
		if c.reversed {
			add(Corner2x5, cat(rev(a[3:]), rev(b[3:])))
		} else {
			add(Corner2x5, cat(a[:5], b[:5]))
		}
	}
	for _, c := range corners {
		if c.vertical {
			continue
		}
		a, b, c3 := line(c.lines[0]), line(c.lines[1]), line(c.lines[2])
		if c.reversed {
			add(Corner3x3, cat(rev(a[5:]), rev(b[5:]), rev(c3[5:])))
		} else {
			add(Corner3x3, cat(a[:3], b[:3], c3[:3]))
		}
	}
	if n != NumInstances {
		panic(fmt.Sprintf("patterns: %d instances, want %d", n, NumInstances))
	}
}

// The lines read by each instance, in instance order.
var (
	hvLines = [3][4]int{
		{board.FirstRow + 1, board.FirstRow + 6, board.FirstCol + 1, board.FirstCol + 6},
		{board.FirstRow + 2, board.FirstRow + 5, board.FirstCol + 2, board.FirstCol + 5},
		{board.FirstRow + 3, board.FirstRow + 4, board.FirstCol + 3, board.FirstCol + 4},
	}
	// diagLines[k] are the four diagonals of length 4+k: file-rank = ±(4-k) and
	// file+rank = 3+k, 11-k.
	diagLines = [4][4]int{
		{board.FirstDiag + 5 + 4, board.FirstDiag + 5 - 4, board.FirstAntiDiag + 3 - 2, board.FirstAntiDiag + 11 - 2},
		{board.FirstDiag + 5 + 3, board.FirstDiag + 5 - 3, board.FirstAntiDiag + 4 - 2, board.FirstAntiDiag + 10 - 2},
		{board.FirstDiag + 5 + 2, board.FirstDiag + 5 - 2, board.FirstAntiDiag + 5 - 2, board.FirstAntiDiag + 9 - 2},
		{board.FirstDiag + 5 + 1, board.FirstDiag + 5 - 1, board.FirstAntiDiag + 6 - 2, board.FirstAntiDiag + 8 - 2},
	}
	diag8Lines = [2]int{board.FirstDiag + 5, board.FirstAntiDiag + 7 - 2}
	edgeLines  = [4]struct {
		line   int
		x1, x2 int
	}{
		{board.FirstRow + 0, 9, 14},  // a1..h1 + b2, g2
		{board.FirstRow + 7, 49, 54}, // a8..h8 + b7, g7
		{board.FirstCol + 0, 9, 49},  // a1..a8 + b2, b7
		{board.FirstCol + 7, 14, 54}, // h1..h8 + g2, g7
	}
	// corners lists the 2x5 instances by the lines they slice (the third line serves the
	// 3x3 block of the horizontal instances); reversed ones read positions 7, 6, ... of
	// their lines instead of 0, 1, ....
	corners = [8]struct {
		lines              [3]int
		reversed, vertical bool
	}{
		{[3]int{board.FirstRow + 0, board.FirstRow + 1, board.FirstRow + 2}, false, false}, // a1 horizontal
		{[3]int{board.FirstCol + 0, board.FirstCol + 1, board.FirstCol + 2}, false, true},  // a1 vertical
		{[3]int{board.FirstRow + 0, board.FirstRow + 1, board.FirstRow + 2}, true, false},  // h1 horizontal
		{[3]int{board.FirstCol + 7, board.FirstCol + 6, board.FirstCol + 5}, false, true},  // h1 vertical
		{[3]int{board.FirstRow + 7, board.FirstRow + 6, board.FirstRow + 5}, false, false}, // a8 horizontal
		{[3]int{board.FirstCol + 0, board.FirstCol + 1, board.FirstCol + 2}, true, true},   // a8 vertical
		{[3]int{board.FirstRow + 7, board.FirstRow + 6, board.FirstRow + 5}, true, false},  // h8 horizontal
		{[3]int{board.FirstCol + 7, board.FirstCol + 6, board.FirstCol + 5}, true, true},   // h8 vertical
	}
)
