package train

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/bigmem"
	"github.com/othellogo/othello/search"
	"github.com/rs/zerolog"
)

// A training run as the program runs it: games loaded, relabelled (through the cache),
// fitted, and the weights, log and plot written; and the evaluation of weights on games.

// InputError is an error in what a run was given (a file it cannot use as asked) rather than
// a failure of the work; a command reports it as a usage error.
type InputError struct{ Err error }

func (e InputError) Error() string { return e.Err.Error() }
func (e InputError) Unwrap() error { return e.Err }

// Bar shows the progress of a long step (a progress bar).
type Bar interface {
	Add(n int) error
	Describe(text string)
	Finish() error
}

// RunOptions are the settings of a training run.
type RunOptions struct {
	Config
	Paths      []string // training games: files or directories
	Validation []string // validation game files, left out of the training games
	Out        string   // weight file
	LogPath    string   // CSV of the per-epoch errors
	PlotPath   string   // plot of the per-epoch errors
	Exact      int      // relabel from this many empties by exact solves (0: off)
	ExactTT    int      // table of each relabelling solver, MiB
	// ExactCache, when not "", is the file of the exact labels: read when it holds these
	// games' solves at this depth, else written after solving, replacing only a cache of
	// these games unless Force.
	ExactCache    string
	Force         bool
	PositionFiles string // comma-separated files of labelled positions to train on too
	EmptiesBias   bool   // store the correction by number of empties

	Log    zerolog.Logger
	NewBar func(n int, what string) Bar // nil: no progress shown
}

type noBar struct{}

func (noBar) Add(int) error   { return nil }
func (noBar) Describe(string) {}
func (noBar) Finish() error   { return nil }
func (o RunOptions) bar(n int, what string) Bar {
	if o.NewBar == nil {
		return noBar{}
	}
	return o.NewBar(n, what)
}

// Check refuses, before any work, a run that cannot be made: the configuration's settings
// (Validate), then a relabelling depth outside 0-MaxExactDepth or a table below 1 MiB.
func (o RunOptions) Check() error {
	if err := o.Config.Validate(); err != nil {
		return err
	}
	if o.Exact < 0 || o.Exact > MaxExactDepth || o.ExactTT < 1 {
		return fmt.Errorf("exact %d, exact-tt %d: want 0 (off) to %d empties and a table of at least 1 MiB", o.Exact, o.ExactTT, MaxExactDepth)
	}
	return nil
}

// ExactTableBytes is the memory of the relabelling solvers' tables (one per worker; none
// without relabelling), for a check at start-up.
func (o RunOptions) ExactTableBytes() uint64 {
	if o.Exact <= 0 {
		return 0
	}
	return bigmem.MiB(o.ExactTT, max(o.Workers, 1))
}

