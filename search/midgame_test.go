package search

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
)

// minimax is the plain negamax reference: no pruning, no tables, same leaves and pass rule;
// leaves with at most defaultLeafSolve empties take their exact value (Config.LeafSolve).
func midMinimax(b *board.Board, h int) int { return midMinimaxLS(b, h, defaultLeafSolve) }

// midMinimaxLS is midMinimax with leaves of at most ls empties solved (-1: none).
func midMinimaxLS(b *board.Board, h, ls int) int {
	if h == 0 {
		if b.NumEmpties() <= ls {
			return exactMinimax(b.P, b.O) * mobilityScale
		}
		return mobilityEval(b.P, b.O)
	}
	moves := b.LegalMoves()
	if moves == 0 {
		if board.LegalMoves(b.O, b.P) == 0 {
			return board.DiscDiff(b.P, b.O) * mobilityScale
		}
		b.Pass()
		v := -midMinimaxLS(b, h, ls)
		b.Pass()
		return v
	}
	best := -scoreInf
	for m := moves; m != 0; m &= m - 1 {
		u := b.Make(board.FirstSquare(m))
		v := -midMinimaxLS(b, h-1, ls)
		b.Unmake(u)
		best = max(best, v)
	}
	return best
}

// exactMinimax is the final disc difference under perfect play, by full enumeration.
func exactMinimax(p, o uint64) int {
	moves := board.LegalMoves(p, o)
	if moves == 0 {
		if board.LegalMoves(o, p) == 0 {
			return board.DiscDiff(p, o)
		}
		return -exactMinimax(o, p)
	}
	best := -65
	for m := moves; m != 0; m &= m - 1 {
		sq := board.FirstSquare(m)
		f := board.Flips(p, o, sq)
		best = max(best, -exactMinimax(o&^f, p|f|sq.Bit()))
	}
	return best
}

// randomPositions plays random games and keeps the positions with the given empties.
func randomPositions(seed uint64, n, empties int) []board.Board {
	rng := rand.New(rand.NewPCG(seed, 7))
	var out []board.Board
	for len(out) < n {
		b := board.Start()
		for b.NumEmpties() > empties && !b.GameOver() {
			moves := b.LegalMoves()
			if moves == 0 {
				b.Pass()
				continue
			}
			k := rng.IntN(board.Count(moves))
			for ; k > 0; k-- {
				moves &= moves - 1
			}
			b.Make(board.FirstSquare(moves))
		}
		if b.NumEmpties() == empties && b.LegalMoves() != 0 {
			out = append(out, b)
		}
	}
	return out
}

var testConfigs = []struct {
	name string
	cfg  Config
}{
	{"default", Config{TTMiB: 1}},
	{"tt-everywhere", Config{TTMiB: 1, TTHeight: 1, PVSHeight: 1}},
	{"no-pvs", Config{TTMiB: 1, NoPVS: true}},
	{"no-prev", Config{TTMiB: 1, NoPrevOrder: true}},
	{"no-killer", Config{TTMiB: 1, NoKiller: true}},
	{"tiny-tt", Config{TTMiB: 1, TTHeight: 1}},
	{"no-leaf-solve", Config{TTMiB: 1, LeafSolve: -1}},
}

// leafSolveOf is the number of empties up to which an engine of cfg solves its leaves.
func leafSolveOf(cfg Config) int {
	switch {
	case cfg.LeafSolve < 0:
		return -1
	case cfg.LeafSolve > 0:
		return cfg.LeafSolve
	}
	return defaultLeafSolve
}

func TestSearchEqualsMinimax(t *testing.T) {
	positions := append(randomPositions(1, 6, 50), randomPositions(2, 6, 30)...)
	positions = append(positions, randomPositions(3, 6, 12)...)
	// Near the end the leaves are solved (Config.LeafSolve) or evaluated, by configuration.
	positions = append(positions, randomPositions(31, 6, 9)...)
	maxH := 4
	if testing.Short() {
		maxH = 3
	}
	for _, tc := range testConfigs {
		e := NewEngine(tc.cfg)
		for i, b := range positions {
			e.begin(context.Background(), b, Limits{}, timePlan{})
			for h := 1; h <= maxH; h++ {
				e.nextGeneration()
				want := midMinimaxLS(&b, h, leafSolveOf(tc.cfg))
				if got := e.alphaBeta(-scoreInf, scoreInf, h); got != want {
					t.Fatalf("%s: position %d (%s) height %d: search %d, minimax %d", tc.name, i, b.OBF(), h, got, want)
				}
				// The root driver agrees too.
				rm := e.rootMoves(b.LegalMoves())
				e.searchRoot(rm, h, 1)
				if rm[0].score != want {
					t.Fatalf("%s: position %d height %d: root %d, minimax %d", tc.name, i, h, rm[0].score, want)
				}
			}
			if e.b != b {
				t.Fatalf("%s: board not restored after search", tc.name)
			}
		}
	}
}

// TestBoundsNeverLeaveWindow searches with many windows while the tables keep what earlier
// searches stored, and checks the fail-soft contract against the true value: a fail-low value
// is an upper bound, a fail-high value a lower bound, and an in-window value is exact.
func TestBoundsNeverLeaveWindow(t *testing.T) {
	positions := append(randomPositions(4, 8, 44), randomPositions(5, 8, 24)...)
	positions = append(positions, randomPositions(32, 8, 10)...) // leaves at 6 empties
	const h = 4
	for _, tc := range testConfigs {
		e := NewEngine(tc.cfg)
		for i, b := range positions {
			truth := midMinimaxLS(&b, h, leafSolveOf(tc.cfg))
			e.begin(context.Background(), b, Limits{}, timePlan{})
			e.nextGeneration()
			for _, d := range []int{-400, -100, -30, -1, 0, 1, 20, 64, 300} {
				for _, w := range []int{1, 2, 40, 1000} {
					alpha, beta := truth+d-w, truth+d
					v := e.alphaBeta(alpha, beta, h)
					switch {
					case v <= alpha && truth > v:
						t.Fatalf("%s pos %d window [%d,%d]: fail low %d but true value %d", tc.name, i, alpha, beta, v, truth)
					case v >= beta && truth < v:
						t.Fatalf("%s pos %d window [%d,%d]: fail high %d but true value %d", tc.name, i, alpha, beta, v, truth)
					case v > alpha && v < beta && v != truth:
						t.Fatalf("%s pos %d window [%d,%d]: value %d but true value %d", tc.name, i, alpha, beta, v, truth)
					}
				}
			}
		}
	}
}

