package main

import (
	"cmp"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/train"
)

func cmdTrain(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "train")
	o := train.RunOptions{Config: train.DefaultConfig(), Log: env.log, NewBar: func(n int, what string) train.Bar { return newBar(env, n, what) }}
	fs.StringVar(&o.Out, "o", "weights.gtw", "write the weights to this file")
	validation := fs.String("validation", "", "comma-separated game files held out for validation (e.g. .../WTH_2023.wtb); left out of training even when inside a training directory")
	fs.StringVar(&o.PlotPath, "plot", "", "PNG of the error curves (default: the -o path with .png)")
	fs.StringVar(&o.LogPath, "log", "", "CSV of the per-epoch errors (default: the -o path with .csv)")
	fs.IntVar(&o.Epochs, "epochs", o.Epochs, "gradient-descent epochs per stage")
	fs.Float64Var(&o.Rate, "rate", o.Rate, "step size (fraction of the diagonal-Newton step)")
	fs.Float64Var(&o.Momentum, "momentum", o.Momentum, "heavy-ball momentum, 0 to <1")
	fs.Float64Var(&o.Ridge, "ridge", o.Ridge, "L2 penalty, in positions (prior: unseen configurations are worth 0)")
	fs.IntVar(&o.Smooth, "smooth", o.Smooth, "train each stage also on this many moves before and after it")
	fs.BoolVar(&o.Backoff, "backoff", o.Backoff, "configurations unseen in a stage take the weight of the nearest stage that saw them")
	fs.IntVar(&o.Workers, "workers", o.Workers, "goroutines")
	fs.Uint64Var(&o.Seed, "seed", o.Seed, "random seed (order of the games between workers)")
	fs.IntVar(&o.Exact, "exact", 12, "relabel the positions with at most this many empties by exact solves (0: off)")
	fs.IntVar(&o.ExactTT, "exact-tt", 32, "transposition table of each relabelling solver, MiB")
	fs.StringVar(&o.ExactCache, "exact-cache", "", "file of the exact labels: read when it holds these games' solves at this depth, else written after solving (replacing only a cache of these games)")
	fs.BoolVar(&o.Force, "force", false, "with -exact-cache: replace the file even when it is not a relabelling cache of these games")
	fs.StringVar(&o.PositionFiles, "positions", "", "comma-separated files of labelled positions (othello label) to train on along with the games")
	fs.IntVar(&o.PositionWeight, "positions-weight", 1, "count each labelled position this many times")
	fs.BoolVar(&o.EmptiesBias, "empties-bias", false, "store the correction by number of empties (section "+eval.EmptiesBiasSection+") that zeroes the mean error on the training games")
	fs.BoolVar(&o.Mobility, "mobility", false, "also fit the mobility features (legal moves of each side; the evaluation then counts them, about 25 ns more per call; the shipped weights have them)")
	fs.BoolVar(&o.Interpolate, "interpolate", false, "fit all stages at once for the evaluation interpolated between stages (section "+eval.InterpSection+", which the file gets), each position's error shared by the two stages it blends; -smooth is not used; refit the Multi-ProbCut statistics after (othello mpcfit -eval FILE -store FILE)")
	fs.BoolVar(&o.PotMobility, "potmobility", false, "with -mobility: also fit the potential mobility features (empty squares next to each side's discs)")
	setUsage(env, fs, "usage: othello train [options] PATH...\n\nFits the 15-stage pattern evaluation to the games of the PATHs (WTHOR .wtb files,\ntranscript .txt files with results, GGF .ggf files, or directories of them) and writes a weight file.\nOptions:\n")
	if err := parseArgs(env, fs, args, 1, -1, "want at least one PATH of training games"); err != nil {
		return err
	}
	base := strings.TrimSuffix(o.Out, filepath.Ext(o.Out))
	o.PlotPath, o.LogPath, o.Paths = cmp.Or(o.PlotPath, base+".png"), cmp.Or(o.LogPath, base+".csv"), fs.Args()
	if err := o.Check(); err != nil {
		return exitError{2, err}
	}
	// Each worker has a relabelling solver with a table of -exact-tt MiB.
	if err := checkTableMemory(fmt.Sprintf("-exact-tt %d with -workers %d", o.ExactTT, o.Workers), o.ExactTableBytes()); err != nil {
		return err
	}
	for _, f := range []struct{ flag, path string }{{"-o", o.Out}, {"-plot", o.PlotPath}, {"-log", o.LogPath}, {"-exact-cache", o.ExactCache}} {
		if err := checkWritable(f.flag, f.path); err != nil {
			return err
		}
	}
	for _, v := range strings.Split(*validation, ",") {
		if v = strings.TrimSpace(v); v != "" {
			o.Validation = append(o.Validation, v)
		}
	}
	return usageIf(train.Train(o, env.stdout))
}

