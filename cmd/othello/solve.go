package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/search"
)

func cmdSolve(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "solve")
	wld := fs.Bool("wld", false, "prove only win/loss/draw (window -1..1)")
	threads := fs.Int("threads", runtime.NumCPU(), "threads that search each position (parallel search)")
	jobs := fs.Int("jobs", 1, "solve this many positions at once, one solver each")
	hashMiB := fs.Int("hash", 256, "transposition table size per solver, MiB")
	first := fs.Int("first", 0, "number of the file's first position (0: from a name like fforum-40-59.obf, else 1)")
	only := fs.String("only", "", "solve only these positions, by number: e.g. 40-45,48")
	progress := fs.Duration("progress", 2*time.Second, "interval of the progress line on stderr (0: none)")
	evalName := fs.String("eval", "default", "move ordering far from the leaves: "+evalFlagHelp)
	noTable := fs.Bool("no-table", false, "measurement: no transposition table")
	noStab := fs.Bool("no-stability", false, "measurement: no stability cutoffs")
	noParity := fs.Bool("no-parity", false, "measurement: no parity in the move order")
	noLast4 := fs.Bool("no-last4", false, "measurement: the generic search down to the last empty square")
	sel := fs.Int("sel", 0, fmt.Sprintf("probable solve: endgame Multi-ProbCut at selectivity level 1-%d (0: exact; needs the pattern evaluation); scores that differ from the file are counted, not failed", search.MaxSelectivity))
	noAsp := fs.Bool("no-aspiration", false, "measurement: no aspiration windows at the root")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the solves to this file (go tool pprof)")
	allMoves := fs.String("all-moves", "", "also solve every legal move of each position exactly, check them against the file's move scores, and write the positions with all their move scores (best first, Edax's .obf form) to this file")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello solve [options] FILE.obf\n\nSolves every position of an .obf file exactly (or win/loss/draw with --wld) and\ncompares with the scores the file gives; exits with status 3 if any disagrees. Options:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	// Flags may also follow the file name.
	var files []string
	for fs.NArg() > 0 {
		files = append(files, fs.Arg(0))
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return exitError{2, err}
		}
	}
	if len(files) != 1 {
		fs.Usage()
		return exitError{2, fmt.Errorf("want one FILE.obf argument")}
	}
	path := files[0]
	if *threads < 1 || *threads > 256 {
		return exitError{2, fmt.Errorf("--threads %d: want 1 to 256", *threads)}
	}
	if *jobs < 1 || *jobs > 256 {
		return exitError{2, fmt.Errorf("--jobs %d: want 1 to 256", *jobs)}
	}
	if *hashMiB < 0 || *hashMiB > 1<<16 {
		return exitError{2, fmt.Errorf("--hash %d: want 0 to 65536 MiB", *hashMiB)}
	}
	if !*noTable {
		// Every job has its own solver and table (the threads of a job share it).
		flag := fmt.Sprintf("-hash %d", *hashMiB)
		if *jobs > 1 {
			flag += fmt.Sprintf(" with -jobs %d", *jobs)
		}
		if err := checkTableMemory(flag, mibBytes(*hashMiB, *jobs)); err != nil {
			return err
		}
	}
	problems, err := readProblems(path)
	if err != nil {
		return err
	}
	if len(problems) == 0 {
		return exitError{2, fmt.Errorf("%s: no positions to solve (want .obf lines: 64 squares and the side to move)", path)}
	}
	if *first <= 0 {
		*first = endgame.FirstNumber(path)
	}
	selected, err := selectProblems(*only, *first, len(problems))
	if err != nil {
		return exitError{2, err}
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	if *sel < 0 || *sel > search.MaxSelectivity {
		return exitError{2, fmt.Errorf("--sel %d: want 0 to %d", *sel, search.MaxSelectivity)}
	}
	if *sel > 0 && ev.ev == nil {
		return exitError{2, fmt.Errorf("--sel needs the pattern evaluation (--eval default or a weights file)")}
	}
	opt := endgame.DefaultSolverOptions(*hashMiB)
	opt.Eval = ev.ev
	opt.Table = opt.Table && !*noTable
	opt.Threads = *threads
	opt.Stability = !*noStab
	opt.Parity = !*noParity
	opt.Last4 = !*noLast4
	opt.Aspiration = !*noAsp

	if *allMoves != "" && (*wld || *sel > 0) {
		return exitError{2, fmt.Errorf("--all-moves solves exactly: not with --wld or --sel")}
	}
	var movesOut *os.File
	if *allMoves != "" {
		if movesOut, err = os.Create(*allMoves); err != nil {
			return exitError{2, err}
		}
		defer movesOut.Close()
	}
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()

	mode := "exact"
	if *wld {
		mode = "win/loss/draw"
	}
	if *sel > 0 {
		mode = fmt.Sprintf("probable (%d%% cuts) %s", search.SelectivityPercent(*sel), mode)
	}
	fmt.Fprintf(env.stdout, "%s: %d positions, %s, %d thread(s) per position, %d at once, table %d MiB per solver, %s ordering\n", path, len(selected), mode, *threads, *jobs, *hashMiB, ev.name)
	fmt.Fprintf(env.stdout, "%4s %3s %4s %6s %6s %14s %9s %8s %8s  %s\n", "#", "emp", "move", "score", "known", "nodes", "time s", "Mn/s", "cpu s", "PV")
	run := endgame.ProblemOptions{Solver: opt, Selectivity: *sel, WLD: *wld, Jobs: *jobs, AllMoves: movesOut != nil, ProgressInterval: *progress}
	run.Progress = func(i int, nodes uint64, el time.Duration) {
		fmt.Fprintf(env.stderr, "  ... #%d (%d empties): %d nodes, %.0f s, %.1f Mn/s\n", *first+i, problems[i].Board.NumEmpties(), nodes, el.Seconds(), float64(nodes)/el.Seconds()/1e6)
	}
	tot, err := endgame.RunProblems(problems, selected, run, func(r endgame.ProblemResult) error {
		pr := &problems[r.Index]
		knownText, verdict := "-", ""
		if known, ok := pr.Best(); ok {
			knownText = scoreText(known, *wld)
		}
		if r.Wrong {
			verdict = "  WRONG"
		}
		if r.BadMove != "" {
			verdict += " " + r.BadMove
		}
		if movesOut != nil {
			if _, err := fmt.Fprintln(movesOut, endgame.FormatOBF(pr.Board, r.Moves)); err != nil {
				return exitError{2, err}
			}
		}
		sec := r.Elapsed.Seconds()
		fmt.Fprintf(env.stdout, "%4d %3d %4v %6s %6s %14d %9.3f %8.1f %8.3f  %s%s\n", *first+r.Index, pr.Board.NumEmpties(), r.Move, scoreText(r.Score, *wld), knownText, r.Nodes, sec, float64(r.Nodes)/sec/1e6, r.CPU.Seconds(), pvText(r.PV), verdict)
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "total: %d positions, %d nodes, %.3f s solver time, %.1f Mn/s, %.3f s cpu, %d wrong\n",
		tot.Positions, tot.Nodes, tot.Time.Seconds(), float64(tot.Nodes)/tot.Time.Seconds()/1e6, tot.CPU.Seconds(), tot.Wrong)
	if p := tot.Parallel; p.Splits > 0 {
		fmt.Fprintf(env.stdout, "parallel: %d split points, %d joins, helper threads idle %.1f%% of their time\n", p.Splits, p.Joins, 100*p.Idle.Seconds()/(p.Idle+p.Busy).Seconds())
	}
	if tot.Wrong > 0 && *sel > 0 {
		fmt.Fprintf(env.stdout, "%d probable score(s) differ from the file\n", tot.Wrong)
		return nil
	}
	if tot.Wrong > 0 {
		return exitError{3, fmt.Errorf("%d score(s) disagree with the file", tot.Wrong)}
	}
	return nil
}

// readProblems reads an .obf file of positions with their optional move scores; errors are
// usage errors (exit status 2) naming the file.
func readProblems(path string) ([]endgame.Problem, error) {
	ps, err := endgame.ReadProblemFile(path)
	if err != nil {
		return nil, exitError{2, err}
	}
	return ps, nil
}

// scoreText is a score in discs ("+6"), or with wld its result ("win").
func scoreText(x int, wld bool) string {
	switch {
	case !wld:
		return fmt.Sprintf("%+d", x)
	case x > 0:
		return "win"
	case x < 0:
		return "loss"
	}
	return "draw"
}

func pvText(pv []board.Square) string {
	var b strings.Builder
	for i, sq := range pv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sq.String())
	}
	return b.String()
}

// selectProblems turns --only ("40-45,48") into indexes into the file, numbered from first.
func selectProblems(only string, first, n int) ([]int, error) {
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
