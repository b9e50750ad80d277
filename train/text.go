package train

import (
	"bufio"
	"fmt"
	"github.com/othellogo/othello/internal/textline"
	"io"
	"strconv"
	"strings"

	"github.com/othellogo/othello/board"
)

// TranscriptGame is one line of a transcript file: the moves (passes not written) and the
// result for black: 1 win, 0 draw, -1 loss.
type TranscriptGame struct {
	Line   int
	Moves  []board.Square
	Result int
}

// parseMoves reads concatenated two-character coordinates ("f5d6c3"), without passes.
func parseMoves(s string) ([]board.Square, error) {
	if len(s)%2 != 0 {
		return nil, fmt.Errorf("moves %q: odd number of characters", clip(s))
	}
	moves := make([]board.Square, 0, len(s)/2)
	for i := 0; i < len(s); i += 2 {
		sq, err := board.ParseSquare(s[i : i+2])
		if err != nil {
			return nil, fmt.Errorf("move %d: %v", i/2+1, err)
		}
		moves = append(moves, sq)
	}
	if len(moves) > 60 {
		return nil, fmt.Errorf("%d moves, a game has at most 60", len(moves))
	}
	return moves, nil
}

func clip(s string) string { return clipTo(s, 40) }

// clipTo shortens s to n bytes at most, ending it with "..." when cut.
func clipTo(s string, n int) string {
	if len(s) > n {
		return s[:n-3] + "..."
	}
	return s
}

// ReadTranscripts parses a transcript file in the format of Egaroucid's self-play records: one
// game per line, "<moves> <result>", the moves concatenated coordinates without passes and the
// result 1, 0 or -1 for black. Blank lines and comment lines (starting with '#', as the header
// of `othello selfplay`'s files) are skipped; any other malformed line is an error
// naming the file and the line.
func ReadTranscripts(name string, r io.Reader) ([]TranscriptGame, error) {
	var games []TranscriptGame
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<16)
	line := 1
	for ; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: want \"<moves> <result>\", got %d fields", name, line, len(fields))
		}
		moves, err := parseMoves(fields[0])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		res, err := strconv.Atoi(fields[1])
		if err != nil || res < -1 || res > 1 {
			return nil, fmt.Errorf("%s:%d: result %q: want 1, 0 or -1", name, line, clip(fields[1]))
		}
		games = append(games, TranscriptGame{Line: line, Moves: moves, Result: res})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, textline.Err(err, line-1, 1<<16, "a game transcript"))
	}
	return games, nil
}

// XOTOpening is one opening of an XOT list: its moves and the position they lead to.
type XOTOpening struct {
	Moves []board.Square
	Board board.Board
}

// ReadXOT parses an XOT opening list: one opening per line, 8 moves as concatenated
// coordinates played from the start position. Every opening is replayed; an illegal move or a
// malformed line is an error naming the file and the line.
func ReadXOT(name string, r io.Reader) ([]XOTOpening, error) {
	var out []XOTOpening
	sc := bufio.NewScanner(r)
	line := 1
	for ; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		moves, err := parseMoves(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		}
		b := board.Start()
		for i, m := range moves {
			if !b.IsLegal(m) {
				return nil, fmt.Errorf("%s:%d: move %d %s is not legal", name, line, i+1, m)
			}
			b.Make(m)
		}
		out = append(out, XOTOpening{Moves: moves, Board: b})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, textline.Err(err, line-1, bufio.MaxScanTokenSize, "an opening"))
	}
	return out, nil
}
