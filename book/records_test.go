package book

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
)

func TestDecodeWTB(t *testing.T) {
	games, err := ReadGames("testdata/WTH_1977.wtb")
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 12 {
		t.Fatalf("%d games, want 12 (SOURCES.md)", len(games))
	}
	// Replaying each game's transcript through the board package's own parser gives the same
	// moves and the recomputed result.
	for i, g := range games {
		moves, b, err := board.ParseTranscript(board.Transcript(g.Moves))
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		if len(moves) != len(g.Moves) {
			t.Fatalf("game %d: %d moves, transcript parser %d", i+1, len(g.Moves), len(moves))
		}
		if b.GameOver() && (!g.HasResult || g.Result != b.BlackScore()) {
			t.Errorf("game %d: result %d (%v), board %d", i+1, g.Result, g.HasResult, b.BlackScore())
		}
	}
	data, _ := os.ReadFile("testdata/WTH_1977.wtb")
	for _, n := range []int{0, 15, 16 + 68, len(data) - 1} {
		if _, err := DecodeWTB(data[:n]); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	bad := append([]byte(nil), data...)
	bad[16+8] = 11 // a1 as the first move
	if _, err := DecodeWTB(bad); err == nil || !strings.Contains(err.Error(), "not legal") {
		t.Errorf("illegal first move: %v", err)
	}
}

func TestReadAllWTHOR(t *testing.T) {
	if testing.Short() {
		t.Skip("long: every WTHOR game")
	}
	files, _ := filepath.Glob("../../shared/data/wthor/WTH_*.wtb")
	if len(files) == 0 {
		t.Skip("../shared is absent")
	}
	total := 0
	for _, f := range files {
		games, err := ReadGames(f)
		if err != nil {
			t.Fatal(err)
		}
		total += len(games)
	}
	if total != 131737 {
		t.Errorf("%d games, want 131,737 (SOURCES.md)", total)
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
		"(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- X];)",
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

func FuzzDecodeWTB(f *testing.F) {
	data, _ := os.ReadFile("testdata/WTH_1977.wtb")
	f.Add(data[:16+68*2])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		games, err := DecodeWTB(data)
		if err != nil {
			return
		}
		bk := New()
		for _, g := range games {
			if _, err := bk.AddGame(g, 20); err != nil {
				t.Fatalf("a decoded game does not replay: %v", err)
			}
		}
	})
}
