package endgame

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
)

func TestSelectProblems(t *testing.T) {
	for _, c := range []struct {
		only string
		want []int
	}{
		{"", []int{0, 1, 2, 3, 4, 5}},
		{"40-42,45", []int{0, 1, 2, 5}},
		{"44", []int{4}},
	} {
		if got, err := SelectProblems(c.only, 40, 6); err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %v, %v; want %v", c.only, got, err, c.want)
		}
	}
	for _, bad := range []string{"39", "46", "42-41", "x", "40-y", "40,", "a-45"} {
		if _, err := SelectProblems(bad, 40, 6); err == nil || !strings.Contains(err.Error(), "--only") {
			t.Errorf("%q: %v; want an error", bad, err)
		}
	}
}

// A row shows the number, empties, move, score, the file's score and the verdict; with WLD
// scores are results; the totals line and the parallel line when the search split.
func TestProblemTable(t *testing.T) {
	pr, err := ParseProblems(strings.NewReader("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;\n"))
	if err != nil {
		t.Fatal(err)
	}
	g8, _ := board.ParseSquare("g8")
	var w bytes.Buffer
	table := ProblemTable{W: &w, First: 40}
	table.Header()
	r := ProblemResult{Index: 0, Elapsed: time.Second}
	r.Move, r.Score, r.Nodes, r.PV = g8, 16, 1000, []board.Square{g8, board.NoSquare}
	r.Wrong, r.BadMove = true, "h1 +12 (file +14)"
	table.Row(&pr[0], r)
	table.WLD = true
	r.Wrong, r.BadMove = false, ""
	table.Row(&pr[0], r)
	table.Totals(ProblemTotals{Positions: 2, Nodes: 2000, Time: 2 * time.Second, Wrong: 1})
	want := "   # emp move  score  known          nodes    time s     Mn/s    cpu s  PV\n" +
		"  40  14   g8    +16    +18           1000     1.000      0.0    0.000  g8 pa  WRONG h1 +12 (file +14)\n" +
		"  40  14   g8    win    win           1000     1.000      0.0    0.000  g8 pa\n" +
		"total: 2 positions, 2000 nodes, 2.000 s solver time, 0.0 Mn/s, 0.000 s cpu, 1 wrong\n"
	if w.String() != want {
		t.Errorf("got\n%s\nwant\n%s", w.String(), want)
	}
}
