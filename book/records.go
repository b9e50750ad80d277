package book

import (
	"bufio"
	"fmt"
	"github.com/othellogo/othello/internal/textline"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/train"
)

// Game record readers for building the book: WTHOR .wtb (through package train, which owns
// the full readers), GGF and plain transcripts.

// ReadGames reads the games of a file: WTHOR games when its extension is .wtb, GGF records
// when it is .ggf, else one transcript per line. A WTHOR game whose record stops before the
// end takes its result from the stored score. Each game is named after the file and its
// number (or line) in it. A GGF game may start from any position its record gives, also one
// the book cannot take: ValidGames sorts those out.
func ReadGames(path string) ([]Game, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var games []Game
	switch ext := filepath.Ext(path); {
	case strings.EqualFold(ext, ".wtb"):
		return wthorGames(path, data)
	case strings.EqualFold(ext, ".ggf"):
		games, err = ParseGGF(string(data))
	default:
		games, err = ParseTranscripts(strings.NewReader(string(data)))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i := range games {
		games[i].Name = path + ": " + games[i].Name
	}
	return games, nil
}

// ReadGameFiles reads the games of every file named, in order.
func ReadGameFiles(paths []string) ([]Game, error) {
	var games []Game
	for _, f := range paths {
		g, err := ReadGames(f)
		if err != nil {
			return nil, err
		}
		games = append(games, g...)
	}
	return games, nil
}

func wthorGames(path string, data []byte) ([]Game, error) {
	_, recs, err := train.ReadWTB(path, data)
	if err != nil {
		return nil, err
	}
	games := make([]Game, 0, len(recs))
	for i, r := range recs {
		g, err := GameFromMoves(r.Moves)
		if err != nil {
			return nil, fmt.Errorf("%s: game %d: %w", path, i+1, err)
		}
		if !g.HasResult {
			g.Result, g.HasResult = train.BlackDiscDiff(r.Score), true
		}
		g.Name = fmt.Sprintf("%s: game %d", path, i+1)
		games = append(games, g)
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
		g := Game{Name: fmt.Sprintf("line %d", line), Start: board.Start(), Moves: moves}
		if b.GameOver() {
			g.Result, g.HasResult = b.BlackScore(), true
		}
		games = append(games, g)
	}
	if err := sc.Err(); err != nil {
		return nil, textline.Err(err, line, 1024*1024, "a game transcript")
	}
	return games, nil
}

// ParseGGF reads the games of a GGF text (package ggf does the parsing and checks every
// move).
func ParseGGF(text string) ([]Game, error) {
	gs, err := ggf.ParseAll(text)
	if err != nil {
		return nil, fmt.Errorf("ggf: %w", err)
	}
	if len(gs) == 0 && strings.TrimSpace(text) != "" {
		return nil, fmt.Errorf("ggf: no \"(;...;)\" game record found")
	}
	games := make([]Game, len(gs))
	for i, g := range gs {
		games[i] = FromGGF(g)
		games[i].Name = fmt.Sprintf("game %d", i+1)
	}
	return games, nil
}

// FromGGF converts a GGF record (already replayed and checked by package ggf) to a Game: its
// start position, its moves with passes, and its result, from the final board when the game
// is over, else from RE (black's disc difference; a resigned or timed-out "+64:r" has none).
func FromGGF(g *ggf.Game) Game {
	out := Game{Start: g.Start, Moves: make([]board.Square, len(g.Moves))}
	for i, m := range g.Moves {
		out.Moves[i] = m.Square
	}
	if r, ok := g.StoredResult(); ok {
		out.Result, out.HasResult = r, true
	}
	if b := g.Final(); b.GameOver() {
		out.Result, out.HasResult = b.BlackScore(), true
	}
	return out
}
