package search

import (
	"math/bits"

	"github.com/othellogo/othello/board"
)

// The plain mobility/corner evaluation: the engine's fallback when no trained evaluator is
// given, and the baseline the trained weights are measured against. Its unit is
// mobilityScale per disc, so scores compare with exact endgame scores.

const mobilityScale = 16

const (
	cornerSquares = 0x8100000000000081
	// xSquares are b2, g2, b7, g7; each is dangerous while its corner is empty.
	xSquares = 0x0042000000004200
)

// mobilityEval scores p (side to move) against o: move count difference, corners, X-squares
// next to empty corners, and frontier discs (discs next to an empty square, which give the
// opponent moves later), within 64 discs.
func mobilityEval(p, o uint64) int {
	mp := bits.OnesCount64(board.LegalMoves(p, o))
	mo := bits.OnesCount64(board.LegalMoves(o, p))
	cp := bits.OnesCount64(p & cornerSquares)
	co := bits.OnesCount64(o & cornerSquares)
	empty := ^(p | o)
	openX := xSquares & spreadCorners(empty&cornerSquares)
	xp := bits.OnesCount64(p & openX)
	xo := bits.OnesCount64(o & openX)
	fr := adjacentSquares(empty)
	fp := bits.OnesCount64(p & fr)
	fo := bits.OnesCount64(o & fr)
	v := 16*(mp-mo) + 64*(cp-co) - 24*(xp-xo) - 4*(fp-fo)
	// Within 64 discs, as the pattern evaluation (eval.MaxScore): the search trusts that no
	// value is beyond a wipeout (alphaBeta).
	return min(max(v, -64*mobilityScale), 64*mobilityScale)
}

// spreadCorners maps each corner in c to its diagonal neighbour (the X-square).
func spreadCorners(c uint64) uint64 {
	var x uint64
	if c&(1<<0) != 0 {
		x |= 1 << 9
	}
	if c&(1<<7) != 0 {
		x |= 1 << 14
	}
	if c&(1<<56) != 0 {
		x |= 1 << 49
	}
	if c&(1<<63) != 0 {
		x |= 1 << 54
	}
	return x
}

// adjacentSquares returns the squares adjacent (8 directions) to some square of b.
func adjacentSquares(b uint64) uint64 {
	const notA, notH = 0xFEFEFEFEFEFEFEFE, 0x7F7F7F7F7F7F7F7F
	h := b | (b<<1)&notA | (b>>1)&notH
	return h | h<<8 | h>>8
}
