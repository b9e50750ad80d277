package search

import (
	"context"
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
		if pr.Board.NumEmpties() == hintEmpties {
			ps = append(ps, pr)
		}
	}
	if len(ps) < 2 {
		t.Fatalf("%d FFO positions with hintEmpties empties, want 2 or more", len(ps))
	}
	if testing.Short() {
		ps = ps[:2]
	}
	solveProblems(t, s, ps, 0, 99)
	if calls == 0 {
		t.Fatal("the hint was never asked")
	}
}

// TestMidgameHint: after a search, the engine's hint for the positions its iterations stored
// is a legal move there, and it knows some of the root's children.
func TestMidgameHint(t *testing.T) {
	_, b, err := board.ParseTranscript("f5d6c3d3c4f4f6f3g4g3e6b3f2e3e2c5c6e7c7h4g5d2h5d7h3b6c1f1d1g2b4e1c2a3b5")
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(Config{TTMiB: 4})
	e.Search(context.Background(), b, Limits{Depth: 8}, nil)
	known := 0
	for moves := board.LegalMoves(b.P, b.O); moves != 0; moves &= moves - 1 {
		c := b
		c.Make(board.Square(bits.TrailingZeros64(moves)))
		h := e.midgameHint(c.P, c.O)
		if h == noMove {
			continue
		}
		known++
		if h < 0 || h > 63 || board.LegalMoves(c.P, c.O)&(1<<uint(h)) == 0 {
			t.Errorf("hint %d is not a legal move of the child", h)
		}
	}
	if known == 0 {
		t.Fatal("no child of the root has a hint")
	}
}
