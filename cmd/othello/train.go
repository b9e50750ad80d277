package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/atomicfile"
	"github.com/othellogo/othello/internal/bigmem"
	"github.com/othellogo/othello/train"
)

func cmdTrain(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "train")
	def := train.DefaultConfig()
	out := fs.String("o", "weights.gtw", "write the weights to this file")
	validation := fs.String("validation", "", "comma-separated game files held out for validation (e.g. .../WTH_2023.wtb); left out of training even when inside a training directory")
	plotPath := fs.String("plot", "", "PNG of the error curves (default: the -o path with .png)")
	logPath := fs.String("log", "", "CSV of the per-epoch errors (default: the -o path with .csv)")
	epochs := fs.Int("epochs", def.Epochs, "gradient-descent epochs per stage")
	rate := fs.Float64("rate", def.Rate, "step size (fraction of the diagonal-Newton step)")
	momentum := fs.Float64("momentum", def.Momentum, "heavy-ball momentum, 0 to <1")
	ridge := fs.Float64("ridge", def.Ridge, "L2 penalty, in positions (prior: unseen configurations are worth 0)")
	smooth := fs.Int("smooth", def.Smooth, "train each stage also on this many moves before and after it")
	backoff := fs.Bool("backoff", def.Backoff, "configurations unseen in a stage take the weight of the nearest stage that saw them")
	workers := fs.Int("workers", def.Workers, "goroutines")
	seed := fs.Uint64("seed", def.Seed, "random seed (order of the games between workers)")
	exact := fs.Int("exact", 12, "relabel the positions with at most this many empties by exact solves (0: off)")
	exactTT := fs.Int("exact-tt", 32, "transposition table of each relabelling solver, MiB")
	exactCache := fs.String("exact-cache", "", "file of the exact labels: read when it holds these games' solves at this depth, else written after solving (replacing only a cache of these games)")
	force := fs.Bool("force", false, "with -exact-cache: replace the file even when it is not a relabelling cache of these games")
	positions := fs.String("positions", "", "comma-separated files of labelled positions (othello label) to train on along with the games")
	posWeight := fs.Int("positions-weight", 1, "count each labelled position this many times")
	empBias := fs.Bool("empties-bias", false, "store the correction by number of empties (section "+eval.EmptiesBiasSection+") that zeroes the mean error on the training games")
	mobility := fs.Bool("mobility", false, "also fit the mobility features (legal moves of each side; the evaluation then counts them, about 25 ns more per call; the shipped weights have them)")
	potMobility := fs.Bool("potmobility", false, "with -mobility: also fit the potential mobility features (empty squares next to each side's discs)")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello train [options] PATH...\n\nFits the 15-stage pattern evaluation to the games of the PATHs (WTHOR .wtb files,\ntranscript .txt files with results, or directories of them) and writes a weight file.\nOptions:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitError{2, fmt.Errorf("want at least one PATH of training games")}
	}
	base := strings.TrimSuffix(*out, filepath.Ext(*out))
	if *plotPath == "" {
		*plotPath = base + ".png"
	}
	if *logPath == "" {
		*logPath = base + ".csv"
	}
	cfg := train.Config{Epochs: *epochs, Rate: *rate, Momentum: *momentum, Ridge: *ridge, Smooth: *smooth,
		Backoff: *backoff, Workers: *workers, Seed: *seed, Mobility: *mobility, PotMobility: *potMobility, PositionWeight: *posWeight}
	if err := cfg.Validate(); err != nil {
		return exitError{2, err}
	}
	if *exact < 0 || *exact > train.MaxExactDepth || *exactTT < 1 {
		return exitError{2, fmt.Errorf("exact %d, exact-tt %d: want 0 (off) to %d empties and a table of at least 1 MiB", *exact, *exactTT, train.MaxExactDepth)}
	}
	if *exact > 0 {
		// Each worker has a relabelling solver with a table of -exact-tt MiB.
		if err := checkTableMemory(fmt.Sprintf("-exact-tt %d with -workers %d", *exactTT, *workers), bigmem.MiB(*exactTT, max(*workers, 1))); err != nil {
			return err
		}
	}
	for _, o := range []struct{ flag, path string }{{"-o", *out}, {"-plot", *plotPath}, {"-log", *logPath}, {"-exact-cache", *exactCache}} {
		if err := checkWritable(o.flag, o.path); err != nil {
			return err
		}
	}
	var valPaths []string
	for _, v := range strings.Split(*validation, ",") {
		if v = strings.TrimSpace(v); v != "" {
			valPaths = append(valPaths, v)
		}
	}
	return usageIf(train.Train(train.RunOptions{Config: cfg, Paths: fs.Args(), Validation: valPaths, Out: *out, LogPath: *logPath, PlotPath: *plotPath,
		Exact: *exact, ExactTT: *exactTT, ExactCache: *exactCache, Force: *force, PositionFiles: *positions, EmptiesBias: *empBias,
		Log: env.log, NewBar: func(n int, what string) train.Bar { return newBar(env, n, what) }}, env.stdout))
}

// usageIf makes a package's InputError a usage error.
func usageIf(err error) error {
	if errors.As(err, &train.InputError{}) || errors.As(err, &endgame.InputError{}) {
		return exitError{2, err}
	}
	return err
}

// checkWritable refuses, before any work, an output path that could not be written when the
// work is done (atomicfile.CheckWritable). An empty path is no output.
func checkWritable(flag, path string) error {
	if path == "" {
		return nil
	}
	if err := atomicfile.CheckWritable(path); err != nil {
		return exitError{2, fmt.Errorf("%s %s: cannot write there: %v", flag, path, err)}
	}
	return nil
}

func cmdEval(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "eval")
	weightsPath := fs.String("weights", "", "weight file (default: the embedded weights)")
	position := fs.String("position", "", "evaluate this position: 64 board characters and the side to move (obf form), quoted")
	moves := fs.String("moves", "", "then play this transcript (e.g. f5d6c3)")
	games := fs.String("games", "", "instead, measure the evaluation's error on the games of these comma-separated files or directories")
	positions := fs.String("positions", "", "instead, measure the evaluation's error against labelled positions (othello label's files, comma-separated)")
	info := fs.Bool("info", false, "print the training summary stored in the weight file and stop")
	exact := fs.Int("exact", 12, "with -games: label the positions with at most this many empties by exact solves, as train does (0: off)")
	fitBias := fs.String("fit-bias", "", "with -games: write the weights to this file with the correction by number of empties (section "+eval.EmptiesBiasSection+") that makes their mean error on the games zero")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello eval [options]\n\nPrints the static evaluation of a position (the start position by default), or with\n-games the evaluation's error per stage against the games' labels (-positions: against\nlabelled positions). Options:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitError{2, fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	if err := checkWritable("-fit-bias", *fitBias); err != nil {
		return err
	}
	e, err := eval.ByName(*weightsPath)
	if err == nil && e == nil {
		err = fmt.Errorf("-weights %s: want a weight file", *weightsPath)
	}
	if err != nil {
		return err
	}
	if *info {
		summary, err := train.Summary(e)
		if err != nil {
			return err
		}
		env.stdout.Write(summary)
		return nil
	}
	if *games != "" {
		return usageIf(train.EvaluateGames(env.stdout, e, strings.Split(*games, ","), *exact, *weightsPath, *fitBias))
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
