// Package book is the engine's opening book: a negamax book in the manner of Edax and
// Egaroucid, which the engine builds from game records and grows from its own searches and
// games.
//
// A position is stored once for its 8 symmetric forms, under its canonical (P, O) pair
// (board.Canonical: side-relative bitboards, so the key does not depend on the colour to
// move). Each position keeps the value of every legal move that is known, either searched at
// a fixed depth ("leaf" moves, whose resulting position is not in the book) or propagated
// from the resulting book position by negamax, the position's own value (the best move
// value) with the depth of the search that produced it, and the results of the games that
// went through it, counted from the side to move.
//
// The book lives in memory as a map; on disk it is a compact sorted binary file with a
// checksum, written atomically and under an advisory lock, merged with what other processes
// wrote to the file meanwhile (file.go, merge.go). Front ends use Lookup and Choose; the builder
// (build.go) adds game lines, searches the moves leaving the book and re-propagates values.
// A Book is not safe for concurrent mutation; concurrent Lookup and Choose on a book that no
// goroutine modifies are safe.
package book

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/othellogo/othello/board"
)

// Key is a position in canonical form: the side-relative bitboards of the symmetric form that
// board.Canonical picks.
type Key struct{ P, O uint64 }

// DepthExact marks a value that is an exact endgame result (a solve or a finished game).
const DepthExact = 255

// passSquare is how a pass is stored in a move record.
const passSquare = 64

// value is a score in hundredths of a disc, from the side to move's view.
type value int16

func toValue(discs float64) value {
	v := math.Round(discs * 100)
	if v > 6400 {
		v = 6400
	}
	if v < -6400 {
		v = -6400
	}
	return value(v)
}

func (v value) discs() float64 { return float64(v) / 100 }

// move is a legal move of a book position with its known value, in the canonical orientation.
type move struct {
	sq     uint8 // 0..63, passSquare for a pass
	depth  uint8 // search depth of the value, DepthExact for an exact one
	value  value // for the side to move of the position
	inBook bool  // the resulting position is in the book (value propagated from it)
}

// node is one book position.
type node struct {
	known               bool  // score is meaningful: some move value is known, or the game is over
	depth               uint8 // depth of the value that decided score
	score               value // best move value (or the final result when the game is over)
	wins, draws, losses uint32
	moves               []move // sorted by square
}

// Book is an opening book in memory.
type Book struct {
	nodes map[Key]*node
	// origin is the file the book was last read from or written to (an absolute path; ""
	// for a book that never was), and base that file's bytes then: the common ancestor when
	// Save finds that another process has changed the file meanwhile.
	origin string
	base   []byte
}

// New returns an empty book.
func New() *Book { return &Book{nodes: map[Key]*node{}} }

// Len is the number of positions.
func (bk *Book) Len() int {
	if bk == nil {
		return 0
	}
	return len(bk.nodes)
}

// keyOf returns the canonical key of a side-relative position and the symmetry taking the
// position to it.
func keyOf(p, o uint64) (Key, int) {
	cp, co, sym := board.Canonical(p, o)
	return Key{cp, co}, sym
}

// child returns the side-relative position after sq (passSquare: a pass) is played in (p, o).
func child(p, o uint64, sq uint8) (uint64, uint64) {
	if sq == passSquare {
		return o, p
	}
	s := board.Square(sq)
	f := board.Flips(p, o, s)
	return o ^ f, p | f | s.Bit()
}

// legalSquares returns the moves of (p, o) as move squares: the legal moves, or a lone pass
// when the side to move must pass, or nothing when the game is over.
func legalSquares(p, o uint64) []uint8 {
	m := board.LegalMoves(p, o)
	if m == 0 {
		if board.LegalMoves(o, p) != 0 {
			return []uint8{passSquare}
		}
		return nil
	}
	sqs := make([]uint8, 0, board.Count(m))
	for ; m != 0; m &= m - 1 {
		sqs = append(sqs, uint8(board.FirstSquare(m)))
	}
	return sqs
}

