package endgame

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/othellogo/othello/board"
)

func TestParseProblems(t *testing.T) {
	text := "% comment\n\n" +
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; A4:-22;\n" +
		"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOOO O\n"
	ps, err := ParseProblems(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || ps[0].Line != 3 || ps[1].Line != 4 {
		t.Fatalf("got %d problems %+v", len(ps), ps)
	}
	if best, ok := ps[0].Best(); !ok || best != 18 || len(ps[0].Scores) != 3 || ps[0].Scores[2].Move != board.SquareAt(0, 3) || ps[0].Scores[2].Score != -22 {
		t.Fatalf("scores %+v", ps[0].Scores)
	}
	if _, ok := ps[1].Best(); ok || ps[1].Board.BlackToMove {
		t.Fatalf("second problem %+v", ps[1])
	}
	bad := []string{
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8+18;",
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; Z9:+18;",
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+99;",
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; A1:+2;",
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOX",
		"--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- Q",
	}
	for _, b := range bad {
		if _, err := ParseProblems(strings.NewReader(b)); err == nil {
			t.Errorf("%q: no error", b)
		} else if !strings.Contains(err.Error(), "line 1") {
			t.Errorf("%q: error %q does not name the line", b, err)
		}
	}
}

func FuzzParseProblems(f *testing.F) {
	f.Add("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;\n")
	f.Add("O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; pa:-4\n% x\n")
	f.Add(";;::\n")
	f.Fuzz(func(t *testing.T, text string) {
		ps, err := ParseProblems(strings.NewReader(text))
		if err != nil {
			return
		}
		for _, p := range ps {
			if p.Board.P&p.Board.O != 0 {
				t.Fatalf("overlapping discs")
			}
			for _, m := range p.Scores {
				if m.Score < -64 || m.Score > 64 {
					t.Fatalf("score %d out of range", m.Score)
				}
			}
		}
	})
}

// TestSolveStop checks that a set stop flag ends a solve early and that the result says so.
func TestSolveStop(t *testing.T) {
	ps := ffoProblems(t, "40-59")
	b := ps[0].Board
	s := NewSolver(4)
	var stop atomic.Bool
	stop.Store(true)
	s.SetStop(&stop)
	res := s.Solve(b.P, b.O, -64, 64)
	if !res.Interrupted || res.Nodes > 2*pollNodes {
		t.Fatalf("stopped solve: interrupted %v after %d nodes", res.Interrupted, res.Nodes)
	}
	// The same solver, without the flag, still solves correctly afterwards.
	s.SetStop(nil)
	p2 := ffoProblems(t, "1-19")[0].Board
	if res := s.Solve(p2.P, p2.O, -64, 64); res.Interrupted || res.Score != 18 {
		t.Fatalf("after a stop: %+v", res)
	}
}

// TestSolveEdgeCases: finished games, forced passes and WLD windows.
func TestSolveEdgeCases(t *testing.T) {
	s := NewSolver(1)
	full := board.FromColors(0xFFFFFFFF, 0xFFFFFFFF00000000, true)
	if r := s.Solve(full.P, full.O, -64, 64); r.Score != 0 || r.Move != board.NoSquare || len(r.PV) != 0 {
		t.Fatalf("full board: %+v", r)
	}
	// Black has every disc, h8 is empty, white to move: nobody can move, white lost 0-64.
	b := board.FromColors(^uint64(0)&^(1<<63), 0, false)
	if r := s.Solve(b.P, b.O, -64, 64); r.Score != -64 || r.Move != board.NoSquare {
		t.Fatalf("wipe-out: %+v", r)
	}
	ffo := ffoProblems(t, "1-19")
	for i, pr := range ffo[:5] {
		want, _ := pr.Best()
		r := s.Solve(pr.Board.P, pr.Board.O, -1, 1)
		if sign(r.Score) != sign(want) {
			t.Fatalf("FFO #%d WLD: %d, exact %d", i+1, r.Score, want)
		}
	}
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
