package web

import (
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

// A value that is only a lower bound (a move kept on a fail high at the stop) says so on its
// square and in the line's fields; an ordinary value does not.
func TestLineLowerBound(t *testing.T) {
	sq, err := board.ParseSquare("c4")
	if err != nil {
		t.Fatal(err)
	}
	m := search.MoveScore{Move: sq, Info: search.Info{Depth: 9, Selectivity: 73, Score: 3}}
	if l := lineOf(m); l.Lower || l.Label != "9@73%" {
		t.Errorf("a value: lower %v, label %q, want false and 9@73%%", l.Lower, l.Label)
	}
	m.Lower = true
	if l := lineOf(m); !l.Lower || l.Label != ">=9@73%" {
		t.Errorf("a lower bound: lower %v, label %q, want true and >=9@73%%", l.Lower, l.Label)
	}
}
