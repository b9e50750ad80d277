// Package board owns the Othello position: two side-relative bitboards plus the 38 ternary line
// indices of the classic index-table design (Buro's Logistello, and the "mobility table" of the
// early programs), the rules (legal moves, flips, passes, game end, scoring), make/undo by
// difference, perft, hashing, the 8 symmetries and the position formats (.obf, transcripts,
// diagrams).
//
// Bitboards serve the speed-critical paths (the endgame solver works on bare bitboard pairs);
// the line indices feed the pattern evaluation and are updated on make/undo only for the lines
// that the placed and flipped discs touch.
package board

import "math/bits"

// Board is a position with the side to move. P holds the discs of the side to move and O those
// of the opponent; BlackToMove tells which colour P is. Lines holds the 38 line indices in
// absolute colours (black = 2, empty = 1, white = 0), Ext the 16 extra indices (ext.go) in
// the same code; Ext follows Lines in memory, so that the evaluation's vector code loads
// both at once.
type Board struct {
	P, O        uint64
	BlackToMove bool
	Lines       [NumLines]uint16
	Ext         [NumExt]uint16
}

// Undo is what Make returns and Unmake takes back: the move and the discs it flipped.
// A pass is Move == NoSquare with no flips.
type Undo struct {
	Move  Square
	Flips uint64
}

// Start returns the standard initial position (d5 and e4 black, d4 and e5 white, black to move).
func Start() Board {
	return FromColors(D5.Bit()|E4.Bit(), D4.Bit()|E5.Bit(), true)
}

// FromColors builds a board from black and white discs and the side to move, computing the
// line and extra indices from scratch. Overlapping discs are the caller's error (parsers reject them).
func FromColors(black, white uint64, blackToMove bool) Board {
	b := Board{BlackToMove: blackToMove, Lines: LinesFromBits(black, white)}
	b.Ext = ExtFromLines(&b.Lines, black, white)
	if blackToMove {
		b.P, b.O = black, white
	} else {
		b.P, b.O = white, black
	}
	return b
}

// Black returns the black discs.
func (b *Board) Black() uint64 {
	if b.BlackToMove {
		return b.P
	}
	return b.O
}

// White returns the white discs.
func (b *Board) White() uint64 {
	if b.BlackToMove {
		return b.O
	}
	return b.P
}

// Empties returns the empty squares.
func (b *Board) Empties() uint64 { return ^(b.P | b.O) }

// NumEmpties returns the number of empty squares.
func (b *Board) NumEmpties() int { return Count(^(b.P | b.O)) }

// LegalMoves returns the moves of the side to move.
func (b *Board) LegalMoves() uint64 { return LegalMoves(b.P, b.O) }

// IsLegal reports whether sq is a legal move for the side to move.
func (b *Board) IsLegal(sq Square) bool {
	return sq >= 0 && sq < 64 && LegalMoves(b.P, b.O)&sq.Bit() != 0
}

// MustPass reports whether the side to move has no move but the opponent has one.
func (b *Board) MustPass() bool {
	return LegalMoves(b.P, b.O) == 0 && LegalMoves(b.O, b.P) != 0
}

// GameOver reports whether neither side can move.
func (b *Board) GameOver() bool {
	return LegalMoves(b.P, b.O) == 0 && LegalMoves(b.O, b.P) == 0
}

// Make plays sq for the side to move, which must be legal (see IsLegal), and updates the line
// indices by difference: only the lines through the placed and flipped discs change.
func (b *Board) Make(sq Square) Undo {
	f := Flips(b.P, b.O, sq)
	b.apply(sq, f, 1)
	b.P, b.O = b.O^f, b.P|f|sq.Bit()
	b.BlackToMove = !b.BlackToMove
	return Undo{Move: sq, Flips: f}
}

// MakeFlips is Make for a caller that has the move's flips already: f must be Flips(b.P, b.O,
// sq).
func (b *Board) MakeFlips(sq Square, f uint64) Undo {
	b.apply(sq, f, 1)
	b.P, b.O = b.O^f, b.P|f|sq.Bit()
	b.BlackToMove = !b.BlackToMove
	return Undo{Move: sq, Flips: f}
}

// Pass hands the move to the opponent.
func (b *Board) Pass() Undo {
	b.P, b.O = b.O, b.P
	b.BlackToMove = !b.BlackToMove
	return Undo{Move: NoSquare}
}

