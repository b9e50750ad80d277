package search

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
)

func TestBenchText(t *testing.T) {
	r := BenchResult{Nodes: 2000000, Time: time.Second, CPU: 2 * time.Second, Loss: 0.25, Worse: 3}
	if got, want := BenchLine("full", r, true, &BenchResult{Nodes: 1000000, CPU: time.Second}),
		"full                     nodes      2000000  time    1.000 s    2.00 M nodes/s  cpu    2.000 s    1.00 M nodes/cpu-s  loss 0.250 discs/move, 3 worse  nodes x2.00  cpu x2.00 vs full"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	var w bytes.Buffer
	BenchEach(&w, []board.Board{board.Start()})(0, Result{Move: board.NoSquare, Info: Info{Score: -1.5, Nodes: 42}}, time.Second)
	WriteMoveQuality(&w, MoveQualityResult{Positions: 2, Loss: 1.5, Worse: 1, ResultErrors: 1, Time: time.Second}, 20*time.Millisecond, 5)
	want := "   1  60 empties  pa  -1.50           42 nodes    1.000 s\n" +
		"move quality: 2 positions, 20ms a move, selectivity 5: mean loss 1.500 discs, 1 worse moves, 1 result errors, 500.0 ms a move\n"
	if w.String() != want {
		t.Errorf("got\n%q\nwant\n%q", w.String(), want)
	}
}

// Bench prints its header, the reference, a line per position and per variant, and compares
// the variants after the first with it.
func TestBenchRun(t *testing.T) {
	var w bytes.Buffer
	base := Config{TTMiB: 1}
	Bench{Variants: BenchTable(base, 0)[:2], Boards: BenchPositions()[:2], Depth: 2, Loss: true, Each: true, EvalName: "mobility", Out: &w}.Run()
	out := w.String()
	if !strings.HasPrefix(out, "bench: 2 positions, depth 2, eval mobility, tables 1 MiB, one thread, ") || !strings.Contains(out, "\nreference: every move at full width, depth 2, ") ||
		strings.Count(out, " empties ") != 4 || strings.Count(out, " discs/move, ") != 2 || strings.Count(out, " vs full\n") != 1 {
		t.Errorf("bench output:\n%s", out)
	}
}
