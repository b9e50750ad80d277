package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
	"github.com/othellogo/othello/train"
)

// cmdDevfit learns and measures depth by deviation value (docs/deviation.md): reference values
// of every move of positions from game files, the genetic fit of the cost table, the accuracy
// of the chosen moves against nodes with and without it, and storing the table in a weight file.
func cmdDevfit(env *cmdEnv, args []string) error {
	usage := func() error {
		fmt.Fprintf(env.stderr, `usage: othello devfit refs|fit|measure|store [options]

  refs     value every move of positions from game files by a deep full-width search
  fit      fit the cost table on references by a genetic algorithm (loss under a node budget)
  measure  loss of the chosen moves against nodes, with and without depth by deviation value
  store    put a cost table (as fit writes it) into a weight file (section %s)

'othello devfit <sub> -h' lists a subcommand's options.
`, search.DevSection)
		return exitError{2, fmt.Errorf("want a subcommand")}
	}
	if len(args) == 0 {
		return usage()
	}
	switch args[0] {
	case "refs":
		return devfitRefs(env, args[1:])
	case "fit":
		return devfitFit(env, args[1:])
	case "measure":
		return devfitMeasure(env, args[1:])
	case "store":
		return devfitStore(env, args[1:])
	case "-h", "-help", "--help", "help":
		usage()
		return nil
	}
	return usage()
}

func devfitRefs(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "devfit refs")
	var o search.DevRefsOptions
	fs.StringVar(&o.Out, "out", "", "write the references to this file (required)")
	fs.IntVar(&o.Depth, "depth", 12, "depth of the full-width reference searches")
	fs.IntVar(&o.N, "n", 300, "number of positions (one a game)")
	fs.StringVar(&o.Empties, "empties", "24-44", "range of empties the positions are drawn from")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the choice of games and positions")
	fs.IntVar(&o.Concurrency, "concurrency", 1, "positions searched at the same time")
	evalName := fs.String("eval", "default", evalFlagHelp)
	setUsage(env, fs, "usage: othello devfit refs -out FILE [options] GAMEFILES...\n\nPicks one position a game from the game files (.wtb, .txt, .ggf, or directories of them) and\nvalues every move by a full-width search to -depth.\nOptions:\n")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	o.Files = fs.Args()
	if err := checkOptions(fs, o.Check()); err != nil {
		return err
	}
	if err := checkWritable("-out", o.Out); err != nil {
		return err
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	games, st, err := train.LoadGames(o.Files, nil, nil)
	if err != nil {
		return exitError{2, err}
	}
	env.log.Info().Msgf("devfit refs: %v", st)
	moves := make([][]board.Square, len(games))
	for i := range games {
		moves[i] = games[i].Moves
	}
	positions, err := o.Positions(moves)
	if err != nil {
		return exitError{2, err}
	}
	cfg := search.Config{TTMiB: 16}
	ev.configure(&cfg)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bar := newBar(env, len(positions), "devfit refs")
	defer bar.Finish()
	return o.Run(ctx, env.stdout, cfg, positions, func() { bar.Add(1) })
}

