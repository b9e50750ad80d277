package protocol

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"

	"github.com/rs/zerolog"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/book"
	"github.com/othellogo/othello/ggf"
)

// OpeningBook is what the front ends need from an opening book. *book.Book has it; tests
// use a fake. The front ends call it from their command loop only, one call at a time.
type OpeningBook interface {
	// Lookup returns what the book knows about b, its move values best first.
	Lookup(b board.Board) (book.Entry, bool)
	// Choose returns the book move to play in b: the best, or with rng a uniform pick among
	// the moves within margin discs of the best; ok is false outside the book.
	Choose(b board.Board, margin float64, rng *rand.Rand) (sq board.Square, score float64, ok bool)
	// Learn adds a played game up to maxPly moves, searches the moves leaving the book from
	// its new positions and re-propagates values.
	Learn(ctx context.Context, s book.Searcher, g book.Game, maxPly int, opt book.Options) (added, searched int, err error)
	// Save writes the book to path atomically.
	Save(path string) error
}

// The real book is an OpeningBook.
var _ OpeningBook = (*book.Book)(nil)

// BookOptions say which opening book the front ends use and how.
type BookOptions struct {
	Book OpeningBook // nil: no book
	// File is where NBoard's "learn" saves the book; "" keeps what is learned in memory (the
	// embedded default book is never written).
	File string
	// Margin (discs): with Random, the engine picks uniformly among the book moves within
	// Margin of the best; without, it plays the best book move.
	Margin float64
	Random bool
	Seed   uint64 // seed of the random picks, so a session can be replayed
	// LearnDepth is the search depth of the moves leaving the book when a game is learned
	// (0: DefaultLearnDepth); LearnMoves how many moves of the game go into the book (0: all).
	LearnDepth, LearnMoves int
	// Note, when not empty, is said once at the start of a session (NBoard: a status line;
	// console: a line after the greeting), e.g. that the book file could not be read.
	Note string
}

// OpenBook returns opt with the opening book path names (book.Open: "default" or "" the
// embedded book, "none" or "-" none, else a book file, which NBoard's "learn" then writes).
// A book that cannot be read is logged and named in opt.Note, and the front end plays without
// one; a book file that does not exist yet starts empty, for "learn" to create it.
func OpenBook(path string, opt BookOptions, log zerolog.Logger) BookOptions {
	bk, err := book.Open(path)
	file := path != "" && path != "default"
	switch {
	case err != nil && file && errors.Is(err, os.ErrNotExist):
		bk = book.New()
		log.Info().Str("book", path).Msg("the book file does not exist yet: starting an empty book (learn creates it)")
	case err != nil:
		log.Error().Err(err).Msg("cannot read the opening book; playing without a book")
		opt.Note = fmt.Sprintf("opening book not used: %v", err)
		return opt
	case bk == nil:
		log.Debug().Msg("no opening book")
		return opt
	}
	opt.Book = bk
	if file {
		opt.File = path
	}
	log.Debug().Str("book", path).Int("positions", bk.Len()).Msg("opening book")
	return opt
}

// DefaultLearnDepth is the search depth of the moves leaving the book when a game is learned.
const DefaultLearnDepth = 10

// bookPlayer is a front end's view of its opening book: the book, its options and the
// session's random source.
type bookPlayer struct {
	opt BookOptions
	rng *rand.Rand // nil: always the best book move
}

func newBookPlayer(opt BookOptions) *bookPlayer {
	p := &bookPlayer{opt: opt}
	if opt.Random {
		p.rng = rand.New(rand.NewPCG(opt.Seed, 0x6f7468656c6c6f))
	}
	return p
}

// move returns the book move to play in b, if the book has one.
func (p *bookPlayer) move(b board.Board) (board.Square, float64, bool) {
	if p.opt.Book == nil || b.LegalMoves() == 0 {
		return board.NoSquare, 0, false
	}
	sq, score, ok := p.opt.Book.Choose(b, p.opt.Margin, p.rng)
	if !ok || !b.IsLegal(sq) {
		return board.NoSquare, 0, false
	}
	return sq, score, true
}

