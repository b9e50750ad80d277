package book

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
)

func TestGameFromMoves(t *testing.T) {
	// A 1977 WTHOR game with two passes, written without them as WTHOR stores it.
	const withPasses = "f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7paa7a8a1pag1g2h2h1"
	moves, final, err := board.ParseTranscript(withPasses)
	if err != nil {
		t.Fatal(err)
	}
	var bare []board.Square
	for _, m := range moves {
		if m != board.NoSquare {
			bare = append(bare, m)
		}
	}
	g, err := GameFromMoves(bare)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Moves) != len(moves) || !g.HasResult || g.Result != final.BlackScore() {
		t.Fatalf("%d moves (want %d), result %d %v (want %d)", len(g.Moves), len(moves), g.Result, g.HasResult, final.BlackScore())
	}
	for i := range moves {
		if g.Moves[i] != moves[i] {
			t.Fatalf("move %d: %s, want %s", i+1, g.Moves[i], moves[i])
		}
	}
	if _, err := GameFromMoves([]board.Square{board.F5, board.A1}); err == nil || !strings.Contains(err.Error(), "move 2") {
		t.Errorf("illegal move: %v", err)
	}
}

const sampleGGF = `(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MET]PB[a]PW[b]RB[2000]RW[1900]TI[05:00//02:00]TY[8]RE[+2.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5//0.01]W[d6/-1.5/0.2]B[c3]W[d3]B[c4];)
(;GM[Othello]TY[8]RE[?]BO[8 ---------------------------O*------*O--------------------------- *]B[e6]W[f4];)`

func TestParseGGF(t *testing.T) {
	games, err := ParseGGF(sampleGGF)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 || board.Transcript(games[0].Moves) != "f5d6c3d3c4" || board.Transcript(games[1].Moves) != "e6f4" {
		t.Fatalf("games %+v", games)
	}
	if !games[0].HasResult || games[0].Result != 2 || games[1].HasResult {
		t.Errorf("results: %+v %+v", games[0], games[1])
	}
	for _, bad := range []string{
		"(;GM[Othello]BO[8 -------- *]B[f5];)",
		"(;GM[Chess]B[f5];)",
		"(;GM[Othello]B[a1];)",
		"(;GM[Othello]W[f5];)",
		"(;GM[Othello]B[f5]",
		"(;GM[Othello]B[f5;)",
		"no game here",
	} {
		if _, err := ParseGGF(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestParseTranscripts(t *testing.T) {
	games, err := ParseTranscripts(strings.NewReader("# comment\nf5d6c3 1\n\nf5f6\n"))
	if err != nil || len(games) != 2 {
		t.Fatalf("%d games, %v", len(games), err)
	}
	if _, err := ParseTranscripts(strings.NewReader("f5d6\nf5a1\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("illegal transcript: %v", err)
	}
}

func FuzzParseGGF(f *testing.F) {
	f.Add(sampleGGF)
	f.Add("(;GM[Othello]BO[8 -------- *]B[f5];)")
	f.Fuzz(func(t *testing.T, s string) {
		games, err := ParseGGF(s)
		if err != nil {
			return
		}
		for _, g := range games {
			b := g.Start
			for _, m := range g.Moves {
				if !b.Play(m) {
					t.Fatalf("accepted an illegal move %s", m)
				}
			}
		}
	})
}

// ReadGames picks the reader by extension: WTHOR (with the passes put back and, for a game
// stopped early, the stored result), GGF, or transcripts; ReadGameFiles joins files in order.
func TestReadGames(t *testing.T) {
	for _, c := range []struct {
		path string
		n    int
	}{{"testdata/WTH_1977.wtb", 12}, {"testdata/learn.ggf", 1}, {"testdata/book-games.txt", 20}} {
		games, err := ReadGames(c.path)
		if err != nil || len(games) != c.n {
			t.Fatalf("%s: %d games, %v; want %d", c.path, len(games), err, c.n)
		}
		for i, g := range games {
			if g.Start != board.Start() || len(g.Moves) == 0 {
				t.Errorf("%s game %d: %d moves", c.path, i+1, len(g.Moves))
			}
		}
	}
	wtb, _ := ReadGames("testdata/WTH_1977.wtb")
	for i, g := range wtb {
		if !g.HasResult {
			t.Errorf("WTHOR game %d has no result", i+1)
		}
	}
	all, err := ReadGameFiles([]string{"testdata/learn.ggf", "testdata/WTH_1977.wtb"})
	if err != nil || len(all) != 13 || len(all[1].Moves) != len(wtb[0].Moves) {
		t.Fatalf("ReadGameFiles: %d games, %v", len(all), err)
	}
	if _, err := ReadGameFiles([]string{"testdata/learn.ggf", "testdata/absent.txt"}); err == nil {
		t.Error("absent file: no error")
	}
	bad := filepath.Join(t.TempDir(), "bad.wtb")
	os.WriteFile(bad, []byte("short"), 0o644)
	if _, err := ReadGames(bad); err == nil {
		t.Error("malformed WTHOR file: no error")
	}
}