// TestSearchSolvesEndgames checks the switch to the solver: with no limits a position with few
// empties is solved exactly (and for win/loss/draw under a short clock), and the move played is
// a best one, against plain minimax.
func TestSearchSolvesEndgames(t *testing.T) {
	positions := randomPositions(6, 20, 9)
	e := NewEngine(Config{TTMiB: 1, SolverMiB: 1})
	for i, b := range positions {
		want := exactMinimax(b.P, b.O)
		r := e.Search(context.Background(), b, Limits{}, nil)
		if !r.Exact || int(r.Score) != want {
			t.Fatalf("position %d: Search gives %+v, want exact %d", i, r.Info, want)
		}
		bb := b
		bb.Make(r.Move)
		if -exactMinimax(bb.P, bb.O) != want {
			t.Fatalf("position %d: Search move %s is not best", i, r.Move)
		}
		if len(r.PV) == 0 || r.PV[0] != r.Move {
			t.Fatalf("position %d: PV %v does not start with the move %s", i, r.PV, r.Move)
		}
		// Win/loss/draw first, as under a short clock.
		e.begin(context.Background(), b, Limits{}, timePlan{})
		rm := e.rootMoves(b.LegalMoves())
		if !e.solveRoot(rm, 1, true) {
			t.Fatalf("position %d: WLD solve stopped", i)
		}
		sign := func(x int) int { return clampSign(x, true) }
		if sign(rm[0].score) != sign(want) {
			t.Fatalf("position %d: WLD %d, true score %d", i, rm[0].score, want)
		}
		if want >= 0 {
			bb := b
			bb.Make(rm[0].sq)
			if sign(-exactMinimax(bb.P, bb.O)) != sign(want) {
				t.Fatalf("position %d: WLD move %s does not keep the result", i, rm[0].sq)
			}
		}
	}
}

func TestAnalyzeScoresAllMoves(t *testing.T) {
	b := randomPositions(7, 1, 10)[0]
	e := NewEngine(Config{TTMiB: 1, SolverMiB: 1})
	ms := e.Analyze(context.Background(), b, Limits{}, 0, nil)
	if len(ms) != board.Count(b.LegalMoves()) {
		t.Fatalf("Analyze returned %d moves, want %d", len(ms), board.Count(b.LegalMoves()))
	}
	for i, m := range ms {
		bb := b
		bb.Make(m.Move)
		want := -exactMinimax(bb.P, bb.O)
		if !m.Exact || int(m.Score) != want {
			t.Fatalf("move %s: %+v, want exact %d", m.Move, m.Info, want)
		}
		if i > 0 && ms[i-1].Score < m.Score {
			t.Fatalf("moves not sorted best first")
		}
	}
	// Midgame analysis: the n best are exact values at the depth, in order, and agree with minimax.
	b = randomPositions(8, 1, 40)[0]
	ms = e.Analyze(context.Background(), b, Limits{Depth: 3}, 3, nil)
	for i := 0; i < 3 && i < len(ms); i++ {
		bb := b
		bb.Make(ms[i].Move)
		if want := -midMinimax(&bb, 2); int(ms[i].Score*mobilityScale) != want {
			t.Fatalf("midgame move %s: score %v, minimax %d", ms[i].Move, ms[i].Score*mobilityScale, want)
		}
	}
}

func TestStop(t *testing.T) {
	b := randomPositions(9, 1, 40)[0]
	e := NewEngine(Config{TTMiB: 1})
	// Cancelled before it starts: still a legal move.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := e.Search(ctx, b, Limits{}, nil)
	if !b.IsLegal(r.Move) {
		t.Fatalf("cancelled search returned %s, not a legal move", r.Move)
	}
	// Cancelled from the info callback after depth 3: it stops there.
	ctx, cancel = context.WithCancel(context.Background())
	last := 0
	r = e.Search(ctx, b, Limits{}, func(in Info) {
		last = in.Depth
		if in.Depth >= 3 {
			cancel()
		}
	})
	cancel()
	if !b.IsLegal(r.Move) || last < 3 || last > 4 {
		t.Fatalf("search cancelled at depth 3 ended at depth %d with %s", last, r.Move)
	}
	// A node limit stops it within a poll interval.
	r = e.Search(context.Background(), b, Limits{Nodes: 20000}, nil)
	if !b.IsLegal(r.Move) || r.Nodes > 20000+pollInterval+64 {
		t.Fatalf("node-limited search: move %s nodes %d", r.Move, r.Nodes)
	}
	// Cancelled from another goroutine while searching with no limit.
	ctx, cancel = context.WithCancel(context.Background())
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	r = e.Search(ctx, b, Limits{}, nil)
	if !b.IsLegal(r.Move) {
		t.Fatalf("search cancelled from outside returned %s", r.Move)
	}
}

