package search

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/weights"
)

// Fitting the cost table of depth by deviation value (`othello devfit`): positions from real
// games get a deep reference value for every move (DevReferences, full width); a cost table
// is judged by the mean loss of the moves a search with it chooses under a node budget,
// against those values (DevAccuracy); a genetic algorithm (Minimize, after Hondoh and
// Kotani's) looks for the table of least loss (FitDevCost).

// DevMove is a move with its reference value in discs, from the side to move's view.
type DevMove struct {
	Move  board.Square
	Value float64
}

// DevRef is a position with the reference value of every legal move, found by a search of
// Depth plies.
type DevRef struct {
	Board board.Board
	Depth int
	Moves []DevMove
}

// Loss is what move costs against the best move by the reference values, in discs; a move
// without a value (none, or a pass) costs nothing.
func (r *DevRef) Loss(move board.Square) float64 {
	best, got, found := math.Inf(-1), 0.0, false
	for _, m := range r.Moves {
		best = math.Max(best, m.Value)
		if m.Move == move {
			got, found = m.Value, true
		}
	}
	if !found {
		return 0
	}
	return best - got
}

// DevPositions picks up to n positions from games (move lists from the start, passes left
// out), at most one a game: in an order of the games shuffled by seed, the position before a
// move at a number of empties drawn from [minEmpties, maxEmpties], when the side to move has a
// move there. Games that are illegal or too short are skipped.
func DevPositions(games [][]board.Square, n, minEmpties, maxEmpties int, seed uint64) []board.Board {
	rng := rand.New(rand.NewPCG(seed, 0x6465766669740a))
	order := rng.Perm(len(games))
	var out []board.Board
	for _, gi := range order {
		if len(out) >= n {
			break
		}
		want := minEmpties + rng.IntN(maxEmpties-minEmpties+1)
		b := board.Start()
		for _, m := range games[gi] {
			if b.LegalMoves() == 0 {
				if b.GameOver() {
					break
				}
				b.Pass()
			}
			if !b.IsLegal(m) {
				break
			}
			if b.NumEmpties() == want {
				out = append(out, b)
				break
			}
			b.Make(m)
		}
	}
	return out
}

// DevReferences values every move of each position by a full-width search (cfg without
// Multi-ProbCut or depth by deviation) to depth, with workers engines at a time; done, when
// not nil, is called after each position (from the workers). It fails when ctx ends first.
func DevReferences(ctx context.Context, cfg Config, positions []board.Board, depth, workers int, done func()) ([]DevRef, error) {
	cfg.NoMPC, cfg.DepthByDeviation = true, false
	refs := make([]DevRef, len(positions))
	forPositions(len(positions), workers, cfg, func(e *Engine, i int) {
		if ctx.Err() != nil {
			return
		}
		ms := e.Analyze(ctx, positions[i], Limits{Depth: depth}, 0, nil)
		r := DevRef{Board: positions[i], Depth: depth}
		for _, m := range ms {
			r.Moves = append(r.Moves, DevMove{m.Move, m.Score})
		}
		refs[i] = r
		if done != nil {
			done()
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return refs, nil
}

// forPositions runs work on positions 0..n-1 with workers engines of cfg, position i on
// engine i%workers in increasing order, so that a run's results depend on the number of
// workers but not on the threads' timing.
func forPositions(n, workers int, cfg Config, work func(e *Engine, i int)) {
	workers = max(1, min(workers, n))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			e := NewEngine(cfg)
			for i := w; i < n; i += workers {
				work(e, i)
			}
		}(w)
	}
	wg.Wait()
}

// WriteDevRefs writes references one position a line, in the .obf form: the board and side,
// then "; depth N" and "; move value" for each move (values in discs).
func WriteDevRefs(w io.Writer, refs []DevRef) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%% deep reference values of every move (othello devfit refs): board side; depth N; move value; ...\n")
	for i := range refs {
		r := &refs[i]
		fmt.Fprintf(bw, "%s; depth %d", r.Board.OBF(), r.Depth)
		for _, m := range r.Moves {
			fmt.Fprintf(bw, "; %s %+.3f", m.Move, m.Value)
		}
		fmt.Fprintf(bw, "\n")
	}
	return bw.Flush()
}

