package search

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/internal/atomicfile"
)

// The options of the devfit command's subcommands (refs, fit, measure, store), their checks
// and runs; the command binds its flags to the fields and only wires.

// UsageError is a Check's error after which the command prints its usage: a missing or extra
// argument or an option out of its range.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

func usageErrorf(format string, args ...any) error {
	return UsageError{fmt.Errorf(format, args...)}
}

// DevRefsOptions are devfit refs's: the output file, the depth of the reference searches, the
// number of positions, their range of empties (LO-HI), the seed of their choice, the positions
// searched at once and the game files.
type DevRefsOptions struct {
	Out, Empties          string
	Depth, N, Concurrency int
	Seed                  uint64
	Files                 []string
}

// span is the range of empties; its error names -empties and the range wanted.
func (o DevRefsOptions) span() (int, int, error) {
	lo, hi, err := ParseSpan(o.Empties)
	if err != nil || lo < o.Depth+2 || hi > 58 {
		return 0, 0, fmt.Errorf("-empties %q: want LO-HI with %d <= LO <= HI <= 58", o.Empties, o.Depth+2)
	}
	return lo, hi, nil
}

// Check refuses a range of empties that does not leave the depth room or is beyond 58, and (a
// UsageError) no output file, no game files, fewer than 1 position, a depth outside 1-30 or a
// concurrency below 1.
func (o DevRefsOptions) Check() error {
	if _, _, err := o.span(); err != nil {
		return err
	}
	if o.Out == "" || len(o.Files) == 0 || o.N < 1 || o.Depth < 1 || o.Depth > 30 || o.Concurrency < 1 {
		return usageErrorf("want -out, game files, n >= 1, depth 1-30, concurrency >= 1")
	}
	return nil
}

// Positions picks the positions of the games' moves (DevPositions); none is an error.
func (o DevRefsOptions) Positions(games [][]board.Square) ([]board.Board, error) {
	lo, hi, _ := o.span()
	positions := DevPositions(games, o.N, lo, hi, o.Seed)
	if len(positions) == 0 {
		return nil, fmt.Errorf("no position with %d-%d empties in the games", lo, hi)
	}
	return positions, nil
}

// Run values every move of the positions (DevReferences, done after each position), reports
// on w and writes the references to o.Out.
func (o DevRefsOptions) Run(ctx context.Context, w io.Writer, cfg Config, positions []board.Board, done func()) error {
	refs, err := DevReferences(ctx, cfg, positions, o.Depth, o.Concurrency, done)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := WriteDevRefs(&buf, refs); err != nil {
		return err
	}
	lo, hi, _ := o.span()
	fmt.Fprintf(w, "devfit refs: %d positions (%d-%d empties), every move at full width depth %d, written to %s\n", len(refs), lo, hi, o.Depth, o.Out)
	return atomicfile.WriteFile(o.Out, buf.Bytes(), 0o644)
}

// DevFitOptions are devfit fit's: the references and their range (A:B), the node budgets
// (comma-separated), the selectivity, the genetic algorithm's population, generations and
// seed, the bounds of a cost, the positions searched at once, the evaluation's name (stored
// with the table), and the files the table goes to (Out empty: the writer).
type DevFitOptions struct {
	Refs, Range, Budgets, EvalName, Out, Store        string
	Selectivity, Population, Generations, Concurrency int
	Seed                                              uint64
	Lo, Hi                                            float64
}

// Check refuses (a UsageError) no references, arguments (nargs of them), budgets that are not
// a list of positive counts, a population below 4, negative generations, a concurrency below
// 1 or bounds outside 0.25 <= Lo < Hi <= 4, and then a selectivity outside 0-MaxSelectivity.
func (o DevFitOptions) Check(nargs int) error {
	bs, err := ParseInts(o.Budgets, 1, 1<<40)
	if o.Refs == "" || nargs != 0 || err != nil || len(bs) == 0 || o.Population < 4 || o.Generations < 0 || o.Concurrency < 1 || !(o.Lo >= 0.25 && o.Lo < o.Hi && o.Hi <= 4) {
		return usageErrorf("want -refs, no arguments, budgets >= 1, pop >= 4, gens >= 0, concurrency >= 1, 0.25 <= lo < hi <= 4")
	}
	return checkSel(o.Selectivity)
}

func checkSel(sel int) error {
	if sel < 0 || sel > MaxSelectivity {
		return fmt.Errorf("-sel %d: want 0-%d", sel, MaxSelectivity)
	}
	return nil
}

