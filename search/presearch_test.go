package search

import (
	"context"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
)

// TestPresearchKeepsScores: the presearch's hint is a legal move at the root, its guess an
// even score, and a solve ordered by the one and started at the other gets the same exact score and best-move value as one without, on the FFO
// positions of more than HintEmpties empties; at HintEmpties or fewer it searches nothing.
func TestPresearchKeepsScores(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	pre := NewPresearch(ev, 1, 4)
	var deep, shallow []board.Board
	for _, b := range testdataPositions(t, "fforum-20-39.obf") {
		if b.NumEmpties() > endgame.HintEmpties {
			deep = append(deep, b)
		} else {
			shallow = append(shallow, b)
		}
	}
	if len(deep) < 2 || len(shallow) == 0 {
		t.Fatalf("%d positions above HintEmpties and %d at or below, want 2 and 1", len(deep), len(shallow))
	}
	if r := pre.Presearch(context.Background(), shallow[0]); r.Hint != nil || r.Nodes != 0 || r.HasGuess {
		t.Fatalf("presearch at %d empties: %+v", shallow[0].NumEmpties(), r)
	}
	if testing.Short() {
		deep = deep[:2]
	}
	for _, b := range deep {
		plain := endgame.NewSolver(16).Solve(b.P, b.O, -64, 64)
		r := pre.Presearch(context.Background(), b)
		hint, nodes := r.Hint, r.Nodes
		if hint == nil || nodes == 0 || !r.HasGuess || r.Guess%2 != 0 || r.Guess < -64 || r.Guess > 64 {
			t.Fatalf("presearch at %d empties: %d nodes, hint %v, guess %d (%v)", b.NumEmpties(), nodes, hint != nil, r.Guess, r.HasGuess)
		}
		if m := hint(b.P, b.O); m < 0 || m > 63 || board.LegalMoves(b.P, b.O)&(1<<uint(m)) == 0 {
			t.Fatalf("%d empties: root hint %d is not a legal move (presearch %+v)", b.NumEmpties(), m, r)
		}
		s := endgame.NewSolver(16)
		s.SetMoveHint(hint)
		got := s.SolveNear(b.P, b.O, -64, 64, r.Guess)
		if got.Score != plain.Score {
			t.Fatalf("%d empties: score %d with the presearch's hint and guess %d, %d without", b.NumEmpties(), got.Score, r.Guess, plain.Score)
		}
		c := b
		c.Make(got.Move)
		if v := endgame.NewSolver(16).Solve(c.P, c.O, -64, 64); -v.Score != got.Score {
			t.Fatalf("best move %v scores %d, not %d", got.Move, -v.Score, got.Score)
		}
		t.Logf("%d empties: %d nodes without hint, %d with, %d in the presearch (guess %d, score %d)", b.NumEmpties(), plain.Nodes, got.Nodes, nodes, r.Guess, got.Score)
	}
}
