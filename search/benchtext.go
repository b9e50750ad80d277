package search

import (
	"fmt"
	"io"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/patterns"
)

// The text of the bench command: a line per position searched, a line per variant run, and
// the move-quality summary.

// BenchEach returns the function that prints a line per position searched, for RunBench.
func BenchEach(w io.Writer, boards []board.Board) func(int, Result, time.Duration) {
	return func(i int, r Result, el time.Duration) {
		fmt.Fprintf(w, "  %2d  %2d empties  %s %+6.2f  %11d nodes  %7.3f s\n", i+1, boards[i].NumEmpties(), r.Move, r.Score, r.Nodes, el.Seconds())
	}
}

// BenchLine is the line of a variant's run: nodes, time and speed, CPU time; with loss the
// chosen moves' loss; the parallel search's splits; and against first (not nil) the ratios of
// nodes and CPU time.
func BenchLine(name string, r BenchResult, loss bool, first *BenchResult) string {
	line := fmt.Sprintf("%-24s nodes %12d  time %8.3f s  %6.2f M nodes/s  cpu %8.3f s  %6.2f M nodes/cpu-s", name, r.Nodes, r.Time.Seconds(), float64(r.Nodes)/r.Time.Seconds()/1e6,
		r.CPU.Seconds(), float64(r.Nodes)/r.CPU.Seconds()/1e6)
	if loss {
		line += fmt.Sprintf("  loss %.3f discs/move, %d worse", r.Loss, r.Worse)
	}
	if p := r.Parallel; p.Splits > 0 || p.SpecTasks > 0 {
		all := (p.Idle + p.Busy + p.Spec).Seconds()
		line += fmt.Sprintf("  splits %d, helpers idle %.0f%%", p.Splits, 100*p.Idle.Seconds()/all)
		if p.SpecTasks > 0 {
			line += fmt.Sprintf(", speculative %.0f%% (%d tasks, %d nodes)", 100*p.Spec.Seconds()/all, p.SpecTasks, p.SpecNodes)
		}
	}
	if first != nil {
		line += fmt.Sprintf("  nodes x%.2f  cpu x%.2f vs full", float64(r.Nodes)/float64(first.Nodes), r.CPU.Seconds()/first.CPU.Seconds())
	}
	return line
}

// WriteMoveQuality prints the move quality of moves chosen in moveTime at selectivity sel.
func WriteMoveQuality(w io.Writer, q MoveQualityResult, moveTime time.Duration, sel int) {
	fmt.Fprintf(w, "move quality: %d positions, %v a move, selectivity %d: mean loss %.3f discs, %d worse moves, %d result errors, %.1f ms a move\n",
		q.Positions, moveTime, sel, q.Loss, q.Worse, q.ResultErrors, q.Time.Seconds()*1000/float64(q.Positions))
}

// Bench is a run of the bench command: every variant searches the boards to Depth, and a line
// per variant is printed to Out (with Each a line per position too); with Loss every move is
// first valued by a full-width search (BenchReference) and each variant's loss is printed;
// with more than one variant the others are compared with the first.
type Bench struct {
	Variants []BenchVariant
	Boards   []board.Board
	Depth    int
	Loss     bool
	Each     bool
	EvalName string // named in the header
	Out      io.Writer
}

// Run runs the bench and prints it.
func (b Bench) Run() {
	base := b.Variants[0].Config
	threads := "one thread"
	if base.Threads > 1 {
		threads = fmt.Sprintf("%d threads (%v)", base.Threads, base.Parallel)
	}
	fmt.Fprintf(b.Out, "bench: %d positions, depth %d, eval %s, tables %d MiB, %s, %s move generation, %s index update, %s pattern sum\n", len(b.Boards), b.Depth, b.EvalName, base.TTMiB, threads, board.MoveGeneration(), board.IndexUpdate(), patterns.SumKind())
	var refs [][]MoveScore
	if b.Loss {
		start := time.Now()
		refs = BenchReference(base, b.Boards, b.Depth)
		fmt.Fprintf(b.Out, "reference: every move at full width, depth %d, %.3f s\n", b.Depth, time.Since(start).Seconds())
	}
	var each func(int, Result, time.Duration)
	if b.Each {
		each = BenchEach(b.Out, b.Boards)
	}
	var first *BenchResult
	for i, v := range b.Variants {
		r := RunBench(v, b.Boards, b.Depth, refs, each)
		fmt.Fprintln(b.Out, BenchLine(v.Name, r, refs != nil, first))
		if i == 0 && len(b.Variants) > 1 {
			first = &r
		}
	}
}
