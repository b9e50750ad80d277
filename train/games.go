// Package train fits the evaluation's weights to game records: readers for the WTHOR database
// (.wtb games, .JOU players, .TRN tournaments), transcript files with results and the XOT
// opening list; replay with legality checks; labels (final disc difference, WTHOR's
// theoretical score from 24 empties); and gradient descent on the squared error, stage by
// stage, as Buro fitted Logistello's tables ("From Simple Features to Sophisticated Evaluation
// Functions", 1998; "Experiments with Multi-ProbCut and a New High-Quality Evaluation
// Function for Othello", 1997).
package train

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/ggf"
)

// Game is a complete, legal game ready for labelling.
type Game struct {
	Moves []board.Square // as played, passes not included
	// BlackDiff is the final disc difference for black (empties to the winner).
	BlackDiff int
	// TheoDepth > 0 says that Theoretical is black's disc difference under perfect play from
	// the position with TheoDepth empties on (WTHOR's theoretical score).
	TheoDepth, Theoretical int
	// ExactDepth > 0 says that Exact[e] is black's exact disc difference (perfect play by
	// both sides, found by the endgame solver) of the game's position with e empties, for
	// every e <= ExactDepth the game reaches with a move to play (see Relabel).
	ExactDepth int
	Exact      [MaxExactDepth + 1]int8
}

// Replay plays moves from the start position, passing where the side to move has no move.
// It calls visit (when not nil) with every position before a move, and returns the final
// position and whether the game is over there. An illegal move is an error.
func Replay(moves []board.Square, visit func(b *board.Board)) (board.Board, bool, error) {
	b := board.Start()
	for i, m := range moves {
		if b.LegalMoves() == 0 {
			if b.GameOver() {
				return b, true, fmt.Errorf("move %d %s: the game is already over", i+1, m)
			}
			b.Pass()
		}
		if !b.IsLegal(m) {
			return b, false, fmt.Errorf("move %d %s is not legal for %s", i+1, m, b.SideName())
		}
		if visit != nil {
			visit(&b)
		}
		b.Make(m)
	}
	return b, b.GameOver(), nil
}

// LoadStats counts what loading kept and skipped.
type LoadStats struct {
	Files      int
	Read       int // game records read
	Used       int // complete legal games kept
	Illegal    int // an illegal move or a move after the end
	Unfinished int // the record stops while moves remain (resignation, time loss, cut record)
	// ScoreMismatch counts kept games whose stored result disagrees with the final board
	// (the board wins: labels come from it).
	ScoreMismatch int
	// OtherStart counts GGF games that start from a position other than the initial one
	// (a game here is its moves from the initial position).
	OtherStart int
}

func (s *LoadStats) add(o LoadStats) {
	s.Files += o.Files
	s.Read += o.Read
	s.Used += o.Used
	s.Illegal += o.Illegal
	s.Unfinished += o.Unfinished
	s.ScoreMismatch += o.ScoreMismatch
	s.OtherStart += o.OtherStart
}

func (s LoadStats) String() string {
	other := ""
	if s.OtherStart > 0 {
		other = fmt.Sprintf(" and %d from another start position", s.OtherStart)
	}
	return fmt.Sprintf("%d files, %d games read, %d used, skipped %d illegal and %d unfinished%s, %d stored scores disagree with the board",
		s.Files, s.Read, s.Used, s.Illegal, s.Unfinished, other, s.ScoreMismatch)
}

// GameFiles expands paths into the game files to read: a directory stands for its .wtb, .txt
// and .ggf files (sorted), a file for itself.
func GameFiles(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		var names []string
		for _, e := range entries {
			ext := strings.ToLower(filepath.Ext(e.Name()))
			if !e.IsDir() && (ext == ".wtb" || ext == ".txt" || ext == ".ggf") {
				names = append(names, filepath.Join(p, e.Name()))
			}
		}
		sort.Strings(names)
		out = append(out, names...)
	}
	return out, nil
}

// LoadFile reads the games of one file (.wtb: WTHOR; .txt: transcripts with results; .ggf:
// GGF records such as NBoard's and `othello match`'s), keeps the complete legal ones and
// counts the others.
func LoadFile(path string) ([]Game, LoadStats, error) {
	st := LoadStats{Files: 1}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, st, err
	}
	var games []Game
	switch strings.ToLower(filepath.Ext(path)) {
	case ".wtb":
		h, recs, err := ReadWTB(path, data)
		if err != nil {
			return nil, st, err
		}
		for _, r := range recs {
			st.Read++
			g, ok := replayGame(r.Moves, &st)
			if !ok {
				continue
			}
			if BlackDiscDiff(r.Score) != g.BlackDiff {
				st.ScoreMismatch++
			}
			if h.Depth > 0 && len(r.Moves) >= 60-h.Depth {
				g.TheoDepth = h.Depth
				g.Theoretical = BlackDiscDiff(r.Theoretical)
			}
			games = append(games, g)
		}
	case ".txt":
		recs, err := ReadTranscripts(path, strings.NewReader(string(data)))
		if err != nil {
			return nil, st, err
		}
		for _, r := range recs {
			st.Read++
			g, ok := replayGame(r.Moves, &st)
			if !ok {
				continue
			}
			if sign(g.BlackDiff) != r.Result {
				st.ScoreMismatch++
			}
			games = append(games, g)
		}
	case ".ggf":
		recs, err := ggf.ParseAll(string(data))
		if err != nil {
			return nil, st, fmt.Errorf("%s: %v", path, err)
		}
		start := board.Start()
		for _, r := range recs {
			st.Read++
			if r.Start.P != start.P || r.Start.O != start.O || r.Start.BlackToMove != start.BlackToMove {
				st.OtherStart++
				continue
			}
			moves := make([]board.Square, 0, len(r.Moves))
			for _, m := range r.Moves {
				if m.Square != board.NoSquare {
					moves = append(moves, m.Square)
				}
			}
			g, ok := replayGame(moves, &st)
			if !ok {
				continue
			}
			if res, known := r.StoredResult(); known && res != g.BlackDiff {
				st.ScoreMismatch++
			}
			games = append(games, g)
		}
	default:
		return nil, st, fmt.Errorf("%s: unknown game file type (want .wtb, .txt or .ggf)", path)
	}
	return games, st, nil
}

func replayGame(moves []board.Square, st *LoadStats) (Game, bool) {
	final, over, err := Replay(moves, nil)
	if err != nil {
		st.Illegal++
		return Game{}, false
	}
	if !over {
		st.Unfinished++
		return Game{}, false
	}
	st.Used++
	return Game{Moves: moves, BlackDiff: final.BlackScore()}, true
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// LoadGames reads every game file of paths (see GameFiles), leaving out files whose base name
// is in exclude (the validation files). log, when not nil, is told about each file.
func LoadGames(paths []string, exclude map[string]bool, log func(file string, st LoadStats)) ([]Game, LoadStats, error) {
	files, err := GameFiles(paths)
	if err != nil {
		return nil, LoadStats{}, err
	}
	var all []Game
	var total LoadStats
	for _, f := range files {
		if exclude[filepath.Base(f)] {
			continue
		}
		games, st, err := LoadFile(f)
		if err != nil {
			return nil, total, err
		}
		if log != nil {
			log(f, st)
		}
		total.add(st)
		all = append(all, games...)
	}
	return all, total, nil
}