// bookLine is one book move as hints show it.
type bookLine struct {
	move  board.Square
	score float64 // for the side to move
	depth string  // "100%" for an exact value, else the search depth behind it
	games int     // games through the position after the move
	pv    []board.Square
}

// maxBookPV bounds the book line followed for a hint's principal variation.
const maxBookPV = 12

// lines returns the book's values for at most k moves of b, best first (none outside the
// book or when b's side to move must pass).
func (p *bookPlayer) lines(b board.Board, k int) []bookLine {
	if p.opt.Book == nil || b.LegalMoves() == 0 {
		return nil
	}
	e, ok := p.opt.Book.Lookup(b)
	if !ok {
		return nil
	}
	var out []bookLine
	for _, m := range e.Moves {
		if len(out) >= k {
			break
		}
		if !b.IsLegal(m.Move) {
			continue
		}
		l := bookLine{move: m.Move, score: m.Score, depth: strconv.Itoa(m.Depth), pv: []board.Square{m.Move}}
		if m.Depth >= book.DepthExact {
			l.depth = "100%"
		}
		c := b
		c.Play(m.Move)
		if m.InBook {
			if ce, ok := p.opt.Book.Lookup(c); ok {
				l.games = ce.Wins + ce.Draws + ce.Losses
			}
			l.pv = append(l.pv, p.bookPV(c)...)
		}
		out = append(out, l)
	}
	return out
}

// bookPV follows the book's best moves from b while they stay in the book.
func (p *bookPlayer) bookPV(b board.Board) []board.Square {
	var pv []board.Square
	for len(pv) < maxBookPV {
		e, ok := p.opt.Book.Lookup(b)
		if !ok || len(e.Moves) == 0 {
			break
		}
		m := e.Moves[0]
		if !b.Play(m.Move) {
			break
		}
		pv = append(pv, m.Move)
		if !m.InBook {
			break
		}
	}
	return pv
}

// learn adds game to the book, searching with s, and saves it to the book file. It returns
// what to tell the user.
func (p *bookPlayer) learn(ctx context.Context, s book.Searcher, game *ggf.Game) (string, error) {
	if p.opt.Book == nil {
		return "no opening book: the game is not stored", nil
	}
	g := bookGame(game)
	depth := p.opt.LearnDepth
	if depth <= 0 {
		depth = DefaultLearnDepth
	}
	moves := p.opt.LearnMoves
	if moves <= 0 {
		moves = MaxDepth
	}
	added, searched, err := p.opt.Book.Learn(ctx, s, g, moves, book.Options{Depth: min(depth, MaxDepth)})
	if err != nil && ctx.Err() == nil {
		return "", fmt.Errorf("learn: %v; the book is unchanged", err)
	}
	msg := fmt.Sprintf("learned: %d positions added, %d moves searched", added, searched)
	if ctx.Err() != nil {
		msg += " (interrupted: the moves not searched yet are searched by the next learn)"
	}
	if p.opt.File == "" {
		return msg + "; kept in memory only (the embedded book is not written; use --book FILE to keep it)", nil
	}
	if err := p.opt.Book.Save(p.opt.File); err != nil {
		return "", fmt.Errorf("learn: saving the book to %s: %v; what was learned is kept in memory", p.opt.File, err)
	}
	return msg + "; saved to " + p.opt.File, nil
}

// bookGame turns a game record into the book's form; its result is the final board's when
// the game is over there, else the record's RE when that is a number.
func bookGame(g *ggf.Game) book.Game {
	bg := book.Game{Start: g.Start, Moves: make([]board.Square, len(g.Moves))}
	for i, m := range g.Moves {
		bg.Moves[i] = m.Square
	}
	if b := g.Final(); b.GameOver() {
		bg.Result, bg.HasResult = b.BlackScore(), true
	} else if r, ok := g.StoredResult(); ok {
		bg.Result, bg.HasResult = r, true
	}
	return bg
}
