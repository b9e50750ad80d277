package train

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/search"
)

// Search-labelled positions. Game records teach the evaluation the positions good players
// reach; a search mostly evaluates positions one or two poor moves away from them (its
// refutation trees), which the records rarely show. An evaluation that is wrong there is
// inconsistent from one depth to the next, and Multi-ProbCut, which predicts a deep search
// from a shallow one, cuts less. SearchLabels makes such positions (a game position followed by
// a few uniformly random moves) and labels each with the value of a search of it; training
// on them along with the games (Config.Positions) brings the evaluation closer to its own
// searches, the idea behind training an evaluation on search values (as Edax and Egaroucid
// do with their self-play data).

// Position is a labelled position: Score is in discs from the side to move's view.
type Position struct {
	Board board.Board
	Score float32
}

// LabelConfig sets up SearchLabels.
type LabelConfig struct {
	Positions int // how many positions to make
	// Each position: a game position chosen at random, then 0..RandomMoves uniformly random
	// legal moves, ending with MinEmpties..MaxEmpties empties (uniform) and a move to play.
	MinEmpties, MaxEmpties int
	RandomMoves            int
	// The label search: depth, selectivity level, and the empties from which it solves
	// exactly (search.Limits).
	Depth, Selectivity, ExactEmpties int
	Eval                             *eval.Evaluator // nil: the mobility evaluation
	TTMiB                            int             // tables of each worker's engine
	Workers                          int
	Seed                             uint64
	// First is the index of the first position in the seed's sequence: a run with First k
	// makes exactly the positions k, k+1, ... of a run from 0, so an interrupted run can be
	// continued.
	First int
}

// SearchLabels makes and labels cfg.Positions positions from games (see Position). The
// result depends only on the games and cfg (not on the number of workers): position i is
// drawn from its own random stream. done, when not nil, is called after each position. When
// ctx is cancelled it returns ctx's error with the positions finished before the first
// unfinished one, in order (a prefix of the full result).
func SearchLabels(ctx context.Context, games []Game, cfg LabelConfig, done func()) ([]Position, error) {
	if len(games) == 0 {
		return nil, fmt.Errorf("train: no games to draw positions from")
	}
	if cfg.MinEmpties < 1 || cfg.MaxEmpties > 59 || cfg.MinEmpties > cfg.MaxEmpties || cfg.RandomMoves < 0 || cfg.Depth < 1 {
		return nil, fmt.Errorf("train: bad label configuration (empties %d..%d, random moves %d, depth %d)",
			cfg.MinEmpties, cfg.MaxEmpties, cfg.RandomMoves, cfg.Depth)
	}
	workers := max(cfg.Workers, 1)
	if cfg.First < 0 {
		return nil, fmt.Errorf("train: bad first position %d", cfg.First)
	}
	out := make([]Position, cfg.Positions)
	finished := make([]bool, cfg.Positions)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			eng := search.NewEngine(search.Config{TTMiB: cfg.TTMiB, SolverMiB: cfg.TTMiB, Eval: cfg.Eval})
			lim := search.Limits{Depth: cfg.Depth, Selectivity: cfg.Selectivity, ExactEmpties: cfg.ExactEmpties}
			for {
				i := int(next.Add(1)) - 1
				if i >= len(out) || ctx.Err() != nil {
					return
				}
				r := rand.New(rand.NewPCG(cfg.Seed, uint64(cfg.First+i)))
				b := drawPosition(games, cfg, r)
				res := eng.Search(ctx, b, lim, nil)
				if ctx.Err() != nil {
					return // the search may have been cut short
				}
				out[i] = Position{Board: b, Score: float32(res.Score)}
				finished[i] = true
				if done != nil {
					done()
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		k := 0
		for k < len(out) && finished[k] {
			k++
		}
		return out[:k], err
	}
	return out, nil
}

// drawPosition draws one position for SearchLabels; it tries again until it finds one with a
// move to play in the empties range.
func drawPosition(games []Game, cfg LabelConfig, r *rand.Rand) board.Board {
	for {
		g := &games[r.IntN(len(games))]
		target := cfg.MinEmpties + r.IntN(cfg.MaxEmpties-cfg.MinEmpties+1)
		random := r.IntN(cfg.RandomMoves + 1)
		b := board.Start()
		for _, m := range g.Moves {
			if b.NumEmpties() <= target+random {
				break
			}
			if b.LegalMoves() == 0 {
				b.Pass()
			}
			if !b.IsLegal(m) {
				break
			}
			b.Make(m)
		}
		for k := 0; k < random && !b.GameOver(); k++ {
			moves := b.LegalMoves()
			if moves == 0 {
				b.Pass()
				moves = b.LegalMoves()
			}
			n := r.IntN(board.Count(moves))
			for ; n > 0; n-- {
				moves &= moves - 1
			}
			b.Make(board.FirstSquare(moves))
		}
		if b.GameOver() {
			continue
		}
		if b.LegalMoves() == 0 {
			b.Pass()
		}
		if e := b.NumEmpties(); e >= cfg.MinEmpties && e <= cfg.MaxEmpties {
			return b
		}
	}
}

// WritePositions writes positions as text, one per line: the position in .obf form, "; ",
// and the score (discs, side to move's view).
func WritePositions(w io.Writer, ps []Position) error {
	bw := bufio.NewWriter(w)
	for i := range ps {
		fmt.Fprintf(bw, "%s; %+.2f\n", ps[i].Board.OBF(), ps[i].Score)
	}
	return bw.Flush()
}

// ReadPositions reads what WritePositions writes; blank lines and lines starting with '%' or
// '#' are skipped. A malformed line is an error naming it.
func ReadPositions(r io.Reader) ([]Position, error) {
	var ps []Position
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
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, ";") {
			return nil, fmt.Errorf("line %d: want \"; SCORE\" after the position", line)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rest[1:]), 32)
		if err != nil || !(v >= -64 && v <= 64) {
			return nil, fmt.Errorf("line %d: score %q: want a number of discs from -64 to 64", line, strings.TrimSpace(rest[1:]))
		}
		ps = append(ps, Position{Board: b, Score: float32(v)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %v", line+1, err)
	}
	return ps, nil
}
