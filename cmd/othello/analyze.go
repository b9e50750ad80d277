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
	position := fs.String("position", "", "position: 64 board characters and the side to move (obf form), quoted")
	moves := fs.String("moves", "", "transcript played from the position (or from the start), e.g. f5d6c3")
	lf := addLevelFlags(fs, false, "0")
	n := fs.Int("n", 0, "number of best moves with exact values (0: all)")
	sf := addSearchFlags(fs, runtime.NumCPU(), "threads that search the position, 1-256; the default is the number of cores")
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
	if err := protocol.CheckPosition(&b); err != nil {
		return exitError{2, err}
	}
	lim, err := analysisLimits(lf)
	if err != nil {
		return err
	}
	if err := lim.Check(); err != nil {
		return exitError{2, err}
	}
	var cfg search.Config
	ev, err := sf.configure(&cfg)
	if err != nil {
		return err
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

// analysisLimits are the limits of an analysis: the -level's row (or the -depth's, or the
// default level's when neither a depth nor a time is given), its depth and selectivity
// overridden by -depth and -sel (0 by default: an analysis searches exact depths), and -time.
// A time alone leaves the depth and the solve to the time plan.
func analysisLimits(lf *levelFlags) (search.Limits, error) {
	row, err := lf.row()
	if err != nil {
		return search.Limits{}, err
	}
	var lim search.Limits
	switch {
	case lf.level.set:
	case lf.depth.set:
		row, err = search.LevelFor(lf.depth.v)
		if err != nil {
			return lim, exitError{2, fmt.Errorf("-depth %d: want a depth of 1-%d", lf.depth.v, protocol.MaxDepth)}
		}
	case lf.moveTime == 0:
		row, _ = search.LevelFor(search.DefaultLevel)
	}
	if row != (search.Level{}) {
		lim = row.Limits()
	}
	if lf.depth.set {
		lim.Depth = lf.depth.v
	}
	lim.Selectivity = 0
	if lf.level.set {
		lim.Selectivity = row.Selectivity
	}
	if lf.sel.set {
		lim.Selectivity = lf.sel.v
	}
	lim.MoveTime = lf.moveTime
	return lim, nil
}
