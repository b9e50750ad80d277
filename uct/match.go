package uct

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

// The match helper plays two move choosers against each other, so that the pruning rules can
// be measured inside this package; the match package's runner (clocks, external engines, GGF)
// is the tool for everything else.

// Mover chooses the move to play in b, which has a legal move.
type Mover func(ctx context.Context, b board.Board) board.Square

// Searcher is what SearchMover needs: *Engine and *search.Engine have it.
type Searcher interface {
	Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result
}

// SearchMover plays the moves s finds within lim.
func SearchMover(s Searcher, lim search.Limits) Mover {
	return func(ctx context.Context, b board.Board) board.Square {
		return s.Search(ctx, b, lim, nil).Move
	}
}

// MatchResult counts a match's games from the first player's view.
type MatchResult struct {
	Wins, Draws, Losses int
	DiscDiff            int       // sum of the final disc differences
	pairs               []float64 // points of each opening's two games (0 to 2)
}

// Games is the number of games played.
func (r MatchResult) Games() int { return r.Wins + r.Draws + r.Losses }

// Score is the first player's share of the points (a draw is half a point).
func (r MatchResult) Score() float64 {
	if r.Games() == 0 {
		return 0
	}
	return (float64(r.Wins) + float64(r.Draws)/2) / float64(r.Games())
}

// SE is the standard error of Score from the spread of the single games.
func (r MatchResult) SE() float64 {
	n := float64(r.Games())
	if n < 2 {
		return 0
	}
	s := r.Score()
	sq := (float64(r.Wins) + float64(r.Draws)/4) / n
	return math.Sqrt((sq - s*s) / (n - 1))
}

// PairedSE is the standard error of Score from the spread of the openings' pairs of games
// (each opening played with both colours), which takes out the openings' own bias.
func (r MatchResult) PairedSE() float64 {
	n := float64(len(r.pairs))
	if n < 2 {
		return 0
	}
	var sum, sq float64
	for _, p := range r.pairs {
		sum += p / 2
		sq += p * p / 4
	}
	m := sum / n
	return math.Sqrt((sq/n - m*m) / (n - 1))
}

func (r MatchResult) String() string {
	return fmt.Sprintf("%d games: +%d =%d -%d, score %.1f%% (SE %.1f, paired %.1f), mean discs %+.2f",
		r.Games(), r.Wins, r.Draws, r.Losses, 100*r.Score(), 100*r.SE(), 100*r.PairedSE(),
		float64(r.DiscDiff)/float64(max(r.Games(), 1)))
}

// PlayMatch plays each opening twice, a's player black in the first game and white in the
// second, on workers goroutines. newA and newB make a player for game g (g counts from 0; two
// games of opening i are 2i and 2i+1), so that engines keep their trees within a game and
// their own seeds. progress, when not nil, gets the result so far after each opening's pair
// (one call at a time). A player's illegal move is an error; a cancelled ctx ends the match
// with the pairs finished.
func PlayMatch(ctx context.Context, newA, newB func(g int) Mover, openings [][]board.Square, workers int,
	progress func(MatchResult)) (MatchResult, error) {
	var (
		mu       sync.Mutex
		res      MatchResult
		firstErr error
		wg       sync.WaitGroup
	)
	next := make(chan int)
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				var diff [2]int
				var err error
				for c := range 2 {
					black, white := newA(2*i+c), newB(2*i+c)
					if c == 1 {
						black, white = white, black
					}
					var d int
					d, err = PlayGame(ctx, black, white, openings[i])
					if err != nil {
						break
					}
					if c == 1 {
						d = -d
					}
					diff[c] = d
				}
				mu.Lock()
				switch {
				case err != nil:
					if firstErr == nil {
						firstErr = fmt.Errorf("opening %d: %v", i, err)
					}
				case ctx.Err() == nil:
					points := 0.0
					for _, d := range diff {
						res.DiscDiff += d
						switch {
						case d > 0:
							res.Wins++
							points++
						case d < 0:
							res.Losses++
						default:
							res.Draws++
							points += 0.5
						}
					}
					res.pairs = append(res.pairs, points)
					if progress != nil {
						progress(res)
					}
				}
				mu.Unlock()
			}
		}()
	}
	for i := range openings {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	return res, firstErr
}

// PlayGame plays the opening and then the game between black and white, and returns black's
// final disc difference. Passes are played for the players.
func PlayGame(ctx context.Context, black, white Mover, opening []board.Square) (int, error) {
	b := board.Start()
	for _, m := range opening {
		if !b.Play(m) {
			return 0, fmt.Errorf("opening move %s is illegal", m)
		}
	}
	for !b.GameOver() {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		if b.MustPass() {
			b.Pass()
			continue
		}
		mv := white
		if b.BlackToMove {
			mv = black
		}
		m := mv(ctx, b)
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		if m == board.NoSquare || !b.Play(m) {
			return 0, fmt.Errorf("illegal move %s in %s", m, b.OBF())
		}
	}
	return b.BlackScore(), nil
}

// RandomOpenings returns n distinct openings of plies uniformly random moves (passes
// included where forced, none ending the game), the same for the same seed.
func RandomOpenings(seed uint64, n, plies int) [][]board.Square {
	r := newRNG(seed, 0)
	seen := make(map[board.Board]bool)
	var out [][]board.Square
	for tries := 0; len(out) < n && tries < 100*n+1000; tries++ {
		b := board.Start()
		var line []board.Square
		for len(line) < plies && !b.GameOver() {
			m := board.NoSquare
			if moves := b.LegalMoves(); moves != 0 {
				m = r.randomMove(moves)
			}
			b.Play(m)
			line = append(line, m)
		}
		if b.GameOver() || seen[b] {
			continue
		}
		seen[b] = true
		out = append(out, line)
	}
	return out
}