// Train runs the training and writes its files; it prints the training summary and the files
// written to w.
func Train(o RunOptions, w io.Writer) error {
	start := time.Now()
	exclude := map[string]bool{}
	for _, v := range o.Validation {
		exclude[filepath.Base(v)] = true
	}
	logFile := func(file string, st LoadStats) {
		o.Log.Debug().Str("file", file).Int("used", st.Used).Int("unfinished", st.Unfinished).Int("illegal", st.Illegal).Msg("games")
	}
	games, st, err := LoadGames(o.Paths, exclude, logFile)
	if err != nil {
		return err
	}
	o.Log.Info().Msgf("training games: %v", st)
	var val []Game
	if len(o.Validation) > 0 {
		var vst LoadStats
		val, vst, err = LoadGames(o.Validation, nil, logFile)
		if err != nil {
			return err
		}
		o.Log.Info().Msgf("validation games: %v", vst)
	}
	if len(games) == 0 {
		return fmt.Errorf("no usable training games in %v", o.Paths)
	}
	if o.Exact > 0 {
		all := append(games, val...)
		if err := o.relabel(all); err != nil {
			return err
		}
		copy(games, all[:len(games)])
		copy(val, all[len(games):])
	}
	cfg := o.Config
	cfg.Positions, err = ReadPositionFiles(strings.Split(o.PositionFiles, ","), func(path string, n int) {
		o.Log.Info().Msgf("%d labelled positions from %s", n, path)
	})
	if err != nil {
		return InputError{err}
	}
	steps := eval.NumStages * cfg.Epochs
	if cfg.Interpolate {
		steps = cfg.Epochs // one log entry an epoch, over all stages
	}
	bar := o.bar(steps, "training")
	res, err := Fit(games, val, cfg, func(e EpochStats) {
		bar.Describe(epochText(e))
		bar.Add(1)
		ev := o.Log.Debug()
		if e.Epoch == cfg.Epochs {
			ev = o.Log.Info()
		}
		ev = ev.Int("stage", e.Stage).Int("epoch", e.Epoch).Float64("train_mae", e.TrainMAE).Float64("train_rmse", e.TrainRMSE)
		if !math.IsNaN(e.ValMAE) {
			ev = ev.Float64("val_mae", e.ValMAE)
		}
		ev.Msg("epoch")
	})
	bar.Finish()
	if err != nil {
		return err
	}
	run := Run{Config: cfg, Exact: o.Exact, Games: st, Paths: o.Paths, Positions: o.PositionFiles, Validation: o.Validation, FitTime: time.Since(start)}
	summary, err := WriteWeights(o.Out, res, games, val, o.EmptiesBias, run)
	if err != nil {
		return err
	}
	if err := WriteLog(o.LogPath, res.Log); err != nil {
		return err
	}
	if err := Plot(res.Log, o.PlotPath); err != nil {
		return fmt.Errorf("plot %s: %v", o.PlotPath, err)
	}
	fi, _ := os.Stat(o.Out)
	w.Write(summary)
	fmt.Fprintf(w, "wrote %s (%d bytes), %s, %s; total time %s\n", o.Out, fi.Size(), o.LogPath, o.PlotPath, time.Since(start).Round(time.Second))
	return nil
}

// relabel gives the games exact labels from o.Exact empties, from the cache file when it has
// them, else by solving (and then writing the cache).
func (o RunOptions) relabel(all []Game) error {
	cached := false
	if o.ExactCache != "" {
		var replaceable bool
		var err error
		cached, replaceable, err = ReadRelabelCacheFile(o.ExactCache, all, o.Exact)
		switch {
		case cached:
			o.Log.Info().Msgf("exact labels of %d games read from %s", len(all), o.ExactCache)
		case !replaceable && !o.Force:
			return InputError{fmt.Errorf("-exact-cache %s: %v; it is not overwritten: name another file, or add -force to replace it", o.ExactCache, err)}
		case err != nil:
			o.Log.Warn().Msgf("%s: %v; solving again (the file is then replaced)", o.ExactCache, err)
		}
	}
	if cached {
		return nil
	}
	bar := o.bar(len(all), "exact solves")
	t0 := time.Now()
	if err := Relabel(all, o.Exact, o.Workers, o.ExactTT, func() { bar.Add(1) }); err != nil {
		return err
	}
	bar.Finish()
	o.Log.Info().Msgf("relabelled the last %d empties of %d games by exact solves in %s", o.Exact, len(all), time.Since(t0).Round(time.Second))
	if o.ExactCache != "" {
		if err := WriteRelabelCacheFile(o.ExactCache, all, o.Exact); err != nil {
			return fmt.Errorf("exact cache: %v", err)
		}
	}
	return nil
}

