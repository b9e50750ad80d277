package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/internal/atomicfile"
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
	out := fs.String("out", "", "write the references to this file (required)")
	depth := fs.Int("depth", 12, "depth of the full-width reference searches")
	n := fs.Int("n", 300, "number of positions (one a game)")
	empties := fs.String("empties", "24-44", "range of empties the positions are drawn from")
	seed := fs.Uint64("seed", 1, "seed of the choice of games and positions")
	concurrency := fs.Int("concurrency", 1, "positions searched at the same time")
	evalName := fs.String("eval", "default", evalFlagHelp)
	setUsage(env, fs, "usage: othello devfit refs -out FILE [options] GAMEFILES...\n\nPicks one position a game from the game files (.wtb, .txt, or directories of them) and\nvalues every move by a full-width search to -depth.\nOptions:\n")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	lo, hi, err := search.ParseSpan(*empties)
	if err != nil || lo < *depth+2 || hi > 58 {
		return exitError{2, fmt.Errorf("-empties %q: want LO-HI with %d <= LO <= HI <= 58", *empties, *depth+2)}
	}
	if *out == "" || fs.NArg() == 0 || *n < 1 || *depth < 1 || *depth > 30 || *concurrency < 1 {
		fs.Usage()
		return exitError{2, fmt.Errorf("want -out, game files, n >= 1, depth 1-30, concurrency >= 1")}
	}
	if err := checkWritable("-out", *out); err != nil {
		return err
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	games, st, err := train.LoadGames(fs.Args(), nil, nil)
	if err != nil {
		return exitError{2, err}
	}
	env.log.Info().Msgf("devfit refs: %v", st)
	moves := make([][]board.Square, len(games))
	for i := range games {
		moves[i] = games[i].Moves
	}
	positions := search.DevPositions(moves, *n, lo, hi, *seed)
	if len(positions) == 0 {
		return exitError{2, fmt.Errorf("no position with %d-%d empties in the games", lo, hi)}
	}
	cfg := search.Config{TTMiB: 16}
	ev.configure(&cfg)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bar := newBar(env, len(positions), "devfit refs")
	refs, err := search.DevReferences(ctx, cfg, positions, *depth, *concurrency, func() { bar.Add(1) })
	bar.Finish()
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := search.WriteDevRefs(&buf, refs); err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "devfit refs: %d positions (%d-%d empties), every move at full width depth %d, written to %s\n", len(refs), lo, hi, *depth, *out)
	return atomicfile.WriteFile(*out, buf.Bytes(), 0o644)
}

func devfitFit(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "devfit fit")
	refsPath := fs.String("refs", "", "references (devfit refs) to fit on (required)")
	span := fs.String("range", "", "fit on positions A..B-1 of the file, as A:B (default: all)")
	budgets := fs.String("budgets", "10000,20000,40000", "node budgets, comma-separated: the loss fitted is the mean over them")
	sel := fs.Int("sel", 5, fmt.Sprintf("Multi-ProbCut level of the searches, 0-%d", search.MaxSelectivity))
	pop := fs.Int("pop", 16, "individuals a generation")
	gens := fs.Int("gens", 12, "generations")
	seed := fs.Uint64("seed", 1, "seed of the genetic algorithm")
	lo := fs.Float64("lo", 0.5, "least cost of a child, plies")
	hi := fs.Float64("hi", 2.5, "largest cost of a child, plies")
	concurrency := fs.Int("concurrency", 1, "positions searched at the same time (the fit depends on it)")
	evalName := fs.String("eval", "default", evalFlagHelp)
	out := fs.String("out", "", "write the fitted table here (default: stdout)")
	store := fs.String("store", "", "also store the table in this weight file (section "+search.DevSection+")")
	setUsage(env, fs, "usage: othello devfit fit -refs FILE [options]\n\nFits the cost table of depth by deviation value: the table whose searches within the node\nbudget choose moves of least mean loss against the references.\nOptions:\n")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	bs, err := search.ParseInts(*budgets, 1, 1<<40)
	if *refsPath == "" || fs.NArg() != 0 || err != nil || len(bs) == 0 || *pop < 4 || *gens < 0 || *concurrency < 1 || !(*lo >= 0.25 && *lo < *hi && *hi <= 4) {
		fs.Usage()
		return exitError{2, fmt.Errorf("want -refs, no arguments, budgets >= 1, pop >= 4, gens >= 0, concurrency >= 1, 0.25 <= lo < hi <= 4")}
	}
	if *sel < 0 || *sel > search.MaxSelectivity {
		return exitError{2, fmt.Errorf("-sel %d: want 0-%d", *sel, search.MaxSelectivity)}
	}
	if err := checkWritable("-store", *store); err != nil {
		return err
	}
	if err := checkWritable("-out", *out); err != nil {
		return err
	}
	refs, err := search.ReadDevRefsFile(*refsPath, *span)
	if err != nil {
		return exitError{2, err}
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	cfg := search.Config{TTMiB: 4, SolverMiB: 1}
	ev.configure(&cfg)
	var lims []search.Limits
	plainLoss := 0.0
	fmt.Fprintf(env.stdout, "devfit fit: %d positions, level %d\n", len(refs), *sel)
	for _, b := range bs {
		lim := search.Limits{Nodes: uint64(b), Selectivity: *sel}
		lims = append(lims, lim)
		plain := search.DevAccuracy(cfg, refs, lim, *concurrency)
		plainLoss += plain.Loss / float64(len(bs))
		fmt.Fprintf(env.stdout, "plain search, %d nodes: loss %.3f +- %.3f discs, %d worse, depth %.2f\n", b, plain.Loss, plain.LossSE, plain.Worse, plain.Depth)
	}
	opts := search.GAOptions{Population: *pop, Generations: *gens, Seed: *seed}
	cost, loss := search.FitDevCost(cfg, refs, lims, *concurrency, *lo, *hi, nil, opts, func(s search.GAStep) {
		c := search.DevCost{}
		copy(c.Cost[:], s.Best)
		fmt.Fprintf(env.stdout, "generation %2d  %4d evaluations  best loss %.3f  cost %s\n", s.Generation, s.Evaluations, s.Value, c.String())
	})
	cost.Eval = *evalName
	fmt.Fprintf(env.stdout, "fitted: mean loss %.3f discs (plain %.3f), cost at d = 35..65: %s\n", loss, plainLoss, cost.String())
	var text bytes.Buffer
	if err := search.WriteDevCost(&text, cost); err != nil {
		return err
	}
	if *store != "" {
		if err := search.StoreDevCost(*store, text.Bytes()); err != nil {
			return err
		}
	}
	if *out != "" {
		return atomicfile.WriteFile(*out, text.Bytes(), 0o644)
	}
	_, err = env.stdout.Write(text.Bytes())
	return err
}

