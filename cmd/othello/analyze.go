package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/protocol"
	"github.com/othellogo/othello/search"
)

func cmdAnalyze(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "analyze")
	position := fs.String("position", "", "position: 64 board characters and the side to move (obf form), quoted")
	moves := fs.String("moves", "", "transcript played from the position (or from the start), e.g. f5d6c3")
	depth := fs.Int("depth", 0, "midgame depth (0: none; with no depth and no time, 12)")
	moveTime := fs.Duration("time", 0, "time for the analysis, e.g. 5s (0: none)")
	n := fs.Int("n", 0, "number of best moves with exact values (0: all)")
	sel := fs.Int("sel", 0, fmt.Sprintf("Multi-ProbCut selectivity level 0-%d", search.MaxSelectivity))
	ttMiB := fs.Int("tt", 64, "bounds tables size in MiB")
	threads := fs.Int("threads", runtime.NumCPU(), "threads that search the position (default: the cores)")
	evalName := fs.String("eval", "default", evalFlagHelp)
	progress := fs.Bool("progress", false, "print the best move after each iteration")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello analyze [options] [TRANSCRIPT]\n\nSearches a position and prints its moves, best first, with values in discs (from the side\nto move's view) and principal variations. Ctrl-C stops the search and prints what it has.\nOptions:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	text := *moves
	switch {
	case fs.NArg() == 1 && text == "":
		text = fs.Arg(0)
	case fs.NArg() > 0:
		fs.Usage()
		return exitError{2, fmt.Errorf("want at most one TRANSCRIPT argument (or --moves)")}
	}
	b, err := board.ParsePosition(*position, text)
	if err != nil {
		return exitError{2, err}
	}
	if *sel < 0 || *sel > search.MaxSelectivity || *depth < 0 || *depth > 60 || *moveTime < 0 {
		return exitError{2, fmt.Errorf("want depth 0-60, selectivity 0-%d and a non-negative time", search.MaxSelectivity)}
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	lim := search.Limits{Depth: *depth, MoveTime: *moveTime, Selectivity: *sel}
	if lim.Depth == 0 && lim.MoveTime == 0 {
		lim.Depth = 12
	}
	if err := checkThreads(*threads); err != nil {
		return err
	}
	cfg := search.Config{TTMiB: *ttMiB, Threads: *threads}
	ev.configure(&cfg)
	if err := checkTableMemory(fmt.Sprintf("-tt %d", *ttMiB), search.TableBytes(cfg)); err != nil {
		return err
	}
	e := search.NewEngine(cfg)
	fmt.Fprint(env.stdout, b.Diagram())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var info func([]search.MoveScore)
	if *progress {
		info = protocol.AnalysisProgress(env.stdout)
	}
	start := time.Now()
	ms := e.Analyze(ctx, b, lim, *n, info)
	if len(ms) == 0 {
		return fmt.Errorf("no result")
	}
	protocol.WriteAnalysis(env.stdout, ms, *n, ev.name, time.Since(start))
	return nil
}