// TestTimePlanKeepsClock plays out a game's worth of hard limits against a clock: even if
// every move used its whole hard limit, the clock never runs out.
func TestTimePlanKeepsClock(t *testing.T) {
	for _, clock := range []time.Duration{100 * time.Millisecond, time.Second, 60 * time.Second} {
		for _, inc := range []time.Duration{0, time.Second} {
			for _, hz := range [][4]int{{defaultClockHorizon, 0, 1, 0}, {16, 0, 1, 0}, {24, 0, 1, 0}, {16, 20, 1, 0}, {16, 22, 1, 0}, {16, 20, 3, 0}, {16, 20, 10, 0}, {16, 20, 1, 75}, {16, 20, 1, 95}, {16, 0, 1, 95}} {
				horizon, endHorizon, weight, last := hz[0], hz[1], hz[2], hz[3]
				left := clock
				for empties := 60; empties > 0; empties -= 2 {
					tp := planTimeWeighted(Limits{Remaining: left, Increment: inc}, empties, horizon, endHorizon, weight, last)
					if tp.hard <= 0 || tp.soft > tp.hard || tp.hard >= left {
						t.Fatalf("clock %v left %v empties %d: plan %+v", clock, left, empties, tp)
					}
					left += inc - tp.hard
					if left <= 0 {
						t.Fatalf("clock %v inc %v: ran out at %d empties", clock, inc, empties)
					}
				}
				// Even if every move were a solving move and took its whole solve limit.
				left = clock
				for empties := 60; empties > 0; empties -= 2 {
					tp := planTimeWeighted(Limits{Remaining: left, Increment: inc}, empties, horizon, endHorizon, weight, last)
					if tp.solve < tp.hard || tp.solve >= left {
						t.Fatalf("clock %v left %v empties %d: solve limit in %+v", clock, left, empties, tp)
					}
					if left += inc - tp.solve; left <= 0 {
						t.Fatalf("clock %v inc %v: solving moves ran out at %d empties", clock, inc, empties)
					}
				}
			}
		}
	}
	if tp := planTime(Limits{Remaining: time.Minute, MoveTime: 100 * time.Millisecond}, 20); tp.solve > tp.hard {
		t.Fatalf("a time per move must cap solving moves too: %+v", tp)
	}
	tp := planTime(Limits{MoveTime: time.Second}, 40)
	if tp.hard > time.Second || tp.hard < 900*time.Millisecond || tp.soft >= tp.hard {
		t.Fatalf("move time plan %+v", tp)
	}
}

// TestEndProofWeight: a proof weight moves the end phase's clock from its first moves to the
// moves at 3-4 empties above the end horizon and changes nothing else.
func TestEndProofWeight(t *testing.T) {
	lim := Limits{Remaining: 2 * time.Second}
	for empties := 40; empties > 0; empties-- {
		base := planTimeTo(lim, empties, 16, 20)
		w := planTimeWeighted(lim, empties, 16, 20, 3, 0)
		switch {
		case empties == 23 || empties == 24:
			if w.soft <= base.soft || w.hard <= base.hard {
				t.Errorf("%d empties: weighted plan %+v not longer than %+v", empties, w, base)
			}
		case empties == 25 || empties == 26:
			if w.soft >= base.soft {
				t.Errorf("%d empties: weighted plan %+v not shorter than %+v", empties, w, base)
			}
		case w != base:
			t.Errorf("%d empties: weighted plan %+v, plain %+v", empties, w, base)
		}
	}
	usable := lim.Remaining - clockReserve(lim.Remaining)
	if w := planTimeWeighted(lim, 24, 16, 20, 3, 0); w.hard != usable*3/4 {
		t.Errorf("weight 3 at 24 empties: hard %v, want three quarters of %v", w.hard, usable)
	}
}

// TestEndLastShare: a last share gives the own move at 1-2 empties above the end horizon that
// share of the usable clock as target and hard limit, and changes no other move's plan.
func TestEndLastShare(t *testing.T) {
	lim := Limits{Remaining: 700 * time.Millisecond}
	usable := lim.Remaining - clockReserve(lim.Remaining)
	for empties := 40; empties > 0; empties-- {
		base := planTimeTo(lim, empties, 16, 20)
		last := planTimeWeighted(lim, empties, 16, 20, 1, 75)
		if empties == 21 || empties == 22 {
			if last.hard != usable*3/4 || last.soft != last.hard*2/3 || last.hard <= base.hard {
				t.Errorf("%d empties: plan %+v, want hard %v (plain %+v)", empties, last, usable*3/4, base)
			}
			continue
		}
		if last != base {
			t.Errorf("%d empties: plan %+v, plain %+v", empties, last, base)
		}
	}
	// Without an end horizon the share has nothing to apply to.
	for empties := 40; empties > 0; empties-- {
		if a, b := planTimeWeighted(lim, empties, 16, 0, 1, 75), planTimeTo(lim, empties, 16, 0); a != b {
			t.Errorf("no end horizon, %d empties: %+v against %+v", empties, a, b)
		}
	}
}

// TestEndHorizon: an end horizon gives the moves of its end phase more of the clock and leaves
// the earlier moves' plans alone.
func TestEndHorizon(t *testing.T) {
	lim := Limits{Remaining: 2 * time.Second}
	for empties := 40; empties > 20; empties-- {
		base, end := planTimeTo(lim, empties, 16, 0), planTimeTo(lim, empties, 16, 20)
		switch {
		case empties > 20+endPhase && end != base:
			t.Fatalf("%d empties: end horizon changed the midgame plan %+v to %+v", empties, base, end)
		case empties <= 20+endPhase && (end.soft <= base.soft || end.hard < base.hard):
			t.Fatalf("%d empties: end phase plan %+v not longer than %+v", empties, end, base)
		}
	}
	if tp := planTimeTo(lim, 24, 16, 12); tp != planTimeTo(lim, 24, 16, 0) {
		t.Fatalf("an end horizon below the clock horizon must change nothing: %+v", tp)
	}
	for _, c := range []struct{ cfg, want int }{{0, defaultEndHorizon}, {22, 22}, {-1, 0}} {
		if e := NewEngine(Config{TTMiB: 1, SolverMiB: 1, EndHorizon: c.cfg}); e.endHorizon != c.want {
			t.Errorf("Config.EndHorizon %d: end horizon %d, want %d", c.cfg, e.endHorizon, c.want)
		}
	}
}

func TestBoundsEntrySize(t *testing.T) {
	if s := unsafe.Sizeof(boundsSlot{}); s != 16 {
		t.Fatalf("boundsSlot is %d bytes, want 16", s)
	}
	tb := newBoundsTable(1 << 20)
	if len(tb.entries)*16 != 1<<20 {
		t.Fatalf("a 1 MiB table has %d entries", len(tb.entries))
	}
}

// TestEnginesInParallel runs two engines at once (meaningful under -race).
func TestEnginesInParallel(t *testing.T) {
	b := randomPositions(10, 1, 36)[0]
	var wg sync.WaitGroup
	res := make([]Result, 2)
	for i := range res {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := NewEngine(Config{TTMiB: 1})
			res[i] = e.Search(context.Background(), b, Limits{Depth: 5}, nil)
		}()
	}
	wg.Wait()
	if res[0].Move != res[1].Move || res[0].Score != res[1].Score || res[0].Nodes != res[1].Nodes {
		t.Fatalf("two identical searches differ: %+v vs %+v", res[0], res[1])
	}
}

