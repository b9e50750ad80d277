package web

import (
	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/book"
)

// state is the whole of a session's game as the page draws it.
type state struct {
	Session string     `json:"session"`
	Board   [64]string `json:"board"` // "black", "white" or "" for a1..h8
	ToMove  string     `json:"toMove"`
	Over    bool       `json:"over"`
	Legal   []string   `json:"legal"`
	Last    string     `json:"last"` // the last move played ("" at the start or after a pass)
	Ply     int        `json:"ply"`
	Black   int        `json:"black"`
	White   int        `json:"white"`
	Result  *int       `json:"result"` // black's disc difference once the game is over
	Moves   []moveInfo `json:"moves"`  // the whole record, also after the cursor
	Evals   []evalInfo `json:"evals"`  // positions 0..len(moves)
	OBF     string     `json:"obf"`
	Start   string     `json:"start"` // OBF of the start position
	// Transcript is the moves up to the current position; GGF the whole record.
	Transcript string     `json:"transcript"`
	GGF        string     `json:"ggf"`
	Book       []bookLine `json:"book"` // the opening book's values of the current position
}

// moveInfo is one move of the record; Loss (discs against the best move) once analysed.
type moveInfo struct {
	Move  string   `json:"move"` // "pa" for a pass
	Black bool     `json:"black"`
	Best  string   `json:"best,omitempty"`
	Loss  *float64 `json:"loss"`
}

// evalInfo is a position's value from black's view, when known.
type evalInfo struct {
	Known bool    `json:"known"`
	Score float64 `json:"score"`
	Label string  `json:"label"`
}

type bookLine struct {
	Move  string  `json:"move"`
	Score float64 `json:"score"` // for the side to move
	Exact bool    `json:"exact"`
	Depth int     `json:"depth"`
}

func (s *Server) stateOf(ss *session) state {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	g := ss.g
	b := g.current()
	st := state{Session: ss.id, Ply: g.ply, Over: b.GameOver(), ToMove: b.SideName(), OBF: b.OBF(),
		Start: g.start.OBF(), Transcript: g.transcript(), Legal: []string{}, Moves: []moveInfo{}}
	black, white := b.Black(), b.White()
	for i := 0; i < 64; i++ {
		switch bit := uint64(1) << i; {
		case black&bit != 0:
			st.Board[i] = "black"
		case white&bit != 0:
			st.Board[i] = "white"
		}
	}
	st.Black, st.White = board.Count(black), board.Count(white)
	for m := b.LegalMoves(); m != 0; m &= m - 1 {
		st.Legal = append(st.Legal, board.FirstSquare(m).String())
	}
	if st.Over {
		r := b.BlackScore()
		st.Result = &r
	}
	if g.ply > 0 && g.moves[g.ply-1] != board.NoSquare {
		st.Last = g.moves[g.ply-1].String()
	}
	pos := g.start
	for i, m := range g.moves {
		mi := moveInfo{Move: m.String(), Black: pos.BlackToMove}
		if g.best[i] != board.NoSquare {
			mi.Best = g.best[i].String()
		}
		if m != board.NoSquare && g.evals[i].known && g.evals[i+1].known {
			// Both values from the mover's view: the position's against the one the move left.
			before, after := g.evals[i].score, g.evals[i+1].score
			if !pos.BlackToMove {
				before, after = -before, -after
			}
			loss := max(0, before-after)
			if g.best[i] == m {
				loss = 0
			}
			mi.Loss = &loss
		}
		st.Moves = append(st.Moves, mi)
		if m == board.NoSquare {
			pos.Pass()
		} else {
			pos.Make(m)
		}
	}
	for _, e := range g.evals {
		st.Evals = append(st.Evals, evalInfo{Known: e.known, Score: e.score, Label: e.label})
	}
	st.GGF = g.record()
	if bk := s.opt.Front.Book.Book; bk != nil && b.LegalMoves() != 0 {
		if e, ok := bk.Lookup(b); ok {
			for _, m := range e.Moves {
				if b.IsLegal(m.Move) {
					st.Book = append(st.Book, bookLine{Move: m.Move.String(), Score: m.Score, Exact: m.Depth >= book.DepthExact, Depth: m.Depth})
				}
			}
		}
	}
	return st
}
