package match

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/search"
)

// Generated openings. A match played from the start position, or from purely random
// openings, spends most of its games on positions one side already wins: it measures the
// openings more than the engines. XOT's answer is a set of lines of a few random plies whose
// deep value is close to even; GenerateOpenings builds such a set with this engine's own
// search, so that the project ships openings of its own making.

// GenerateConfig sets up GenerateOpenings.
type GenerateConfig struct {
	N     int // openings wanted
	Plies int // random plies of each opening (XOT: 8)
	// Depth and Selectivity are the search that values each candidate (search.Limits).
	Depth, Selectivity int
	// MaxAbs is the largest absolute value, in discs, of an opening that is kept.
	MaxAbs  float64
	Seed    uint64
	Workers int             // candidates searched at the same time (at least 1)
	TTMiB   int             // tables of each candidate's engine, MiB (0: 4)
	Eval    *eval.Evaluator // nil: the mobility evaluation
	// MaxDuplicates bounds the duplicates drawn in a row before the candidates are taken to be
	// exhausted (few plies have few distinct positions); 0: 100,000.
	MaxDuplicates int
}

// Check reports a configuration GenerateOpenings refuses.
func (c GenerateConfig) Check() error {
	switch {
	case c.N < 1:
		return fmt.Errorf("want at least one opening, not %d", c.N)
	case c.Plies < 1 || c.Plies > 20:
		return fmt.Errorf("plies %d: want 1 to 20", c.Plies)
	case c.Depth < 1 || c.Depth > 40:
		return fmt.Errorf("depth %d: want 1 to 40", c.Depth)
	case c.Selectivity < 0 || c.Selectivity > 5:
		return fmt.Errorf("selectivity %d: want 0 to 5", c.Selectivity)
	case !(c.MaxAbs >= 0) || c.MaxAbs > 64:
		return fmt.Errorf("max-abs %v: want 0 to 64 discs", c.MaxAbs)
	case c.Workers < 0 || c.TTMiB < 0 || c.MaxDuplicates < 0:
		return fmt.Errorf("workers, tables and duplicates must not be negative")
	}
	return nil
}

// TableBytes is the memory of the workers' engines' tables.
func (c GenerateConfig) TableBytes() uint64 {
	return uint64(max(c.Workers, 1)) * 2 * uint64(c.ttMiB()) << 20
}

func (c GenerateConfig) ttMiB() int {
	if c.TTMiB == 0 {
		return 4
	}
	return c.TTMiB
}

// Opening is a generated opening: its moves, with the first one f5, and its searched value in
// discs from black's view.
type Opening struct {
	Moves []board.Square
	Value float64
}

// GenerateStats counts what GenerateOpenings drew.
type GenerateStats struct {
	Drawn      int // candidates drawn
	Duplicates int // of them, positions already drawn (up to symmetry)
	Unplayable int // of them, lines that needed a pass or left the side to move without a move
	Searched   int // searched and decided, in the order drawn
	Kept       int
}

