package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/othellogo/othello/train"
)

// cmdLabel makes search-labelled training positions (train.SearchLabels) from game files.
func cmdLabel(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "label")
	out := fs.String("o", "positions.txt", "write the labelled positions to this file")
	n := fs.Int("n", 10000, "number of positions")
	minE := fs.Int("min-empties", 14, "fewest empties of a position")
	maxE := fs.Int("max-empties", 56, "most empties of a position")
	random := fs.Int("random", 2, "up to this many uniformly random moves after the game position")
	depth := fs.Int("depth", 8, "depth of the labelling search")
	sel := fs.Int("sel", 4, "its Multi-ProbCut selectivity level (0-5)")
	exact := fs.Int("exact", 16, "solve exactly at this many empties or fewer")
	evalName := fs.String("eval", "default", evalFlagHelp)
	tt := fs.Int("tt", 8, "tables of each worker's engine, MiB")
	workers := fs.Int("workers", 2, "positions searched at the same time")
	seed := fs.Uint64("seed", 1, "random seed of the drawing")
	from := fs.Int("from", 0, "start at this position of the seed's sequence (continues an interrupted run: the files of both runs together are one run's)")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello label [options] PATH...\n\nDraws positions from the games of the PATHs (WTHOR .wtb, transcript .txt, or directories),\nplays a few random moves from each, labels each with a search of it, and writes them as\n\"OBF; SCORE\" lines for othello train -positions.\nOptions:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitError{2, fmt.Errorf("want at least one PATH of games")}
	}
	if *n < 1 || *workers < 1 || *tt < 1 || *from < 0 {
		return exitError{2, fmt.Errorf("want n, workers and tt >= 1 and from >= 0")}
	}
	cfg := train.LabelConfig{Positions: *n, MinEmpties: *minE, MaxEmpties: *maxE, RandomMoves: *random,
		Depth: *depth, Selectivity: *sel, ExactEmpties: *exact, TTMiB: *tt, Workers: *workers, Seed: *seed, First: *from}
	if err := checkTableMemory(fmt.Sprintf("-tt %d with -workers %d", *tt, *workers), cfg.TableBytes()); err != nil {
		return err
	}
	if err := checkWritable("-o", *out); err != nil {
		return err
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	cfg.Eval = ev.ev
	games, st, err := train.LoadGames(fs.Args(), nil, nil)
	if err != nil {
		return exitError{2, err}
	}
	env.log.Info().Msgf("games: %v", st)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return train.LabelFile(ctx, games, cfg, *out, env.stdout, newBar(env, *n, "labelling"))
}
