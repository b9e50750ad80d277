package book

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/othellogo/othello/board"
)

// Game record readers for building the book: WTHOR .wtb, GGF and plain transcripts. They are
// small on purpose; the training package owns the full readers.

// ReadGames reads the games of a text file: GGF records when its extension is .ggf, else one
// transcript per line. (WTHOR .wtb files are read by package train; GameFromMoves turns their
// move lists into Games.)
func ReadGames(path string) ([]Game, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var games []Game
	if strings.EqualFold(filepath.Ext(path), ".ggf") {
		games, err = ParseGGF(string(data))
	} else {
		games, err = ParseTranscripts(strings.NewReader(string(data)))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return games, nil
}

// GameFromMoves replays a move list without passes (as WTHOR stores games) from the start
// position, inserting the passes, and gives the result of the final board when the game is
// over there.
func GameFromMoves(moves []board.Square) (Game, error) {
	b := board.Start()
	g := Game{Start: b, Moves: make([]board.Square, 0, len(moves)+2)}
	for i, sq := range moves {
		if b.MustPass() {
			b.Pass()
			g.Moves = append(g.Moves, board.NoSquare)
		}
		if sq == board.NoSquare || !b.Play(sq) {
			return Game{}, fmt.Errorf("move %d (%s) is not legal for %s", i+1, sq, b.SideName())
		}
		g.Moves = append(g.Moves, sq)
	}
	if b.GameOver() {
		g.Result, g.HasResult = b.BlackScore(), true
	}
	return g, nil
}

// ParseTranscripts reads one game per line: a transcript from the start position (first
// field; anything after it, such as a result, is ignored). Blank lines and lines starting
// with '#' are skipped. A game that ends on a finished board gets that board's result.
func ParseTranscripts(r io.Reader) ([]Game, error) {
	var games []Game
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		moves, b, err := board.ParseTranscript(f[0])
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		g := Game{Start: board.Start(), Moves: moves}
		if b.GameOver() {
			g.Result, g.HasResult = b.BlackScore(), true
		}
		games = append(games, g)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("after line %d: %w", line, err)
	}
	return games, nil
}

// ParseGGF reads the Othello games of a GGF text: "(;GM[Othello]...;)" records with a BO[]
// start board ("8", 64 squares '*' black, 'O' white, '-' empty, then the side to move), B[]
// and W[] moves ("f5", optionally "/eval/time"; "pa" a pass) and RE[] the result for black.
// Games on other boards than 8x8 and resigned or timed-out results are read without a result.
func ParseGGF(text string) ([]Game, error) {
	var games []Game
	rest := text
	for n := 1; ; n++ {
		i := strings.Index(rest, "(;")
		if i < 0 {
			break
		}
		j := strings.Index(rest[i+2:], ";)")
		if j < 0 {
			return nil, fmt.Errorf("ggf: game %d has no closing \";)\"", n)
		}
		j += 2
		g, err := parseGGFGame(rest[i+2 : i+j])
		if err != nil {
			return nil, fmt.Errorf("ggf: game %d: %w", n, err)
		}
		games = append(games, g)
		rest = rest[i+j+2:]
	}
	if len(games) == 0 && strings.TrimSpace(text) != "" {
		return nil, fmt.Errorf("ggf: no \"(;...;)\" game record found")
	}
	return games, nil
}

func parseGGFGame(s string) (Game, error) {
	g := Game{Start: board.Start()}
	var b board.Board
	haveBoard := false
	result := ""
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			break
		}
		open := strings.IndexByte(s, '[')
		if open <= 0 {
			return Game{}, fmt.Errorf("expected PROPERTY[value] at %q", clip(s))
		}
		name := s[:open]
		for _, c := range name {
			if c < 'A' || c > 'Z' {
				return Game{}, fmt.Errorf("property name %q: want upper-case letters", clip(name))
			}
		}
		end := strings.IndexByte(s[open:], ']')
		if end < 0 {
			return Game{}, fmt.Errorf("property %s has no closing ']'", name)
		}
		val := s[open+1 : open+end]
		s = s[open+end+1:]
		switch name {
		case "GM":
			if !strings.EqualFold(val, "othello") {
				return Game{}, fmt.Errorf("game type %q, want Othello", clip(val))
			}
		case "BO":
			var err error
			if b, err = parseGGFBoard(val); err != nil {
				return Game{}, err
			}
			g.Start, haveBoard = b, true
		case "RE":
			result = val
		case "B", "W":
			if !haveBoard {
				b, haveBoard = g.Start, true
			}
			if (name == "B") != b.BlackToMove {
				return Game{}, fmt.Errorf("move %d (%s) is not %s's turn", len(g.Moves)+1, clip(val), b.SideName())
			}
			mv, _, _ := strings.Cut(val, "/")
			var sq board.Square
			if board.IsPassWord(mv) {
				sq = board.NoSquare
			} else {
				var err error
				if sq, err = board.ParseSquare(mv); err != nil {
					return Game{}, fmt.Errorf("move %d: %w", len(g.Moves)+1, err)
				}
			}
			if !b.Play(sq) {
				return Game{}, fmt.Errorf("move %d (%s) is not legal for %s", len(g.Moves)+1, clip(mv), b.SideName())
			}
			g.Moves = append(g.Moves, sq)
		}
	}
	if r, err := strconv.ParseFloat(strings.TrimPrefix(result, "+"), 64); err == nil && r >= -64 && r <= 64 {
		g.Result, g.HasResult = int(r), true
	}
	if haveBoard && b.GameOver() {
		g.Result, g.HasResult = b.BlackScore(), true
	}
	return g, nil
}

func parseGGFBoard(val string) (board.Board, error) {
	f := strings.Fields(val)
	if len(f) < 2 || f[0] != "8" {
		return board.Board{}, fmt.Errorf("board %q: want size 8, 64 squares and the side to move", clip(val))
	}
	cells := strings.Join(f[1:len(f)-1], "")
	side := f[len(f)-1]
	if len(cells) != 64 || len(side) != 1 {
		return board.Board{}, fmt.Errorf("board %q: want 64 squares and the side to move", clip(val))
	}
	var black, white uint64
	for i := 0; i < 64; i++ {
		switch cells[i] {
		case '*':
			black |= 1 << uint(i)
		case 'O':
			white |= 1 << uint(i)
		case '-':
		default:
			return board.Board{}, fmt.Errorf("board: square %d is %q; want *, O or -", i+1, cells[i])
		}
	}
	switch side {
	case "*":
		return board.FromColors(black, white, true), nil
	case "O":
		return board.FromColors(black, white, false), nil
	}
	return board.Board{}, fmt.Errorf("board: side to move %q; want * or O", side)
}