// Unmake takes back the move recorded in u, restoring bitboards and line indices exactly.
func (b *Board) Unmake(u Undo) {
	b.P, b.O = b.O, b.P
	b.BlackToMove = !b.BlackToMove
	if u.Move == NoSquare {
		return
	}
	b.P ^= u.Flips | u.Move.Bit()
	b.O |= u.Flips
	b.apply(u.Move, u.Flips, -1)
}

// applyGo adds (sign 1) or removes (sign -1) the index changes of the side to move placing sq
// and flipping f. For black, placing is empty(1) -> black(2), +3^pos, and flipping white(0) ->
// black(2), +2*3^pos; white's changes are the negatives. Every square has four line slots;
// the slots of lines a square is not on (short diagonals) add 0 to line 0, so the loop body is
// straight-line code.
func (b *Board) applyGo(sq Square, f uint64, sign int) {
	if !b.BlackToMove {
		sign = -sign
	}
	d := uint16(sign)
	l := &b.Lines
	w := &squareDeltas[sq&63]
	l[w[0].line] += d * w[0].w
	l[w[1].line] += d * w[1].w
	l[w[2].line] += d * w[2].w
	l[w[3].line] += d * w[3].w
	e := &b.Ext
	x := &extDeltas[sq&63]
	e[x[0].line&15] += d * x[0].w
	e[x[1].line&15] += d * x[1].w
	e[x[2].line&15] += d * x[2].w
	e[x[3].line&15] += d * x[3].w
	e[x[4].line&15] += d * x[4].w
	d2 := 2 * d
	fe := f & extMask
	for f != 0 {
		w := &squareDeltas[bits.TrailingZeros64(f)]
		f &= f - 1
		l[w[0].line] += d2 * w[0].w
		l[w[1].line] += d2 * w[1].w
		l[w[2].line] += d2 * w[2].w
		l[w[3].line] += d2 * w[3].w
	}
	for fe != 0 {
		x := &extDeltas[bits.TrailingZeros64(fe)]
		fe &= fe - 1
		e[x[0].line&15] += d2 * x[0].w
		e[x[1].line&15] += d2 * x[1].w
		e[x[2].line&15] += d2 * x[2].w
		e[x[3].line&15] += d2 * x[3].w
		e[x[4].line&15] += d2 * x[4].w
	}
}

// Play plays sq if it is legal, or passes when sq is NoSquare and the side to move has no move.
// It reports false, leaving the board unchanged, for anything else.
func (b *Board) Play(sq Square) bool {
	if sq == NoSquare {
		if LegalMoves(b.P, b.O) != 0 {
			return false
		}
		b.Pass()
		return true
	}
	if !b.IsLegal(sq) {
		return false
	}
	b.Make(sq)
	return true
}

// DiscDiff returns the disc difference from the side to move's view on a finished game,
// with empty squares counted for the winner (the usual Othello rule).
func DiscDiff(p, o uint64) int {
	np, no := Count(p), Count(o)
	diff := np - no
	empties := 64 - np - no
	switch {
	case diff > 0:
		diff += empties
	case diff < 0:
		diff -= empties
	}
	return diff
}

// FinalScore returns the final disc difference from the side to move's view (see DiscDiff).
func (b *Board) FinalScore() int { return DiscDiff(b.P, b.O) }

// BlackScore returns the final disc difference from black's view.
func (b *Board) BlackScore() int {
	d := DiscDiff(b.P, b.O)
	if !b.BlackToMove {
		d = -d
	}
	return d
}

// Consistent reports whether the line and extra indices equal those recomputed from the
// bitboards and the bitboards do not overlap. Tests use it after every move.
func (b *Board) Consistent() bool {
	return b.P&b.O == 0 && b.Lines == LinesFromBits(b.Black(), b.White()) &&
		b.Ext == extFromSquares(b.Black(), b.White())
}

// extFromSquares computes the extra indices square by square, the twin of ExtFromLines and of
// the indices kept by make/undo.
func extFromSquares(black, white uint64) [NumExt]uint16 {
	var ext [NumExt]uint16
	for i, sqs := range extSquares {
		x, w := 0, 1
		for _, sq := range sqs {
			c := CodeEmpty
			if black&sq.Bit() != 0 {
				c = CodeBlack
			} else if white&sq.Bit() != 0 {
				c = CodeWhite
			}
			x += c * w
			w *= 3
		}
		ext[i] = uint16(x)
	}
	return ext
}