// patternMinimax is the plain negamax reference with the pattern evaluation at the leaves.
func patternMinimax(ev *eval.Evaluator, b *board.Board, h int) int {
	if h == 0 {
		if b.NumEmpties() <= defaultLeafSolve {
			return exactMinimax(b.P, b.O) * eval.Scale
		}
		return ev.Eval(b)
	}
	moves := b.LegalMoves()
	if moves == 0 {
		if board.LegalMoves(b.O, b.P) == 0 {
			return board.DiscDiff(b.P, b.O) * eval.Scale
		}
		b.Pass()
		v := -patternMinimax(ev, b, h)
		b.Pass()
		return v
	}
	best := -scoreInf
	for m := moves; m != 0; m &= m - 1 {
		u := b.Make(board.FirstSquare(m))
		v := -patternMinimax(ev, b, h-1)
		b.Unmake(u)
		best = max(best, v)
	}
	return best
}

func TestPatternSearchEqualsMinimax(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	e := NewEngine(Config{TTMiB: 1, SolverMiB: 1, Eval: ev})
	positions := append(randomPositions(14, 5, 44), randomPositions(15, 5, 20)...)
	for i, b := range append(positions, randomPositions(16, 5, 8)...) {
		e.begin(context.Background(), b, Limits{}, timePlan{})
		for h := 1; h <= 3; h++ {
			e.nextGeneration()
			want := patternMinimax(ev, &b, h)
			if got := e.alphaBeta(-scoreInf, scoreInf, h); got != want {
				t.Fatalf("position %d height %d: search %d, minimax %d", i, h, got, want)
			}
		}
	}
}

// TestExactEmptiesLimit checks Limits.ExactEmpties: a depth-2 search, which alone would not
// solve 12 empties, solves them exactly when told to, and the plan follows the field.
func TestExactEmptiesLimit(t *testing.T) {
	if p := planSearch(Limits{Depth: 2}, timePlan{}, 12, 0); p.solve {
		t.Fatalf("depth 2 at 12 empties plans a solve without ExactEmpties: %+v", p)
	}
	if p := planSearch(Limits{Depth: 8, ExactEmpties: 10}, timePlan{}, 12, 0); p.solve {
		t.Fatalf("ExactEmpties 10 at 12 empties plans a solve: %+v", p)
	}
	e := NewEngine(Config{TTMiB: 1, SolverMiB: 1})
	for i, b := range randomPositions(11, 4, 12) {
		want := exactMinimax(b.P, b.O)
		r := e.Search(context.Background(), b, Limits{Depth: 2, ExactEmpties: 12}, nil)
		if !r.Exact || int(r.Score) != want {
			t.Fatalf("position %d: depth 2, ExactEmpties 12 gives %+v, want exact %d", i, r.Info, want)
		}
	}
}

// TestDepthLevelProvesWLD checks the win/loss/draw band of depth-limited searches: two empties
// past its exact solve, a level proves the result and plays a move that keeps it.
func TestDepthLevelProvesWLD(t *testing.T) {
	if p := planSearch(Limits{Depth: 8}, timePlan{}, 18, 0); !p.wldOnly || p.solve {
		t.Fatalf("depth 8 at 18 empties: plan %+v, want win/loss/draw only", p)
	}
	// Under time control the band is wider: 25 ms a move solves exactly from 14 empties and
	// proves win/loss/draw from 18, after a shallow midgame search.
	if p := planSearch(Limits{MoveTime: 25 * time.Millisecond}, timePlan{hard: 24 * time.Millisecond}, 18, 0); !p.wldOnly || p.solve || p.maxDepth > 6 {
		t.Fatalf("25 ms at 18 empties: plan %+v, want win/loss/draw only after depth 6 at most", p)
	}
	// With the probable band the same positions get probable solves instead, and only they.
	lim25, tp25 := Limits{MoveTime: 25 * time.Millisecond}, timePlan{hard: 24 * time.Millisecond}
	for empties, want := range map[int]bool{14: false, 15: true, 18: true, 19: false} {
		p := planSearch(lim25, tp25, empties, defaultProbableBand)
		if p.probable != want || p.wldOnly || p.solve != (empties <= 14) {
			t.Fatalf("25 ms at %d empties with the probable band: plan %+v", empties, p)
		}
	}
	if p := planSearch(Limits{MoveTime: 25 * time.Millisecond, ExactEmpties: 14}, tp25, 16, defaultProbableBand); p.probable {
		t.Fatalf("an explicit exact-solve point has no probable band: %+v", p)
	}
	// Under a clock a solving move may use the larger solve budget, so it solves deeper.
	if p := planSearch(Limits{Remaining: 10 * time.Second}, timePlan{hard: 40 * time.Millisecond, solve: 3 * time.Second}, 20, 0); !p.solve {
		t.Fatalf("3 s solve budget at 20 empties: plan %+v, want an exact solve", p)
	}
	// A budget of 0.7 s solves exactly from 18 empties; scaled by 2.5 (Config.ExactTimeScale)
	// from 20, with the band above it moved up too.
	tp7 := timePlan{hard: 300 * time.Millisecond, solve: 700 * time.Millisecond}
	if p := planSearch(Limits{Remaining: 2 * time.Second}, tp7, 20, defaultProbableBand); p.solve {
		t.Errorf("0.7 s at 20 empties: %+v, want no exact solve", p)
	}
	tp7.exactScale = 2.5
	if p := planSearch(Limits{Remaining: 2 * time.Second}, tp7, 20, defaultProbableBand); !p.solve || !p.wldFirst {
		t.Errorf("0.7 s scaled by 2.5 at 20 empties: %+v, want the exact solve after a proof", p)
	}
	if p := planSearch(Limits{Remaining: 2 * time.Second}, tp7, 23, defaultProbableBand); !p.probable {
		t.Errorf("0.7 s scaled by 2.5 at 23 empties: %+v, want probable solves", p)
	}
	if p := planSearch(Limits{Depth: 8, MoveTime: time.Second}, timePlan{hard: time.Second}, 18, 0); !p.wldOnly {
		t.Fatalf("depth 8 and 1 s at 18 empties: plan %+v, want win/loss/draw only", p)
	}
	for _, c := range []struct {
		lim     Limits
		tp      timePlan
		empties int
	}{
		{Limits{Depth: 8}, timePlan{}, 19},
		{Limits{Depth: 8}, timePlan{}, 16},
		{Limits{Depth: 8, ExactEmpties: 14}, timePlan{}, 16},
		{Limits{Depth: 8, MoveTime: time.Second}, timePlan{hard: time.Second}, 19},
		{Limits{MoveTime: 25 * time.Millisecond}, timePlan{hard: 24 * time.Millisecond}, 19},
		{Limits{MoveTime: 25 * time.Millisecond}, timePlan{hard: 24 * time.Millisecond}, 14},
	} {
		if p := planSearch(c.lim, c.tp, c.empties, 0); p.wldOnly {
			t.Errorf("%+v at %d empties: plan %+v, want no win/loss/draw-only solve", c.lim, c.empties, p)
		}
	}
	e := NewEngine(Config{TTMiB: 1, SolverMiB: 1})
	sign := func(x int) int { return clampSign(x, true) }
	for i, b := range randomPositions(12, 8, 8) {
		want := exactMinimax(b.P, b.O)
		r := e.Search(context.Background(), b, Limits{Depth: 3}, nil)
		if !r.WLD || sign(int(r.Score)) != sign(want) {
			t.Fatalf("position %d: depth 3 at 8 empties gives %+v, want the sign of %d", i, r.Info, want)
		}
		bb := b
		bb.Make(r.Move)
		if sign(-exactMinimax(bb.P, bb.O)) != sign(want) && want >= 0 {
			t.Fatalf("position %d: move %s does not keep the result %d", i, r.Move, want)
		}
	}
}

