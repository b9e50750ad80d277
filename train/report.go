package train

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/atomicfile"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// StageError is the error of an evaluator on one stage's positions.
type StageError struct {
	Positions int
	MAE, RMSE float64 // discs, against the training label
	Bias      float64 // mean of evaluation - label
}

// Report is the accuracy of an evaluator on a set of games.
type Report struct {
	Stages [eval.NumStages]StageError
	All    StageError
	// At24 compares the positions with exactly 24 empties with WTHOR's theoretical score
	// (games with TheoDepth 24 only).
	At24 StageError
}

type acc struct{ n, abs, sq, sum float64 }

func (a *acc) add(d float64) {
	a.n++
	a.abs += math.Abs(d)
	a.sq += d * d
	a.sum += d
}

func (a *acc) result() StageError {
	if a.n == 0 {
		return StageError{MAE: math.NaN(), RMSE: math.NaN(), Bias: math.NaN()}
	}
	return StageError{Positions: int(a.n), MAE: a.abs / a.n, RMSE: math.Sqrt(a.sq / a.n), Bias: a.sum / a.n}
}

// Evaluate measures e on every position (with a move to play) of games, through the real
// fixed-point evaluation.
func Evaluate(e *eval.Evaluator, games []Game) Report {
	var stages [eval.NumStages]acc
	var all, at24 acc
	for i := range games {
		g := &games[i]
		Replay(g.Moves, func(b *board.Board) {
			v := float64(e.Eval(b)) / eval.Scale
			d := v - float64(Label(g, b))
			stages[eval.Stage(b.NumEmpties())].add(d)
			all.add(d)
			if g.TheoDepth == 24 && b.NumEmpties() == 24 {
				t := float64(g.Theoretical)
				if !b.BlackToMove {
					t = -t
				}
				at24.add(v - t)
			}
		})
	}
	return newReport(&stages, &all, &at24)
}

// newReport finishes the accumulated errors into a Report.
func newReport(stages *[eval.NumStages]acc, all, at24 *acc) Report {
	var r Report
	for s := range stages {
		r.Stages[s] = stages[s].result()
	}
	r.All, r.At24 = all.result(), at24.result()
	return r
}

// EvaluatePositions measures e against labelled positions (search labels, othello label's
// files), through the real fixed-point evaluation; At24 stays empty.
func EvaluatePositions(e *eval.Evaluator, ps []Position) Report {
	var stages [eval.NumStages]acc
	var all acc
	for i := range ps {
		d := float64(e.Eval(&ps[i].Board))/eval.Scale - float64(ps[i].Score)
		stages[eval.Stage(ps[i].Board.NumEmpties())].add(d)
		all.add(d)
	}
	return newReport(&stages, &all, &acc{})
}

// Write prints the report as a table.
func (r *Report) Write(w io.Writer) {
	fmt.Fprintf(w, "stage  empties  positions    MAE   RMSE   bias\n")
	for s, st := range r.Stages {
		hi := 60 - 4*s
		lo := hi - 3
		if s == eval.NumStages-1 {
			lo = 0
		}
		fmt.Fprintf(w, "%5d  %2d..%2d  %9d  %5.2f  %5.2f  %+5.2f\n", s, hi, lo, st.Positions, st.MAE, st.RMSE, st.Bias)
	}
	fmt.Fprintf(w, "  all          %9d  %5.2f  %5.2f  %+5.2f\n", r.All.Positions, r.All.MAE, r.All.RMSE, r.All.Bias)
	if r.At24.Positions > 0 {
		fmt.Fprintf(w, "24 empties vs WTHOR theoretical score: %d positions, MAE %.2f, RMSE %.2f, bias %+.2f\n", r.At24.Positions, r.At24.MAE, r.At24.RMSE, r.At24.Bias)
	}
}

// Plot draws the per-epoch training and validation mean absolute errors of a run as a PNG:
// the stages one after the other along the x axis. The format follows the extension of path,
// as plot.Save does (PNG for .png); the file is written atomically.
func Plot(log []EpochStats, path string) error {
	p := plot.New()
	p.Title.Text = "training (smoothed window) and validation MAE, stage after stage"
	p.X.Label.Text = "epoch (stages in sequence)"
	if len(log) > 0 && log[0].Stage < 0 {
		p.Title.Text = "training and validation MAE, all stages fitted at once"
		p.X.Label.Text = "epoch"
	}
	p.Y.Label.Text = "mean absolute error (discs)"
	var tr, va plotter.XYs
	for i, st := range log {
		tr = append(tr, plotter.XY{X: float64(i + 1), Y: st.TrainMAE})
		if !math.IsNaN(st.ValMAE) {
			va = append(va, plotter.XY{X: float64(i + 1), Y: st.ValMAE})
		}
	}
	lt, err := plotter.NewLine(tr)
	if err != nil {
		return err
	}
	lt.Color = plotter.DefaultLineStyle.Color
	p.Add(lt)
	p.Legend.Add("train", lt)
	if len(va) > 0 {
		lv, err := plotter.NewLine(va)
		if err != nil {
			return err
		}
		lv.Color = colorRed
		p.Add(lv)
		p.Legend.Add("validation", lv)
	}
	p.Y.Min, p.Y.Max = 0, 20
	p.Add(plotter.NewGrid())
	format := strings.ToLower(filepath.Ext(path))
	if format != "" {
		format = format[1:]
	}
	img, err := p.WriterTo(12*vg.Inch, 5*vg.Inch, format)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, 0o644, func(w io.Writer) error {
		_, err := img.WriteTo(w)
		return err
	})
}

var colorRed = color.RGBA{R: 200, A: 255}

// EmptiesBias measures, for each number of empties, the mean of label minus evaluation over
// every position (with a move to play) of games, and how many positions each mean rests on:
// the correction eval.EmptiesBiasSection stores.
func EmptiesBias(e *eval.Evaluator, games []Game) (bias [61]float64, n [61]int) {
	var sum [61]float64
	for i := range games {
		g := &games[i]
		Replay(g.Moves, func(b *board.Board) {
			k := b.NumEmpties()
			sum[k] += float64(Label(g, b)) - float64(e.Eval(b))/eval.Scale
			n[k]++
		})
	}
	for k := range bias {
		if n[k] > 0 {
			bias[k] = sum[k] / float64(n[k])
		}
	}
	return bias, n
}
