package endgame

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/othellogo/othello/internal/atomicfile"
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
	if r.Interrupted {
		// The nodes and the time are true; there is no move or score to show.
		fmt.Fprintf(t.W, "%4d %3d %4s %6s %6s %14d %9.3f %8.1f %8.3f  interrupted\n", t.First+r.Index, pr.Board.NumEmpties(), "-", "-", knownText,
			r.Nodes, sec, float64(r.Nodes)/sec/1e6, r.CPU.Seconds())
		return
	}
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
	if tot.Interrupted {
		fmt.Fprintf(t.W, "interrupted: the last position's solve was stopped, the positions after it not started\n")
	}
	if tot.PresearchNodes > 0 {
		fmt.Fprintf(t.W, "presearch: %d of those nodes, in the midgame searches before the solves\n", tot.PresearchNodes)
	}
	if n := tot.OrderingNodes; n > 0 {
		// Edax and Egaroucid count their move-ordering searches among their nodes.
		fmt.Fprintf(t.W, "ordering: %d more nodes in the shallow searches that sort moves far from the leaves; with them %d nodes, %.1f Mn/s\n",
			n, tot.Nodes+n, float64(tot.Nodes+n)/tot.Time.Seconds()/1e6)
	}
	if n := tot.ScoredNodes; n > 0 {
		// Edax counts these too (SolveResult.ScoredNodes); Egaroucid does not.
		all := tot.Nodes + tot.OrderingNodes + n
		fmt.Fprintf(t.W, "scored: %d more positions scored by the move order or probed for transposition cutoffs, not searched; Edax's count, with them and the ordering nodes: %d nodes, %.1f Mn/s\n",
			n, all, float64(all)/tot.Time.Seconds()/1e6)
	}
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

// InputError is an error in what a run was given (a file or an option it cannot use) rather
// than a failure of the work; a command reports it as a usage error.
type InputError struct{ Err error }

func (e InputError) Error() string { return e.Err.Error() }
func (e InputError) Unwrap() error { return e.Err }

// SolveFile is a run of the problems of an .obf file, as the solve command makes it.
type SolveFile struct {
	Path     string
	First    int    // the number of the file's first problem (0: FirstNumber(Path))
	Only     string // the problems to solve (SelectProblems; "": all)
	Run      ProblemOptions
	AllMoves string // with Run.AllMoves: the file the problems are written to with every move's score
	EvalName string // the evaluation ordering the moves, named in the header
	// Presearch describes Run.NewPresearcher in the header ("": none).
	Presearch string
	Out       io.Writer
	Progress  io.Writer // the progress lines (Run.ProgressInterval)
	// Force solves positions of more than MaxSolveEmpties empties, which are refused
	// otherwise.
	Force bool
}

// Solve reads the problems, solves those selected (RunProblems) and prints the table
// (ProblemTable) with a header and the totals. Errors in the file and the options are
// InputErrors.
func (s SolveFile) Solve() (ProblemTotals, error) {
	problems, err := ReadProblemFile(s.Path)
	if err != nil {
		return ProblemTotals{}, InputError{err}
	}
	if len(problems) == 0 {
		return ProblemTotals{}, InputError{fmt.Errorf("%s: no positions to solve (want .obf lines: 64 squares and the side to move)", s.Path)}
	}
	if s.First <= 0 {
		s.First = FirstNumber(s.Path)
	}
	selected, err := SelectProblems(s.Only, s.First, len(problems))
	if err != nil {
		return ProblemTotals{}, InputError{err}
	}
	if !s.Force && s.Run.Selectivity == 0 {
		for _, i := range selected {
			if n := problems[i].Board.NumEmpties(); n > MaxSolveEmpties {
				return ProblemTotals{}, InputError{fmt.Errorf("%s: position #%d: %v", s.Path, s.First+i, TooManyEmpties(n, "--force"))}
			}
		}
	}
	// The file of every move's score is written whole, atomically, when the run is done: a
	// run killed or failed before leaves an existing file as it was.
	var movesOut *bytes.Buffer
	if s.Run.AllMoves {
		if s.Run.WLD || s.Run.Selectivity > 0 {
			return ProblemTotals{}, InputError{fmt.Errorf("--all-moves solves exactly: not with --wld or --sel")}
		}
		if atomicfile.SameFile(s.AllMoves, s.Path) {
			return ProblemTotals{}, InputError{fmt.Errorf("--all-moves %s is the input file; give another output file", s.AllMoves)}
		}
		if err := atomicfile.CheckWritable(s.AllMoves); err != nil {
			return ProblemTotals{}, InputError{fmt.Errorf("%s: cannot write there: %v", s.AllMoves, err)}
		}
		movesOut = new(bytes.Buffer)
	}
	mode := "exact"
	if s.Run.WLD {
		mode = "win/loss/draw"
	}
	if s.Run.Selectivity > 0 {
		mode = fmt.Sprintf("probable (%d%% cuts) %s", SelectivityPercent(s.Run.Selectivity), mode)
	}
	pre := ""
	if s.Presearch != "" && s.Run.NewPresearcher != nil && s.Run.Selectivity == 0 {
		pre = ", " + s.Presearch
	}
	fmt.Fprintf(s.Out, "%s: %d positions, %s, %d thread(s) per position, %d at once, table %d MiB per solver, %s ordering%s\n",
		s.Path, len(selected), mode, s.Run.Solver.Threads, s.Run.Jobs, s.Run.Solver.TableMiB, s.EvalName, pre)
	table := ProblemTable{W: s.Out, First: s.First, WLD: s.Run.WLD}
	table.Header()
	if s.Progress != nil {
		s.Run.Progress = func(i int, p ProblemProgress) {
			stage := "solving"
			if p.InPresearch {
				stage = fmt.Sprintf("presearch depth %d done", p.PresearchDepth)
			}
			fmt.Fprintf(s.Progress, "  ... #%d (%d empties): %s, %d nodes, %.0f s, %.1f Mn/s\n", s.First+i, problems[i].Board.NumEmpties(), stage, p.Nodes, p.Elapsed.Seconds(), float64(p.Nodes)/p.Elapsed.Seconds()/1e6)
		}
	}
	tot, err := RunProblems(problems, selected, s.Run, func(r ProblemResult) error {
		pr := &problems[r.Index]
		if movesOut != nil {
			fmt.Fprintln(movesOut, FormatOBF(pr.Board, r.Moves))
		}
		table.Row(pr, r)
		return nil
	})
	if err != nil {
		return tot, err
	}
	if movesOut != nil {
		if err := atomicfile.WriteFile(s.AllMoves, movesOut.Bytes(), 0o644); err != nil {
			return tot, fmt.Errorf("%s: %v", s.AllMoves, err)
		}
	}
	table.Totals(tot)
	return tot, nil
}
