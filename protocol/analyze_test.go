package protocol

import (
	"bytes"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

// The analyze text: exact, win/loss/draw, value and bound moves, and the depth labels.
func TestWriteAnalysis(t *testing.T) {
	info := func(depth, sel int, exact, wld bool) search.Info {
		return search.Info{Depth: depth, Selectivity: sel, Exact: exact, WLD: wld, Nodes: 2000}
	}
	sq := func(name string) board.Square {
		s, err := board.ParseSquare(name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	mv := func(name string, score float64, exact, wld bool) search.MoveScore {
		return search.MoveScore{Move: sq(name), Info: search.Info{Score: score, Exact: exact, WLD: wld}}
	}
	ms := []search.MoveScore{mv("g8", 18, true, false), mv("h1", 2, false, true), mv("a2", 0, false, true), mv("a3", -3.5, false, false), mv("a4", -6.25, false, false)}
	// A solve's move beyond the n best, searched with a null window, is a bound whatever
	// its Info says (FFO #1's b1: <= +6 at n 3, its true score -4).
	ms = append(ms, search.MoveScore{Move: sq("b1"), Info: search.Info{Score: 6, Exact: true}, Bound: true})
	ms[0].Info = info(22, 100, true, false)
	ms[0].Score, ms[0].PV = 18, []board.Square{sq("g8"), board.NoSquare, sq("h8")}
	var w bytes.Buffer
	WriteAnalysis(&w, ms, 4, "pattern", time.Second)
	want := "eval pattern, exact 22, 2000 nodes, 1.00 s, 0.00 M nodes/s\n" +
		" 1  g8    +18.00  exact  g8 pa h8\n" +
		" 2  h1      win  wld    \n" +
		" 3  a2     draw  wld    \n" +
		" 4  a3     -3.50  value  \n" +
		" 5  a4   <= -6.2  bound  \n" +
		" 6  b1   <= +6.0  bound  \n"
	if w.String() != want {
		t.Errorf("got\n%q\nwant\n%q", w.String(), want)
	}
	// A move kept on a fail high when the search stopped is at least its value.
	w.Reset()
	low := search.MoveScore{Move: sq("c4"), Info: search.Info{Depth: 9, Selectivity: 73, Score: 3, Lower: true}}
	WriteAnalysis(&w, []search.MoveScore{low}, 1, "pattern", time.Second)
	if want := " 1  c4   >= +3.0  bound  \n"; !bytes.HasSuffix(w.Bytes(), []byte(want)) {
		t.Errorf("lower bound: got %q, want it to end %q", w.String(), want)
	}
	if got := scoreWords(low.Info, false); got != ">=+3.00" {
		t.Errorf("console words for a lower bound %q, want >=+3.00", got)
	}
	w.Reset()
	ms[0].Elapsed = 1500 * time.Millisecond
	AnalysisProgress(&w)(ms)
	if want := "exact 22   g8    +18.00         2000 nodes     1.50 s  g8 pa h8\n"; w.String() != want {
		t.Errorf("progress %q, want %q", w.String(), want)
	}
	for _, c := range []struct {
		in   search.Info
		want string
	}{
		{info(12, 100, false, false), "depth 12"},
		{info(12, 73, false, false), "depth 12@73%"},
		{info(20, 100, false, true), "wld 20"},
		{info(20, 95, false, true), "wld 20@95%"},
		{info(20, 100, true, false), "exact 20"},
	} {
		if got := DepthLabel(c.in); got != c.want {
			t.Errorf("%+v: %q, want %q", c.in, got, c.want)
		}
	}
}