// TestTimeControlProvesWLD runs the win/loss/draw band of a timed search end to end: at 40 ms
// a move the engine solves exactly from 14 empties and proves win/loss/draw up to 18, so at 16
// empties it reports a proof whose sign is the exact score's, and plays a move that keeps it.
func TestTimeControlProvesWLD(t *testing.T) {
	e := NewEngine(Config{TTMiB: 1, SolverMiB: 4})
	s := endgame.NewSolver(4)
	sign := func(x int) int { return clampSign(x, true) }
	proofs := 0
	positions := randomPositions(21, 8, 16)
	for i, b := range positions {
		r := e.Search(context.Background(), b, Limits{MoveTime: 40 * time.Millisecond}, nil)
		if !b.IsLegal(r.Move) {
			t.Fatalf("position %d: illegal move %s", i, r.Move)
		}
		if r.Exact {
			t.Fatalf("position %d: an exact solve at 16 empties with 40 ms: %+v", i, r.Info)
		}
		if !r.WLD {
			continue // the proof did not finish in time (a very busy machine): the midgame move stands
		}
		proofs++
		want := s.Solve(b.P, b.O, -64, 64).Score
		if sign(int(r.Score)) != sign(want) {
			t.Fatalf("position %d: proof says %v, the exact score is %d", i, r.Score, want)
		}
		bb := b
		bb.Make(r.Move)
		if got := -s.Solve(bb.P, bb.O, -64, 64).Score; want >= 0 && sign(got) != sign(want) {
			t.Fatalf("position %d: move %s gives %d, the position is worth %d", i, r.Move, got, want)
		}
	}
	if proofs == 0 {
		// As in TestTimeControlProbableSolves: fail only where the proofs would fit.
		if fastest := fastestSolve(endgame.NewSolver(4), positions, -1, 1); fastest > 10*time.Millisecond {
			t.Skipf("no proof finished in 40 ms a move, but on this machine the fastest alone takes %v", fastest)
		}
		t.Errorf("no win/loss/draw proof in 8 positions at 16 empties with 40 ms each")
	}
	t.Logf("%d of 8 positions proved", proofs)
}

// TestBandFitsBudget: under time control the probable band and the win/loss/draw band only
// take a position whose typical solve fits the move's budget; the others keep the whole
// midgame search. At 25 ms a move the probable band stays 15-18 empties; under a clock with a
// 51 ms solving budget it reaches 19 but not 20, which searches to its full depth.
func TestBandFitsBudget(t *testing.T) {
	lim25, tp25 := Limits{MoveTime: 25 * time.Millisecond}, timePlan{hard: 24 * time.Millisecond, solve: 24 * time.Millisecond}
	for empties := 15; empties <= 18; empties++ {
		if p := planSearch(lim25, tp25, empties, defaultProbableBand); !p.probable {
			t.Errorf("25 ms, %d empties: plan %+v, want probable solves", empties, p)
		}
	}
	clock := Limits{Remaining: 140 * time.Millisecond}
	tp := timePlan{soft: 17 * time.Millisecond, hard: 34 * time.Millisecond, solve: 51 * time.Millisecond}
	if p := planSearch(clock, tp, 19, defaultProbableBand); !p.probable || p.maxDepth > 7 {
		t.Errorf("51 ms budget, 19 empties: plan %+v, want probable solves after depth 7 at most", p)
	}
	if p := planSearch(clock, tp, 20, defaultProbableBand); p.probable || p.wldOnly || p.solve || p.maxDepth != 20 {
		t.Errorf("51 ms budget, 20 empties: plan %+v, want the midgame search to depth 20", p)
	}
	// Without the probable band (no pattern evaluation) the win/loss/draw band is gated the
	// same way by the proof's time.
	if p := planSearch(clock, tp, 20, 0); p.wldOnly || p.maxDepth != 20 {
		t.Errorf("51 ms budget, 20 empties, no probable band: plan %+v, want the midgame search", p)
	}
	tp.solve = 60 * time.Millisecond
	if p := planSearch(clock, tp, 20, 0); !p.wldOnly {
		t.Errorf("60 ms budget, 20 empties, no probable band: plan %+v, want a win/loss/draw proof", p)
	}
	// A depth level with no clock keeps its proof whatever it costs.
	if p := planSearch(Limits{Depth: 10}, timePlan{}, 22, 0); !p.wldOnly {
		t.Errorf("depth 10 at 22 empties: plan %+v, want a win/loss/draw proof", p)
	}
	for _, c := range []struct {
		empties int
		budget  time.Duration
		want    bool
	}{{12, time.Millisecond, false}, {12, 6 * time.Millisecond, true}, {22, 299 * time.Millisecond, false}, {22, 300 * time.Millisecond, true},
		{24, time.Second, false}, {24, 1200 * time.Millisecond, true}, {60, 1 << 62, false}} {
		if got := bandFits(probableMedian[:], c.empties, c.budget); got != c.want {
			t.Errorf("bandFits(probable, %d, %v) = %v, want %v", c.empties, c.budget, got, c.want)
		}
	}
}

