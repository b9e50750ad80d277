package endgame

import (
	"context"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/othellogo/othello/board"
)

// lastMovePresearch is a Presearcher whose hint is the legal move the solver would try last
// (the highest square), and which says it searched a fixed number of nodes.
type lastMovePresearch struct {
	runs  int
	calls *int
}

const fakePresearchNodes = 1000

// fakeGuess is the lastMovePresearch's guess of every score: far off, which must not change
// the result.
const fakeGuess = 30

func (f *lastMovePresearch) Progress() (int, uint64) { return 0, 0 }

func (f *lastMovePresearch) Presearch(_ context.Context, b board.Board) PresearchResult {
	f.runs++
	hint := func(p, o uint64) int {
		*f.calls++
		moves := board.LegalMoves(p, o)
		if moves == 0 {
			return noMove
		}
		return 63 - bits.LeadingZeros64(moves)
	}
	return PresearchResult{Hint: hint, Guess: fakeGuess, HasGuess: true, Nodes: fakePresearchNodes}
}

// TestRunProblemsPresearch: a presearch runs before each exact solve, its hint is asked, its
// wrong guess changes no score, its nodes are counted in the results and the totals, the scores stay those of the file, and the
// hint does not outlive the solve; a probable solve gets no presearch.
func TestRunProblemsPresearch(t *testing.T) {
	ps := ffoProblems(t, "20-39")
	var selected []int
	for i, pr := range ps {
		if pr.Board.NumEmpties() == HintEmpties && len(selected) < 2 {
			selected = append(selected, i)
		}
	}
	if len(selected) < 2 {
		t.Fatalf("%d FFO positions with HintEmpties empties, want 2", len(selected))
	}
	calls := 0
	var made []*lastMovePresearch
	opt := ProblemOptions{Solver: DefaultSolverOptions(16)}
	opt.NewPresearcher = func() Presearcher {
		f := &lastMovePresearch{calls: &calls}
		made = append(made, f)
		return f
	}
	var solveNodes uint64
	tot, err := RunProblems(ps, selected, opt, func(r ProblemResult) error {
		if r.Wrong {
			t.Errorf("#%d: score %d disagrees with the file", 20+r.Index, r.Score)
		}
		if r.PresearchNodes != fakePresearchNodes {
			t.Errorf("#%d: presearch nodes %d, want %d", 20+r.Index, r.PresearchNodes, fakePresearchNodes)
		}
		solveNodes += r.Nodes - r.PresearchNodes
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(made) != 1 || made[0].runs != len(selected) {
		t.Fatalf("%d presearchers made, want 1 that ran %d times", len(made), len(selected))
	}
	if calls == 0 {
		t.Fatal("the presearch's hint was never asked")
	}
	if tot.PresearchNodes != uint64(len(selected))*fakePresearchNodes || tot.Nodes != solveNodes+tot.PresearchNodes {
		t.Fatalf("totals: %d nodes, %d presearch; want %d solve nodes plus %d", tot.Nodes, tot.PresearchNodes, solveNodes, len(selected)*fakePresearchNodes)
	}

	// After the run the solver of a job keeps no hint: a second solve asks none.
	s := NewSolver(16)
	f := &lastMovePresearch{calls: new(int)}
	r := solveProblem(s, f, &ps[selected[0]], selected[0], -64, 64, opt)
	if r.Wrong || *f.calls == 0 {
		t.Fatalf("solve with presearch: wrong %v, hint asked %d times", r.Wrong, *f.calls)
	}
	*f.calls = 0
	s.Solve(ps[selected[0]].Board.P, ps[selected[0]].Board.O, -64, 64)
	if *f.calls != 0 {
		t.Fatalf("the hint was asked %d times after its solve", *f.calls)
	}

	// Probable solves run without it.
	made = nil
	opt.Selectivity = 1
	if _, err := RunProblems(ps, selected[:1], opt, func(ProblemResult) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if len(made) != 0 {
		t.Fatal("a presearcher was made for a probable solve")
	}
}

// TestSolveNearKeepsScores: the aspiration's first guess changes the nodes, not the score nor
// the best move's value, whether it is right, off by a little or a lot, odd, beyond the
// scores or outside the caller's window; and a pass at the root turns the guess round.
func TestSolveNearKeepsScores(t *testing.T) {
	ps := ffoProblems(t, "1-19")
	if testing.Short() {
		ps = ps[:6]
	}
	for i, pr := range ps {
		b := pr.Board
		s := NewSolver(16)
		want := s.Solve(b.P, b.O, -64, 64)
		for _, g := range []int{want.Score, want.Score + 2, want.Score - 6, want.Score + 1, -100, 100, 0} {
			s.ClearTable()
			got := s.SolveNear(b.P, b.O, -64, 64, g)
			if got.Score != want.Score {
				t.Fatalf("FFO #%d guess %d: score %d, want %d", i+1, g, got.Score, want.Score)
			}
			c := b
			c.Make(got.Move)
			if v := NewSolver(16).Solve(c.P, c.O, -64, 64); -v.Score != want.Score {
				t.Fatalf("FFO #%d guess %d: move %v scores %d, not %d", i+1, g, got.Move, -v.Score, want.Score)
			}
			// A window that excludes the guess: the bound stays a bound of the right side.
			lo, hi := want.Score-4, want.Score+4
			s.ClearTable()
			if got := s.SolveNear(b.P, b.O, lo, hi, g).Score; got != want.Score {
				t.Fatalf("FFO #%d guess %d window (%d, %d): score %d, want %d", i+1, g, lo, hi, got, want.Score)
			}
		}
	}
	// The side to move passes: the guess is the mover's, the solve the opponent's.
	pass := passPosition(t)
	want := NewSolver(16).Solve(pass.P, pass.O, -64, 64).Score
	for _, g := range []int{want, -want, want + 4} {
		if got := NewSolver(16).SolveNear(pass.P, pass.O, -64, 64, g).Score; got != want {
			t.Fatalf("pass position guess %d: score %d, want %d", g, got, want)
		}
	}
}

// passPosition returns a position of 12 to 16 empties whose side to move must pass while the
// opponent can play, found by random games from a fixed seed.
func passPosition(t *testing.T) board.Board {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 8))
	for game := 0; game < 10000; game++ {
		b := board.Start()
		for !b.GameOver() {
			if n := b.NumEmpties(); n >= 12 && n <= 16 && b.MustPass() {
				return b
			}
			moves := b.LegalMoves()
			if moves == 0 {
				b.Pass()
				continue
			}
			for k := r.IntN(bits.OnesCount64(moves)); k > 0; k-- {
				moves &= moves - 1
			}
			b.Make(board.Square(bits.TrailingZeros64(moves)))
		}
	}
	t.Fatal("no position to pass in 10000 random games")
	return board.Board{}
}