// ReadDevRefs reads references written by WriteDevRefs. Every move must be legal, every
// legal move valued, and no move twice.
func ReadDevRefs(r io.Reader) ([]DevRef, error) {
	var out []DevRef
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || t[0] == '%' || t[0] == '#' {
			continue
		}
		b, rest, err := board.ParseOBF(t)
		if err != nil {
			return nil, fmt.Errorf("refs line %d: %v", line, err)
		}
		ref := DevRef{Board: b}
		var seen uint64
		for k, field := range strings.Split(rest, ";") {
			f := strings.Fields(field)
			if k == 0 {
				if len(f) != 0 {
					return nil, fmt.Errorf("refs line %d: want \";\" after the side to move", line)
				}
				continue
			}
			if len(f) != 2 {
				return nil, fmt.Errorf("refs line %d: field %q: want \"depth N\" or \"move value\"", line, strings.TrimSpace(field))
			}
			if f[0] == "depth" {
				d, err := strconv.Atoi(f[1])
				if err != nil || d < 1 || d > 60 {
					return nil, fmt.Errorf("refs line %d: depth %q: want 1-60", line, f[1])
				}
				ref.Depth = d
				continue
			}
			sq, err := board.ParseSquare(f[0])
			if err != nil {
				return nil, fmt.Errorf("refs line %d: %v", line, err)
			}
			if !b.IsLegal(sq) || seen&sq.Bit() != 0 {
				return nil, fmt.Errorf("refs line %d: move %s is not legal or given twice", line, sq)
			}
			v, err := strconv.ParseFloat(f[1], 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > 64 {
				return nil, fmt.Errorf("refs line %d: value %q: want a number of discs", line, f[1])
			}
			seen |= sq.Bit()
			ref.Moves = append(ref.Moves, DevMove{sq, v})
		}
		if seen != b.LegalMoves() || ref.Depth == 0 {
			return nil, fmt.Errorf("refs line %d: want a depth and a value for each of the %d legal moves", line, board.Count(b.LegalMoves()))
		}
		out = append(out, ref)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// DevEval is how well a search configuration chooses moves on references.
type DevEval struct {
	Positions int
	Loss      float64   // mean loss of the chosen moves against the references, in discs
	LossSE    float64   // its standard error
	Worse     int       // positions where the chosen move is worse than the best
	Nodes     float64   // mean nodes a search
	Depth     float64   // mean depth of the last iteration reached
	Losses    []float64 // each position's loss, for paired comparisons
}

// DevAccuracy searches each reference position within lim (a node budget or a depth, and the
// selectivity) with workers engines of cfg and measures the loss of the chosen moves. The
// result depends only on the number of workers (forPositions).
func DevAccuracy(cfg Config, refs []DevRef, lim Limits, workers int) DevEval {
	losses := make([]float64, len(refs))
	nodes := make([]uint64, len(refs))
	depths := make([]int, len(refs))
	forPositions(len(refs), workers, cfg, func(e *Engine, i int) {
		r := e.Search(context.Background(), refs[i].Board, lim, nil)
		losses[i], nodes[i], depths[i] = refs[i].Loss(r.Move), r.Nodes, r.Depth
	})
	ev := DevEval{Positions: len(refs), Losses: losses}
	if len(refs) == 0 {
		return ev
	}
	for i := range refs {
		ev.Nodes += float64(nodes[i])
		ev.Depth += float64(depths[i])
		if losses[i] > 0 {
			ev.Worse++
		}
	}
	n := float64(len(refs))
	ev.Nodes /= n
	ev.Depth /= n
	ev.Loss, ev.LossSE = MeanSE(losses)
	return ev
}

// MeanSE is the mean of xs and its standard error.
func MeanSE(xs []float64) (mean, se float64) {
	n := float64(len(xs))
	if n == 0 {
		return 0, 0
	}
	for _, x := range xs {
		mean += x
	}
	mean /= n
	if n < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / (n - 1) / n)
}

// GAOptions set up Minimize.
type GAOptions struct {
	Population  int     // individuals a generation (at least 4)
	Generations int     // generations after the first
	Seed        uint64  // the run is a function of the seed and the objective
	MutateRate  float64 // chance that a child's gene mutates (0: 1/len)
	MutateSD    float64 // deviation of a mutation, as a fraction of the gene's range (0: 0.1)
	// Start holds individuals of the first generation (the rest is drawn uniformly).
	Start [][]float64
}

// GAStep reports a generation: its number, the best individual so far and its value, and the
// number of objective evaluations so far.
type GAStep struct {
	Generation, Evaluations int
	Best                    []float64
	Value                   float64
}

// Minimize looks for the x within [lo, hi] (per coordinate) that minimizes f with a genetic
// algorithm after Hondoh and Kotani's: each generation keeps the better half, and fills the
// other half with children of a parent from the best quarter and one from the best half, by
// one-point crossover and Gaussian mutation (clipped to the bounds). Survivors keep their
// value (f is taken to be deterministic). each, when not nil, sees every generation.
func Minimize(f func(x []float64) float64, lo, hi []float64, o GAOptions, each func(GAStep)) ([]float64, float64) {
	dim := len(lo)
	pop := max(o.Population, 4)
	rate, sd := o.MutateRate, o.MutateSD
	if rate <= 0 {
		rate = 1 / float64(dim)
	}
	if sd <= 0 {
		sd = 0.1
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x6761))
	type ind struct {
		x []float64
		v float64
	}
	clip := func(x []float64) {
		for i := range x {
			x[i] = math.Min(math.Max(x[i], lo[i]), hi[i])
		}
	}
	evals := 0
	people := make([]ind, pop)
	for k := range people {
		x := make([]float64, dim)
		if k < len(o.Start) {
			copy(x, o.Start[k])
		} else {
			for i := range x {
				x[i] = lo[i] + rng.Float64()*(hi[i]-lo[i])
			}
		}
		clip(x)
		people[k] = ind{x, f(x)}
		evals++
	}
	sortPeople := func() {
		sort.SliceStable(people, func(a, b int) bool { return people[a].v < people[b].v })
	}
	sortPeople()
	report := func(g int) {
		if each != nil {
			each(GAStep{Generation: g, Evaluations: evals, Best: append([]float64(nil), people[0].x...), Value: people[0].v})
		}
	}
	report(0)
	keep := (pop + 1) / 2
	quarter := max(1, pop/4)
	for g := 1; g <= o.Generations; g++ {
		for k := keep; k < pop; k++ {
			a := people[rng.IntN(quarter)].x
			b := people[rng.IntN(keep)].x
			cut := rng.IntN(dim + 1)
			x := make([]float64, dim)
			copy(x, a[:cut])
			copy(x[cut:], b[cut:])
			for i := range x {
				if rng.Float64() < rate {
					x[i] += rng.NormFloat64() * sd * (hi[i] - lo[i])
				}
			}
			clip(x)
			people[k] = ind{x, f(x)}
			evals++
		}
		sortPeople()
		report(g)
	}
	return people[0].x, people[0].v
}

