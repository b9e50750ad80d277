package endgame

import (
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
)

// TestProbableSolves, on positions of real games at 18 empties (games of this engine, not
// the ones the regressions were fitted on): probable solves need far fewer nodes than exact
// ones and land near the exact scores; an exact solve on the table they filled still gets
// the exact score (their bounds are kept apart by level); without the pattern evaluation
// there is no selectivity.
func TestProbableSolves(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	if s := NewSolver(1); func() int { s.SetSelectivity(3); return s.level }() != 0 {
		t.Fatal("selectivity without an evaluation")
	}
	opt := DefaultSolverOptions(16)
	opt.Eval = ev
	s := NewSolverWith(opt)
	exact := NewSolver(16)
	// All 12 even in -short: with 6 the check of the exact solve after a probable one did not
	// catch probable bounds leaking into it (tried by removing the level test of the probe).
	positions := testdataPositions(t, "probable18.obf")
	var exactNodes, probNodes uint64
	errSum := 0
	for _, b := range positions {
		exact.ClearTable()
		want := exact.Solve(b.P, b.O, -64, 64)
		exactNodes += want.Nodes
		s.ClearTable()
		s.SetSelectivity(MaxSelectivity)
		got := s.Solve(b.P, b.O, -64, 64)
		probNodes += got.Nodes
		errSum += abs(got.Score - want.Score)
		s.SetSelectivity(0)
		if v := s.Solve(b.P, b.O, -64, 64).Score; v != want.Score {
			t.Fatalf("%s: exact solve after a probable one: %d, want %d", b.OBF(), v, want.Score)
		}
	}
	n := len(positions)
	if probNodes*4 > exactNodes*3 {
		t.Errorf("probable solves took %d nodes, exact ones %d: the cuts do not prune", probNodes, exactNodes)
	}
	if mean := float64(errSum) / float64(n); mean > 3 {
		t.Errorf("probable solves miss by %.1f discs on average", mean)
	}
	t.Logf("%d positions of 18 empties: exact %d nodes, probable (level %d) %d, mean error %.2f discs",
		n, exactNodes, MaxSelectivity, probNodes, float64(errSum)/float64(n))
}

// TestProbableAspirationSettles: a probable solve's bounds depend on the window, and on this
// position (from a game against NTest) the root's aspiration windows used to fail low and high
// in turn for ever; the solve must finish on its own. A watchdog stops it after 20 s so that a
// regression fails instead of hanging.
func TestProbableAspirationSettles(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultSolverOptions(16)
	opt.Eval = ev
	s := NewSolverWith(opt)
	var stop atomic.Bool
	s.SetStop(&stop)
	timer := time.AfterFunc(20*time.Second, func() { stop.Store(true) })
	defer timer.Stop()
	b, _, err := board.ParseOBF("O-OO-X---OOOOO--XXOXOOX-OXXOXOX-OXOOOOX-XOOXOOOO-OOXXO---XXX-OO- X")
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range []int{5, 4, 3} {
		s.ClearTable()
		s.SetSelectivity(level)
		if r := s.Solve(b.P, b.O, -64, 64); r.Interrupted || !b.IsLegal(r.Move) {
			t.Fatalf("level %d: %+v", level, r)
		}
	}
}

// testdataPositions reads the positions of an OBF file of testdata.
func testdataPositions(t *testing.T, name string) []board.Board {
	t.Helper()
	ps, err := ReadProblemFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return Boards(ps)
}