func cmdEval(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "eval")
	evalName := fs.String("eval", "default", "weights: default (the built-in trained weights) or a weights file")
	oldName := fs.String("weights", "", "the same as -eval (deprecated)")
	position := fs.String("position", "", "evaluate this position: 64 board characters and the side to move (obf form), quoted")
	moves := fs.String("moves", "", "then play this transcript (e.g. f5d6c3)")
	games := fs.String("games", "", "instead, measure the evaluation's error on the games of these comma-separated files or directories")
	positions := fs.String("positions", "", "instead, measure the evaluation's error against labelled positions (othello label's files, comma-separated)")
	info := fs.Bool("info", false, "print the training summary stored in the weight file and stop")
	exact := fs.Int("exact", 12, "with -games: label the positions with at most this many empties by exact solves, as train does (0: off)")
	fitBias := fs.String("fit-bias", "", "with -games: write the weights to this file with the correction by number of empties (section "+eval.EmptiesBiasSection+") that makes their mean error on the games zero")
	interp := fs.String("interpolate", "", "write the weights to this file with the section ("+eval.InterpSection+") that blends the two nearest stages by number of empties; refit its Multi-ProbCut statistics after (othello mpcfit -eval FILE -store FILE)")
	setUsage(env, fs, "usage: othello eval [options]\n\nPrints the static evaluation of a position (the start position by default), or with\n-games the evaluation's error per stage against the games' labels (-positions: against\nlabelled positions). Options:\n")
	if err := parseArgs(env, fs, args, 0, 0, ""); err != nil {
		return err
	}
	if err := checkWritable("-fit-bias", *fitBias); err != nil {
		return err
	}
	if err := checkOutput("-interpolate", *interp, *evalName, *oldName); err != nil {
		return err
	}
	if *oldName != "" {
		evalGiven := false
		fs.Visit(func(f *flag.Flag) { evalGiven = evalGiven || f.Name == "eval" })
		if evalGiven && *evalName != *oldName {
			return usageError(fs, fmt.Errorf("-eval %s and -weights %s: give one (-weights is the old name of -eval)", *evalName, *oldName))
		}
		*evalName = *oldName
	}
	e, err := eval.ByName(*evalName)
	if err == nil && e == nil {
		err = fmt.Errorf("-eval %s: want default or a weight file (the mobility evaluation has no weights to measure)", *evalName)
	}
	if err != nil {
		return err
	}
	weightsPath := *evalName // the file -fit-bias copies, "" for the built-in weights
	if weightsPath == "default" {
		weightsPath = ""
	}
	if *info {
		summary, err := train.Summary(e)
		if err != nil {
			return err
		}
		env.stdout.Write(summary)
		return nil
	}
	if *interp != "" {
		if *games != "" || *positions != "" || *fitBias != "" {
			return usageError(fs, fmt.Errorf("-interpolate writes a file: give it without -games, -positions and -fit-bias"))
		}
		if err := train.WriteWithSection(weightsPath, *interp, eval.InterpSection, nil); err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "wrote %s; its Multi-ProbCut statistics were fitted without interpolation: othello mpcfit -eval %s -store %s\n", *interp, *interp, *interp)
		return nil
	}
	if *games != "" {
		return usageIf(train.EvaluateGames(env.stdout, e, strings.Split(*games, ","), *exact, weightsPath, *fitBias))
	}
	if *fitBias != "" {
		return exitError{2, fmt.Errorf("-fit-bias needs -games")}
	}
	if *positions != "" {
		return usageIf(train.EvaluatePositionFiles(env.stdout, e, strings.Split(*positions, ","), env.log))
	}
	b, err := board.ParsePosition(*position, *moves)
	if err != nil {
		return exitError{2, err}
	}
	fmt.Fprint(env.stdout, b.Diagram())
	v := e.Eval(&b)
	fmt.Fprintf(env.stdout, "stage %d, evaluation %+d (%+.2f discs for %s)\n", eval.Stage(b.NumEmpties()), v, float64(v)/eval.Scale, b.SideName())
	return nil
}
