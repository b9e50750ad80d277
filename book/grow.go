package book

import (
	"context"
	"sort"

	"github.com/othellogo/othello/board"
)

// ply is the number of moves played to reach a position (passes not counted).
func (k Key) ply() int { return board.Count(k.P|k.O) - 4 }

// Deviate adds to the book the positions after the best unexplored moves: moves leaving the
// book from positions before maxPly whose value is within margin discs of the position's
// value, at most limit of them (0: no limit), those closest to the best first. The new
// positions are then evaluated (their moves searched) and values re-propagated. It returns
// the number of positions added and of leaves searched.
func (bk *Book) Deviate(ctx context.Context, s Searcher, opt Options, margin float64, maxPly, limit int) (added, searched int, err error) {
	added = bk.addDeviations(margin, maxPly, limit)
	searched, err = bk.Evaluate(ctx, s, opt)
	return added, searched, err
}

// addDeviations adds the positions of Deviate and returns how many.
func (bk *Book) addDeviations(margin float64, maxPly, limit int) (added int) {
	bk.Fix()
	type cand struct {
		k    Key
		sq   uint8
		loss value
	}
	var cands []cand
	m := toValue(margin)
	for _, k := range bk.sortedKeys() {
		n := bk.nodes[k]
		if !n.known || k.ply() >= maxPly {
			continue
		}
		for _, mv := range n.moves {
			if !mv.inBook && mv.depth != DepthExact && n.score-mv.value <= m {
				cands = append(cands, cand{k, mv.sq, n.score - mv.value})
			}
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].loss < cands[j].loss })
	for _, c := range cands {
		if limit > 0 && added >= limit {
			break
		}
		if bk.addChild(c.k, c.sq) {
			added++
		}
	}
	return added
}

// Extend lengthens the book's lines: every position before maxPly with no book move gets
// the position after its best move added, and the new positions are evaluated. It returns
// the number of positions added and of leaves searched.
func (bk *Book) Extend(ctx context.Context, s Searcher, opt Options, maxPly int) (added, searched int, err error) {
	added = bk.addBestChildren(maxPly)
	searched, err = bk.Evaluate(ctx, s, opt)
	return added, searched, err
}

// addBestChildren adds the positions of Extend and returns how many.
func (bk *Book) addBestChildren(maxPly int) (added int) {
	bk.Fix()
	for _, k := range bk.sortedKeys() {
		n := bk.nodes[k]
		if !n.known || k.ply() >= maxPly || len(n.moves) == 0 {
			continue
		}
		best := -1
		for i, mv := range n.moves {
			if mv.inBook {
				best = -1
				break
			}
			if best < 0 || mv.value > n.moves[best].value {
				best = i
			}
		}
		if best >= 0 && n.moves[best].depth != DepthExact && bk.addChild(k, n.moves[best].sq) {
			added++
		}
	}
	return added
}

// ExtendRounds extends the book (Extend) up to rounds times, each round adding one move to
// every line, and stops early when a round adds nothing. It returns the totals. (A Job with
// ExtendWork does the same on a book file, and can be resumed.)
func (bk *Book) ExtendRounds(ctx context.Context, s Searcher, opt Options, maxPly, rounds int) (added, searched int, err error) {
	return (&Job{Book: bk, work: ExtendWork(maxPly, rounds)}).Run(ctx, s, opt)
}

// addChild adds the position after sq in the book position k, reporting whether it is new.
func (bk *Book) addChild(k Key, sq uint8) bool {
	cp, co := child(k.P, k.O, sq)
	ck, _ := keyOf(cp, co)
	if bk.nodes[ck] != nil {
		return false
	}
	bk.ensure(cp, co)
	if mv := bk.nodes[k].find(sq); mv != nil {
		mv.inBook = true
	}
	return true
}

// Learn adds a played game to the book up to maxPly moves, searches the moves leaving the
// book from its new positions and re-propagates values: NBoard's "learn" and "book learn".
func (bk *Book) Learn(ctx context.Context, s Searcher, g Game, maxPly int, opt Options) (added, searched int, err error) {
	if added, err = bk.AddGame(g, maxPly); err != nil {
		return 0, 0, err
	}
	searched, err = bk.Evaluate(ctx, s, opt)
	return added, searched, err
}

// LearnGames learns games one after the other (Learn) and returns the totals. It stops at the
// first game that fails, with an error naming it, or when ctx ends (the context's error): the
// book is consistent then, with the positions searched so far. (A Job with LearnWork does the
// same on a book file, and can be resumed.)
func (bk *Book) LearnGames(ctx context.Context, s Searcher, games []Game, maxPly int, opt Options) (added, searched int, err error) {
	return (&Job{Book: bk, work: LearnWork(games, maxPly)}).Run(ctx, s, opt)
}

// Stats summarises a book.
type Stats struct {
	Positions     int
	Known         int         // positions with a known value
	Moves         int         // move values stored
	BookMoves     int         // moves leading to another book position
	Games         int         // games through the start position (or the most-played position)
	MaxPly        int         // deepest position
	ByPly         map[int]int // positions per ply
	LeafDepths    map[int]int // searched move values per search depth (DepthExact: exact)
	FileBytes     int         // size of the encoded book
	StartKnown    bool
	StartScore    float64 // value of the start position for black
	StartBestMove board.Square
}

// Stats computes the book's statistics.
func (bk *Book) Stats() Stats {
	st := Stats{Positions: len(bk.nodes), ByPly: map[int]int{}, LeafDepths: map[int]int{}}
	for k, n := range bk.nodes {
		if n.known {
			st.Known++
		}
		st.Moves += n.knownMoves()
		for _, mv := range n.moves {
			if mv.depth == unknownDepth {
				continue
			}
			if mv.inBook {
				st.BookMoves++
			} else {
				st.LeafDepths[int(mv.depth)]++
			}
		}
		p := k.ply()
		st.ByPly[p]++
		st.MaxPly = max(st.MaxPly, p)
		st.Games = max(st.Games, int(n.wins+n.draws+n.losses))
	}
	st.FileBytes = headerSize + st.Positions*nodeRecordSize + st.Moves*moveRecordSize
	if e, ok := bk.Lookup(board.Start()); ok && e.Known {
		st.StartKnown, st.StartScore = true, e.Score
		st.StartBestMove = e.Moves[0].Move
	}
	return st
}
