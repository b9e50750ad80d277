package train

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

// MaxExactDepth bounds the relabelling depth.
const MaxExactDepth = 20

// Relabel solves exactly, with the endgame solver, every position with at most depth empties
// (and a move to play) of every game, and records the scores in the games (ExactDepth,
// Exact): the classic correction of the last moves of game records, whose endgames humans
// and weak programs often misplay. A game that never reaches depth empties with a move to
// play (it ended before) keeps its labels. Each of workers goroutines owns a solver with a
// ttMiB MiB table. done, when not nil, is called after each game (from any goroutine).
func Relabel(games []Game, depth, workers, ttMiB int, done func()) error {
	if depth < 1 || depth > MaxExactDepth {
		return fmt.Errorf("train: relabelling depth %d, want 1..%d", depth, MaxExactDepth)
	}
	if workers < 1 {
		workers = 1
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := search.NewSolver(ttMiB)
			var path [MaxExactDepth + 1]board.Board
			var have [MaxExactDepth + 1]bool
			for {
				i := int(next.Add(1)) - 1
				if i >= len(games) {
					return
				}
				g := &games[i]
				clear(have[:])
				Replay(g.Moves, func(b *board.Board) {
					if e := b.NumEmpties(); e <= depth {
						path[e], have[e] = *b, true
					}
				})
				if !have[depth] {
					if done != nil {
						done()
					}
					continue
				}
				// Deepest first: the shallower positions find its work in the table.
				for e := depth; e >= 0; e-- {
					if !have[e] {
						continue
					}
					b := &path[e]
					v := s.Solve(b.P, b.O, -64, 64).Score
					if !b.BlackToMove {
						v = -v
					}
					g.Exact[e] = int8(v)
				}
				g.ExactDepth = depth
				if done != nil {
					done()
				}
			}
		}()
	}
	wg.Wait()
	return nil
}
