package endgame

import (
	"fmt"
	"io"
	"strings"
)

// The text of a run of problems (the solve command): which ones to solve, a line per result,
// and the totals.

// SelectProblems turns a list of problem numbers and ranges ("40-45,48"; "" for all) into
// indexes into a file of n problems numbered from first.
func SelectProblems(only string, first, n int) ([]int, error) {
	if only == "" {
		sel := make([]int, n)
		for i := range sel {
			sel[i] = i
		}
		return sel, nil
	}
	var sel []int
	for _, part := range strings.Split(only, ",") {
		var lo, hi int
		if a, b, ok := strings.Cut(part, "-"); ok {
			if _, err := fmt.Sscan(a, &lo); err != nil {
				return nil, fmt.Errorf("--only %q: bad range %q", only, part)
			}
			if _, err := fmt.Sscan(b, &hi); err != nil {
				return nil, fmt.Errorf("--only %q: bad range %q", only, part)
			}
		} else {
			if _, err := fmt.Sscan(part, &lo); err != nil {
				return nil, fmt.Errorf("--only %q: bad number %q", only, part)
			}
			hi = lo
		}
		if lo > hi || lo < first || hi >= first+n {
			return nil, fmt.Errorf("--only %q: %q is outside the file's positions %d-%d", only, part, first, first+n-1)
		}
		for k := lo; k <= hi; k++ {
			sel = append(sel, k-first)
		}
	}
	return sel, nil
}

// ProblemTable prints the results of RunProblems as a table. Problems are numbered from First;
// with WLD scores are results ("win").
type ProblemTable struct {
	W     io.Writer
	First int
	WLD   bool
}

// Header prints the column names.
func (t ProblemTable) Header() {
	fmt.Fprintf(t.W, "%4s %3s %4s %6s %6s %14s %9s %8s %8s  %s\n", "#", "emp", "move", "score", "known", "nodes", "time s", "Mn/s", "cpu s", "PV")
}

// Row prints the result r of the problem pr.
func (t ProblemTable) Row(pr *Problem, r ProblemResult) {
	knownText, verdict := "-", ""
	if known, ok := pr.Best(); ok {
		knownText = t.score(known)
	}
	if r.Wrong {
		verdict = "  WRONG"
	}
	if r.BadMove != "" {
		verdict += " " + r.BadMove
	}
	sec := r.Elapsed.Seconds()
	pv := make([]string, len(r.PV))
	for i, sq := range r.PV {
		pv[i] = sq.String()
	}
	fmt.Fprintf(t.W, "%4d %3d %4v %6s %6s %14d %9.3f %8.1f %8.3f  %s%s\n", t.First+r.Index, pr.Board.NumEmpties(), r.Move, t.score(r.Score), knownText,
		r.Nodes, sec, float64(r.Nodes)/sec/1e6, r.CPU.Seconds(), strings.Join(pv, " "), verdict)
}

// Totals prints the sums of the run, and the parallel search's counts when it split.
func (t ProblemTable) Totals(tot ProblemTotals) {
	fmt.Fprintf(t.W, "total: %d positions, %d nodes, %.3f s solver time, %.1f Mn/s, %.3f s cpu, %d wrong\n",
		tot.Positions, tot.Nodes, tot.Time.Seconds(), float64(tot.Nodes)/tot.Time.Seconds()/1e6, tot.CPU.Seconds(), tot.Wrong)
	if p := tot.Parallel; p.Splits > 0 {
		fmt.Fprintf(t.W, "parallel: %d split points, %d joins, helper threads idle %.1f%% of their time\n", p.Splits, p.Joins, 100*p.Idle.Seconds()/(p.Idle+p.Busy).Seconds())
	}
}

// score is a score in discs ("+6"), or with WLD its result ("win").
func (t ProblemTable) score(x int) string {
	switch {
	case !t.WLD:
		return fmt.Sprintf("%+d", x)
	case x > 0:
		return "win"
	case x < 0:
		return "loss"
	}
	return "draw"
}