func devfitMeasure(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "devfit measure")
	refsPath := fs.String("refs", "", "references (devfit refs) to measure on (required)")
	span := fs.String("range", "", "positions A..B-1 of the file, as A:B (default: all); keep them apart from those fitted")
	budgets := fs.String("budgets", "5000,10000,20000,40000", "node budgets, comma-separated (empty: none)")
	depths := fs.String("depths", "4,6,8,10", "depths, comma-separated (empty: none)")
	sel := fs.Int("sel", 5, fmt.Sprintf("Multi-ProbCut level of the searches, 0-%d", search.MaxSelectivity))
	costFile := fs.String("cost", "", "the cost table from this file instead of the one stored with the weights")
	concurrency := fs.Int("concurrency", 1, "positions searched at the same time")
	evalName := fs.String("eval", "default", evalFlagHelp)
	setUsage(env, fs, "usage: othello devfit measure -refs FILE [options]\n\nPrints, for each node budget and depth, the mean loss of the chosen moves against the\nreferences (with its standard error), the moves worse than the best, and the mean nodes and\ndepth, with and without depth by deviation value, and the paired difference of the losses.\nOptions:\n")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if *refsPath == "" || fs.NArg() != 0 || *concurrency < 1 {
		fs.Usage()
		return exitError{2, fmt.Errorf("want -refs, no arguments, concurrency >= 1")}
	}
	if *sel < 0 || *sel > search.MaxSelectivity {
		return exitError{2, fmt.Errorf("-sel %d: want 0-%d", *sel, search.MaxSelectivity)}
	}
	bs, err := search.ParseInts(*budgets, 1, 1<<40)
	if err != nil {
		return exitError{2, fmt.Errorf("-budgets: %v", err)}
	}
	ds, err := search.ParseInts(*depths, 1, 30)
	if err != nil {
		return exitError{2, fmt.Errorf("-depths: %v", err)}
	}
	refs, err := search.ReadDevRefsFile(*refsPath, *span)
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
	if err := configureDepthBy(&dev, "deviation", *costFile); err != nil {
		return err
	}
	shown := dev.DevCost
	if shown == nil {
		shown = search.DevCostFor(dev.Eval)
	}
	fmt.Fprintf(env.stdout, "devfit measure: %d positions, level %d, cost at d = 35..65: %s\n", len(refs), *sel, shown.String())
	var lims []search.Limits
	var names []string
	for _, b := range bs {
		lims = append(lims, search.Limits{Nodes: uint64(b), Selectivity: *sel})
		names = append(names, fmt.Sprintf("%d nodes", b))
	}
	for _, d := range ds {
		lims = append(lims, search.Limits{Depth: d, Selectivity: *sel})
		names = append(names, fmt.Sprintf("depth %d", d))
	}
	search.DevMeasure(env.stdout, plain, dev, refs, lims, names, *concurrency)
	return nil
}

func devfitStore(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "devfit store")
	from := fs.String("from", "", "cost table file (as devfit fit writes it)")
	store := fs.String("store", "", "weight file to store it in (section "+search.DevSection+")")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if *from == "" || *store == "" || fs.NArg() != 0 {
		fs.Usage()
		return exitError{2, fmt.Errorf("want -from and -store and no arguments")}
	}
	if err := checkWritable("-store", *store); err != nil {
		return err
	}
	data, err := os.ReadFile(*from)
	if err != nil {
		return exitError{2, err}
	}
	if _, err := search.ParseDevCost(bytes.NewReader(data)); err != nil {
		return exitError{2, fmt.Errorf("%s: %v", *from, err)}
	}
	return search.StoreDevCost(*store, data)
}

// configureDepthBy sets how cfg's searches give children their depths: "plies" (the plain
// search) or "deviation", with the cost table of costFile when not empty.
func configureDepthBy(cfg *search.Config, mode, costFile string) error {
	switch mode {
	case "plies", "":
		if costFile != "" {
			return exitError{2, fmt.Errorf("a cost table needs -depth-by deviation")}
		}
		return nil
	case "deviation":
	default:
		return exitError{2, fmt.Errorf("-depth-by %q: want plies or deviation", mode)}
	}
	cfg.DepthByDeviation = true
	if costFile == "" {
		return nil
	}
	c, err := search.ReadDevCostFile(costFile)
	if err != nil {
		return exitError{2, err}
	}
	cfg.DevCost = c
	return nil
}
