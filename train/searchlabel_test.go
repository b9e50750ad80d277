package train

import (
	"bytes"
	"context"
	"math"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
)

// evalNegamax is a plain depth-limited negamax on the evaluation (passes cost no depth,
// finished games score their disc difference), in evaluation units: the independent truth for
// a selectivity-0 label search.
func evalNegamax(ev *eval.Evaluator, b board.Board, depth int) int {
	moves := b.LegalMoves()
	if moves == 0 {
		if b.GameOver() {
			return board.DiscDiff(b.P, b.O) * eval.Scale
		}
		b.Pass()
		return -evalNegamax(ev, b, depth)
	}
	if depth == 0 {
		return ev.Eval(&b)
	}
	best := math.MinInt
	for ; moves != 0; moves &= moves - 1 {
		c := b
		c.Make(board.FirstSquare(moves))
		best = max(best, -evalNegamax(ev, c, depth-1))
	}
	return best
}

// labelFixture is the games fixture and the shipped evaluation.
func labelFixture(t *testing.T) ([]Game, *eval.Evaluator) {
	t.Helper()
	games, _, err := LoadFile(filepath.Join("testdata", "wth_2023_200.wtb"))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	return games, ev
}

func TestSearchLabels(t *testing.T) {
	games, ev := labelFixture(t)
	cfg := LabelConfig{Positions: 60, MinEmpties: 6, MaxEmpties: 50, RandomMoves: 2, Depth: 2,
		ExactEmpties: 9, Eval: ev, TTMiB: 1, Workers: 2, Seed: 3}
	ps, err := SearchLabels(context.Background(), games, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	exact := 0
	for i, p := range ps {
		b := p.Board
		e := b.NumEmpties()
		if e < cfg.MinEmpties || e > cfg.MaxEmpties || b.LegalMoves() == 0 {
			t.Fatalf("position %d: %d empties, moves %x: outside the asked range or nothing to play\n%s", i, e, b.LegalMoves(), b.Diagram())
		}
		var want float64
		if e <= cfg.ExactEmpties {
			want = float64(negamax(b.P, b.O))
			exact++
		} else {
			want = float64(evalNegamax(ev, b, cfg.Depth)) / eval.Scale
		}
		if math.Abs(float64(p.Score)-want) > 1e-3 {
			t.Errorf("position %d (%d empties): label %.3f, negamax %.3f\n%s", i, e, p.Score, want, b.Diagram())
		}
	}
	if exact == 0 || exact == len(ps) {
		t.Errorf("%d of %d positions solved exactly: the test should see both kinds", exact, len(ps))
	}
	// The same positions whatever the number of workers.
	cfg.Workers = 1
	again, err := SearchLabels(context.Background(), games, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ps {
		if again[i] != ps[i] {
			t.Fatalf("position %d differs with one worker", i)
		}
	}
	// A run from position 24 makes the rest of the run from 0.
	cfg.First, cfg.Positions = 24, 36
	rest, err := SearchLabels(context.Background(), games, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rest {
		if rest[i] != ps[24+i] {
			t.Fatalf("position %d of the run from 24 differs from position %d of the whole run", i, 24+i)
		}
	}
	// Interrupted, it returns an in-order prefix of the whole run: with one worker exactly
	// the positions done before the stop, with two those before the first unfinished one.
	for _, workers := range []int{1, 2} {
		cfg.First, cfg.Positions, cfg.Workers = 0, 60, workers
		ctx, cancel := context.WithCancel(context.Background())
		var count atomic.Int32
		part, err := SearchLabels(ctx, games, cfg, func() {
			if count.Add(1) == 10 {
				cancel()
			}
		})
		cancel()
		if err == nil {
			t.Fatal("an interrupted run reports no error")
		}
		if (workers == 1 && len(part) != 10) || len(part) > 11 {
			t.Fatalf("interrupted after 10 positions with %d workers: a prefix of %d", workers, len(part))
		}
		for i := range part {
			if part[i] != ps[i] {
				t.Fatalf("position %d of the interrupted run differs", i)
			}
		}
	}
	// Random moves leave the games: some positions are none of the games' own.
	seen := map[board.Board]bool{}
	for _, g := range games {
		Replay(g.Moves, func(b *board.Board) { seen[*b] = true })
	}
	off := 0
	for _, p := range ps {
		if !seen[p.Board] {
			off++
		}
	}
	if off == 0 || off == len(ps) {
		t.Errorf("%d of %d positions are off the games' paths; want some of each", off, len(ps))
	}
}

func TestSearchLabelsBadConfig(t *testing.T) {
	games, _, err := LoadFile(filepath.Join("testdata", "wth_2023_200.wtb"))
	if err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []LabelConfig{
		{Positions: 1, MinEmpties: 30, MaxEmpties: 20, Depth: 2},
		{Positions: 1, MinEmpties: 0, MaxEmpties: 20, Depth: 2},
		{Positions: 1, MinEmpties: 10, MaxEmpties: 20, Depth: 0},
	} {
		if _, err := SearchLabels(context.Background(), games, cfg, nil); err == nil {
			t.Errorf("%+v: no error", cfg)
		}
	}
	if _, err := SearchLabels(context.Background(), nil, LabelConfig{Positions: 1, MinEmpties: 10, MaxEmpties: 20, Depth: 2}, nil); err == nil {
		t.Errorf("no games: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := SearchLabels(ctx, games, LabelConfig{Positions: 10, MinEmpties: 10, MaxEmpties: 20, Depth: 2}, nil); err == nil {
		t.Errorf("cancelled: no error")
	}
}

func TestPositionsRoundTrip(t *testing.T) {
	b := board.Start()
	b.Make(board.Square(37)) // f5
	ps := []Position{{board.Start(), 0}, {b, -12.5}, {b, 64}}
	var buf bytes.Buffer
	if err := WritePositions(&buf, ps); err != nil {
		t.Fatal(err)
	}
	got, err := ReadPositions(strings.NewReader("% a comment\n\n" + buf.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(ps) {
		t.Fatalf("read %d positions, wrote %d", len(got), len(ps))
	}
	for i := range ps {
		if got[i] != ps[i] {
			t.Errorf("position %d: read %+v, wrote %+v", i, got[i], ps[i])
		}
	}
	start := board.Start()
	for _, bad := range []string{
		"XXO; 3",
		start.OBF() + " 3",
		start.OBF() + "; many",
		start.OBF() + "; 65",
		start.OBF() + "; NaN",
		"Q" + start.OBF()[1:] + "; 1",
	} {
		if _, err := ReadPositions(strings.NewReader("\n" + bad + "\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%q: error %v, want one naming line 2", bad, err)
		}
	}
}

func FuzzReadPositions(f *testing.F) {
	start := board.Start()
	f.Add(start.OBF() + "; +3.5\n")
	f.Add("# x\n" + start.OBF() + ";\n")
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := ReadPositions(strings.NewReader(s))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WritePositions(&buf, ps); err != nil {
			t.Fatal(err)
		}
		again, err := ReadPositions(&buf)
		if err != nil || len(again) != len(ps) {
			t.Fatalf("rewritten positions do not read back: %v", err)
		}
	})
}

// Labelled positions pull the evaluation towards their labels.
func TestFitWithPositions(t *testing.T) {
	games, ev := labelFixture(t)
	ps, err := SearchLabels(context.Background(), games, LabelConfig{Positions: 300, MinEmpties: 20, MaxEmpties: 50,
		RandomMoves: 2, Depth: 1, Eval: ev, TTMiB: 1, Workers: 2, Seed: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ps {
		ps[i].Score = 20 // far from anything the games say
	}
	cfg := DefaultConfig()
	cfg.Epochs = 8
	errOn := func(cfg Config) float64 {
		res, err := Fit(games[:100], nil, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		file, err := eval.NewFile(Quantize(res.Weights))
		if err != nil {
			t.Fatal(err)
		}
		e, err := eval.FromFile("fit", file)
		if err != nil {
			t.Fatal(err)
		}
		var sum float64
		for i := range ps {
			sum += math.Abs(float64(e.Eval(&ps[i].Board))/eval.Scale - 20)
		}
		return sum / float64(len(ps))
	}
	without := errOn(cfg)
	cfg.Positions = ps
	with := errOn(cfg)
	cfg.PositionWeight = 4
	heavier := errOn(cfg)
	if !(with < without && heavier < with) {
		t.Errorf("mean distance to the positions' labels: %.2f without them, %.2f with, %.2f counted 4 times", without, with, heavier)
	}
	t.Logf("mean distance to the positions' labels: %.2f without them, %.2f with, %.2f counted 4 times", without, with, heavier)
}

// TestEvaluatePositions checks the report on labelled positions against a direct computation
// of the per-stage errors.
func TestEvaluatePositions(t *testing.T) {
	games, ev := labelFixture(t)
	ps, err := SearchLabels(context.Background(), games, LabelConfig{Positions: 200, MinEmpties: 14, MaxEmpties: 56,
		RandomMoves: 2, Depth: 2, Eval: ev, TTMiB: 1, Workers: 2, Seed: 9}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := EvaluatePositions(ev, ps)
	if r.All.Positions != len(ps) || r.At24.Positions != 0 {
		t.Fatalf("counted %d positions (want %d), %d at 24 empties", r.All.Positions, len(ps), r.At24.Positions)
	}
	for s := range eval.NumStages {
		var n int
		var abs, sum float64
		for i := range ps {
			if eval.Stage(ps[i].Board.NumEmpties()) != s {
				continue
			}
			d := float64(ev.Eval(&ps[i].Board))/eval.Scale - float64(ps[i].Score)
			n++
			abs += math.Abs(d)
			sum += d
		}
		got := r.Stages[s]
		if got.Positions != n {
			t.Fatalf("stage %d: %d positions, want %d", s, got.Positions, n)
		}
		if n > 0 && (math.Abs(got.MAE-abs/float64(n)) > 1e-9 || math.Abs(got.Bias-sum/float64(n)) > 1e-9) {
			t.Errorf("stage %d: MAE %.4f bias %.4f, want %.4f %.4f", s, got.MAE, got.Bias, abs/float64(n), sum/float64(n))
		}
	}
	// Labels moved by 3 discs move every stage's bias by -3.
	for i := range ps {
		ps[i].Score += 3
	}
	if r2 := EvaluatePositions(ev, ps); math.Abs(r2.All.Bias-(r.All.Bias-3)) > 1e-6 {
		t.Errorf("bias %.3f after raising the labels by 3, was %.3f", r2.All.Bias, r.All.Bias)
	}
}
