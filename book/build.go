package book

import (
	"context"
	"fmt"
	"sync"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

// Searcher is the one thing the book needs from a search engine; *search.Engine has it.
type Searcher interface {
	Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result
}

// Game is a game record: the start position and the moves, passes as board.NoSquare
// (board.ParseTranscript gives them in this form).
type Game struct {
	Name      string // where the game comes from, for messages (e.g. "games.ggf: game 3"); may be empty
	Start     board.Board
	Moves     []board.Square
	Result    int  // final disc difference, black's view
	HasResult bool // Result is known
}

// AddGame adds the positions of g up to maxPly moves (passes not counted) to the book, with
// its result in their game statistics, and marks the moves played as book moves. The values
// of new positions are unknown until Evaluate and Fix. It returns the number of positions
// added, or an error, leaving the book unchanged, when the start position cannot be in a
// book (fewer than 4 discs) or a move is illegal.
func (bk *Book) AddGame(g Game, maxPly int) (int, error) {
	line, err := replay(g, maxPly)
	if err != nil {
		return 0, fmt.Errorf("book: %w", err)
	}
	return bk.addLine(g, line), nil
}

// AddGames adds games as AddGame does, but keeps only positions that occur (up to symmetry)
// in at least minGames of them: each line stops at its first rarer position. It stops at
// the first illegal game, with the games before it added.
func (bk *Book) AddGames(games []Game, maxPly, minGames int) (int, error) {
	lines := make([][]step, len(games))
	count := map[Key]int{}
	for i, g := range games {
		line, err := replay(g, maxPly)
		if err != nil {
			return 0, fmt.Errorf("book: %s: %w", gameName(g, i), err)
		}
		lines[i] = line
		seen := map[Key]bool{} // a game counts once per position, even through a pass
		for _, s := range line {
			if k, _ := keyOf(s.p, s.o); !seen[k] {
				seen[k] = true
				count[k]++
			}
		}
	}
	added := 0
	for i, line := range lines {
		for j, s := range line {
			if k, _ := keyOf(s.p, s.o); count[k] < minGames {
				line = line[:j]
				break
			}
		}
		if len(line) > 0 {
			line[len(line)-1].sq = noMove
		}
		added += bk.addLine(games[i], line)
	}
	return added, nil
}

// step is one position of a game line and the move played from it (noMove for the last).
type step struct {
	p, o        uint64
	blackToMove bool
	sq          uint8
}

const noMove = 255

// gameName names the i-th game (0-based) of a list for a message: its Name, else its number.
func gameName(g Game, i int) string {
	if g.Name != "" {
		return g.Name
	}
	return fmt.Sprintf("game %d", i+1)
}

// ValidGames returns the games the book can take (AddGame would accept them) and, for each
// of the others, an error naming it and saying why it is left out: a start position no game
// reaches (fewer than 4 discs) or an illegal move.
func ValidGames(games []Game) (valid []Game, skipped []error) {
	valid = make([]Game, 0, len(games))
	for i, g := range games {
		if _, err := replay(g, 60); err != nil {
			skipped = append(skipped, fmt.Errorf("%s: %w", gameName(g, i), err))
			continue
		}
		valid = append(valid, g)
	}
	return valid, skipped
}

// replay checks the game's start position and moves and returns its positions up to maxPly
// moves.
func replay(g Game, maxPly int) ([]step, error) {
	b := g.Start
	if err := checkPosition(b.P, b.O); err != nil {
		return nil, fmt.Errorf("the start position %v", err)
	}
	var line []step
	ply := 0
	for i, m := range g.Moves {
		if ply >= maxPly {
			break
		}
		sq := uint8(passSquare)
		if m != board.NoSquare {
			sq = uint8(m)
		}
		line = append(line, step{b.P, b.O, b.BlackToMove, sq})
		if !b.Play(m) {
			return nil, fmt.Errorf("move %d (%s) is not legal for %s", i+1, m, b.SideName())
		}
		if m != board.NoSquare {
			ply++
		}
	}
	return append(line, step{b.P, b.O, b.BlackToMove, noMove}), nil
}

// addLine adds the positions of a replayed line, its game's result and its book moves.
func (bk *Book) addLine(g Game, line []step) int {
	added := 0
	for _, s := range line {
		before := len(bk.nodes)
		n := bk.ensure(s.p, s.o)
		added += len(bk.nodes) - before
		if g.HasResult {
			r := g.Result
			if !s.blackToMove {
				r = -r
			}
			switch {
			case r > 0:
				n.wins++
			case r < 0:
				n.losses++
			default:
				n.draws++
			}
		}
		if s.sq == noMove {
			continue
		}
		_, sym := keyOf(s.p, s.o)
		csq := s.sq
		if csq != passSquare {
			csq = uint8(board.TransformSquare(board.Square(csq), sym))
		}
		if mv := n.find(csq); mv != nil {
			mv.inBook = true
		} else {
			// A move whose value is unknown until Fix propagates its child's.
			n.set(move{sq: csq, inBook: true, depth: unknownDepth})
		}
	}
	return added
}

// unknownDepth marks a book move whose value is not known yet (its position has not been
// evaluated). It never reaches a file: Fix gives every book move its child's value, and a
// move whose child has no known value is dropped from the parent before saving.
const unknownDepth = 254

// Options controls searches of moves leaving the book.
type Options struct {
	Depth       int // midgame search depth of each leaf
	Selectivity int // Multi-ProbCut level for the leaf searches (0: none)
	// Progress, when not nil, is called after each leaf search with the leaves done and the
	// total to do.
	Progress func(done, total int)
	// Helpers are further searchers: each searches leaves in its own goroutine alongside the
	// main one. With helpers, which searcher takes which leaf varies from run to run, so
	// values can differ slightly where a searcher's tables carry over between searches.
	Helpers []Searcher
}

// leafValue searches the position (p, o) and returns its value for the side to move.
func leafValue(ctx context.Context, s Searcher, p, o uint64, opt Options) (value, uint8) {
	if board.LegalMoves(p, o) == 0 {
		if board.LegalMoves(o, p) == 0 {
			return toValue(float64(board.DiscDiff(p, o))), DepthExact
		}
		v, d := leafValue(ctx, s, o, p, opt)
		return -v, d
	}
	b := board.FromColors(p, o, true)
	r := s.Search(ctx, b, search.Limits{Depth: opt.Depth, Selectivity: opt.Selectivity}, nil)
	d := uint8(min(r.Depth, DepthExact-2))
	if r.Exact {
		d = DepthExact
	}
	return toValue(r.Score), d
}

// pendingLeaves lists the moves that need a search: legal moves of book positions whose
// value is not known and whose resulting position is not in the book.
func (bk *Book) pendingLeaves() []leaf {
	var pending []leaf
	for _, k := range bk.sortedKeys() {
		n := bk.nodes[k]
		for _, sq := range legalSquares(k.P, k.O) {
			if mv := n.find(sq); mv != nil && (mv.depth != unknownDepth || mv.inBook) {
				continue
			}
			cp, co := child(k.P, k.O, sq)
			if ck, _ := keyOf(cp, co); bk.nodes[ck] != nil {
				continue
			}
			pending = append(pending, leaf{k, sq})
		}
	}
	return pending
}

type leaf struct {
	k  Key
	sq uint8
}

// Evaluate searches every legal move of every book position whose value is unknown and whose
// resulting position is not in the book, at opt.Depth, then re-propagates values (Fix). It
// returns the number of leaves searched. When ctx is cancelled it stops between searches,
// keeping the values found so far, and returns ctx's error; the book stays consistent, and a
// later Evaluate goes on with the leaves left.
func (bk *Book) Evaluate(ctx context.Context, s Searcher, opt Options) (int, error) {
	pending := bk.pendingLeaves()
	type result struct {
		i     int
		v     value
		depth uint8
	}
	jobs := make(chan int)
	results := make(chan result)
	var wg sync.WaitGroup
	for _, w := range append([]Searcher{s}, opt.Helpers...) {
		wg.Add(1)
		go func(w Searcher) {
			defer wg.Done()
			for i := range jobs {
				cp, co := child(pending[i].k.P, pending[i].k.O, pending[i].sq)
				v, d := leafValue(ctx, w, cp, co, opt)
				if ctx.Err() != nil {
					continue // the search was cut short: its value is not trustworthy
				}
				results <- result{i, -v, d}
			}
		}(w)
	}
	go func() {
		defer close(jobs)
		for i := range pending {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	done := 0
	for r := range results {
		l := pending[r.i]
		bk.nodes[l.k].set(move{sq: l.sq, depth: r.depth, value: r.v})
		done++
		if opt.Progress != nil {
			opt.Progress(done, len(pending))
		}
	}
	bk.Fix()
	if done < len(pending) {
		return done, ctx.Err()
	}
	return done, nil
}

// Fix re-propagates values by negamax: every book move takes the value of the position it
// leads to, and every position the value of its best move. Moves whose value is unknown are
// dropped. It returns the number of positions whose value changed.
func (bk *Book) Fix() int {
	state := make(map[Key]uint8, len(bk.nodes)) // 0 unvisited, 1 done
	changed := 0
	var visit func(k Key) *node
	visit = func(k Key) *node {
		n := bk.nodes[k]
		if state[k] == 1 {
			return n
		}
		state[k] = 1
		legal := legalSquares(k.P, k.O)
		if len(legal) == 0 {
			n.moves = n.moves[:0]
			return n
		}
		old, oldKnown, oldDepth := n.score, n.known, n.depth
		kept := make([]move, 0, len(legal))
		for _, sq := range legal {
			cp, co := child(k.P, k.O, sq)
			ck, _ := keyOf(cp, co)
			mv := n.find(sq)
			var m move
			if mv != nil {
				m = *mv
			} else {
				m = move{sq: sq, depth: unknownDepth}
			}
			if bk.nodes[ck] != nil {
				c := visit(ck)
				m.inBook = true
				if c.known {
					m.value, m.depth = -c.score, c.depth
				} else {
					m.depth = unknownDepth
				}
			} else if m.inBook {
				// The child left the book (it never does today; kept for safety): its
				// propagated value stands as a searched one.
				m.inBook = false
			}
			if m.depth != unknownDepth {
				kept = append(kept, m)
			}
		}
		n.moves = kept
		n.known = len(kept) > 0
		if n.known {
			best := kept[0]
			for _, m := range kept[1:] {
				if m.value > best.value {
					best = m
				}
			}
			n.score, n.depth = best.value, best.depth
		} else {
			n.score, n.depth = 0, 0
		}
		if n.known != oldKnown || n.score != old || n.depth != oldDepth {
			changed++
		}
		return n
	}
	for _, k := range bk.sortedKeys() {
		visit(k)
	}
	return changed
}