// knownMoves counts the moves with a value (all of them, except between AddGame and Fix).
func (n *node) knownMoves() int {
	c := 0
	for _, m := range n.moves {
		if m.depth != unknownDepth {
			c++
		}
	}
	return c
}

func (n *node) find(sq uint8) *move {
	i := sort.Search(len(n.moves), func(i int) bool { return n.moves[i].sq >= sq })
	if i < len(n.moves) && n.moves[i].sq == sq {
		return &n.moves[i]
	}
	return nil
}

// set records a move value, inserting the move in square order.
func (n *node) set(m move) {
	i := sort.Search(len(n.moves), func(i int) bool { return n.moves[i].sq >= m.sq })
	if i < len(n.moves) && n.moves[i].sq == m.sq {
		n.moves[i] = m
		return
	}
	n.moves = append(n.moves, move{})
	copy(n.moves[i+1:], n.moves[i:])
	n.moves[i] = m
}

// MoveValue is a book move of a position, in the orientation of the position asked about.
type MoveValue struct {
	Move   board.Square // board.NoSquare for a pass
	Score  float64      // discs, for the side to move
	Depth  int          // search depth behind the value; DepthExact for an exact result
	InBook bool         // the resulting position is itself in the book
}

// Entry is what the book knows about a position.
type Entry struct {
	Known               bool    // Score is meaningful
	Score               float64 // discs, for the side to move: the best move's value
	Depth               int     // depth behind Score; DepthExact for an exact result
	Wins, Draws, Losses int     // games through the position, from the side to move's view
	Moves               []MoveValue
}

// Lookup returns the book's entry for b with its move values, best first, translated back to
// b's orientation. ok is false when b is not in the book.
func (bk *Book) Lookup(b board.Board) (e Entry, ok bool) {
	if bk == nil {
		return Entry{}, false
	}
	k, sym := keyOf(b.P, b.O)
	n := bk.nodes[k]
	if n == nil {
		return Entry{}, false
	}
	inv := board.InverseSymmetry(sym)
	e = Entry{Known: n.known, Score: n.score.discs(), Depth: int(n.depth),
		Wins: int(n.wins), Draws: int(n.draws), Losses: int(n.losses),
		Moves: make([]MoveValue, 0, len(n.moves))}
	for _, m := range n.moves {
		if m.depth == unknownDepth {
			continue
		}
		sq := board.NoSquare
		if m.sq != passSquare {
			sq = board.TransformSquare(board.Square(m.sq), inv)
		}
		e.Moves = append(e.Moves, MoveValue{Move: sq, Score: m.value.discs(), Depth: int(m.depth), InBook: m.inBook})
	}
	// A position symmetric to itself has equivalent moves; the stable sort keeps their order
	// fixed, and a tie goes to the lower square so that answers do not depend on map order.
	sort.SliceStable(e.Moves, func(i, j int) bool {
		if e.Moves[i].Score != e.Moves[j].Score {
			return e.Moves[i].Score > e.Moves[j].Score
		}
		return e.Moves[i].Move < e.Moves[j].Move
	})
	return e, true
}

// Choose returns a book move for b: one whose value is within margin discs of the best known
// move value. With rng nil it is the best move; otherwise a uniform pick among the moves
// within the margin, for varied play. ok is false when b is not in the book, has no known
// move value, or its side to move must pass (no choice to make).
func (bk *Book) Choose(b board.Board, margin float64, rng *rand.Rand) (sq board.Square, score float64, ok bool) {
	e, found := bk.Lookup(b)
	if !found || len(e.Moves) == 0 || e.Moves[0].Move == board.NoSquare {
		return board.NoSquare, 0, false
	}
	if rng == nil || margin <= 0 {
		return e.Moves[0].Move, e.Moves[0].Score, true
	}
	n := 1
	for n < len(e.Moves) && e.Moves[n].Score >= e.Moves[0].Score-margin {
		n++
	}
	m := e.Moves[rng.IntN(n)]
	return m.Move, m.Score, true
}
