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
	var cfg train.LabelConfig
	out := fs.String("o", "positions.txt", "write the labelled positions to this file")
	fs.IntVar(&cfg.Positions, "n", 10000, "number of positions")
	fs.IntVar(&cfg.MinEmpties, "min-empties", 14, "fewest empties of a position")
	fs.IntVar(&cfg.MaxEmpties, "max-empties", 56, "most empties of a position")
	fs.IntVar(&cfg.RandomMoves, "random", 2, "up to this many uniformly random moves after the game position")
	fs.IntVar(&cfg.Depth, "depth", 8, "depth of the labelling search")
	fs.IntVar(&cfg.Selectivity, "sel", 4, "its Multi-ProbCut selectivity level (0-5)")
	fs.IntVar(&cfg.ExactEmpties, "exact", 16, "solve exactly at this many empties or fewer")
	evalName := fs.String("eval", "default", evalFlagHelp)
	fs.IntVar(&cfg.TTMiB, "tt", 8, "tables of each worker's engine, MiB")
	fs.IntVar(&cfg.Workers, "workers", 2, "positions searched at the same time")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed of the drawing")
	fs.IntVar(&cfg.First, "from", 0, "start at this position of the seed's sequence (continues an interrupted run: the files of both runs together are one run's)")
	setUsage(env, fs, "usage: othello label [options] PATH...\n\nDraws positions from the games of the PATHs (WTHOR .wtb, transcript .txt,\nGGF .ggf such as match records, or directories),\nplays a few random moves from each, labels each with a search of it, and writes them as\n\"OBF; SCORE\" lines for othello train -positions.\nOptions:\n")
	if err := parseArgs(env, fs, args, 1, -1, "want at least one PATH of games"); err != nil {
		return err
	}
	if err := cfg.Check(); err != nil {
		return exitError{2, err}
	}
	if err := checkTableMemory(fmt.Sprintf("-tt %d with -workers %d", cfg.TTMiB, cfg.Workers), cfg.TableBytes()); err != nil {
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
	return train.LabelFile(ctx, games, cfg, *out, env.stdout, newBar(env, cfg.Positions, "labelling"))
}
