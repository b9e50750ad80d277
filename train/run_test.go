package train

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/weights"
	"github.com/rs/zerolog"
)

// countBar counts what a run shows on its progress bars; the workers add from their own
// goroutines, as progress bars allow.
type countBar struct{ n *atomic.Int64 }

func (b countBar) Add(n int) error { b.n.Add(int64(n)); return nil }
func (b countBar) Describe(string) {}
func (b countBar) Finish() error   { return nil }

func tinyRun(dir string, log *bytes.Buffer) RunOptions {
	cfg := DefaultConfig()
	cfg.Epochs = 1
	return RunOptions{Config: cfg, Paths: []string{filepath.Join("testdata", "selfplay_30.txt")}, Out: filepath.Join(dir, "w.gtw"),
		LogPath: filepath.Join(dir, "w.csv"), PlotPath: filepath.Join(dir, "w.png"), ExactTT: 1, Log: zerolog.New(log)}
}

// A tiny training run: validation games held out and reported, the exact labels solved once
// and read from the cache the second time, labelled positions counted, the weight file with
// mobility and the correction by empties, the log and the plot written.
func TestTrain(t *testing.T) {
	dir := t.TempDir()
	pos := filepath.Join(dir, "pos.txt")
	if err := WritePositionsFile(pos, []Position{{Board: board.Start(), Score: 1}, {Board: board.Start(), Score: -1}}); err != nil {
		t.Fatal(err)
	}
	for run := 0; run < 2; run++ {
		var log, out bytes.Buffer
		o := tinyRun(dir, &log)
		o.Epochs, o.Mobility, o.EmptiesBias = 2, true, true
		val := filepath.Join("testdata", "wth_2023_200.wtb")
		o.Paths = []string{filepath.Join("testdata", "playok_60.wtb"), filepath.Join("testdata", "selfplay_30.txt")}
		o.Validation = []string{val}
		o.Exact, o.ExactCache, o.PositionFiles = 6, filepath.Join(dir, "labels.gtx"), pos
		var bars atomic.Int64
		o.NewBar = func(int, string) Bar { return countBar{&bars} }
		if err := Train(o, &out); err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"validation on [" + filepath.Base(val) + "]", "24 empties vs WTHOR theoretical score", "labelled positions: 2 from " + filepath.Base(pos), "wrote " + o.Out} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("run %d: the output lacks %q:\n%s", run+1, want, out.String())
			}
		}
		if read := strings.Contains(log.String(), "read from"); read != (run == 1) {
			t.Errorf("run %d: cache read %v\n%s", run+1, read, log.String())
		}
		if bars.Load() < 2*eval.NumStages {
			t.Errorf("run %d: %d steps shown, want at least the %d epochs", run+1, bars.Load(), 2*eval.NumStages)
		}
	}
	for _, f := range []string{"w.csv", "w.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	e, err := eval.Load(filepath.Join(dir, "w.gtw"))
	if err != nil || !e.HasMobility() || e.EmptiesBias() == ([61]float64{}) {
		t.Fatalf("trained weights: %v; want mobility features and the correction by empties", err)
	}
	if s, err := Summary(e); err != nil || !strings.Contains(string(s), "validation on") {
		t.Errorf("summary %q, %v", s, err)
	}
	if d, _ := eval.Default(); d != nil {
		if _, err := Summary(d); err != nil && !strings.Contains(err.Error(), "TRN1") {
			t.Errorf("summary of the embedded weights: %v", err)
		}
	}
	var log bytes.Buffer
	o := tinyRun(dir, &log)
	o.Paths = []string{filepath.Join(dir, "absent")}
	if err := Train(o, &bytes.Buffer{}); err == nil {
		t.Error("no training games: no error")
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("garbage; 1\n"), 0o644)
	o = tinyRun(dir, &log)
	o.PositionFiles = bad
	if err := Train(o, &bytes.Buffer{}); !errors.As(err, &InputError{}) || !strings.Contains(err.Error(), "bad.txt") {
		t.Errorf("a malformed positions file: %v; want an InputError naming it", err)
	}
}

