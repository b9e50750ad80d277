package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/cluster"
	"github.com/othellogo/othello/protocol"
	"github.com/othellogo/othello/search"
)

func cmdAnalyze(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "analyze")
	var lim search.Limits
	position := fs.String("position", "", "position: 64 board characters and the side to move (obf form), quoted")
	moves := fs.String("moves", "", "transcript played from the position (or from the start), e.g. f5d6c3")
	fs.IntVar(&lim.Depth, "depth", 0, "midgame depth (0: none; with no depth and no time, 12)")
	fs.DurationVar(&lim.MoveTime, "time", 0, "time for the analysis, e.g. 5s (0: none)")
	n := fs.Int("n", 0, "number of best moves with exact values (0: all)")
	fs.IntVar(&lim.Selectivity, "sel", 0, fmt.Sprintf("Multi-ProbCut selectivity level 0-%d", search.MaxSelectivity))
	sf := addSearchFlags(fs, runtime.NumCPU(), "threads that search the position (default: the cores)")
	progress := fs.Bool("progress", false, "print the best move after each iteration")
	var redisAccess cluster.Access
	addRedisFlags(fs, &redisAccess, "", "analyze on the workers (\"othello worker\") sharing these Redis servers")
	solveEmpties := fs.Int("solve-empties", 0, "with --redis: solve the moves exactly up to this many empties, else search them to --depth (0: twice the depth)")
	setUsage(env, fs, "usage: othello analyze [options] [TRANSCRIPT]\n\nSearches a position and prints its moves, best first, with values in discs (from the side\nto move's view) and principal variations. Ctrl-C stops the search and prints what it has.\nOptions:\n")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 || fs.NArg() == 1 && *moves != "" {
		return usageError(fs, fmt.Errorf("want at most one TRANSCRIPT argument (or --moves)"))
	}
	b, err := board.ParsePosition(*position, cmp.Or(*moves, fs.Arg(0)))
	if err != nil {
		return exitError{2, err}
	}
	if err := lim.Check(); err != nil {
		return exitError{2, err}
	}
	var cfg search.Config
	ev, err := sf.configure(&cfg)
	if err != nil {
		return err
	}
	if lim.Depth == 0 && lim.MoveTime == 0 {
		lim.Depth = 12
	}
	if redisAccess.Servers != "" {
		return distributedAnalyze(env, redisAccess, b, lim, *n, *solveEmpties, ev)
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