// TestRefineWLD checks the result proof of the move to play against minimax: on positions of
// 8 to 10 empties with the root moves in a random order, refineWLD finishes, its first move has
// the best result, and it is the first move of the given order with that result; every proven
// bound holds.
func TestRefineWLD(t *testing.T) {
	e := NewEngine(Config{TTMiB: 1, SolverMiB: 1})
	rng := rand.New(rand.NewPCG(5, 6))
	sign := func(x int) int8 { return resultClass(x) }
	n := 0
	for _, empties := range []int{8, 9, 10} {
		for i, b := range randomPositions(uint64(40+empties), 40, empties) {
			moves := board.LegalMoves(b.P, b.O)
			if moves == 0 {
				continue
			}
			rm := e.rootMoves(moves)
			rng.Shuffle(len(rm), func(a, c int) { rm[a], rm[c] = rm[c], rm[a] })
			order := append([]rootMove(nil), rm...)
			results := map[board.Square]int8{}
			best := int8(-1)
			for _, m := range rm {
				bb := b
				bb.Make(m.sq)
				results[m.sq] = sign(-exactMinimax(bb.P, bb.O))
				best = max(best, results[m.sq])
			}
			e.b = b
			got, done := e.refineWLD(rm)
			if !done || got != best {
				t.Fatalf("%d empties, position %d: refineWLD = %d, %v; want %d, true", empties, i, got, done, best)
			}
			var first board.Square
			for _, m := range order {
				if results[m.sq] == best {
					first = m.sq
					break
				}
			}
			if rm[0].sq != first || rm[0].wldLo != best || rm[0].wldHi != best {
				t.Fatalf("%d empties, position %d: first move %s [%d, %d], want %s (result %d)", empties, i, rm[0].sq, rm[0].wldLo, rm[0].wldHi, first, best)
			}
			for _, m := range rm {
				if m.wldKnown && (results[m.sq] < m.wldLo || results[m.sq] > m.wldHi) {
					t.Fatalf("%d empties, position %d: move %s proven [%d, %d], result %d", empties, i, m.sq, m.wldLo, m.wldHi, results[m.sq])
				}
			}
			n++
		}
	}
	if n < 60 {
		t.Fatalf("only %d positions with moves", n)
	}
}

// The soft limit stretches after an iteration that changed the best move or fell well below
// the value of the iteration two before, never past half the hard limit, and not for shallow
// iterations.
func TestTimeExtension(t *testing.T) {
	const scale = 256
	a, b := board.Square(19), board.Square(26)
	var h iterHistory
	steps := []struct {
		depth int
		move  board.Square
		val   int
		want  float64
	}{
		{1, a, 0, 1}, {2, b, 0, 1}, {3, a, 0, 1}, {4, b, 0, 1}, {5, a, 0, 1}, // too shallow
		{6, a, 0, 1},                        // same move, same value
		{7, b, 0, extendChange},             // the best move changed
		{8, b, -3 * scale, extendDropBy},    // 3 discs below depth 6's value
		{9, b, -2 * scale, 1},               // 2 discs below depth 7's: not enough
		{10, b, -6*scale + 1, 1},            // just under 3 below depth 8's
		{11, b, -5*scale - 1, extendDropBy}, // just over 3 below depth 9's
	}
	for _, s := range steps {
		if got := h.add(s.depth, s.move, s.val, scale, false); got != s.want {
			t.Errorf("depth %d: factor %v, want %v", s.depth, got, s.want)
		}
	}
	// Settling: the same move for settleRuns iterations from settleMinDepth at a steady value.
	var hs, off iterHistory
	for d := 1; d <= 14; d++ {
		val := 0
		if d == 12 {
			val = -scale // a disc below depth 10's: not steady
		}
		want := 1.0
		if d >= settleMinDepth && d != 12 && d != 14 { // depth 14: a disc above depth 12's
			want = settleBy
		}
		if got := hs.add(d, a, val, scale, true); got != want {
			t.Errorf("settling, depth %d: factor %v, want %v", d, got, want)
		}
		if got := off.add(d, a, val, scale, false); got != 1 {
			t.Errorf("settling off, depth %d: factor %v", d, got)
		}
	}
	tp := timePlan{soft: 100 * time.Millisecond, hard: 450 * time.Millisecond}
	if got := tp.extendedSoft(settleBy); got != 60*time.Millisecond {
		t.Errorf("settled: %v", got)
	}
	if got := tp.extendedSoft(1); got != tp.soft {
		t.Errorf("factor 1: %v", got)
	}
	if got := tp.extendedSoft(2); got != 200*time.Millisecond {
		t.Errorf("factor 2: %v", got)
	}
	if got := tp.extendedSoft(3); got != tp.hard/2 {
		t.Errorf("factor 3: %v, want half the hard limit %v", got, tp.hard/2)
	}
	if got := (timePlan{hard: time.Second}).extendedSoft(2); got != 0 {
		t.Errorf("no soft limit: %v", got)
	}
}