// The exact cache does not overwrite a file that is not a relabelling cache of these games
// (a WTHOR file named by mistake, a text file, another game set's cache) unless Force; a
// cache of these games for another depth is replaced.
func TestTrainExactCacheKeepsOtherFiles(t *testing.T) {
	dir := t.TempDir()
	train := func(cache string, depth int, force bool, paths ...string) (error, string) {
		var log bytes.Buffer
		o := tinyRun(dir, &log)
		o.Exact, o.ExactCache, o.Force = depth, cache, force
		if paths != nil {
			o.Paths = paths
		}
		err := Train(o, &bytes.Buffer{})
		return err, log.String()
	}
	wthor, _ := os.ReadFile(filepath.Join("testdata", "playok_60.wtb"))
	if err, _ := train(filepath.Join(dir, "other.gtx"), 4, false, filepath.Join("testdata", "playok_60.wtb")); err != nil {
		t.Fatalf("train on other games: %v", err)
	}
	for name, content := range map[string][]byte{"games.wtb": wthor, "notes.txt": []byte("my notes\n"), "other.gtx": nil} {
		path := filepath.Join(dir, name)
		if content != nil {
			os.WriteFile(path, content, 0o644)
		}
		before, _ := os.ReadFile(path)
		if err, _ := train(path, 4, false); !errors.As(err, &InputError{}) || !strings.Contains(err.Error(), "-force") {
			t.Errorf("%s as the cache: %v; want a refusal pointing to -force", name, err)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
			t.Errorf("%s was overwritten", name)
		}
	}
	notes := filepath.Join(dir, "notes.txt")
	if err, _ := train(notes, 4, true); err != nil {
		t.Fatalf("Force: %v", err)
	}
	if err, log := train(notes, 4, false); err != nil || !strings.Contains(log, "read from") {
		t.Errorf("the cache written with Force: %v, %s", err, log)
	}
	if err, log := train(notes, 5, false); err != nil || strings.Contains(log, "read from") {
		t.Errorf("the cache of these games for another depth: %v, %s; want it replaced", err, log)
	}
	if err, log := train(notes, 5, false); err != nil || !strings.Contains(log, "read from") {
		t.Errorf("the replaced cache: %v, %s", err, log)
	}
}

// EvaluateGames reports the error on the games and, asked to, writes the weights with the
// correction by empties that FitEmptiesBias prints.
func TestEvaluateGames(t *testing.T) {
	e, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "fitted.gtw")
	var w bytes.Buffer
	if err := EvaluateGames(&w, e, []string{filepath.Join("testdata", "selfplay_30.txt")}, 4, "", out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"labels: exact scores from 4 empties on", "all ", "correction by empties (discs; positions):", "wrote " + out} {
		if !strings.Contains(w.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, w.String())
		}
	}
	if f, err := eval.Load(out); err != nil || f.EmptiesBias() == ([61]float64{}) {
		t.Errorf("the fitted weights: %v", err)
	}
	if err := EvaluateGames(&w, e, []string{"testdata/absent.wtb"}, 0, "", ""); err == nil {
		t.Error("missing games: no error")
	}
}

