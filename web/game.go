package web

import (
	"errors"
	"fmt"
	"strings"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/ggf"
)

// game is a session's game: a start position, every move made from it (passes explicit, as
// board.NoSquare) and a cursor. The moves after the cursor are what redo plays again; a move
// that differs from the next one drops them. Values are kept per position, from black's view,
// for the evaluation graph.
type game struct {
	start board.Board
	moves []board.Square
	ply   int // positions 0..len(moves); the current one is after moves[:ply]
	// evals[i] is the value of position i from black's view, when a search gave one.
	evals []value
	// best[i] is the best move the analysis found in position i (NoSquare: none known).
	best []board.Square
}

// value is a position's value with how it was obtained.
type value struct {
	known bool
	score float64 // discs, black's view
	label string  // depth label of the search behind it ("depth 12@73%", "exact 20", "book")
}

func newGame(start board.Board) *game {
	g := &game{start: start}
	g.resize()
	g.autoPass()
	return g
}

// resize keeps evals and best one longer than moves.
func (g *game) resize() {
	n := len(g.moves) + 1
	for len(g.evals) < n {
		g.evals = append(g.evals, value{})
		g.best = append(g.best, board.NoSquare)
	}
	g.evals, g.best = g.evals[:n], g.best[:n]
}

// position returns the board after the first n moves.
func (g *game) position(n int) board.Board {
	b := g.start
	for _, m := range g.moves[:n] {
		if m == board.NoSquare {
			b.Pass()
		} else {
			b.Make(m)
		}
	}
	return b
}

func (g *game) current() board.Board { return g.position(g.ply) }

// play makes sq in the current position; the moves after the cursor stay when sq is the
// next of them (as redo), else they are dropped. A forced pass that follows is made too.
func (g *game) play(sq board.Square) error {
	b := g.current()
	if b.GameOver() {
		return errors.New("the game is over")
	}
	if b.MustPass() {
		return fmt.Errorf("%s has no legal move and must pass", b.SideName())
	}
	if sq < 0 || sq > 63 || !b.IsLegal(sq) {
		return fmt.Errorf("%s is not a legal move for %s", sq, b.SideName())
	}
	if g.ply < len(g.moves) && g.moves[g.ply] == sq {
		g.ply++
	} else {
		g.moves = append(g.moves[:g.ply], sq)
		g.ply++
		g.resize()
	}
	g.autoPass()
	return nil
}

// autoPass makes the pass of a side to move that has no move, when the game goes on.
func (g *game) autoPass() {
	b := g.current()
	if !b.MustPass() {
		return
	}
	if g.ply < len(g.moves) && g.moves[g.ply] == board.NoSquare {
		g.ply++
		return
	}
	g.moves = append(g.moves[:g.ply], board.NoSquare)
	g.ply++
	g.resize()
}

// undo goes back one real move (and the passes around it); false at the start.
func (g *game) undo() bool {
	p := g.ply
	for p > 0 && g.moves[p-1] == board.NoSquare {
		p--
	}
	if p == 0 {
		return false
	}
	g.ply = p - 1
	return true
}

// redo plays the next recorded move again; false when there is none.
func (g *game) redo() bool {
	if g.ply >= len(g.moves) {
		return false
	}
	g.ply++
	g.autoPass()
	return true
}

// seek moves the cursor to position n of the record (0..len(moves)); a position whose side
// must pass is stepped over.
func (g *game) seek(n int) error {
	if n < 0 || n > len(g.moves) {
		return fmt.Errorf("position %d: the game has positions 0 to %d", n, len(g.moves))
	}
	g.ply = n
	g.autoPass()
	return nil
}

// setEval records the value of position n from its side to move's view.
func (g *game) setEval(n int, score float64, label string) {
	if n < 0 || n >= len(g.evals) {
		return
	}
	if !g.position(n).BlackToMove {
		score = -score
	}
	g.evals[n] = value{known: true, score: score, label: label}
}

// transcript is the moves up to the cursor in the usual form (passes left out).
func (g *game) transcript() string { return board.Transcript(g.moves[:g.ply]) }

// record writes the whole game (all moves, also those after the cursor) as GGF, with the
// known values as the moves' evals.
func (g *game) record() string {
	r := ggf.New(g.start)
	b := g.start
	for i, m := range g.moves {
		mv := ggf.Move{Square: m, Black: b.BlackToMove}
		if e := g.evals[i]; e.known && m != board.NoSquare {
			mv.Eval, mv.HasEval = e.score, true
			if !b.BlackToMove {
				mv.Eval = -mv.Eval
			}
		}
		if err := r.Play(mv); err != nil {
			break
		}
		if m == board.NoSquare {
			b.Pass()
		} else {
			b.Make(m)
		}
	}
	if b.GameOver() {
		r.Result = fmt.Sprintf("%+d", b.BlackScore())
	}
	return r.String()
}

// loadGame reads a game or position in any of the forms a user pastes: a GGF record, an OBF
// position (64 squares and the side to move) optionally followed by a transcript, or a
// transcript from the start position. The cursor is put at the end.
func loadGame(text string) (*game, error) {
	t := strings.TrimSpace(text)
	switch {
	case t == "":
		return newGame(board.Start()), nil
	case strings.Contains(t, "(;"):
		r, _, err := ggf.Parse(t)
		if err != nil {
			return nil, err
		}
		g := newGame(r.Start)
		for i, m := range r.Moves {
			if m.Square == board.NoSquare {
				if b := g.current(); !b.MustPass() && !b.GameOver() {
					return nil, fmt.Errorf("GGF move %d: a pass while a move is available", i+1)
				}
				continue // the pass is made by autoPass
			}
			if err := g.play(m.Square); err != nil {
				return nil, fmt.Errorf("GGF move %d: %v", i+1, err)
			}
			if m.HasEval {
				// The record's eval is from the mover's view, of the position before the move.
				g.setEval(g.ply-1-trailingPass(g), m.Eval, "record")
			}
		}
		return g, nil
	case len(t) >= 65 && isOBFChar(t[0]) && isOBFChar(t[1]) && isOBFChar(t[2]):
		b, rest, err := board.ParseOBF(t)
		if err != nil {
			return nil, err
		}
		if !b.Consistent() {
			return nil, errors.New("position: inconsistent board")
		}
		rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), ";"))
		g := newGame(b)
		return g, g.playTranscript(rest)
	default:
		g := newGame(board.Start())
		return g, g.playTranscript(t)
	}
}

// trailingPass is 1 when the last move of g was an automatic pass.
func trailingPass(g *game) int {
	if g.ply > 0 && g.moves[g.ply-1] == board.NoSquare {
		return 1
	}
	return 0
}

func isOBFChar(c byte) bool { return strings.IndexByte("XxOo*-.0", c) >= 0 }

// playTranscript plays a transcript's moves from the current position.
func (g *game) playTranscript(t string) error {
	moves, _, err := board.PlayTranscript(g.current(), t)
	if err != nil {
		return err
	}
	for _, m := range moves {
		if m == board.NoSquare {
			continue
		}
		if err := g.play(m); err != nil {
			return err
		}
	}
	return nil
}
