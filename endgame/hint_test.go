package endgame

import (
	"math/bits"
	"testing"

	"github.com/othellogo/othello/board"
)

// TestSolverMoveHint: a move hint only orders moves. Hints that are no move, an occupied
// square, an illegal empty square or the legal move the solver would try last must leave
// every exact score and best move as the FFO files give them, and the hint must be asked.
func TestSolverMoveHint(t *testing.T) {
	s := NewSolver(16)
	calls := 0
	s.SetMoveHint(func(p, o uint64) int {
		calls++
		moves := board.LegalMoves(p, o)
		switch calls % 4 {
		case 0:
			return noMove
		case 1:
			return bits.TrailingZeros64(p | o) // occupied
		case 2:
			if bad := ^(p | o | moves); bad != 0 {
				return bits.TrailingZeros64(bad) // empty but illegal
			}
			return noMove
		default:
			if moves == 0 {
				return noMove
			}
			return 63 - bits.LeadingZeros64(moves) // a legal move, the highest square
		}
	})
	var ps []Problem
	for _, pr := range ffoProblems(t, "20-39") {
		if pr.Board.NumEmpties() == HintEmpties {
			ps = append(ps, pr)
		}
	}
	if len(ps) < 2 {
		t.Fatalf("%d FFO positions with HintEmpties empties, want 2 or more", len(ps))
	}
	if testing.Short() {
		ps = ps[:2]
	}
	solveProblems(t, s, ps, 0, 99)
	if calls == 0 {
		t.Fatal("the hint was never asked")
	}
}
