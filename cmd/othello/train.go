package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/othellogo/othello/eval"
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
	for _, o := range []struct{ flag, path string }{{"-o", *out}, {"-plot", *plotPath}, {"-log", *logPath}, {"-exact-cache", *exactCache}} {
		if err := checkWritable(o.flag, o.path); err != nil {
			return err
		}
	}
	start := time.Now()

	exclude := map[string]bool{}
	var valPaths []string
	for _, v := range strings.Split(*validation, ",") {
		if v = strings.TrimSpace(v); v != "" {
			valPaths = append(valPaths, v)
			exclude[filepath.Base(v)] = true
		}
	}
	logFile := func(file string, st train.LoadStats) {
		env.log.Debug().Str("file", file).Int("used", st.Used).Int("unfinished", st.Unfinished).Int("illegal", st.Illegal).Msg("games")
	}
	games, st, err := train.LoadGames(fs.Args(), exclude, logFile)
	if err != nil {
		return err
	}
	env.log.Info().Msgf("training games: %v", st)
	var val []train.Game
	if len(valPaths) > 0 {
		var vst train.LoadStats
		val, vst, err = train.LoadGames(valPaths, nil, logFile)
		if err != nil {
			return err
		}
		env.log.Info().Msgf("validation games: %v", vst)
	}
	if len(games) == 0 {
		return fmt.Errorf("no usable training games in %v", fs.Args())
	}
	if *exact > 0 {
		all := append(games, val...)
		cached := false
		if *exactCache != "" {
			var replaceable bool
			cached, replaceable, err = train.ReadRelabelCacheFile(*exactCache, all, *exact)
			switch {
			case cached:
				env.log.Info().Msgf("exact labels of %d games read from %s", len(all), *exactCache)
			case !replaceable && !*force:
				return exitError{2, fmt.Errorf("-exact-cache %s: %v; it is not overwritten: name another file, or add -force to replace it", *exactCache, err)}
			case err != nil:
				env.log.Warn().Msgf("%s: %v; solving again (the file is then replaced)", *exactCache, err)
			}
		}
		if !cached {
			rbar := newBar(env, len(all), "exact solves")
			t0 := time.Now()
			if err := train.Relabel(all, *exact, cfg.Workers, *exactTT, func() { rbar.Add(1) }); err != nil {
				return err
			}
			rbar.Finish()
			env.log.Info().Msgf("relabelled the last %d empties of %d games by exact solves in %s", *exact, len(all), time.Since(t0).Round(time.Second))
			if *exactCache != "" {
				if err := train.WriteRelabelCacheFile(*exactCache, all, *exact); err != nil {
					return fmt.Errorf("exact cache: %v", err)
				}
			}
		}
		copy(games, all[:len(games)])
		copy(val, all[len(games):])
	}

	ps, err := readPositionFiles(env, *positions)
	if err != nil {
		return err
	}
	cfg.Positions = ps

	bar := newBar(env, eval.NumStages*cfg.Epochs, "training")
	res, err := train.Fit(games, val, cfg, func(e train.EpochStats) {
		bar.Describe(fmt.Sprintf("stage %2d train %.2f val %.2f", e.Stage, e.TrainMAE, e.ValMAE))
		bar.Add(1)
		ev := env.log.Debug()
		if e.Epoch == cfg.Epochs {
			ev = env.log.Info()
		}
		ev.Int("stage", e.Stage).Int("epoch", e.Epoch).Float64("train_mae", e.TrainMAE).Float64("train_rmse", e.TrainRMSE).Float64("val_mae", e.ValMAE).Msg("epoch")
	})
	bar.Finish()
	if err != nil {
		return err
	}
	run := train.Run{Config: cfg, Exact: *exact, Games: st, Paths: fs.Args(), Positions: *positions, Validation: valPaths, FitTime: time.Since(start)}
	summary, err := train.WriteWeights(*out, res, games, val, *empBias, run)
	if err != nil {
		return err
	}
	if err := train.WriteLog(*logPath, res.Log); err != nil {
		return err
	}
	if err := train.Plot(res.Log, *plotPath); err != nil {
		return fmt.Errorf("plot %s: %v", *plotPath, err)
	}
	fi, _ := os.Stat(*out)
	env.stdout.Write(summary)
	fmt.Fprintf(env.stdout, "wrote %s (%d bytes), %s, %s; total time %s\n", *out, fi.Size(), *logPath, *plotPath, time.Since(start).Round(time.Second))
	return nil
}