// GenerateOpenings draws random lines of cfg.Plies moves from the start position, drops those
// whose position (up to the board's symmetries) an earlier line reached and those that need a
// pass, searches each of the others to cfg.Depth, and keeps those whose value is at most
// cfg.MaxAbs from even, until it has cfg.N. Each line is mapped by the start position's
// symmetry that makes its first move f5, as XOT's lines are.
//
// The result depends only on cfg, not on the number of workers: candidates are drawn from one
// random stream in order, each is searched by a fresh engine (no table carried over from
// another search), and they are kept in the order drawn. done, when not nil, is called after
// each opening kept. When ctx ends it returns ctx's error with the openings kept before the
// first candidate not decided; when the candidates run out first (MaxDuplicates in a row) it
// returns the openings found with an error saying so.
func GenerateOpenings(ctx context.Context, cfg GenerateConfig, done func()) ([]Opening, GenerateStats, error) {
	var st GenerateStats
	if err := cfg.Check(); err != nil {
		return nil, st, err
	}
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	type job struct {
		k     int
		moves []board.Square
		b     board.Board
	}
	type result struct {
		k     int
		moves []board.Square
		value float64 // black's view
		ok    bool    // searched to the end (not cut short by ctx)
	}
	maxDup := cfg.MaxDuplicates
	if maxDup == 0 {
		maxDup = 100000
	}
	jobs := make(chan job)
	results := make(chan result)
	var drawn GenerateStats // the producer's counts, read after it has stopped
	var producer sync.WaitGroup
	producer.Add(1)
	go func() {
		defer producer.Done()
		defer close(jobs)
		rng := rand.New(rand.NewPCG(cfg.Seed, 0x0be41))
		seen := make(map[[2]uint64]bool)
		for k, dupRun := 0, 0; dupRun < maxDup; {
			drawn.Drawn++
			moves, b, ok := randomLine(rng, cfg.Plies)
			if !ok {
				drawn.Unplayable++
				continue
			}
			cp, co, _ := board.Canonical(b.P, b.O)
			if seen[[2]uint64{cp, co}] {
				drawn.Duplicates++
				dupRun++
				continue
			}
			seen[[2]uint64{cp, co}] = true
			dupRun = 0
			select {
			case jobs <- job{k, moves, b}:
				k++
			case <-ctx.Done():
				return
			}
		}
	}()

	var workers sync.WaitGroup
	lim := search.Limits{Depth: cfg.Depth, Selectivity: cfg.Selectivity}
	for w := 0; w < max(cfg.Workers, 1); w++ {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for j := range jobs {
				eng := search.NewEngine(search.Config{TTMiB: cfg.ttMiB(), SolverMiB: cfg.ttMiB(), Eval: cfg.Eval})
				res := eng.Search(ctx, j.b, lim, nil)
				v := res.Score
				if !j.b.BlackToMove {
					v = -v
				}
				select {
				case results <- result{j.k, j.moves, v, ctx.Err() == nil}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		workers.Wait()
		close(results)
	}()

	var kept []Opening
	pending := make(map[int]result)
	next, stopped := 0, false
	for r := range results {
		if stopped {
			continue // draining after the set is complete or ctx ended
		}
		pending[r.k] = r
		for {
			p, ok := pending[next]
			if !ok {
				break
			}
			if !p.ok {
				stopped = true
				break
			}
			delete(pending, next)
			next++
			st.Searched++
			if math.Abs(p.value) <= cfg.MaxAbs {
				kept = append(kept, Opening{Moves: p.moves, Value: p.value})
				if done != nil {
					done()
				}
				if len(kept) == cfg.N {
					stopped = true
					break
				}
			}
		}
		if stopped {
			cancel()
		}
	}
	producer.Wait()
	st.Drawn, st.Duplicates, st.Unplayable, st.Kept = drawn.Drawn, drawn.Duplicates, drawn.Unplayable, len(kept)
	switch {
	case len(kept) == cfg.N:
		return kept, st, nil
	case parent.Err() != nil:
		return kept, st, parent.Err()
	}
	return kept, st, fmt.Errorf("only %d openings of %d found: %d duplicates in a row of %d-ply lines", len(kept), cfg.N, maxDup, cfg.Plies)
}

// randomLine plays plies uniformly random moves from the start position and maps the line by
// the start position's symmetry that makes its first move f5. It fails when a side has to
// pass on the way or at the end, or the game ends.
func randomLine(rng *rand.Rand, plies int) ([]board.Square, board.Board, bool) {
	b := board.Start()
	moves := make([]board.Square, 0, plies)
	for len(moves) < plies {
		m := b.LegalMoves()
		if m == 0 {
			return nil, b, false
		}
		for k := rng.IntN(board.Count(m)); k > 0; k-- {
			m &= m - 1
		}
		sq := board.FirstSquare(m)
		b.Make(sq)
		moves = append(moves, sq)
	}
	if b.LegalMoves() == 0 {
		return nil, b, false
	}
	k := firstMoveSymmetry(moves[0])
	for i := range moves {
		moves[i] = board.TransformSquare(moves[i], k)
	}
	return moves, b.Transformed(k), true
}

// firstMoveSymmetry is the symmetry that keeps the start position and takes first, one of
// the four opening moves, to f5.
func firstMoveSymmetry(first board.Square) int {
	start := board.Start()
	for k := 0; k < 8; k++ {
		if board.TransformSquare(first, k) == board.F5 && start.Transformed(k) == start {
			return k
		}
	}
	panic(fmt.Sprintf("match: %v is not an opening move", first))
}

// WriteOpenings writes the openings as transcripts, one per line, after a header of
// comment lines (each given line prefixed with "# "), in the form ReadOpenings reads.
func WriteOpenings(w io.Writer, header []string, opens []Opening) error {
	bw := bufio.NewWriter(w)
	for _, h := range header {
		fmt.Fprintf(bw, "# %s\n", h)
	}
	for _, o := range opens {
		fmt.Fprintln(bw, board.Transcript(o.Moves))
	}
	return bw.Flush()
}

// WriteGenerateReport writes what GenerateOpenings did: the candidates, the share kept, and
// the distribution of the kept openings' values (mean, deviation, and a count per bin of
// width half a disc), the balance of the set.
func WriteGenerateReport(w io.Writer, opens []Opening, st GenerateStats) {
	fmt.Fprintf(w, "openings: %d kept of %d searched (%.1f%%); %d lines drawn, %d duplicates up to symmetry, %d needing a pass\n",
		st.Kept, st.Searched, 100*float64(st.Kept)/float64(max(st.Searched, 1)), st.Drawn, st.Duplicates, st.Unplayable)
	if len(opens) == 0 {
		return
	}
	var sum, sq float64
	bins := map[int]int{}
	lo, hi := 0, 0
	for _, o := range opens {
		sum += o.Value
		sq += o.Value * o.Value
		k := int(math.Floor(o.Value * 2))
		bins[k]++
		lo, hi = min(lo, k), max(hi, k)
	}
	n := float64(len(opens))
	mean := sum / n
	fmt.Fprintf(w, "values (discs, black's view): mean %+.3f, deviation %.3f\n", mean, math.Sqrt(max(sq/n-mean*mean, 0)))
	for k := lo; k <= hi; k++ {
		fmt.Fprintf(w, "  [%+.1f, %+.1f)  %5d  %5.1f%%\n", float64(k)/2, float64(k+1)/2, bins[k], 100*float64(bins[k])/n)
	}
}
