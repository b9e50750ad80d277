package board

// Perft counts the leaves of the game tree depth plies below (p, o), with a pass counted as a
// move. A finished game (neither side can move) above the horizon counts as one leaf. The last
// ply is counted in bulk from the move set, without making the moves.
func Perft(p, o uint64, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	moves := LegalMoves(p, o)
	if moves == 0 {
		if LegalMoves(o, p) == 0 {
			return 1
		}
		return Perft(o, p, depth-1)
	}
	if depth == 1 {
		return uint64(Count(moves))
	}
	var n uint64
	for moves != 0 {
		sq := FirstSquare(moves)
		moves &= moves - 1
		f := Flips(p, o, sq)
		n += Perft(o^f, p|f|sq.Bit(), depth-1)
	}
	return n
}
