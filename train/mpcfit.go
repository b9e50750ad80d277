package train

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"sync"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
	"github.com/othellogo/othello/weights"
)

// Fitting the search's Multi-ProbCut regressions (Buro, 1997) to an evaluation: positions like
// those the engine meets are searched by iterative deepening (search.Engine.SampleMPC), and
// search.FitMPC regresses the value at each height on the shallow ones.

// ReadMPCPositions reads up to n positions from an .obf-style file (anything after the side to
// move is ignored), keeping those with a move to play and more than maxHeight+1 empties, so
// that every height up to maxHeight is a midgame search. The same file gives every evaluation
// the same positions, for comparing their fits.
func ReadMPCPositions(path string, n, maxHeight int) ([]board.Board, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []board.Board
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() && len(out) < n {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || t[0] == '%' || t[0] == '#' {
			continue
		}
		b, _, err := board.ParseOBF(t)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %v", path, line, err)
		}
		if b.NumEmpties() > maxHeight+1 && b.LegalMoves() != 0 {
			out = append(out, b)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no position with a move to play and more than %d empties", path, maxHeight+1)
	}
	return out, nil
}

// SampleMPCPositions continues random openings with depth-4 play of an engine configured by
// cfg, a random move one time in 25, and keeps one position per game at a random number of
// empties that leaves room for a search to maxHeight. The positions should look like those
// the engine meets: with depth-2 play and a random move one time in five the midgame
// residuals came out 15-30% larger (wilder positions), so the cuts were more timid than they
// needed to be.
func SampleMPCPositions(cfg search.Config, opens [][]board.Square, n, maxHeight int, seed uint64) []board.Board {
	rng := rand.New(rand.NewPCG(seed, 0x3fc))
	e := search.NewEngine(cfg)
	var out []board.Board
	for tries := 0; len(out) < n && tries < 20*n; tries++ {
		open := opens[rng.IntN(len(opens))]
		b := board.Start()
		for _, m := range open {
			if m == board.NoSquare {
				b.Pass()
			} else {
				b.Make(m)
			}
		}
		target := maxHeight + 2 + rng.IntN(max(1, 49-maxHeight))
		for b.NumEmpties() > target && !b.GameOver() {
			moves := b.LegalMoves()
			if moves == 0 {
				b.Pass()
				continue
			}
			var sq board.Square
			if rng.IntN(25) == 0 {
				k := rng.IntN(board.Count(moves))
				for ; k > 0; k-- {
					moves &= moves - 1
				}
				sq = board.FirstSquare(moves)
			} else {
				sq = e.Search(context.Background(), b, search.Limits{Depth: 4}, nil).Move
			}
			b.Make(sq)
		}
		if b.NumEmpties() == target && b.LegalMoves() != 0 {
			out = append(out, b)
		}
	}
	return out
}

// MPCSamples searches every position to maxHeight (search.Engine.SampleMPC) with workers
// engines configured by cfg, and returns the samples of the positions that gave one, in the
// positions' order. done, when not nil, is called after each position (from any worker).
// When ctx ends, the positions not yet handed out are skipped.
func MPCSamples(ctx context.Context, cfg search.Config, positions []board.Board, maxHeight, workers int, done func()) []search.MPCSample {
	samples := make([]search.MPCSample, len(positions))
	ok := make([]bool, len(positions))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < max(workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := search.NewEngine(cfg)
			for i := range jobs {
				samples[i], ok[i] = e.SampleMPC(ctx, positions[i], maxHeight)
				if done != nil {
					done()
				}
			}
		}()
	}
	for i := range positions {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	var good []search.MPCSample
	for i := range samples {
		if ok[i] {
			good = append(good, samples[i])
		}
	}
	return good
}

// StoreMPC writes regressions (search.WriteMPC's text) into the search.MPCSection section of
// the weight file at path, where the engine looks for them.
func StoreMPC(path string, text []byte) error {
	f, err := weights.ReadFile(path)
	if err != nil {
		return err
	}
	if err := f.SetSection(search.MPCSection, text); err != nil {
		return err
	}
	return f.WriteFile(path)
}