// Run fits the cost table on refs with cfg's searches, printing the plain searches' losses,
// every generation and the fit on w, and writes the table to o.Out (or w) and o.Store.
func (o DevFitOptions) Run(w io.Writer, cfg Config, refs []DevRef) error {
	bs, _ := ParseInts(o.Budgets, 1, 1<<40)
	var lims []Limits
	plainLoss := 0.0
	fmt.Fprintf(w, "devfit fit: %d positions, level %d\n", len(refs), o.Selectivity)
	for _, b := range bs {
		lim := Limits{Nodes: uint64(b), Selectivity: o.Selectivity}
		lims = append(lims, lim)
		plain := DevAccuracy(cfg, refs, lim, o.Concurrency)
		plainLoss += plain.Loss / float64(len(bs))
		fmt.Fprintf(w, "plain search, %d nodes: loss %.3f +- %.3f discs, %d worse, depth %.2f\n", b, plain.Loss, plain.LossSE, plain.Worse, plain.Depth)
	}
	opts := GAOptions{Population: o.Population, Generations: o.Generations, Seed: o.Seed}
	cost, loss := FitDevCost(cfg, refs, lims, o.Concurrency, o.Lo, o.Hi, nil, opts, func(s GAStep) {
		c := DevCost{}
		copy(c.Cost[:], s.Best)
		fmt.Fprintf(w, "generation %2d  %4d evaluations  best loss %.3f  cost %s\n", s.Generation, s.Evaluations, s.Value, c.String())
	})
	cost.Eval = o.EvalName
	fmt.Fprintf(w, "fitted: mean loss %.3f discs (plain %.3f), cost at d = 35..65: %s\n", loss, plainLoss, cost.String())
	var text bytes.Buffer
	if err := WriteDevCost(&text, cost); err != nil {
		return err
	}
	if o.Store != "" {
		if err := StoreDevCost(o.Store, text.Bytes()); err != nil {
			return err
		}
	}
	if o.Out != "" {
		return atomicfile.WriteFile(o.Out, text.Bytes(), 0o644)
	}
	_, err := w.Write(text.Bytes())
	return err
}

// DevMeasureOptions are devfit measure's: the references and their range, the node budgets
// and depths (comma-separated, either may be empty), the selectivity and the positions
// searched at once.
type DevMeasureOptions struct {
	Refs, Range, Budgets, Depths string
	Selectivity, Concurrency     int
}

// Check refuses (a UsageError) no references, arguments (nargs of them) or a concurrency
// below 1, and then a selectivity outside 0-MaxSelectivity, budgets that are not positive
// counts and depths outside 1-30.
func (o DevMeasureOptions) Check(nargs int) error {
	if o.Refs == "" || nargs != 0 || o.Concurrency < 1 {
		return usageErrorf("want -refs, no arguments, concurrency >= 1")
	}
	if err := checkSel(o.Selectivity); err != nil {
		return err
	}
	if _, err := ParseInts(o.Budgets, 1, 1<<40); err != nil {
		return fmt.Errorf("-budgets: %v", err)
	}
	if _, err := ParseInts(o.Depths, 1, 30); err != nil {
		return fmt.Errorf("-depths: %v", err)
	}
	return nil
}

// Run prints on w the cost table of dev and DevMeasure's table of plain against dev at every
// budget and depth.
func (o DevMeasureOptions) Run(w io.Writer, plain, dev Config, refs []DevRef) {
	bs, _ := ParseInts(o.Budgets, 1, 1<<40)
	ds, _ := ParseInts(o.Depths, 1, 30)
	shown := dev.DevCost
	if shown == nil {
		shown = DevCostFor(dev.Eval)
	}
	fmt.Fprintf(w, "devfit measure: %d positions, level %d, cost at d = 35..65: %s\n", len(refs), o.Selectivity, shown.String())
	var lims []Limits
	var names []string
	for _, b := range bs {
		lims = append(lims, Limits{Nodes: uint64(b), Selectivity: o.Selectivity})
		names = append(names, fmt.Sprintf("%d nodes", b))
	}
	for _, d := range ds {
		lims = append(lims, Limits{Depth: d, Selectivity: o.Selectivity})
		names = append(names, fmt.Sprintf("depth %d", d))
	}
	DevMeasure(w, plain, dev, refs, lims, names, o.Concurrency)
}

// CheckDevStore refuses (a UsageError) a missing cost file or weight file, or arguments
// (nargs of them), for devfit store.
func CheckDevStore(from, store string, nargs int) error {
	if from == "" || store == "" || nargs != 0 {
		return usageErrorf("want -from and -store and no arguments")
	}
	return nil
}

// ReadDevCostText reads the text of a cost table file (as devfit fit writes it), refusing one
// ParseDevCost does not read; the parse error names the file.
func ReadDevCostText(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if _, err := ParseDevCost(bytes.NewReader(data)); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return data, nil
}

// SetDepthBy sets how c's searches give children their depths: "plies" (the plain search, also
// "") or "deviation", with the cost table of costFile when not empty. Its errors name the
// -depth-by option.
func (c *Config) SetDepthBy(mode, costFile string) error {
	switch mode {
	case "plies", "":
		if costFile != "" {
			return errors.New("a cost table needs -depth-by deviation")
		}
		return nil
	case "deviation":
	default:
		return fmt.Errorf("-depth-by %q: want plies or deviation", mode)
	}
	c.DepthByDeviation = true
	if costFile == "" {
		return nil
	}
	dc, err := ReadDevCostFile(costFile)
	if err != nil {
		return err
	}
	c.DevCost = dc
	return nil
}
