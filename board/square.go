package board

import (
	"fmt"
	"strings"
)

// Square numbers the 64 squares row by row: A1 = 0, B1 = 1, ..., H1 = 7, A2 = 8, ..., H8 = 63.
// Bit i of a bitboard is Square i. The order is the order of the 64 board characters of an
// .obf line.
type Square int8

// NoSquare marks "no move" (a pass) where a Square is expected.
const NoSquare Square = -1

// The corners and a few named squares used by ordering and tests.
const (
	A1 Square = 0
	H1 Square = 7
	A8 Square = 56
	H8 Square = 63
	D4 Square = 27
	E4 Square = 28
	D5 Square = 35
	E5 Square = 36
	F5 Square = 37
)

// Col is the file, 0 for "a" to 7 for "h".
func (s Square) Col() int { return int(s) & 7 }

// Row is the rank, 0 for "1" to 7 for "8".
func (s Square) Row() int { return int(s) >> 3 }

// Bit is the square's bitboard.
func (s Square) Bit() uint64 { return 1 << uint(s) }

// SquareAt returns the square at file col and rank row (both 0..7).
func SquareAt(col, row int) Square { return Square(row*8 + col) }

// String gives the lower-case coordinate ("f5"); a pass prints as "pa".
func (s Square) String() string {
	if s < 0 || s > 63 {
		return "pa"
	}
	return string([]byte{byte('a' + s.Col()), byte('1' + s.Row())})
}

// ParseSquare reads a coordinate such as "f5" or "F5". It does not accept a pass.
func ParseSquare(text string) (Square, error) {
	if len(text) != 2 {
		return NoSquare, fmt.Errorf("square %q: want a letter a-h and a digit 1-8", text)
	}
	c := text[0] | 0x20 // lower case
	r := text[1]
	if c < 'a' || c > 'h' || r < '1' || r > '8' {
		return NoSquare, fmt.Errorf("square %q: want a letter a-h and a digit 1-8", text)
	}
	return SquareAt(int(c-'a'), int(r-'1')), nil
}

// IsPassWord reports whether text is one of the usual spellings of a pass.
func IsPassWord(text string) bool {
	switch strings.ToLower(text) {
	case "pa", "pass", "ps", "--", "@@":
		return true
	}
	return false
}
