package endgame

import (
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
)

// The parallel solver must give every score the sequential one gives, with any number of
// threads (more threads than cores too), on random positions deep enough to split (with a
// low split threshold so that small positions split as well) and on FFO positions; and
// random windows must keep the fail-soft contract against the exact score.
func TestParallelMatchesSequential(t *testing.T) {
	n := 120
	if testing.Short() {
		n = 40
	}
	r := rand.New(rand.NewPCG(5, 6))
	seq := NewSolver(4)
	type pos struct {
		p, o  uint64
		score int
	}
	var cases []pos
	for len(cases) < n {
		p, o, ok := randomPosition(r, 12+r.IntN(6))
		if !ok {
			continue
		}
		cases = append(cases, pos{p, o, seq.Solve(p, o, -64, 64).Score})
	}
	for _, threads := range []int{1, 2, 8} {
		opt := DefaultSolverOptions(4)
		opt.Threads = threads
		opt.SplitEmpties = 7
		opt.TableEmpties = 7
		s := NewSolverWith(opt)
		for i, c := range cases {
			res := s.Solve(c.p, c.o, -64, 64)
			if res.Score != c.score || res.Interrupted {
				t.Fatalf("%d threads: case %d (%s): score %d, sequential %d", threads, i, obf(c.p, c.o), res.Score, c.score)
			}
			if msg := pvError(c.p, c.o, res); msg != "" {
				t.Fatalf("%d threads: case %d (%s): %s", threads, i, obf(c.p, c.o), msg)
			}
			a := r.IntN(129) - 64
			b := a + 1 + r.IntN(20)
			v := s.Solve(c.p, c.o, a, b).Score
			switch {
			case v <= a && c.score > v, v >= b && c.score < v, v > a && v < b && v != c.score:
				t.Fatalf("%d threads: case %d window (%d,%d) gave %d, exact %d", threads, i, a, b, v, c.score)
			}
		}
		opt.SplitEmpties = 0
		opt.TableEmpties = 0
		opt.TableMiB = 16
		max := 99
		if testing.Short() {
			max = 20
		}
		solveProblems(t, NewSolverWith(opt), ffoProblems(t, "1-19"), 1, max)
	}
}

// A stop during a parallel solve ends it on every thread, reports it interrupted, and the
// next solve is exact again.
func TestParallelStop(t *testing.T) {
	ps := ffoProblems(t, "20-39")
	opt := DefaultSolverOptions(16)
	opt.Threads = 4
	s := NewSolverWith(opt)
	var stop atomic.Bool
	s.SetStop(&stop)
	go func() {
		time.Sleep(20 * time.Millisecond)
		stop.Store(true)
	}()
	b := ps[len(ps)-1].Board // FFO #39, 25 empties: far longer than 20 ms
	if res := s.Solve(b.P, b.O, -64, 64); !res.Interrupted {
		t.Fatalf("not interrupted: %+v", res)
	}
	stop.Store(false)
	b = ps[0].Board
	want, _ := ps[0].Best()
	if res := s.Solve(b.P, b.O, -64, 64); res.Interrupted || res.Score != want {
		t.Fatalf("after the stop: %+v, want %d", res, want)
	}
}

