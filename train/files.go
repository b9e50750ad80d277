package train

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/atomicfile"
	"github.com/othellogo/othello/weights"
)

// The files of a training run around Fit: the labelled positions read, the relabelling
// cache, the weight file with its training summary, and the per-epoch log.

// ReadPositionFiles reads the labelled positions (WritePositions' files) of every path, blank
// ones skipped. each, when not nil, learns how many positions came from a file. An error names
// the file.
func ReadPositionFiles(paths []string, each func(path string, n int)) ([]Position, error) {
	var all []Position
	for _, p := range paths {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		ps, err := ReadPositions(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		all = append(all, ps...)
		if each != nil {
			each(p, len(ps))
		}
	}
	return all, nil
}

// WritePositionsFile writes positions to the file at path (WritePositions), atomically
// (internal/atomicfile): a failed or killed write leaves the old file whole.
func WritePositionsFile(path string, ps []Position) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error { return WritePositions(w, ps) })
}

// ReadRelabelCacheFile sets the exact labels of games from the cache file at path
// (ReadRelabelCache) and reports whether it did. When it did not, err says why (nil: there is
// no file yet), and replaceable whether the cache written after solving may take the file's
// place: there is no file, or it is a cache of these same games (for another depth, or
// damaged). A file that is not a relabelling cache (a game file named by mistake) or is the
// cache of other games is not replaceable; neither is one that cannot be read.
func ReadRelabelCacheFile(path string, games []Game, depth int) (cached, replaceable bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, true, nil
	}
	if err != nil {
		return false, false, err
	}
	if _, n, h, ok := cacheHeader(data); !ok {
		return false, false, fmt.Errorf("train: not a relabelling cache")
	} else if n != len(games) || h != gamesHash(games) {
		return false, false, fmt.Errorf("train: relabelling cache is for other games (%d games)", n)
	}
	if err := ReadRelabelCache(bytes.NewReader(data), games, depth); err != nil {
		return false, true, err
	}
	return true, true, nil
}

// WriteRelabelCacheFile writes the exact labels of games to the cache file at path
// (WriteRelabelCache), atomically.
func WriteRelabelCacheFile(path string, games []Game, depth int) error {
	return atomicfile.Write(path, 0o644, func(w io.Writer) error { return WriteRelabelCache(w, games, depth) })
}

// Run describes a training run for the summary stored with its weights.
type Run struct {
	Config     Config        // as given to Fit (its labelled positions are counted, not listed)
	Exact      int           // empties from which the labels are exact solves (0: none)
	Games      LoadStats     // the training games
	Paths      []string      // where they came from
	Positions  string        // where the labelled positions came from
	Validation []string      // the validation files
	FitTime    time.Duration // time to load, label and fit
}

// WriteWeights writes the weight file of a fit to path: the quantized weights; with
// emptiesBias the correction by number of empties (eval.EmptiesBiasSection) that zeroes the
// mean error on games; and, in section TRN1, a training summary: the run, and the error
// report on val when there are validation games. It returns the summary.
func WriteWeights(path string, res *Result, games, val []Game, emptiesBias bool, run Run) ([]byte, error) {
	file, err := eval.NewFile(Quantize(res.Weights))
	if err != nil {
		return nil, err
	}
	if res.Interpolated {
		if err := file.SetSection(eval.InterpSection, nil); err != nil {
			return nil, err
		}
	}
	e, err := eval.FromFile(path, file)
	if err != nil {
		return nil, err
	}
	if emptiesBias {
		bias, _ := EmptiesBias(e, games)
		if err := file.SetSection(eval.EmptiesBiasSection, eval.EncodeEmptiesBias(bias)); err != nil {
			return nil, err
		}
		if e, err = eval.FromFile(path, file); err != nil {
			return nil, err
		}
	}
	var summary bytes.Buffer
	// The summary travels with the weights: it names the files by their base names, not by
	// the training machine's paths.
	run.Paths, run.Validation = baseNames(run.Paths), baseNames(run.Validation)
	run.Positions = strings.Join(baseNames(strings.Split(run.Positions, ",")), ",")
	shown := run.Config
	shown.Positions = nil
	fmt.Fprintf(&summary, "GoThello weights trained %s in %s\nconfig %+v, exact relabelling from %d empties\ntraining data %v (paths %v)\n",
		time.Now().UTC().Format(time.RFC3339), run.FitTime.Round(time.Second), shown, run.Exact, run.Games, run.Paths)
	if len(run.Config.Positions) > 0 {
		fmt.Fprintf(&summary, "labelled positions: %d from %s, each counted %d times\n", len(run.Config.Positions), run.Positions, max(run.Config.PositionWeight, 1))
	}
	if len(val) > 0 {
		rep := Evaluate(e, val)
		fmt.Fprintf(&summary, "validation on %v:\n", run.Validation)
		rep.Write(&summary)
	}
	if err := file.SetSection("TRN1", summary.Bytes()); err != nil {
		return nil, err
	}
	if err := file.WriteFile(path); err != nil {
		return nil, err
	}
	return summary.Bytes(), nil
}

// baseNames returns the last element of each path (filepath.Base), keeping empty ones empty.
func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		if p = strings.TrimSpace(p); p != "" {
			out[i] = filepath.Base(p)
		}
	}
	return out
}

// WriteLog writes the per-epoch errors of a fit as CSV: stage (-1 for a joint fit's epochs,
// over all stages), epoch, train_mae, train_rmse, val_mae (empty without validation games);
// atomically.
func WriteLog(path string, log []EpochStats) error {
	return atomicfile.Write(path, 0o644, func(f io.Writer) error {
		w := csv.NewWriter(f)
		w.Write([]string{"stage", "epoch", "train_mae", "train_rmse", "val_mae"})
		for _, e := range log {
			val := ""
			if !math.IsNaN(e.ValMAE) {
				val = fmt.Sprintf("%.4f", e.ValMAE)
			}
			w.Write([]string{strconv.Itoa(e.Stage), strconv.Itoa(e.Epoch), fmt.Sprintf("%.4f", e.TrainMAE), fmt.Sprintf("%.4f", e.TrainRMSE), val})
		}
		w.Flush()
		return w.Error()
	})
}

// TotalEmptiesBias is the correction by number of empties that zeroes the mean error of e on
// games, on top of the correction e already has, and how many positions each number of
// empties rests on (where none do, e's correction stays).
func TotalEmptiesBias(e *eval.Evaluator, games []Game) (total [61]float64, n [61]int) {
	bias, n := EmptiesBias(e, games)
	total = e.EmptiesBias()
	for k := range total {
		if n[k] > 0 {
			total[k] += bias[k]
		}
	}
	return total, n
}

// WriteEmptiesBias writes the weights of the file src (the embedded weights when empty) to
// out with total as their correction by number of empties (eval.EmptiesBiasSection).
func WriteEmptiesBias(src, out string, total [61]float64) error {
	return WriteWithSection(src, out, eval.EmptiesBiasSection, eval.EncodeEmptiesBias(total))
}

// WriteWithSection writes the weights of the file src (the embedded weights when empty) to
// out with the section tag set to data, after checking that the evaluation reads the result.
func WriteWithSection(src, out, tag string, data []byte) error {
	var f *weights.File
	var err error
	if src == "" {
		f, err = weights.Decode(weights.EmbeddedName, weights.Embedded())
	} else {
		f, err = weights.ReadFile(src)
	}
	if err != nil {
		return err
	}
	if err := f.SetSection(tag, data); err != nil {
		return err
	}
	if _, err := eval.FromFile(out, f); err != nil {
		return err
	}
	return f.WriteFile(out)
}