// EvaluateGames prints to w the error of e per stage on the games of paths, labelled by exact
// solves from exact empties (0: the games' own results). With fitOut not "", it then writes
// the weights of the file src (the embedded ones when "") to fitOut with the correction by
// number of empties that zeroes the mean error on the games (FitEmptiesBias).
func EvaluateGames(w io.Writer, e *eval.Evaluator, paths []string, exact int, src, fitOut string) error {
	g, st, err := LoadGames(paths, nil, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%v\n", st)
	if exact > 0 {
		if err := Relabel(g, exact, 2, 32, nil); err != nil {
			return InputError{err}
		}
		fmt.Fprintf(w, "labels: exact scores from %d empties on\n", exact)
	}
	rep := Evaluate(e, g)
	rep.Write(w)
	if fitOut != "" {
		return FitEmptiesBias(w, src, e, g, fitOut)
	}
	return nil
}

// FitEmptiesBias writes the weights of src (the embedded ones when "") to out with the
// correction by number of empties that zeroes the mean error of e on games, on top of any
// correction the weights have (TotalEmptiesBias), and prints the correction to w.
func FitEmptiesBias(w io.Writer, src string, e *eval.Evaluator, games []Game, out string) error {
	total, n := TotalEmptiesBias(e, games)
	fmt.Fprintf(w, "correction by empties (discs; positions):")
	for k := 60; k >= 0; k-- {
		if k%6 == 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, " %2d:%+.2f (%d)", k, total[k], n[k])
	}
	fmt.Fprintln(w)
	if err := WriteEmptiesBias(src, out, total); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s\n", out)
	return nil
}

// EvaluatePositionFiles prints to w the error of e per stage against the labelled positions
// of the files (ReadPositionFiles, naming each file and its count in log); an unreadable
// file is an InputError.
func EvaluatePositionFiles(w io.Writer, e *eval.Evaluator, paths []string, log zerolog.Logger) error {
	ps, err := ReadPositionFiles(paths, func(path string, n int) {
		log.Info().Msgf("%d labelled positions from %s", n, path)
	})
	if err != nil {
		return InputError{err}
	}
	fmt.Fprintf(w, "%d labelled positions\n", len(ps))
	rep := EvaluatePositions(e, ps)
	rep.Write(w)
	return nil
}

// epochText is the progress bar's description of an epoch; without validation games there
// is no validation error to show.
func epochText(e EpochStats) string {
	what := fmt.Sprintf("stage %2d", e.Stage)
	if e.Stage < 0 {
		what = fmt.Sprintf("epoch %2d", e.Epoch)
	}
	if math.IsNaN(e.ValMAE) {
		return fmt.Sprintf("%s train %.2f", what, e.TrainMAE)
	}
	return fmt.Sprintf("%s train %.2f val %.2f", what, e.TrainMAE, e.ValMAE)
}

// Summary returns the training summary stored in the weights (section TRN1). Files written
// before the summary stored base names only name the training machine's absolute paths:
// those are shown by their last element.
func Summary(e *eval.Evaluator) ([]byte, error) {
	summary, ok := e.Section("TRN1")
	if !ok {
		return nil, errors.New("the weight file has no training summary (section TRN1)")
	}
	return absPath.ReplaceAll(summary, []byte("$1$2")), nil
}

// absPath matches an absolute path (Unix or Windows) starting a word of a summary; its
// groups are what precedes the path and the path's last element.
var absPath = regexp.MustCompile(`(^|[\s\[,(])(?:[A-Za-z]:)?[/\\](?:[^\s,\[\]()/\\]*[/\\])*([^\s,\[\]()/\\]*)`)

// MPCFitOptions are the settings of FitMPCText.
type MPCFitOptions struct {
	Openings   string // file of opening transcripts to sample positions from, or
	Positions  string // file of positions (.obf-style lines) to take instead
	N          int    // number of positions
	MaxHeight  int    // deepest height fitted
	Seed       uint64 // of the sampling
	Workers    int    // positions searched at the same time
	MinSamples int    // fewest samples for a (stage, height) regression
	Eval       *eval.Evaluator
	EvalName   string // written in the regressions' header
}

// Check refuses fewer than one position, a deepest height outside 2-16 and fewer than one
// worker.
func (o MPCFitOptions) Check() error {
	if o.N < 1 || o.MaxHeight < 2 || o.MaxHeight > 16 || o.Workers < 1 {
		return fmt.Errorf("want n >= 1, depth 2-16, concurrency >= 1")
	}
	return nil
}