// resultFactor gives the end phase's moves more time when the previous value was near a draw
// and less when the result looked sure, and leaves the midgame alone; scaled keeps the hard
// limit within half the usable clock.
func TestResultFactor(t *testing.T) {
	const scale = 256
	for _, c := range []struct {
		empties, val int
		want         float64
	}{
		{resultTimeFrom + 1, 0, 1},                // midgame
		{resultTimeFrom, 0, resultStretch},        // a draw
		{24, resultClose * scale, resultStretch},  // at the margin
		{24, -resultClose * scale, resultStretch}, // either side
		{24, resultClose*scale + 1, 1},            // just past it
		{22, resultSure*scale - 1, 1},             // not yet sure
		{22, -resultSure * scale, resultShrink},   // a sure loss
		{20, 40 * scale, resultShrink},            // a sure win
	} {
		if got := resultFactor(c.empties, c.val, scale); got != c.want {
			t.Errorf("%d empties, value %d: factor %v, want %v", c.empties, c.val, got, c.want)
		}
	}
	tp := timePlan{soft: 100 * time.Millisecond, hard: 300 * time.Millisecond, solve: 300 * time.Millisecond}
	if got := tp.scaled(2, 10*time.Second); got.soft != 200*time.Millisecond || got.hard != 600*time.Millisecond || got.solve != 600*time.Millisecond {
		t.Errorf("stretched: %+v", got)
	}
	if got := tp.scaled(0.5, 10*time.Second); got.soft != 50*time.Millisecond || got.hard != 150*time.Millisecond || got.solve != 300*time.Millisecond {
		t.Errorf("shrunk: %+v", got)
	}
	// 1 s left: 920 ms usable, a move may take half of it.
	if got := tp.scaled(2, time.Second); got.hard != 460*time.Millisecond || got.soft != 200*time.Millisecond {
		t.Errorf("capped: %+v", got)
	}
	if got := tp.scaled(1, time.Second); got != tp {
		t.Errorf("factor 1: %+v", got)
	}
}

// A search leaves its empties and best value for the next one's time plan (resultFactor), a
// stopped one those of the last iteration it completed.
func TestResultTimeMemory(t *testing.T) {
	e := NewEngine(Config{TTMiB: 1, SolverMiB: 1})
	if e.lastEmpties != 0 {
		t.Fatalf("a new engine remembers %d empties", e.lastEmpties)
	}
	b := board.Start()
	r := e.Search(context.Background(), b, Limits{Depth: 4}, nil)
	if e.lastEmpties != 60 || e.lastValue != int(math.Round(r.Score*float64(e.Scale()))) {
		t.Fatalf("after a search: %d empties, value %d; result %+v", e.lastEmpties, e.lastValue, r.Info)
	}
	// A search stopped at once still completes depth 1, whose value it leaves.
	b.Make(board.FirstSquare(b.LegalMoves()))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = e.Search(ctx, b, Limits{Depth: 4}, nil)
	if e.lastEmpties != 59 || r.Depth != 1 || e.lastValue != int(math.Round(r.Score*float64(e.Scale()))) {
		t.Fatalf("after a stopped search: %d empties, value %d; result %+v", e.lastEmpties, e.lastValue, r.Info)
	}
}

// With ClockSelectivity, under a game clock whose soft limit reaches clockSelSoft the
// Multi-ProbCut level is capped at clockSelLevel; a short clock, a time per move, a depth level
// or the switch off keep the level asked for, and a less selective level is never raised.
func TestClockSelectivity(t *testing.T) {
	if got := clockLevel(timePlan{soft: clockSelSoft}); got != clockSelLevel {
		t.Errorf("soft %v: level %d", clockSelSoft, got)
	}
	if got := clockLevel(timePlan{soft: clockSelSoft - 1}); got != MaxSelectivity {
		t.Errorf("soft just under %v: level %d", clockSelSoft, got)
	}
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	b := randomPositions(21, 1, 40)[0]
	long := Limits{Selectivity: MaxSelectivity, Remaining: 60 * time.Second}
	on := Config{ClockSelectivity: true}
	for _, c := range []struct {
		name string
		cfg  Config
		lim  Limits
		want int
	}{
		{"long clock", on, long, clockSelLevel},
		{"long clock, level 2 asked", on, Limits{Selectivity: 2, Remaining: 60 * time.Second}, 2},
		{"long clock, ClockSelectivity off", Config{}, long, MaxSelectivity},
		{"short clock", on, Limits{Selectivity: MaxSelectivity, Remaining: 300 * time.Millisecond}, MaxSelectivity},
		{"time per move", on, Limits{Selectivity: MaxSelectivity, MoveTime: 10 * time.Second}, MaxSelectivity},
		{"depth", on, Limits{Selectivity: MaxSelectivity, Depth: 8}, MaxSelectivity},
	} {
		c.cfg.TTMiB, c.cfg.Eval = 1, ev
		e := NewEngine(c.cfg)
		tp := planTimeTo(c.lim, b.NumEmpties(), e.clockHorizon, e.endHorizon)
		e.begin(context.Background(), b, c.lim, tp)
		if e.level != c.want {
			t.Errorf("%s: level %d, want %d (plan %+v)", c.name, e.level, c.want, tp)
		}
	}
}

// TestFailHighKeptAtStop stops searches at many node counts. A root move whose null window
// failed high above the best value so far, when the stop comes during its re-search, is kept
// as the move to play (rootMove.salvage), valued at the bound it proved; every stopped
// iteration plays a move at least as good as its first move, and never reports more than the
// true value of the move it plays (full-window values of every move, searched apart).
func TestFailHighKeptAtStop(t *testing.T) {
	maxH, positions := 8, randomPositions(41, 8, 36)
	if testing.Short() {
		maxH, positions = 7, positions[:6] // one such stop
	}
	salvaged, stops := 0, 0
	for i, b := range positions {
		// The truth: every move's full-window value at each height.
		ref := NewEngine(Config{TTMiB: 1})
		ref.begin(context.Background(), b, Limits{}, timePlan{})
		truth := make([]map[board.Square]int, maxH+1)
		for h := 1; h <= maxH; h++ {
			ref.nextGeneration()
			rm := ref.rootMoves(b.LegalMoves())
			ref.searchRoot(rm, h, len(rm))
			truth[h] = map[board.Square]int{}
			for _, m := range rm {
				truth[h][m.sq] = m.score
			}
		}
		run := func(limit uint64) (stoppedAt int, first, played rootMove, ok bool) {
			e := NewEngine(Config{TTMiB: 1})
			e.begin(context.Background(), b, Limits{Nodes: limit}, timePlan{})
			rm := e.rootMoves(b.LegalMoves())
			for h := 1; h <= maxH; h++ {
				first = rm[0]
				e.nextGeneration()
				ok = e.searchRoot(rm, h, 1)
				if e.stopped {
					return h, first, rm[0], ok
				}
			}
			return 0, first, rm[0], ok
		}
		e := NewEngine(Config{TTMiB: 1})
		e.begin(context.Background(), b, Limits{}, timePlan{})
		rm := e.rootMoves(b.LegalMoves())
		for h := 1; h <= maxH; h++ {
			e.nextGeneration()
			e.searchRoot(rm, h, 1)
		}
		total := e.nodes
		for limit := uint64(pollInterval); limit < total; limit += pollInterval {
			h, first, played, ok := run(limit)
			if h == 0 || !ok {
				continue
			}
			stops++
			v := truth[h][played.sq]
			if v < truth[h][first.sq] || played.score > v {
				t.Fatalf("position %d, stopped at %d nodes in height %d: played %s valued %d (true %d), the iteration's first move %s is worth %d",
					i, limit, h, played.sq, played.score, v, first.sq, truth[h][first.sq])
			}
			if played.lower {
				salvaged++ // a bound, not a finished search: the fail high kept
			} else if played.sq != first.sq && played.score != v {
				t.Fatalf("position %d, stopped at %d nodes in height %d: played %s at %d (true %d) without the lower-bound mark",
					i, limit, h, played.sq, played.score, v)
			}
		}
	}
	t.Logf("%d stops inside an iteration, %d moves kept on a fail high", stops, salvaged)
	if salvaged == 0 {
		t.Errorf("no stop fell into the re-search of a move that failed high (%d stops): the test does not reach the case", stops)
	}
}

