package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/othellogo/othello/internal/atomicfile"
	"github.com/othellogo/othello/match"
)

// cmdOpenings generates a balanced opening set (match.GenerateOpenings) and writes it as
// transcripts for match -openings.
func cmdOpenings(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "openings")
	cfg := match.GenerateConfig{}
	out := fs.String("o", "", "write the openings to this file (default: stdout)")
	force := fs.Bool("force", false, "replace the -o file when it exists")
	fs.IntVar(&cfg.N, "n", 1000, "number of openings")
	fs.IntVar(&cfg.Plies, "plies", 8, "random plies of each opening (XOT: 8)")
	fs.IntVar(&cfg.Depth, "depth", 14, "depth of the search that values each candidate")
	fs.IntVar(&cfg.Selectivity, "sel", 5, "its Multi-ProbCut selectivity level (0: exact depth)")
	fs.Float64Var(&cfg.MaxAbs, "max-abs", 1, "keep the openings whose value is at most this many discs from even")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "random seed (the same seed and options give the same set)")
	fs.IntVar(&cfg.Workers, "workers", 2, "candidates searched at the same time")
	fs.IntVar(&cfg.TTMiB, "tt", 4, "tables of each candidate's search, MiB")
	evalName := fs.String("eval", "default", evalFlagHelp)
	setUsage(env, fs, "usage: othello openings [options]\n\nGenerates openings for match -openings: lines of random plies from the start position,\nno two reaching the same position up to symmetry, whose value by a search is near even\n(XOT's idea). Writes one transcript a line, and the distribution of the values on stderr.\nOptions:\n")
	if err := parseArgs(env, fs, args, 0, 0, ""); err != nil {
		return err
	}
	if err := cfg.Check(); err != nil {
		return usageError(fs, err)
	}
	if err := checkTableMemory(fmt.Sprintf("-tt %d with -workers %d", cfg.TTMiB, cfg.Workers), cfg.TableBytes()); err != nil {
		return err
	}
	if *out != "" {
		if err := checkWritable("-o", *out); err != nil {
			return err
		}
		if _, err := os.Stat(*out); err == nil && !*force {
			return exitError{2, fmt.Errorf("-o %s exists (-force replaces it)", *out)}
		}
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	cfg.Eval = ev.ev
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bar := newBar(env, cfg.N, "openings")
	start := time.Now()
	opens, st, err := match.GenerateOpenings(ctx, cfg, func() { bar.Add(1) })
	bar.Finish()
	fmt.Fprintln(env.stderr)
	match.WriteGenerateReport(env.stderr, opens, st)
	if err != nil {
		return fmt.Errorf("%v (%d openings found; nothing written)", err, len(opens))
	}
	header := []string{
		fmt.Sprintf("%d openings made by %s %s: othello openings -n %d -plies %d -depth %d -sel %d -max-abs %g -seed %d -eval %s",
			len(opens), EngineName, Version, cfg.N, cfg.Plies, cfg.Depth, cfg.Selectivity, cfg.MaxAbs, cfg.Seed, filepath.Base(*evalName)),
		"Each line: random plies from the start position (first move f5), no two reaching the same",
		"position up to symmetry, valued within the bound of even by the search named above.",
	}
	write := func(w io.Writer) error { return match.WriteOpenings(w, header, opens) }
	env.log.Info().Msgf("%d openings in %.1f s", len(opens), time.Since(start).Seconds())
	if *out == "" {
		return write(env.stdout)
	}
	return atomicfile.Write(*out, 0o644, write)
}