// FitMPCText fits the Multi-ProbCut regressions of the evaluation on positions read or
// sampled (ReadMPCPositions, SampleMPCPositions, MPCSamples, search.FitMPC) and returns
// their text (search.WriteMPC) and the number of positions fitted. A cancelled ctx fits what
// was searched. Errors in the files are InputErrors.
func FitMPCText(ctx context.Context, o MPCFitOptions, newBar func(n int, what string) Bar) ([]byte, int, error) {
	cfg := search.Config{TTMiB: 16, NoMPC: true, Eval: o.Eval}
	var positions []board.Board
	if o.Positions != "" {
		var err error
		if positions, err = ReadMPCPositions(o.Positions, o.N, o.MaxHeight); err != nil {
			return nil, 0, InputError{err}
		}
	} else {
		f, err := os.Open(o.Openings)
		if err != nil {
			return nil, 0, InputError{err}
		}
		opens, err := ReadOpenings(f, 0, 0)
		f.Close()
		if err != nil {
			return nil, 0, InputError{fmt.Errorf("%s: %v", o.Openings, err)}
		}
		if len(opens) == 0 {
			return nil, 0, InputError{fmt.Errorf("%s: no openings", o.Openings)}
		}
		positions = SampleMPCPositions(cfg, opens, o.N, o.MaxHeight, o.Seed)
	}
	bar := RunOptions{NewBar: newBar}.bar(len(positions), "mpcfit")
	good := MPCSamples(ctx, cfg, positions, o.MaxHeight, o.Workers, func() { bar.Add(1) })
	bar.Finish()
	params := search.FitMPC(o.EvalName, good, o.MinSamples)
	var text bytes.Buffer
	if err := search.WriteMPC(&text, params); err != nil {
		return nil, 0, err
	}
	return text.Bytes(), len(good), nil
}

// Check refuses settings the labelling cannot run with: fewer than one position, worker or
// MiB of tables, or a negative first position.
func (c LabelConfig) Check() error {
	if c.Positions < 1 || c.Workers < 1 || c.TTMiB < 1 || c.First < 0 {
		return fmt.Errorf("want n, workers and tt >= 1 and from >= 0")
	}
	return nil
}

// TableBytes is the memory of the labelling engines' tables: each worker's engine has bounds
// and solver tables of TTMiB each.
func (c LabelConfig) TableBytes() uint64 {
	return bigmem.Times(search.TableBytes(search.Config{TTMiB: c.TTMiB, SolverMiB: c.TTMiB}), max(c.Workers, 1))
}

// LabelFile labels positions drawn from the games (SearchLabels) and writes them to the file
// out, then prints what it wrote to w. A cancelled ctx (Ctrl-C) writes the positions labelled
// so far and returns an error saying how to label the rest.
func LabelFile(ctx context.Context, games []Game, cfg LabelConfig, out string, w io.Writer, bar Bar) error {
	if bar == nil {
		bar = noBar{}
	}
	start := time.Now()
	ps, err := SearchLabels(ctx, games, cfg, func() { bar.Add(1) })
	interrupted := ctx.Err() != nil
	if e, ok := bar.(interface{ Exit() error }); ok && interrupted {
		e.Exit() // where it stopped, not 100%
	} else {
		bar.Finish()
	}
	if err != nil && !interrupted {
		return err
	}
	if interrupted && len(ps) == 0 {
		return fmt.Errorf("interrupted before any position was labelled")
	}
	if err := WritePositionsFile(out, ps); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %d positions to %s in %s\n", len(ps), out, time.Since(start).Round(time.Second))
	if interrupted {
		return fmt.Errorf("interrupted: the file holds the first %d positions; -from %d -n %d labels the rest", len(ps), cfg.First+len(ps), cfg.Positions-len(ps))
	}
	return nil
}
