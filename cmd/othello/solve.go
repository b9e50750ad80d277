package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"time"

	"github.com/othellogo/othello/cluster"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/search"
)

// presearchMiB is the table of each job's presearch (search.NewPresearch).
const presearchMiB = 64

func cmdSolve(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "solve")
	var run endgame.ProblemOptions
	fs.BoolVar(&run.WLD, "wld", false, "prove only win/loss/draw (window -1..1)")
	threads := fs.Int("threads", runtime.NumCPU(), "threads that search each position (parallel search)")
	fs.IntVar(&run.Jobs, "jobs", 1, "solve this many positions at once, one solver each")
	hashMiB := fs.Int("hash", 256, "transposition table size per solver, MiB")
	first := fs.Int("first", 0, "number of the file's first position (0: from a name like fforum-40-59.obf, else 1)")
	only := fs.String("only", "", "solve only these positions, by number: e.g. 40-45,48")
	fs.DurationVar(&run.ProgressInterval, "progress", 2*time.Second, "interval of the progress line on stderr (0: none)")
	evalName := fs.String("eval", "default", "move ordering far from the leaves: "+evalFlagHelp)
	noTable := fs.Bool("no-table", false, "measurement: no transposition table")
	noStab := fs.Bool("no-stability", false, "measurement: no stability cutoffs")
	noParity := fs.Bool("no-parity", false, "measurement: no parity in the move order")
	noLast4 := fs.Bool("no-last4", false, "measurement: the generic search down to the last empty square")
	fs.IntVar(&run.Selectivity, "sel", 0, fmt.Sprintf("probable solve: endgame Multi-ProbCut at selectivity level 1-%d (0: exact; needs the pattern evaluation); scores that differ from the file are counted, not failed", search.MaxSelectivity))
	noAsp := fs.Bool("no-aspiration", false, "measurement: no aspiration windows at the root")
	noPre := fs.Bool("no-presearch", false, "measurement: no midgame search before each solve to order its top plies")
	force := fs.Bool("force", false, fmt.Sprintf("solve positions of more than %d empties too (hours to years; Ctrl-C stops the solve and prints its nodes)", endgame.MaxSolveEmpties))
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the solves to this file (go tool pprof)")
	allMoves := fs.String("all-moves", "", "also solve every legal move of each position exactly, check them against the file's move scores, and write the positions with all their move scores (best first, Edax's .obf form) to this file")
	var d cluster.DsolveOptions
	addControllerFlags(fs, &d)
	setUsage(env, fs, "usage: othello solve [options] FILE.obf\n\nSolves every position of an .obf file exactly (or win/loss/draw with --wld) and\ncompares with the scores the file gives; exits with status 3 if any disagrees. With\n--redis the positions are solved by the \"othello worker\" processes that share the Redis\nservers (docs/distributed.md), and this process is the controller. Options:\n")
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
		return usageError(fs, fmt.Errorf("want one FILE.obf argument"))
	}
	if d.Servers != "" {
		if run.WLD || run.Selectivity > 0 || run.Jobs > 1 || *allMoves != "" || *cpuProfile != "" {
			return exitError{2, fmt.Errorf("--redis solves exactly, one position at a time: not with --wld, --sel, --jobs, --all-moves or --cpuprofile")}
		}
		d.Only, d.First, d.Options.NoAspiration = *only, *first, *noAsp
		return distributedSolve(env, d, files[0], *evalName)
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	run.Solver = endgame.DefaultSolverOptions(*hashMiB)
	run.Solver.Eval, run.Solver.Threads = ev.ev, *threads
	run.Solver.Table = run.Solver.Table && !*noTable
	run.Solver.Stability, run.Solver.Parity, run.Solver.Last4, run.Solver.Aspiration = !*noStab, !*noParity, !*noLast4, !*noAsp
	run.AllMoves = *allMoves != ""
	presearch := ""
	if ev.ev != nil && !*noPre {
		// The presearch orders the solver's top plies by the pattern evaluation's midgame
		// search; with the mobility fallback it would cost more than it saves.
		threads := run.Solver.Threads
		run.NewPresearcher = func() endgame.Presearcher { return search.NewPresearch(ev.ev, threads, presearchMiB) }
		presearch = fmt.Sprintf("midgame presearch to %d empties (depth %d at most) at %d%%", search.PresearchMargin, search.PresearchMaxDepth, endgame.SelectivityPercent(search.PresearchLevel))
	}
	if err := run.Check(); err != nil {
		return exitError{2, err}
	}
	// Every job has its own solver and table (the threads of a job share it).
	flag := fmt.Sprintf("-hash %d", *hashMiB)
	if run.Jobs > 1 {
		flag += fmt.Sprintf(" with -jobs %d", run.Jobs)
	}
	need := run.TableBytes()
	if run.NewPresearcher != nil {
		need += search.PresearchBytes(presearchMiB) * uint64(max(run.Jobs, 1))
	}
	if err := checkTableMemory(flag, need); err != nil {
		return err
	}
	if err := checkOutput("--all-moves", *allMoves, files[0]); err != nil {
		return err
	}
	stopProfile, err := startCPUProfile(*cpuProfile, files[0], *allMoves)
	if err != nil {
		return err
	}
	defer stopProfile()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	run.Context = ctx
	tot, err := endgame.SolveFile{Path: files[0], First: *first, Only: *only, AllMoves: *allMoves, EvalName: ev.name, Presearch: presearch, Out: env.stdout, Progress: env.stderr, Run: run, Force: *force}.Solve()
	if err != nil {
		return usageIf(err)
	}
	if tot.Interrupted {
		return exitError{130, fmt.Errorf("interrupted")}
	}
	if tot.Wrong > 0 && run.Selectivity > 0 {
		fmt.Fprintf(env.stdout, "%d probable score(s) differ from the file\n", tot.Wrong)
		return nil
	}
	if tot.Wrong > 0 {
		return exitError{3, fmt.Errorf("%d score(s) disagree with the file", tot.Wrong)}
	}
	return nil
}
