package train

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/weights"
)

// blendedPrediction is the trainer's value of b under per-stage weights w read through the
// blend of the interpolated evaluation, computed here from the stage tables directly.
func blendedPrediction(cfg Config, w [][]float32, b *board.Board) float64 {
	s := newSampleSet(cfg)
	s.add(b, 0)
	sum := func(stage int) float64 {
		var p float64
		for k, x := range s.idx {
			p += float64(w[stage][s.off[k]+uint32(x)])
		}
		return p
	}
	s0, t := eval.StageBlend(b.NumEmpties())
	if t == 0 {
		return sum(s0)
	}
	return (1-t)*sum(s0) + t*sum(s0+1)
}

// TestJointFit fits all stages at once for the interpolated evaluation: the error falls, the
// weight file carries the interpolation section, the evaluator built from the file (tables
// blended once at load, in int16) agrees with the trainer's blended prediction up to the
// rounding, and on the training positions the interpolated evaluation of the joint fit is
// closer to the labels than the interpolated evaluation of the stage-by-stage fit. The
// fixture's 150 games are few for 1.7 million weights, so both fits run with a light ridge:
// with the default one the prior, not the data, sets most weights.
func TestJointFit(t *testing.T) {
	games := fixtureGames(t)
	train, val := games[:150], games[150:]
	cfg := DefaultConfig()
	cfg.Epochs = 40
	cfg.Ridge = 0.1
	cfg.Mobility = true
	cfg.Interpolate = true
	res, err := Fit(train, val, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Log) != cfg.Epochs || res.Log[0].Stage != -1 || !res.Interpolated {
		t.Fatalf("%d log entries (stage %d), interpolated %v; want %d over all stages", len(res.Log), res.Log[0].Stage, res.Interpolated, cfg.Epochs)
	}
	first, last := res.Log[0], res.Log[cfg.Epochs-1]
	if !(last.TrainRMSE < first.TrainRMSE) || !(last.ValMAE < first.ValMAE) {
		t.Errorf("training RMSE %.3f -> %.3f, validation MAE %.3f -> %.3f", first.TrainRMSE, last.TrainRMSE, first.ValMAE, last.ValMAE)
	}
	n := 0
	for s := range eval.NumStages {
		n += res.TrainPositions[s]
	}
	if want := len(train) * 61; n > want || n < want*9/10 {
		t.Errorf("%d training positions counted, want about %d", n, want)
	}

	dir := t.TempDir()
	joint := filepath.Join(dir, "joint.gtw")
	if _, err := WriteWeights(joint, res, train, val, false, Run{Config: cfg}); err != nil {
		t.Fatal(err)
	}
	f, err := weights.ReadFile(joint)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := f.Section(eval.InterpSection); !ok {
		t.Fatal("the joint fit's file has no interpolation section")
	}
	e, err := eval.FromFile(joint, f)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, g := range train[:40] {
		Replay(g.Moves, func(b *board.Board) {
			want := blendedPrediction(cfg, res.Weights, b)
			got := float64(e.Eval(b)) / eval.Scale
			if math.Abs(want) < 60 && math.Abs(got-want) > 0.25 {
				t.Fatalf("%s: evaluation %.3f, trainer %.3f", b.OBF(), got, want)
			}
			checked++
		})
	}

	stageCfg := cfg
	stageCfg.Interpolate = false
	stageRes, err := Fit(train, nil, stageCfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	staged := filepath.Join(dir, "stage.gtw")
	if _, err := WriteWeights(staged, stageRes, train, nil, false, Run{Config: stageCfg}); err != nil {
		t.Fatal(err)
	}
	blended := filepath.Join(dir, "stage-itp.gtw")
	if err := WriteWithSection(staged, blended, eval.InterpSection, nil); err != nil {
		t.Fatal(err)
	}
	se, err := eval.Load(blended)
	if err != nil {
		t.Fatal(err)
	}
	jr, sr := Evaluate(e, train), Evaluate(se, train)
	if !(jr.All.RMSE < 0.98*sr.All.RMSE) {
		t.Errorf("on the training games the joint fit's RMSE is %.3f, the stage fit's interpolated %.3f", jr.All.RMSE, sr.All.RMSE)
	}
	t.Logf("%d positions checked against the file; training RMSE joint %.3f, stages interpolated %.3f; held out %.3f and %.3f",
		checked, jr.All.RMSE, sr.All.RMSE, Evaluate(e, val).All.RMSE, Evaluate(se, val).All.RMSE)
}