func devfitFit(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "devfit fit")
	var o search.DevFitOptions
	fs.StringVar(&o.Refs, "refs", "", "references (devfit refs) to fit on (required)")
	fs.StringVar(&o.Range, "range", "", "fit on positions A..B-1 of the file, as A:B (default: all)")
	fs.StringVar(&o.Budgets, "budgets", "10000,20000,40000", "node budgets, comma-separated: the loss fitted is the mean over them")
	fs.IntVar(&o.Selectivity, "sel", 5, fmt.Sprintf("Multi-ProbCut level of the searches, 0-%d", search.MaxSelectivity))
	fs.IntVar(&o.Population, "pop", 16, "individuals a generation")
	fs.IntVar(&o.Generations, "gens", 12, "generations")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the genetic algorithm")
	fs.Float64Var(&o.Lo, "lo", 0.5, "least cost of a child, plies")
	fs.Float64Var(&o.Hi, "hi", 2.5, "largest cost of a child, plies")
	fs.IntVar(&o.Concurrency, "concurrency", 1, "positions searched at the same time (the fit depends on it)")
	fs.StringVar(&o.EvalName, "eval", "default", evalFlagHelp)
	fs.StringVar(&o.Out, "out", "", "write the fitted table here (default: stdout)")
	fs.StringVar(&o.Store, "store", "", "also store the table in this weight file (section "+search.DevSection+")")
	setUsage(env, fs, "usage: othello devfit fit -refs FILE [options]\n\nFits the cost table of depth by deviation value: the table whose searches within the node\nbudget choose moves of least mean loss against the references.\nOptions:\n")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if err := checkOptions(fs, o.Check(fs.NArg())); err != nil {
		return err
	}
	if err := checkWritable("-store", o.Store); err != nil {
		return err
	}
	if err := checkWritable("-out", o.Out); err != nil {
		return err
	}
	refs, err := search.ReadDevRefsFile(o.Refs, o.Range)
	if err != nil {
		return exitError{2, err}
	}
	ev, err := loadEvaluator(o.EvalName)
	if err != nil {
		return exitError{2, err}
	}
	cfg := search.Config{TTMiB: 4, SolverMiB: 1}
	ev.configure(&cfg)
	return o.Run(env.stdout, cfg, refs)
}

func devfitMeasure(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "devfit measure")
	var o search.DevMeasureOptions
	fs.StringVar(&o.Refs, "refs", "", "references (devfit refs) to measure on (required)")
	fs.StringVar(&o.Range, "range", "", "positions A..B-1 of the file, as A:B (default: all); keep them apart from those fitted")
	fs.StringVar(&o.Budgets, "budgets", "5000,10000,20000,40000", "node budgets, comma-separated (empty: none)")
	fs.StringVar(&o.Depths, "depths", "4,6,8,10", "depths, comma-separated (empty: none)")
	fs.IntVar(&o.Selectivity, "sel", 5, fmt.Sprintf("Multi-ProbCut level of the searches, 0-%d", search.MaxSelectivity))
	costFile := fs.String("cost", "", "the cost table from this file instead of the one stored with the weights")
	fs.IntVar(&o.Concurrency, "concurrency", 1, "positions searched at the same time")
	evalName := fs.String("eval", "default", evalFlagHelp)
	setUsage(env, fs, "usage: othello devfit measure -refs FILE [options]\n\nPrints, for each node budget and depth, the mean loss of the chosen moves against the\nreferences (with its standard error), the moves worse than the best, and the mean nodes and\ndepth, with and without depth by deviation value, and the paired difference of the losses.\nOptions:\n")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if err := checkOptions(fs, o.Check(fs.NArg())); err != nil {
		return err
	}
	refs, err := search.ReadDevRefsFile(o.Refs, o.Range)
	if err != nil {
		return exitError{2, err}
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	plain := search.Config{TTMiB: 4, SolverMiB: 1}
	ev.configure(&plain)
	dev := plain
	if err := dev.SetDepthBy("deviation", *costFile); err != nil {
		return exitError{2, err}
	}
	o.Run(env.stdout, plain, dev, refs)
	return nil
}

func devfitStore(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "devfit store")
	from := fs.String("from", "", "cost table file (as devfit fit writes it)")
	store := fs.String("store", "", "weight file to store it in (section "+search.DevSection+")")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if err := checkOptions(fs, search.CheckDevStore(*from, *store, fs.NArg())); err != nil {
		return err
	}
	if err := checkWritable("-store", *store); err != nil {
		return err
	}
	data, err := search.ReadDevCostText(*from)
	if err != nil {
		return exitError{2, err}
	}
	return search.StoreDevCost(*store, data)
}
