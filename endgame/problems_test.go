package endgame

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
)

// SolveAllMoves against plain minimax on random small positions, passes and finished games
// included, and against the FFO file's move scores.
func TestSolveAllMoves(t *testing.T) {
	s := NewSolver(4)
	r := rand.New(rand.NewPCG(7, 7))
	passes := 0
	for n := 0; n < 300; n++ {
		p, o, ok := randomPosition(r, 4+r.IntN(6))
		if !ok {
			continue
		}
		b := board.FromColors(p, o, true)
		moves, _ := s.SolveAllMoves(b)
		if b.GameOver() {
			if moves != nil {
				t.Fatalf("%s: a finished game has moves %v", b.OBF(), moves)
			}
			continue
		}
		if b.LegalMoves() == 0 {
			passes++
			if len(moves) != 1 || moves[0].Move != board.NoSquare || moves[0].Score != minimax(p, o) {
				t.Fatalf("%s: forced pass gives %v, want one pass worth %+d", b.OBF(), moves, minimax(p, o))
			}
			continue
		}
		if len(moves) != board.Count(b.LegalMoves()) {
			t.Fatalf("%s: %d moves, want %d", b.OBF(), len(moves), board.Count(b.LegalMoves()))
		}
		for i, m := range moves {
			child := b
			child.Make(m.Move)
			if want := -minimax(child.P, child.O); m.Score != want {
				t.Fatalf("%s: %v %+d, minimax %+d", b.OBF(), m.Move, m.Score, want)
			}
			if i > 0 && m.Score > moves[i-1].Score {
				t.Fatalf("%s: not best first: %v", b.OBF(), moves)
			}
		}
	}
	if passes == 0 {
		t.Log("no forced pass among the random positions")
	}
	for i, pr := range ffoProblems(t, "1-19")[:4] {
		moves, _ := s.SolveAllMoves(pr.Board)
		if bad := movesDisagree(moves, pr.Scores); bad != "" || len(moves) != len(pr.Scores) {
			t.Errorf("FFO #%d: %d moves, %d in the file; %s", i+1, len(moves), len(pr.Scores), bad)
		}
	}
}

// FormatOBF writes what ParseProblems reads back, a pass included.
func TestFormatOBF(t *testing.T) {
	ps := ffoProblems(t, "1-19")[:1]
	text := FormatOBF(ps[0].Board, ps[0].Scores)
	if want := "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;"; text != want {
		t.Fatalf("FormatOBF:\n%s\nwant\n%s", text, want)
	}
	pass := board.FromColors(0xff, 0x100, true) // white to move has no move, black has
	pass.Pass()
	lines := text + "\n" + FormatOBF(pass, []MoveScoreKnown{{Move: board.NoSquare, Score: -64}}) + "\n"
	back, err := ParseProblems(strings.NewReader(lines))
	if err != nil || len(back) != 2 {
		t.Fatalf("read back %q: %v", lines, err)
	}
	if back[0].Board != ps[0].Board || len(back[0].Scores) != len(ps[0].Scores) || back[1].Board != pass ||
		len(back[1].Scores) != 1 || back[1].Scores[0] != (MoveScoreKnown{Move: board.NoSquare, Score: -64}) {
		t.Fatalf("read back %q: %+v", lines, back)
	}
	for i, m := range back[0].Scores {
		if m != ps[0].Scores[i] {
			t.Fatalf("move %d read back as %v, want %v", i, m, ps[0].Scores[i])
		}
	}
}