// The parallel search allocates nothing per node either: split points are preallocated, and
// the pool's goroutines are started once per solve.
func TestParallelAllocatesNothingPerNode(t *testing.T) {
	b := ffoProblems(t, "1-19")[0].Board
	opt := DefaultSolverOptions(4)
	opt.Threads, opt.SplitEmpties, opt.TableEmpties = 2, 7, 7
	s := NewSolverWith(opt)
	s.team.pool.Start()
	defer s.team.pool.Stop()
	empties := b.NumEmpties()
	s.ResetParallelStats()
	allocs := testing.AllocsPerRun(3, func() {
		s.ClearTable()
		s.search(b.P, b.O, -65, 65, empties, s.rootParity(b.P, b.O))
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per solve", allocs)
	}
	if s.ParallelStats().Splits == 0 {
		t.Fatal("no split point was opened")
	}
}

// The ordering searches' nodes and the scored positions are reported apart from Nodes, and a
// parallel solve reports every thread's: the helpers hand theirs over to the split's owner,
// so the result reports exactly what the team's raw counters (never handed on) grew by
// during the solve.
func TestOrderingNodesCounted(t *testing.T) {
	ps := ffoProblems(t, "20-39")[:3] // 20-22 empties: helpers sort moves too
	for _, threads := range []int{1, 2} {
		opt := DefaultSolverOptions(16)
		opt.Eval = testEval(t)
		opt.Threads, opt.SplitEmpties = threads, 7
		s := NewSolverWith(opt)
		sum := func() (eval, scored uint64) {
			for _, m := range s.team.members {
				eval += m.evalNodes
				scored += m.scored
			}
			return eval, scored
		}
		var got, gotScored uint64
		for _, pr := range ps {
			// A null window just under the known score: the solve fails high and extracts no
			// PV, whose work (on any thread) is left out of every count.
			want, _ := pr.Best()
			e0, c0 := sum()
			res := s.Solve(pr.Board.P, pr.Board.O, want-1, want)
			if res.Score < want {
				t.Fatalf("%d threads: score %d, want at least %d", threads, res.Score, want)
			}
			e1, c1 := sum()
			if e1-e0 != res.OrderingNodes {
				t.Fatalf("%d threads: the team searched %d ordering nodes, the result says %d", threads, e1-e0, res.OrderingNodes)
			}
			if c1-c0 != res.ScoredNodes {
				t.Fatalf("%d threads: the team scored %d positions, the result says %d", threads, c1-c0, res.ScoredNodes)
			}
			got += res.OrderingNodes
			gotScored += res.ScoredNodes
		}
		if got == 0 || gotScored == 0 {
			t.Fatalf("%d threads: %d ordering nodes and %d scored positions in three solves of 20-22 empties", threads, got, gotScored)
		}
		if threads == 2 && s.ParallelStats().Splits == 0 {
			t.Fatal("no split point was opened")
		}
	}
}

// A solve of more than sortDeepEmpties+sortBelowRoot empties sorts from sortBelowRoot
// empties below its root, on every thread of the team; a smaller one from sortDeepEmpties.
func TestSortDeepByRoot(t *testing.T) {
	opt := DefaultSolverOptions(1)
	opt.Threads = 2
	s := NewSolverWith(opt)
	h := s.team.members[1]
	// p's discs alone on the board: neither side can move, the solve ends at the root.
	for _, c := range []struct{ empties, want int }{{63, 51}, {34, 22}, {30, 18}, {29, 17}, {28, 16}, {20, 16}} {
		p := uint64(1)<<uint(64-c.empties) - 1
		if r := s.Solve(p, 0, -64, 64); r.Score != 64 {
			t.Fatalf("%d empties: score %d, want 64", c.empties, r.Score)
		}
		h.adopt()
		if s.sortDeep != c.want || s.team.set.sortDeep != c.want || h.sortDeep != c.want {
			t.Fatalf("%d empties: sort from %d (team %d, helper %d), want %d", c.empties, s.sortDeep, s.team.set.sortDeep, h.sortDeep, c.want)
		}
	}
	b := ffoProblems(t, "1-19")[0].Board
	s.Solve(b.P, b.O, -64, 64)
	h.adopt()
	if s.sortDeep != sortDeepEmpties || h.sortDeep != sortDeepEmpties {
		t.Fatalf("14 empties: sort from %d (helper %d), want %d", s.sortDeep, h.sortDeep, sortDeepEmpties)
	}
	// Window, the midgame search's hand-over, sets the threshold by its own root too, on the
	// solver and on a helper, after a solve that set another one.
	for _, c := range []struct{ empties, want int }{{34, 22}, {14, sortDeepEmpties}, {30, 18}} {
		p := uint64(1)<<uint(64-c.empties) - 1
		s.Solve(p, 0, -64, 64)
		h.adopt()
		for _, x := range []*Solver{s, h} {
			if v, _, _ := x.Window(b.P, b.O, -64, 64); v != 18 {
				t.Fatalf("Window of FFO #1: %d, want 18", v)
			}
			if x.sortDeep != sortDeepEmpties {
				t.Fatalf("Window at 14 empties after a solve of %d: sort from %d, want %d", c.empties, x.sortDeep, sortDeepEmpties)
			}
			if v, _, _ := x.Window(p, 0, -64, 64); v != 64 {
				t.Fatalf("Window of p alone: %d, want 64", v)
			}
			if x.sortDeep != c.want {
				t.Fatalf("Window at %d empties: sort from %d, want %d", c.empties, x.sortDeep, c.want)
			}
		}
	}
}