// checkWritable refuses, before any work, an output path that could not be written when the
// work is done. Every output is replaced by a rename (internal/atomicfile), so what matters is
// that the path is not a directory and that its directory takes a new file (one is created
// and removed again); the file itself need not be writable. An empty path is no output.
func checkWritable(flag, path string) error {
	if path == "" {
		return nil
	}
	fail := func(err error) error {
		return exitError{2, fmt.Errorf("%s %s: cannot write there: %v", flag, path, err)}
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fail(fmt.Errorf("it is a directory"))
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".othello-write-check-*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("directory %s: %v", dir, pe.Err)
		}
		return fail(err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// readPositionFiles reads labelled positions (othello label's files) from a comma-separated
// list of paths.
func readPositionFiles(env *cmdEnv, list string) ([]train.Position, error) {
	ps, err := train.ReadPositionFiles(strings.Split(list, ","), func(path string, n int) {
		env.log.Info().Msgf("%d labelled positions from %s", n, path)
	})
	if err != nil {
		return nil, exitError{2, err}
	}
	return ps, nil
}

// loadWeightsFile returns the evaluator of a weight file, or the embedded one for "".
func loadWeightsFile(path string) (*eval.Evaluator, error) {
	if path == "" {
		return eval.Default()
	}
	return eval.Load(path)
}

// writeEmptiesBias writes the weights of path (the embedded ones when empty) to out with the
// correction by number of empties that zeroes the mean error of e on games, on top of any
// correction the weights have, and prints it.
func writeEmptiesBias(env *cmdEnv, path string, e *eval.Evaluator, games []train.Game, out string) error {
	total, n := train.TotalEmptiesBias(e, games)
	fmt.Fprintf(env.stdout, "correction by empties (discs; positions):")
	for k := 60; k >= 0; k-- {
		if k%6 == 0 {
			fmt.Fprintln(env.stdout)
		}
		fmt.Fprintf(env.stdout, " %2d:%+.2f (%d)", k, total[k], n[k])
	}
	fmt.Fprintln(env.stdout)
	if err := train.WriteEmptiesBias(path, out, total); err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "wrote %s\n", out)
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
	e, err := loadWeightsFile(*weightsPath)
	if err != nil {
		return err
	}
	if *info {
		summary, ok := e.Section("TRN1")
		if !ok {
			return fmt.Errorf("the weight file has no training summary (section TRN1)")
		}
		env.stdout.Write(summary)
		return nil
	}
	if *games != "" {
		g, st, err := train.LoadGames(strings.Split(*games, ","), nil, nil)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "%v\n", st)
		if *exact > 0 {
			if err := train.Relabel(g, *exact, 2, 32, nil); err != nil {
				return exitError{2, err}
			}
			fmt.Fprintf(env.stdout, "labels: exact scores from %d empties on\n", *exact)
		}
		rep := train.Evaluate(e, g)
		rep.Write(env.stdout)
		if *fitBias != "" {
			return writeEmptiesBias(env, *weightsPath, e, g, *fitBias)
		}
		return nil
	}
	if *fitBias != "" {
		return exitError{2, fmt.Errorf("-fit-bias needs -games")}
	}
	if *positions != "" {
		ps, err := readPositionFiles(env, *positions)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.stdout, "%d labelled positions\n", len(ps))
		rep := train.EvaluatePositions(e, ps)
		rep.Write(env.stdout)
		return nil
	}
	b, err := positionFromFlags(*position, *moves)
	if err != nil {
		return exitError{2, err}
	}
	fmt.Fprint(env.stdout, b.Diagram())
	v := e.Eval(&b)
	fmt.Fprintf(env.stdout, "stage %d, evaluation %+d (%+.2f discs for %s)\n", eval.Stage(b.NumEmpties()), v, float64(v)/eval.Scale, b.SideName())
	return nil
}
