package main

import (
	"fmt"

	"github.com/othellogo/othello/search"
	"github.com/othellogo/othello/train"
)

func cmdBench(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "bench")
	boards := search.BenchPositions()
	var o search.BenchOptions
	var base search.Config
	fs.IntVar(&o.Depth, "depth", 10, "midgame depth of every search")
	// One thread by default: the node count is then a signature of the search (with more
	// threads it varies from run to run).
	sf := addSearchFlags(fs, 1, "threads that search each position")
	fs.IntVar(&o.Selectivity, "sel", 0, fmt.Sprintf("Multi-ProbCut selectivity level 0-%d (0: none)", search.MaxSelectivity))
	fs.BoolVar(&base.NoMPC, "no-mpc", false, "turn Multi-ProbCut off")
	fs.BoolVar(&base.NoPVS, "no-pvs", false, "plain alpha-beta everywhere")
	fs.BoolVar(&base.NoPrevOrder, "no-prev", false, "no ordering by the previous iteration's table")
	fs.BoolVar(&base.NoKiller, "no-killer", false, "no killer moves in the last plies' order")
	fs.BoolVar(&base.ExactOrderKeys, "exact-order-keys", false, "the shallow searches that order the moves resolve every move's value, not only those near or above alpha")
	fs.BoolVar(&base.NoTimeBand, "no-time-band", false, "with -movetime: no band of win/loss/draw proofs or probable solves above the exact solve (their midgame search stops at depth 10); such positions keep the whole midgame search and the solves after it (measurement)")
	fs.BoolVar(&base.NoStaticCut, "no-static-cut", false, "no Multi-ProbCut tests at heights 1-2 (the static evaluation's prediction)")
	fs.BoolVar(&base.NoEvalCache, "no-eval-cache", false, "sum the patterns at every evaluation, without the cache of recent values (measurement: same nodes and values)")
	fs.IntVar(&base.PVSHeight, "pvs-height", 0, "height from which PVS is used (0: default)")
	fs.IntVar(&base.TTHeight, "tt-height", 0, "height from which the tables and sorted ordering are used (0: default)")
	fs.IntVar(&base.EvalOrderHeight, "order-height", 0, "height from which moves without a table entry are ordered by a shallow search of each child (0: the default, 5; 99: never)")
	fs.Float64Var(&base.MPCScreen, "mpc-screen", 0, "Multi-ProbCut screen width in deviations of the static prediction (0: the default; negative: no screen)")
	fs.Float64Var(&base.MPCT, "mpct", 0, "the midgame Multi-ProbCut threshold in standard deviations, in place of the level's (0: the level's own)")
	fs.IntVar(&base.LeafSolve, "leaf-solve", 0, "leaves with at most this many empties solved exactly instead of evaluated (0: the default; negative: none)")
	table := fs.Bool("table", false, "run the feature on/off table: full, no-prev, no-pvs, no-killer, and MPC on (level -sel, default 2) vs off, without killers, the screen or the static cuts")
	fs.IntVar(&o.Positions, "positions", len(boards), "use the first N bench positions")
	verbose := fs.Bool("each", false, "print every position's result")
	file := fs.String("file", "", "search the positions of this .obf-style file (one per line; anything after the side to move is ignored) instead of the built-in set")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the searches to this file (go tool pprof)")
	fs.IntVar(&o.FileLimit, "n", 100, "with -file: use at most this many positions")
	moveTime := fs.Duration("movetime", 0, "with -file whose positions carry every move's exact score (solve -all-moves writes such files): search each position for this time a move with -sel and print the loss of the chosen moves against those scores (mean discs, worse moves, moves that lose a result)")
	depthBy := fs.String("depth-by", "plies", "how children's depths are set: plies (each child one ply less) or deviation (by the child's deviation value among its siblings, docs/deviation.md)")
	devCost := fs.String("dev-cost", "", "with -depth-by deviation: the cost table from this file (as othello devfit writes it) instead of the one stored with the weights")
	loss := fs.Bool("loss", false, "also value every move of each position by a full-width search to the same depth and print each run's mean loss: the best move's value minus the chosen move's, in discs (what the selective cuts cost in move choice)")
	setUsage(env, fs, "usage: othello bench [options]\n\nSearches a fixed set of midgame positions to a fixed depth on one thread and prints the\ntotal nodes (a signature that changes only when the search changes), time and nodes/s,\nand the process CPU time (steadier than the wall clock on a loaded machine).\nOptions:\n")
	if err := parseArgs(env, fs, args, 0, 0, ""); err != nil {
		return err
	}
	if err := o.Check(); err != nil {
		return exitError{2, err}
	}
	// The engines of the variants and of -loss's reference are made one after the other.
	ev, err := sf.configure(&base)
	if err != nil {
		return err
	}
	if err := base.SetDepthBy(*depthBy, *devCost); err != nil {
		return exitError{2, err}
	}
	if *moveTime != 0 {
		if *file == "" || *moveTime < 0 {
			return exitError{2, fmt.Errorf("-movetime needs a positive time and -file with move scores")}
		}
		// The loss of the moves chosen in the time against the file's move scores.
		problems, err := readProblems(*file)
		if err != nil {
			return err
		}
		q, err := search.MoveQuality(base, problems, o.FileLimit, *moveTime, o.Selectivity)
		if err != nil {
			return exitError{2, fmt.Errorf("%s %v (write the file with solve -all-moves)", *file, err)}
		}
		if q.Positions == 0 {
			return exitError{2, fmt.Errorf("%s: no position with a move to play and move scores", *file)}
		}
		search.WriteMoveQuality(env.stdout, q, *moveTime, o.Selectivity)
		return nil
	}
	variants := []search.BenchVariant{{Name: "as given", Config: base, Selectivity: o.Selectivity}}
	if *table {
		variants = search.BenchTable(base, o.Selectivity)
	}
	boards = boards[:o.Positions]
	if *file != "" {
		// Positions with a move to play, deep enough that the search is a midgame one.
		if boards, err = train.ReadMPCPositions(*file, o.FileLimit, o.Depth); err != nil {
			return exitError{2, err}
		}
	}
	stopProfile, err := startCPUProfile(*cpuProfile, *file)
	if err != nil {
		return err
	}
	defer stopProfile()
	search.Bench{Variants: variants, Boards: boards, Depth: o.Depth, Loss: *loss, Each: *verbose, EvalName: ev.name, Out: env.stdout}.Run()
	return nil
}
