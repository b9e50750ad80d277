package endgame

import (
	"bufio"
	"fmt"
	"github.com/othellogo/othello/internal/textline"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/othellogo/othello/board"
)

// Problem is one position of an .obf file: the board and, when the file gives them, the known
// exact scores of moves ("MOVE:SCORE" fields, best move first in the FFO files).
type Problem struct {
	Line   int // line number in the file, from 1
	Board  board.Board
	Scores []MoveScoreKnown
}

// MoveScoreKnown is a move with its known exact score (board.NoSquare for a pass).
type MoveScoreKnown struct {
	Move  board.Square
	Score int
}

// Best returns the best known score and whether the problem has any.
func (p *Problem) Best() (int, bool) {
	if len(p.Scores) == 0 {
		return 0, false
	}
	b := p.Scores[0].Score
	for _, m := range p.Scores[1:] {
		b = max(b, m.Score)
	}
	return b, true
}

// ParseProblems reads an .obf file: one position per line (64 squares and the side to move,
// see board.ParseOBF), then optional "; MOVE:SCORE" fields. Blank lines and lines starting
// with '%' or '#' are skipped. Any other malformed line is an error naming its line number.
func ParseProblems(r io.Reader) ([]Problem, error) {
	var out []Problem
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '%' || text[0] == '#' {
			continue
		}
		b, rest, err := board.ParseOBF(text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		pr := Problem{Line: line, Board: b}
		for _, field := range strings.Split(rest, ";") {
			field = strings.TrimSpace(field)
			if field == "" {
				continue
			}
			mv, sc, ok := strings.Cut(field, ":")
			if !ok {
				return nil, fmt.Errorf("line %d: field %q: want MOVE:SCORE", line, clipText(field))
			}
			var sq board.Square
			if board.IsPassWord(strings.TrimSpace(mv)) {
				sq = board.NoSquare
			} else if sq, err = board.ParseSquare(strings.TrimSpace(mv)); err != nil {
				return nil, fmt.Errorf("line %d: field %q: %v", line, clipText(field), err)
			}
			v, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(sc), "+"))
			if err != nil || v < -64 || v > 64 {
				return nil, fmt.Errorf("line %d: field %q: score must be a whole number from -64 to 64", line, clipText(field))
			}
			if sq != board.NoSquare && !b.IsLegal(sq) {
				return nil, fmt.Errorf("line %d: field %q: %v is not a legal move", line, clipText(field), sq)
			}
			pr.Scores = append(pr.Scores, MoveScoreKnown{Move: sq, Score: v})
		}
		out = append(out, pr)
	}
	if err := sc.Err(); err != nil {
		return nil, textline.Err(err, line, 1<<20, "a position")
	}
	return out, nil
}

// ReadProblemFile reads the .obf file at path (ParseProblems); its errors name the file.
func ReadProblemFile(path string) ([]Problem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ps, err := ParseProblems(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return ps, nil
}

// Boards returns the problems' positions.
func Boards(ps []Problem) []board.Board {
	out := make([]board.Board, len(ps))
	for i := range ps {
		out[i] = ps[i].Board
	}
	return out
}

func clipText(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}