// RunProblems reports in the order asked for, whatever the number of jobs, checks scores
// against the file (exactly, by result with WLD, every move with AllMoves) and stops on an
// error from its report.
func TestRunProblems(t *testing.T) {
	ps := ffoProblems(t, "1-19")[:5]
	ps[1].Scores[0].Score = 12 // FFO #2: A4 is worth +10, not +12
	ps[2].Scores[1].Score = 2  // FFO #3: G3 is worth +0, not +2 (D1's +2 is right)
	selected := []int{4, 0, 2, 1}
	for _, c := range []struct {
		name      string
		opt       ProblemOptions
		wrong     []bool
		badMove   string
		moveCount bool
	}{
		{"exact", ProblemOptions{Solver: DefaultSolverOptions(4)}, []bool{false, false, false, true}, "", false},
		{"two jobs of two threads", ProblemOptions{Solver: DefaultSolverOptions(4), Jobs: 2}, []bool{false, false, false, true}, "", false},
		{"wld", ProblemOptions{Solver: DefaultSolverOptions(4), Jobs: 3, WLD: true}, []bool{false, false, false, false}, "", false},
		{"all moves", ProblemOptions{Solver: DefaultSolverOptions(4), AllMoves: true}, []bool{false, false, true, true}, "g3 +0 (file +2)", true},
	} {
		if c.name == "two jobs of two threads" {
			c.opt.Solver.Threads = 2
		}
		var got []ProblemResult
		tot, err := RunProblems(ps, selected, c.opt, func(r ProblemResult) error {
			got = append(got, r)
			return nil
		})
		if err != nil || len(got) != len(selected) {
			t.Fatalf("%s: %d results, %v", c.name, len(got), err)
		}
		var nodes uint64
		wrong := 0
		for i, r := range got {
			nodes += r.Nodes
			if r.Wrong {
				wrong++
			}
			if r.Index != selected[i] || r.Wrong != c.wrong[i] || r.Elapsed <= 0 {
				t.Errorf("%s: result %d is #%d, wrong %v, %v; want #%d, wrong %v", c.name, i, r.Index+1, r.Wrong, r.Elapsed, selected[i]+1, c.wrong[i])
			}
			if (r.Index == 2 && r.BadMove != c.badMove) || (r.Index != 2 && r.BadMove != "") {
				t.Errorf("%s: #%d: bad move %q", c.name, r.Index+1, r.BadMove)
			}
			if want, _ := ps[r.Index].Best(); !c.opt.WLD && r.Index != 1 && r.Score != want {
				t.Errorf("%s: #%d: score %+d, want %+d", c.name, r.Index+1, r.Score, want)
			}
			if c.moveCount != (len(r.Moves) == len(ps[r.Index].Scores)) {
				t.Errorf("%s: #%d: %d moves", c.name, r.Index+1, len(r.Moves))
			}
		}
		if tot.Positions != len(selected) || tot.Nodes != nodes || tot.Wrong != wrong {
			t.Errorf("%s: totals %+v, want %d positions, %d nodes, %d wrong", c.name, tot, len(selected), nodes, wrong)
		}
	}

	stop := errors.New("stop")
	calls := 0
	_, err := RunProblems(ps, selected, ProblemOptions{Solver: DefaultSolverOptions(4), Jobs: 2}, func(ProblemResult) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Errorf("an error from report: %v after %d calls, want %v after 1", err, calls, stop)
	}
}

// Progress is reported for the position being solved while it is solved. Whether a tick
// falls inside a short solve depends on the machine's load, so the positions are tried from
// the smallest up (FFO #21, 15 empties, some 270,000 nodes, first) until one is reported.
func TestRunProblemsProgress(t *testing.T) {
	all := ffoProblems(t, "20-39")
	calls := 0
	for _, i := range []int{1, 0, 7, 12, 19} { // FFO #21, #20, #27, #32, #39
		var last uint64
		opt := ProblemOptions{Solver: DefaultSolverOptions(4), ProgressInterval: 50 * time.Microsecond}
		opt.Progress = func(index int, p ProblemProgress) {
			nodes, elapsed := p.Nodes, p.Elapsed
			if index != 0 || nodes < last || elapsed <= 0 || p.InPresearch {
				t.Errorf("progress: #%d, %d nodes after %d, %v", index, nodes, last, elapsed)
			}
			calls++
			last = nodes
		}
		if _, err := RunProblems(all[i:i+1], []int{0}, opt, func(ProblemResult) error { return nil }); err != nil {
			t.Fatal(err)
		}
		if calls > 0 {
			return
		}
	}
	t.Error("no progress reported")
}

func TestFirstNumber(t *testing.T) {
	for in, want := range map[string]int{"a/b/fforum-40-59.obf": 40, "x.obf": 1, "fforum-1-19.obf": 1, "fforum-60-79.obf": 60, "a-b-c.obf": 1} {
		if got := FirstNumber(in); got != want {
			t.Errorf("FirstNumber(%q) = %d, want %d", in, got, want)
		}
	}
}