// FitDevCost fits the cost table on refs: the table of least mean loss (DevAccuracy) of
// searches of cfg with depth by deviation value, averaged over lims (node budgets: one
// budget's loss on a few hundred positions is noisy enough for the fit to learn its noise),
// found by Minimize with costs within [lo, hi] plies. The first generation holds the flat
// table of one ply a child (the plain search's heights) and base when not nil. each, when
// not nil, sees every generation.
func FitDevCost(cfg Config, refs []DevRef, lims []Limits, workers int, lo, hi float64, base *DevCost, o GAOptions, each func(GAStep)) (*DevCost, float64) {
	cfg.DepthByDeviation = true
	lo, hi = math.Max(lo, devMinCost), math.Min(hi, devMaxCost)
	los, his := make([]float64, DevPoints), make([]float64, DevPoints)
	for i := range los {
		los[i], his[i] = lo, hi
	}
	flat := FlatDevCost(1)
	o.Start = append([][]float64{flat.Cost[:]}, o.Start...)
	if base != nil {
		o.Start = append(o.Start, base.Cost[:])
	}
	f := func(x []float64) float64 {
		c := &DevCost{}
		copy(c.Cost[:], x)
		cfg.DevCost = c
		loss := 0.0
		for _, lim := range lims {
			loss += DevAccuracy(cfg, refs, lim, workers).Loss
		}
		return loss / float64(len(lims))
	}
	x, v := Minimize(f, los, his, o, each)
	c := &DevCost{}
	copy(c.Cost[:], x)
	return c, v
}

// StoreDevCost writes a cost table (WriteDevCost's text) into the DevSection section of the
// weight file at path, where the engine looks for it.
func StoreDevCost(path string, text []byte) error {
	f, err := weights.ReadFile(path)
	if err != nil {
		return err
	}
	if err := f.SetSection(DevSection, text); err != nil {
		return err
	}
	return f.WriteFile(path)
}
