package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

func cmdBench(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "bench")
	boards := search.BenchPositions()
	depth := fs.Int("depth", 10, "midgame depth of every search")
	ttMiB := fs.Int("tt", 64, "bounds tables size in MiB")
	// One thread by default: the node count is then a signature of the search (with more
	// threads it varies from run to run).
	threads := fs.Int("threads", 1, "threads that search each position")
	sel := fs.Int("sel", 0, fmt.Sprintf("Multi-ProbCut selectivity level 0-%d (0: none)", search.MaxSelectivity))
	noMPC := fs.Bool("no-mpc", false, "turn Multi-ProbCut off")
	noPVS := fs.Bool("no-pvs", false, "plain alpha-beta everywhere")
	noPrev := fs.Bool("no-prev", false, "no ordering by the previous iteration's table")
	noKiller := fs.Bool("no-killer", false, "no killer moves in the last plies' order")
	noStatic := fs.Bool("no-static-cut", false, "no Multi-ProbCut tests at heights 1-2 (the static evaluation's prediction)")
	pvsHeight := fs.Int("pvs-height", 0, "height from which PVS is used (0: default)")
	ttHeight := fs.Int("tt-height", 0, "height from which the tables and sorted ordering are used (0: default)")
	orderHeight := fs.Int("order-height", 0, "height from which moves without a table entry are ordered by a shallow search of each child (0: the default, 5; 99: never)")
	screen := fs.Float64("mpc-screen", 0, "Multi-ProbCut screen width in deviations of the static prediction (0: the default; negative: no screen)")
	table := fs.Bool("table", false, "run the feature on/off table: full, no-prev, no-pvs, no-killer, and MPC on (level -sel, default 2) vs off, without killers, the screen or the static cuts")
	npos := fs.Int("positions", len(boards), "use the first N bench positions")
	evalName := fs.String("eval", "default", evalFlagHelp)
	verbose := fs.Bool("each", false, "print every position's result")
	file := fs.String("file", "", "search the positions of this .obf-style file (one per line; anything after the side to move is ignored) instead of the built-in set")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the searches to this file (go tool pprof)")
	maxFile := fs.Int("n", 100, "with -file: use at most this many positions")
	moveTime := fs.Duration("movetime", 0, "with -file whose positions carry every move's exact score (solve -all-moves writes such files): search each position for this time a move with -sel and print the loss of the chosen moves against those scores (mean discs, worse moves, moves that lose a result)")
	depthBy := fs.String("depth-by", "plies", "how children's depths are set: plies (each child one ply less) or deviation (by the child's deviation value among its siblings, docs/deviation.md)")
	devCost := fs.String("dev-cost", "", "with -depth-by deviation: the cost table from this file (as othello devfit writes it) instead of the one stored with the weights")
	loss := fs.Bool("loss", false, "also value every move of each position by a full-width search to the same depth and print each run's mean loss: the best move's value minus the chosen move's, in discs (what the selective cuts cost in move choice)")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello bench [options]\n\nSearches a fixed set of midgame positions to a fixed depth on one thread and prints the\ntotal nodes (a signature that changes only when the search changes), time and nodes/s,\nand the process CPU time (steadier than the wall clock on a loaded machine).\nOptions:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitError{2, fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	if *depth < 1 || *depth > 30 || *npos < 1 || *npos > len(boards) {
		return exitError{2, fmt.Errorf("want depth 1-30 and positions 1-%d", len(boards))}
	}
	if *maxFile < 1 {
		return exitError{2, fmt.Errorf("-n %d: want at least 1 position", *maxFile)}
	}
	if *sel < 0 || *sel > search.MaxSelectivity {
		return exitError{2, fmt.Errorf("selectivity %d: want 0-%d", *sel, search.MaxSelectivity)}
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	if err := checkThreads(*threads); err != nil {
		return err
	}
	base := search.Config{TTMiB: *ttMiB, Threads: *threads, NoMPC: *noMPC, NoPVS: *noPVS, NoPrevOrder: *noPrev, NoKiller: *noKiller, NoStaticCut: *noStatic, PVSHeight: *pvsHeight, TTHeight: *ttHeight, EvalOrderHeight: *orderHeight, MPCScreen: *screen}
	ev.configure(&base)
	if err := configureDepthBy(&base, *depthBy, *devCost); err != nil {
		return err
	}
	// The engines of the variants and of -loss's reference are made one after the other.
	if err := checkTableMemory(fmt.Sprintf("-tt %d", *ttMiB), engineTableBytes(base)); err != nil {
		return err
	}
	if *moveTime != 0 {
		if *file == "" || *moveTime < 0 {
			return exitError{2, fmt.Errorf("-movetime needs a positive time and -file with move scores")}
		}
		return benchMoveQuality(env, base, *file, *maxFile, *moveTime, *sel)
	}
	variants := []search.BenchVariant{{Name: "as given", Config: base, Selectivity: *sel}}
	if *table {
		variants = search.BenchTable(base, *sel)
	}
	boards = boards[:*npos]
	if *file != "" {
		// Positions with a move to play, deep enough that the search is a midgame one.
		if boards, err = readFitPositions(*file, *maxFile, *depth); err != nil {
			return exitError{2, err}
		}
	}
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	threadText := "one thread"
	if *threads > 1 {
		threadText = fmt.Sprintf("%d threads", *threads)
	}
	fmt.Fprintf(env.stdout, "bench: %d positions, depth %d, eval %s, tables %d MiB, %s, %s move generation\n", len(boards), *depth, ev.name, *ttMiB, threadText, board.MoveGeneration())
	var refs [][]search.MoveScore
	if *loss {
		start := time.Now()
		refs = search.BenchReference(base, boards, *depth)
		fmt.Fprintf(env.stdout, "reference: every move at full width, depth %d, %.3f s\n", *depth, time.Since(start).Seconds())
	}
	var each func(int, search.Result, time.Duration)
	if *verbose {
		each = func(i int, r search.Result, el time.Duration) {
			fmt.Fprintf(env.stdout, "  %2d  %2d empties  %s %+6.2f  %11d nodes  %7.3f s\n", i+1, boards[i].NumEmpties(), r.Move, r.Score, r.Nodes, el.Seconds())
		}
	}
	var first search.BenchResult
	for vi, v := range variants {
		r := search.RunBench(v, boards, *depth, refs, each)
		line := fmt.Sprintf("%-24s nodes %12d  time %8.3f s  %6.2f M nodes/s  cpu %8.3f s  %6.2f M nodes/cpu-s", v.Name, r.Nodes, r.Time.Seconds(), float64(r.Nodes)/r.Time.Seconds()/1e6,
			r.CPU.Seconds(), float64(r.Nodes)/r.CPU.Seconds()/1e6)
		if refs != nil {
			line += fmt.Sprintf("  loss %.3f discs/move, %d worse", r.Loss, r.Worse)
		}
		if p := r.Parallel; p.Splits > 0 {
			line += fmt.Sprintf("  splits %d, helpers idle %.0f%%", p.Splits, 100*p.Idle.Seconds()/(p.Idle+p.Busy).Seconds())
		}
		if *table {
			if vi == 0 {
				first = r
			} else {
				line += fmt.Sprintf("  nodes x%.2f  cpu x%.2f vs full", float64(r.Nodes)/float64(first.Nodes), r.CPU.Seconds()/first.CPU.Seconds())
			}
		}
		fmt.Fprintln(env.stdout, line)
	}
	return nil
}

// startCPUProfile starts a CPU profile written to path (none when path is empty) and returns
// the function that stops it.
func startCPUProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, exitError{2, err}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, exitError{2, err}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// benchMoveQuality prints what the moves chosen in moveTime at selectivity sel cost against
// the move scores of the file's positions (search.MoveQuality).
func benchMoveQuality(env *cmdEnv, cfg search.Config, path string, n int, moveTime time.Duration, sel int) error {
	problems, err := readProblems(path)
	if err != nil {
		return err
	}
	q, err := search.MoveQuality(cfg, problems, n, moveTime, sel)
	if err != nil {
		return exitError{2, fmt.Errorf("%s %v (write the file with solve -all-moves)", path, err)}
	}
	if q.Positions == 0 {
		return exitError{2, fmt.Errorf("%s: no position with a move to play and move scores", path)}
	}
	fmt.Fprintf(env.stdout, "move quality: %d positions, %v a move, selectivity %d: mean loss %.3f discs, %d worse moves, %d result errors, %.1f ms a move\n",
		q.Positions, moveTime, sel, q.Loss, q.Worse, q.ResultErrors, q.Time.Seconds()*1000/float64(q.Positions))
	return nil
}