// FitMPCText fits regressions on positions of a file or sampled from openings; unusable
// files are InputErrors.
func TestFitMPCText(t *testing.T) {
	dir := t.TempDir()
	pos := filepath.Join(dir, "pos.txt")
	var lines []string
	for _, tr := range []string{"f5d6c3d3c4f4", "f5f6e6f4e3c5", "f5d6c5f4e3f6", "f5f4e3f6d3e6", "f5d6c4d3c3f4"} {
		_, b, _ := board.ParseTranscript(tr)
		lines = append(lines, b.OBF())
	}
	os.WriteFile(pos, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	text, n, err := FitMPCText(context.Background(), MPCFitOptions{Positions: pos, N: 5, MaxHeight: 3, Workers: 2, MinSamples: 2, EvalName: "mobility"}, nil)
	if err != nil || n != 5 || !strings.Contains(string(text), "eval mobility\n") || !strings.Contains(string(text), "\n5 3 1 ") {
		t.Fatalf("from positions: %d fitted, %v\n%s", n, err, text)
	}
	if _, n, err = FitMPCText(context.Background(), MPCFitOptions{Openings: filepath.Join("testdata", "xot_20.txt"), N: 4, MaxHeight: 2, Seed: 1, Workers: 1, MinSamples: 1}, nil); err != nil || n != 4 {
		t.Errorf("from openings: %d fitted, %v", n, err)
	}
	empty := filepath.Join(dir, "empty.txt")
	os.WriteFile(empty, nil, 0o644)
	for _, o := range []MPCFitOptions{{Positions: empty}, {Openings: empty}, {Openings: filepath.Join(dir, "absent")}, {Positions: filepath.Join(dir, "absent")}} {
		o.N, o.MaxHeight = 5, 3
		if _, _, err := FitMPCText(context.Background(), o, nil); !errors.As(err, &InputError{}) {
			t.Errorf("%+v: %v; want an InputError", o, err)
		}
	}
}

// LabelFile writes the labelled positions and says so; interrupted before any position, it
// writes nothing and says so.
func TestLabelFile(t *testing.T) {
	games, ev := labelFixture(t)
	cfg := LabelConfig{Positions: 10, MinEmpties: 20, MaxEmpties: 40, Depth: 1, Eval: ev, TTMiB: 1, Workers: 2, Seed: 1}
	out := filepath.Join(t.TempDir(), "pos.txt")
	var w bytes.Buffer
	var bars atomic.Int64
	if err := LabelFile(context.Background(), games, cfg, out, &w, countBar{&bars}); err != nil || !strings.HasPrefix(w.String(), "wrote 10 positions to "+out) || bars.Load() != 10 {
		t.Fatalf("LabelFile: %v, %q, %d steps shown", err, w.String(), bars.Load())
	}
	if ps, err := ReadPositionFiles([]string{out}, nil); err != nil || len(ps) != 10 {
		t.Errorf("the file: %d positions, %v", len(ps), err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	other := filepath.Join(t.TempDir(), "none.txt")
	if err := LabelFile(ctx, games, cfg, other, &w, nil); err == nil || !strings.Contains(err.Error(), "interrupted before any position") {
		t.Errorf("interrupted at once: %v", err)
	}
	if _, err := os.Stat(other); err == nil {
		t.Error("a file written with no position")
	}
	if got, want := (LabelConfig{TTMiB: 2, Workers: 3}).TableBytes(), uint64(3*4<<20); got != want {
		t.Errorf("TableBytes %d, want %d", got, want)
	}
}

func TestEvaluatePositionFiles(t *testing.T) {
	e, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pos, bad := filepath.Join(dir, "pos.txt"), filepath.Join(dir, "bad.txt")
	WritePositionsFile(pos, []Position{{Board: board.Start(), Score: 1}, {Board: board.Start(), Score: -1}})
	os.WriteFile(bad, []byte("garbage; 1\n"), 0o644)
	var w, log bytes.Buffer
	if err := EvaluatePositionFiles(&w, e, []string{pos}, zerolog.New(&log)); err != nil || !strings.HasPrefix(w.String(), "2 labelled positions\n") ||
		!strings.Contains(w.String(), "all ") || !strings.Contains(log.String(), "2 labelled positions from "+pos) {
		t.Errorf("%v\n%s\n%s", err, w.String(), log.String())
	}
	if err := EvaluatePositionFiles(&w, e, []string{bad}, zerolog.Nop()); !errors.As(err, &InputError{}) || !strings.Contains(err.Error(), "bad.txt") {
		t.Errorf("a malformed file: %v", err)
	}
}

// The commands' checks before any work: a run's configuration (Validate) and relabelling, the
// labelling's counts and the Multi-ProbCut fit's, each refused in words naming the setting;
// ExactTableBytes counts a relabelling table per worker.
func TestOptionChecks(t *testing.T) {
	run := func(change func(*RunOptions)) error {
		o := RunOptions{Config: DefaultConfig(), Exact: 12, ExactTT: 32}
		change(&o)
		return o.Check()
	}
	label := LabelConfig{Positions: 1, TTMiB: 1, Workers: 1}
	fit := MPCFitOptions{N: 1, MaxHeight: 2, Workers: 1}
	for _, c := range []struct {
		err  error
		want string // "" for no error
	}{
		{run(func(o *RunOptions) {}), ""},
		{run(func(o *RunOptions) { o.Exact, o.ExactTT = MaxExactDepth, 1 }), ""},
		{run(func(o *RunOptions) { o.Exact = 0 }), ""},
		{run(func(o *RunOptions) { o.Rate = -5 }), "rate -5"},
		{run(func(o *RunOptions) { o.Rate, o.Exact = -5, 40 }), "rate -5"}, // the configuration first
		{run(func(o *RunOptions) { o.Exact = 40 }), "exact 40, exact-tt 32: want 0 (off) to 20 empties and a table of at least 1 MiB"},
		{run(func(o *RunOptions) { o.Exact = -1 }), "exact -1"},
		{run(func(o *RunOptions) { o.ExactTT = 0 }), "exact-tt 0"},
		{label.Check(), ""},
		{LabelConfig{Positions: 0, TTMiB: 1, Workers: 1}.Check(), "want n, workers and tt >= 1 and from >= 0"},
		{LabelConfig{Positions: 1, TTMiB: 0, Workers: 1}.Check(), "want n, workers and tt >= 1"},
		{LabelConfig{Positions: 1, TTMiB: 1, Workers: 0}.Check(), "want n, workers and tt >= 1"},
		{LabelConfig{Positions: 1, TTMiB: 1, Workers: 1, First: -1}.Check(), "from >= 0"},
		{fit.Check(), ""},
		{MPCFitOptions{N: 1, MaxHeight: 16, Workers: 1}.Check(), ""},
		{MPCFitOptions{N: 0, MaxHeight: 2, Workers: 1}.Check(), "want n >= 1, depth 2-16, concurrency >= 1"},
		{MPCFitOptions{N: 1, MaxHeight: 1, Workers: 1}.Check(), "depth 2-16"},
		{MPCFitOptions{N: 1, MaxHeight: 17, Workers: 1}.Check(), "depth 2-16"},
		{MPCFitOptions{N: 1, MaxHeight: 2, Workers: 0}.Check(), "concurrency >= 1"},
	} {
		if (c.err == nil) != (c.want == "") || c.err != nil && !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want %q", c.err, c.want)
		}
	}
	o := RunOptions{Config: Config{Workers: 3}, Exact: 12, ExactTT: 2}
	if got := o.ExactTableBytes(); got != 3*2<<20 {
		t.Errorf("ExactTableBytes %d, want 3 tables of 2 MiB", got)
	}
	if o.Workers = 0; o.ExactTableBytes() != 2<<20 {
		t.Errorf("ExactTableBytes with 0 workers (one): %d", o.ExactTableBytes())
	}
	if o.Exact = 0; o.ExactTableBytes() != 0 {
		t.Errorf("ExactTableBytes without relabelling: %d", o.ExactTableBytes())
	}
}

// The summary of weights trained before it stored base names still shows no directory of the
// machine that trained them (the embedded weights name /work/... paths), and the progress of
// a run without validation games shows no validation error.
func TestSummaryWithoutPaths(t *testing.T) {
	e, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	s, err := Summary(e)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(s), "/") || !strings.Contains(string(s), "validation on [WTH_2023.wtb]") {
		t.Errorf("summary:\n%s", s)
	}
	e, err = eval.FromFile("x", mustFileWithSection(t, "TRN1", "data 2 files (paths [/a/b/wthor C:\\x\\y.wtb rel/z.txt]), from /tmp/s/l6.txt,/tmp/s/l8.txt, 60..57 win/loss\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := Summary(e); string(s) != "data 2 files (paths [wthor y.wtb rel/z.txt]), from l6.txt,l8.txt, 60..57 win/loss\n" {
		t.Errorf("summary %q", s)
	}
	if got := epochText(EpochStats{Stage: 3, TrainMAE: 5, ValMAE: math.NaN()}); got != "stage  3 train 5.00" {
		t.Errorf("epoch without validation: %q", got)
	}
	if got := epochText(EpochStats{Stage: 3, TrainMAE: 5, ValMAE: 6}); got != "stage  3 train 5.00 val 6.00" {
		t.Errorf("epoch with validation: %q", got)
	}
}

// mustFileWithSection is the embedded weight file with section tag set to text.
func mustFileWithSection(t *testing.T, tag, text string) *weights.File {
	t.Helper()
	f, err := weights.Decode(weights.EmbeddedName, weights.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetSection(tag, []byte(text)); err != nil {
		t.Fatal(err)
	}
	return f
}
