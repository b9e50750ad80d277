package endgame

import "github.com/othellogo/othello/board"

// flips returns the discs the side p flips by playing the empty square sq (0 when none). The
// solver once had its own branch-free version of this; board.Flips (kindergarten gather and
// scatter) turned out faster in the solver too: 87 against 125 ns per position's moves, and
// FFO #21-#39 (180,294,964 nodes either way) took 6.5-6.6 s against 7.0-7.3 s.
func flips(p, o uint64, sq int) uint64 { return board.Flips(p, o, board.Square(sq)) }
