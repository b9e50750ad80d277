package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/othellogo/othello/internal/atomicfile"
	"github.com/othellogo/othello/search"
	"github.com/othellogo/othello/train"
)

// cmdMpcfit fits the Multi-ProbCut regressions of an evaluation: positions from openings
// continued by quick engine play (with some random moves for variety) are searched by
// iterative deepening, and the root values at each height are regressed on the shallow ones.
func cmdMpcfit(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "mpcfit")
	var o train.MPCFitOptions
	fs.StringVar(&o.Openings, "openings", "", "file of opening transcripts (XOT style) to sample positions from")
	fs.StringVar(&o.Positions, "positions", "", "take the positions from this file (.obf-style lines, as othello label writes) instead of sampling them from -openings")
	fs.IntVar(&o.N, "n", 600, "number of positions")
	fs.IntVar(&o.MaxHeight, "depth", 10, "deepest height fitted")
	evalName := fs.String("eval", "default", evalFlagHelp)
	out := fs.String("out", "", "write the regressions here (default: stdout)")
	store := fs.String("store", "", "also store the regressions in this weight file (section "+search.MPCSection+"), where the engine looks for them")
	from := fs.String("from", "", "take the regressions from this text file (as -out writes) instead of fitting; use with -store")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the position sampling")
	fs.IntVar(&o.Workers, "concurrency", 1, "positions searched at the same time")
	fs.IntVar(&o.MinSamples, "min-samples", 30, "fewest samples for a (stage, height) regression")
	setUsage(env, fs, "usage: othello mpcfit -openings FILE [options]\n\nFits the Multi-ProbCut regressions (value at height h ~ a * value at the shallow height + b)\nper game stage, and writes them as text (search.WriteMPC); -store puts them in a weight file.\nOptions:\n")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if err := checkWritable("-store", *store); err != nil {
		return err
	}
	if err := checkWritable("-out", *out); err != nil {
		return err
	}
	if *from != "" {
		if fs.NArg() != 0 || *store == "" {
			return exitError{2, fmt.Errorf("-from needs -store and no arguments")}
		}
		data, err := os.ReadFile(*from)
		if err != nil {
			return exitError{2, err}
		}
		if _, err := search.ParseMPC(bytes.NewReader(data)); err != nil {
			return exitError{2, fmt.Errorf("%s: %v", *from, err)}
		}
		return train.StoreMPC(*store, data)
	}
	if (o.Openings == "") == (o.Positions == "") || fs.NArg() != 0 {
		return usageError(fs, fmt.Errorf("want one of -openings FILE and -positions FILE, and no arguments"))
	}
	if err := o.Check(); err != nil {
		return exitError{2, err}
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	o.Eval, o.EvalName = ev.ev, ev.name
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	text, fitted, err := train.FitMPCText(ctx, o, func(n int, what string) train.Bar { return newBar(env, n, what) })
	if err != nil {
		return usageIf(err)
	}
	env.log.Info().Int("positions", fitted).Msg("mpcfit: fitted")
	if *store != "" {
		if err := train.StoreMPC(*store, text); err != nil {
			return err
		}
	}
	if *out != "" {
		return atomicfile.WriteFile(*out, text, 0o644)
	}
	_, err = env.stdout.Write(text)
	return err
}