// TestSortAlphaKeys checks the windowed ordering searches (sortAlphaDelta): a move within
// sortAlphaDelta of alpha or above keeps the key of the full-window search, any other gets a
// key between its exact one and alpha-sortAlphaDelta (a fail-soft bound); full-width searches
// do not use it; and at level 5 it searches fewer nodes than ExactOrderKeys.
func TestSortAlphaKeys(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	const height = 11 // a shallow search of depth 2 a child
	e := NewEngine(Config{TTMiB: 1, SolverMiB: 1, Eval: ev, NoPrevOrder: true})
	cut, kept := 0, 0
	for i, b := range randomPositions(21, 20, 30) {
		e.begin(context.Background(), b, Limits{}, timePlan{})
		moves := board.LegalMoves(b.P, b.O)
		for _, alpha := range []int{-20 * e.scale, 0, 15 * e.scale} {
			for m := moves; m != 0; m &= m - 1 {
				sq := board.FirstSquare(m)
				f := board.Flips(b.P, b.O, sq)
				e.nextGeneration()
				exact := e.orderKey(sq, f, false, height, alpha, true)
				e.nextGeneration()
				got := e.orderKey(sq, f, false, height, alpha, false)
				floor := int32(alpha - sortAlphaDelta*e.scale)
				switch {
				case exact > floor:
					kept++
					if got != exact {
						t.Fatalf("position %d, %v, alpha %d: key %d, full window %d", i, sq, alpha, got, exact)
					}
				default:
					cut++
					if got < exact || got > floor {
						t.Fatalf("position %d, %v, alpha %d: key %d outside [%d, %d]", i, sq, alpha, got, exact, floor)
					}
				}
			}
		}
	}
	if cut == 0 || kept == 0 {
		t.Fatalf("%d moves cut, %d kept: the test misses a case", cut, kept)
	}

	positions := BenchPositions()[:6]
	run := func(exactKeys bool, depth, sel int) (vals []float64, nodes uint64) {
		e := NewEngine(Config{TTMiB: 4, SolverMiB: 1, Eval: ev, ExactOrderKeys: exactKeys})
		for _, b := range positions {
			r := e.Search(context.Background(), b, Limits{Depth: depth, Selectivity: sel}, nil)
			vals = append(vals, r.Score)
			nodes += r.Nodes
		}
		return vals, nodes
	}
	// Without Multi-ProbCut the windows are off: the same search, node for node.
	wv, wn := run(false, 9, 0)
	xv, xn := run(true, 9, 0)
	if !slices.Equal(wv, xv) || wn != xn {
		t.Fatalf("full width depth 9: values %v in %d nodes, with exact order keys %v in %d", wv, wn, xv, xn)
	}
	_, wn = run(false, 11, 5)
	_, xn = run(true, 11, 5)
	if wn >= xn {
		t.Fatalf("level 5 depth 11: %d nodes, with exact order keys %d", wn, xn)
	}
	t.Logf("level 5 depth 11: %d nodes, with exact order keys %d", wn, xn)
}

// TestSalvageSolve: a stopped solve's proven win for another move than the first puts that
// move first at the bound proved; a win of the first move itself, a bound that is no win, no
// proven move or Config.NoSalvage change nothing.
func TestSalvageSolve(t *testing.T) {
	e := NewEngine(Config{TTMiB: 1, SolverMiB: 1})
	fresh := func() []rootMove {
		return []rootMove{{sq: 19, score: -2 * e.scale, exact: true}, {sq: 26, score: -4 * e.scale}, {sq: 37, score: -6 * e.scale}}
	}
	rm := fresh()
	if !e.salvageSolve(rm, endgame.SolveResult{Interrupted: true, ProvenMove: 37, ProvenLow: 2}) {
		t.Fatal("a proven win of the third move was not taken")
	}
	if rm[0].sq != 37 || rm[0].score != 2*e.scale || rm[0].exact || !rm[0].lower || rm[1].sq != 19 || rm[2].sq != 26 {
		t.Errorf("after the salvage: %+v", rm)
	}
	for _, r := range []endgame.SolveResult{
		{Interrupted: true, ProvenMove: 19, ProvenLow: 4},
		{Interrupted: true, ProvenMove: 26, ProvenLow: 0},
		{Interrupted: true, ProvenMove: board.NoSquare},
	} {
		rm := fresh()
		if e.salvageSolve(rm, r) || rm[0].sq != 19 || rm[0].score != -2*e.scale {
			t.Errorf("%+v changed the moves: %+v", r, rm)
		}
	}
	e.cfg.NoSalvage = true
	if rm := fresh(); e.salvageSolve(rm, endgame.SolveResult{Interrupted: true, ProvenMove: 37, ProvenLow: 2}) || rm[0].sq != 19 {
		t.Errorf("with NoSalvage: %+v", rm)
	}
}
