package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/othellogo/othello/train"
)

// cmdSelfplay plays the engine against itself from random openings (train.SelfPlayFile) and
// writes the games as transcripts for train.
func cmdSelfplay(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "selfplay")
	var cfg train.SelfPlayConfig
	out := fs.String("o", "selfplay.txt", "write the games to this transcript file")
	resume := fs.Bool("resume", false, "continue the file -o (made with the same settings) up to -n games")
	fs.IntVar(&cfg.Games, "n", 1000, "number of games in the file")
	fs.IntVar(&cfg.MinRandom, "random-min", 8, "fewest uniformly random plies at the start of a game")
	fs.IntVar(&cfg.MaxRandom, "random-max", 20, "most uniformly random plies at the start of a game")
	fs.IntVar(&cfg.Depth, "depth", 8, "depth of the engine's search for each move")
	fs.IntVar(&cfg.Selectivity, "sel", 4, "its Multi-ProbCut selectivity level (0-5)")
	fs.IntVar(&cfg.ExactEmpties, "exact", 16, "solve exactly at this many empties or fewer")
	evalName := fs.String("eval", "default", evalFlagHelp)
	fs.IntVar(&cfg.TTMiB, "tt", 4, "tables of each worker's engine, MiB")
	fs.IntVar(&cfg.Workers, "workers", 2, "games played at the same time")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed of the openings")
	setUsage(env, fs, "usage: othello selfplay [options]\n\nPlays the engine against itself, each game from a few uniformly random plies, and writes\nthe games as transcript lines (\"<moves> <result>\") that othello train reads like any game\nfile. Game i of a seed is always the same game; Ctrl-C or a kill keeps the games written,\nand -resume goes on from them.\nOptions:\n")
	if err := parseArgs(env, fs, args, 0, 0, ""); err != nil {
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err = train.SelfPlayFile(ctx, cfg, *evalName, *out, *resume, 10*time.Second, env.stdout, newBar(env, cfg.Games, "self-play"))
	return usageIf(err)
}
