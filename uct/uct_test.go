package uct

import (
	"context"
	"math/bits"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

// newEngine makes an engine or fails the test.
func newEngine(t testing.TB, cfg Config) *Engine {
	t.Helper()
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// randomPositions plays n random games from the start with a fixed seed and returns the
// positions reached after plies moves (passes not counted) that are not finished.
func randomPositions(seed uint64, n, plies int) []board.Board {
	r := newRNG(seed, 7)
	var out []board.Board
	for len(out) < n {
		b := board.Start()
		for k := 0; k < plies && !b.GameOver(); {
			moves := b.LegalMoves()
			if moves == 0 {
				b.Pass()
				continue
			}
			b.Make(r.randomMove(moves))
			k++
		}
		if !b.GameOver() {
			out = append(out, b)
		}
	}
	return out
}

// solve is plain alpha-beta to the end of the game on (p, o): the final disc difference for
// the side owning p (an independent truth for small empties).
func solve(p, o uint64, alpha, beta int, passed bool) int {
	moves := board.LegalMoves(p, o)
	if moves == 0 {
		if passed {
			return board.DiscDiff(o, p) * -1
		}
		return -solve(o, p, -beta, -alpha, true)
	}
	best := -65
	for ; moves != 0; moves &= moves - 1 {
		sq := board.FirstSquare(moves)
		f := board.Flips(p, o, sq)
		v := -solve(o^f, p|f|sq.Bit(), -beta, -alpha, false)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// TestLegalAlways plays whole games with several configurations (threads, playouts, pruning,
// reuse) and checks that every move returned is legal, a pass exactly when one is forced, and
// that Analyze lists every legal move once.
func TestLegalAlways(t *testing.T) {
	cfgs := []Config{
		{Seed: 1},
		{Seed: 2, Prune: PruneVisits, PruneInner: true, StopEarly: true},
		{Seed: 3, Prune: PrunePaper, PruneR: 1.96, Tuned: true, Threads: 3},
		{Seed: 4, Playout: PlayoutGreedy, NoReuse: true},
		{Seed: 5, Playout: PlayoutSoftmax, Threads: 2},
		{Seed: 6, Playout: PlayoutCutoff, CutoffPlies: 3, Threads: 2, MaxNodes: 50},
		{Seed: 7, Prune: PruneHalving, Threads: 2},
	}
	games := 2
	if testing.Short() {
		games = 1
	}
	ctx := context.Background()
	for ci, cfg := range cfgs {
		e := newEngine(t, cfg)
		for g := range games {
			b := randomPositions(uint64(10*ci+g), 1, 2)[0]
			for !b.GameOver() {
				lim := search.Limits{Nodes: 150}
				if cfg.Playout == PlayoutGreedy || cfg.Playout == PlayoutSoftmax {
					lim.Nodes = 30
				}
				r := e.Search(ctx, b, lim, nil)
				moves := b.LegalMoves()
				if moves == 0 && r.Move != board.NoSquare || moves != 0 && !b.IsLegal(r.Move) {
					t.Fatalf("config %d: move %s in %s", ci, r.Move, b.OBF())
				}
				if len(r.PV) == 0 || r.PV[0] != r.Move {
					t.Fatalf("config %d: PV %v for move %s", ci, r.PV, r.Move)
				}
				if moves != 0 && b.NumEmpties()%7 == 0 {
					ms := e.Analyze(ctx, b, search.Limits{Nodes: 50}, 0, nil)
					var seen uint64
					for _, m := range ms {
						seen |= m.Move.Bit()
					}
					if len(ms) != bits.OnesCount64(moves) || seen != moves {
						t.Fatalf("config %d: Analyze lists %d moves %x, want %x", ci, len(ms), seen, moves)
					}
				}
				b.Play(r.Move)
			}
		}
	}
}

// TestTerminal covers the positions without a choice: a finished game, a forced pass and a
// single legal move.
func TestTerminal(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{Seed: 1})
	// A finished game: black 10 discs, white 2, 52 empties to black: +60.
	over := board.FromColors(0x3FF, 0x3<<40, true)
	if !over.GameOver() {
		t.Fatal("test position is not finished")
	}
	r := e.Search(ctx, over, search.Limits{Nodes: 100}, nil)
	if r.Move != board.NoSquare || !r.Exact || r.Score != 60 {
		t.Errorf("finished game: move %s exact %v score %v, want pa, exact, 60", r.Move, r.Exact, r.Score)
	}
	if ms := e.Analyze(ctx, over, search.Limits{Nodes: 100}, 3, nil); len(ms) != 1 || ms[0].Move != board.NoSquare {
		t.Errorf("finished game: Analyze %v", ms)
	}
	// Forced passes and single moves from random games.
	var pass, single int
	rg := newRNG(3, 0)
	for g := 0; g < 200 && (pass < 3 || single < 3); g++ {
		for b := board.Start(); !b.GameOver(); {
			moves := b.LegalMoves()
			if moves == 0 && pass < 3 || bits.OnesCount64(moves) == 1 && single < 3 {
				res := e.Search(ctx, b, search.Limits{Nodes: 200}, nil)
				if moves == 0 {
					pass++
					if res.Move != board.NoSquare || len(res.PV) == 0 || res.PV[0] != board.NoSquare {
						t.Errorf("forced pass in %s: got %s, PV %v", b.OBF(), res.Move, res.PV)
					}
				} else {
					single++
					if res.Move.Bit() != moves {
						t.Errorf("single move in %s: got %s", b.OBF(), res.Move)
					}
					// With StopEarly a single move needs no simulation at all.
					early := newEngine(t, Config{StopEarly: true})
					res = early.Search(ctx, b, search.Limits{Nodes: 200}, nil)
					if res.Move.Bit() != moves || res.Nodes != 0 || res.Score != 0 {
						t.Errorf("single move in %s, early stop: %s after %d playouts, score %v", b.OBF(), res.Move, res.Nodes, res.Score)
					}
				}
			}
			if moves == 0 {
				b.Pass()
				continue
			}
			b.Make(rg.randomMove(moves))
		}
	}
	if pass == 0 || single == 0 {
		t.Errorf("found %d passes and %d single moves to test", pass, single)
	}
}

// wonPositions returns positions of the given empties from random games where exactly one
// move wins (by solve) and there are at least minMoves moves.
func wonPositions(n, empties, minMoves int) []board.Board {
	var out []board.Board
	for seed := uint64(0); len(out) < n; seed++ {
		b := randomPositions(seed, 1, 60-empties)[0]
		moves := b.LegalMoves()
		if b.NumEmpties() != empties || bits.OnesCount64(moves) < minMoves {
			continue
		}
		wins := 0
		for m := moves; m != 0; m &= m - 1 {
			sq := board.FirstSquare(m)
			f := board.Flips(b.P, b.O, sq)
			if -solve(b.O^f, b.P|f|sq.Bit(), -1, 1, false) > 0 {
				wins++
			}
		}
		if wins == 1 {
			out = append(out, b)
		}
	}
	return out
}

// TestFindsWin: in positions where one move wins and the others do not (solved by plain
// alpha-beta), UCT with random playouts plays the winning move.
func TestFindsWin(t *testing.T) {
	ctx := context.Background()
	n, playouts := 6, uint64(20000)
	if testing.Short() {
		n = 3
	}
	for i, b := range wonPositions(n, 12, 5) {
		e := newEngine(t, Config{Seed: uint64(i)})
		r := e.Search(ctx, b, search.Limits{Nodes: playouts}, nil)
		f := board.Flips(b.P, b.O, r.Move)
		if !b.IsLegal(r.Move) || -solve(b.O^f, b.P|f|r.Move.Bit(), -1, 1, false) <= 0 {
			t.Errorf("%s: played %s (score %+.1f), not the winning move", b.OBF(), r.Move, r.Score)
		}
		if r.Score <= 0 {
			t.Errorf("%s: winning move %s scored %+.1f", b.OBF(), r.Move, r.Score)
		}
	}
}

// TestReproducible: at one thread, two engines with the same seed make the same moves with
// the same visits over a sequence of searches with tree reuse; another seed differs.
func TestReproducible(t *testing.T) {
	ctx := context.Background()
	play := func(cfg Config) ([]board.Square, [][]int) {
		e := newEngine(t, cfg)
		var moves []board.Square
		var visits [][]int
		b := board.Start()
		for range 10 {
			r := e.Search(ctx, b, search.Limits{Nodes: 500}, nil)
			moves = append(moves, r.Move)
			visits = append(visits, e.LastStats().Visits)
			b.Play(r.Move)
		}
		return moves, visits
	}
	for _, cfg := range []Config{
		{Seed: 42, Prune: PrunePaper},
		{Seed: 42, Playout: PlayoutCutoff, CutoffPlies: 2, Prune: PruneVisits, PruneInner: true},
	} {
		m1, v1 := play(cfg)
		m2, v2 := play(cfg)
		for i := range m1 {
			if m1[i] != m2[i] || !equalInts(v1[i], v2[i]) {
				t.Fatalf("%+v: move %d: %s %v against %s %v", cfg, i, m1[i], v1[i], m2[i], v2[i])
			}
		}
		cfg.Seed++
		_, v3 := play(cfg)
		same := true
		for i := range v1 {
			same = same && equalInts(v1[i], v3[i])
		}
		if same {
			t.Errorf("%+v: another seed gives the same visits", cfg)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestParallel searches with several threads (run it with -race): moves are legal, the
// root's visits are the sum of its children's, no simulation is lost or counted twice, and
// values stay within the visits. The threads are the worker pool's: each search opens one
// split point that every other thread joins.
func TestParallel(t *testing.T) {
	ctx := context.Background()
	for _, cfg := range []Config{
		{Threads: 4, Seed: 1},
		{Threads: 3, Seed: 2, Prune: PruneVisits, PruneInner: true, Tuned: true},
		{Threads: 2, Seed: 3, Prune: PrunePaper, Playout: PlayoutCutoff},
	} {
		e := newEngine(t, cfg)
		b := board.Start()
		for ply := 0; ply < 8; ply++ {
			r := e.Search(ctx, b, search.Limits{Nodes: 3000}, nil)
			if !b.IsLegal(r.Move) {
				t.Fatalf("threads %d: illegal %s", cfg.Threads, r.Move)
			}
			if r.Nodes != 3000 {
				t.Errorf("threads %d: %d playouts, want 3000", cfg.Threads, r.Nodes)
			}
			if st := e.PoolStats(); st.Splits != uint64(ply+1) || st.Joins != uint64((ply+1)*(cfg.Threads-1)) {
				t.Errorf("threads %d, search %d: pool stats %+v, want one split joined by every other thread per search", cfg.Threads, ply+1, st)
			}
			checkTree(t, e.root)
			b.Play(r.Move)
		}
	}
}

// checkTree checks the counts of a tree at rest: every expanded node has as many visits as
// its children together, plus the one that expanded it, and no more reward than visits.
func checkTree(t *testing.T, n *node) {
	t.Helper()
	v := int64(n.visits.Load())
	if n.value.Load() > uint64(v)*rewardOne {
		t.Fatalf("node %s: value %d over %d visits", n.move, n.value.Load(), v)
	}
	ks := n.kids()
	if len(ks) == 0 {
		return
	}
	var sum int64
	for i := range ks {
		sum += int64(ks[i].visits.Load())
		checkTree(t, &ks[i])
	}
	if sum > v || sum < v-1 {
		t.Fatalf("node %s: %d visits, children %d", n.move, v, sum)
	}
}

// TestReuse: the search after the engine's move and the opponent's reply starts from the
// subtree searched before; Advance does the same, and drops the tree for a move outside it.
func TestReuse(t *testing.T) {
	ctx := context.Background()
	e := newEngine(t, Config{Seed: 5})
	b := randomPositions(1, 1, 10)[0]
	r := e.Search(ctx, b, search.Limits{Nodes: 5000}, nil)
	if len(r.PV) < 2 {
		t.Fatalf("PV %v too short", r.PV)
	}
	next := b
	next.Play(r.PV[0])
	next.Play(r.PV[1])
	before := findNode(e.root, e.rootBoard, &next, 3)
	if before == nil || before.visits.Load() < 10 {
		t.Fatalf("the PV's position is not in the tree")
	}
	kept := before.visits.Load()
	e.Search(ctx, next, search.Limits{Nodes: 100}, nil)
	if got := e.root.visits.Load(); got != kept+100 {
		t.Errorf("reused root has %d visits, want %d + 100", got, kept)
	}
	if e.TreeSize() != countNodes(e.root)+1 {
		t.Errorf("tree size %d, counted %d", e.TreeSize(), countNodes(e.root)+1)
	}
	// Advance by the PV of the last search.
	r = e.Search(ctx, next, search.Limits{Nodes: 2000}, nil)
	want := findNode(e.root, e.rootBoard, func() *board.Board { x := next; x.Play(r.PV[0]); return &x }(), 1).visits.Load()
	if !e.Advance(r.PV[0]) || e.root.visits.Load() != want {
		t.Errorf("Advance(%s): root visits %d, want %d", r.PV[0], e.root.visits.Load(), want)
	}
	if e.Advance(board.A1) || e.root != nil {
		t.Errorf("Advance by an illegal move kept the tree")
	}
	// Without reuse every search starts afresh.
	e = newEngine(t, Config{Seed: 5, NoReuse: true})
	e.Search(ctx, b, search.Limits{Nodes: 500}, nil)
	e.Search(ctx, b, search.Limits{Nodes: 100}, nil)
	if got := e.root.visits.Load(); got != 100 {
		t.Errorf("NoReuse: root has %d visits, want 100", got)
	}
}

// TestBudgets: a time budget stops near its time, a cancelled context at once, a clock
// gives a share of itself, and with no limit the Config's playouts apply.
func TestBudgets(t *testing.T) {
	b := randomPositions(2, 1, 12)[0]
	e := newEngine(t, Config{Seed: 1, Playouts: 777, Threads: 2})
	start := time.Now()
	r := e.Search(context.Background(), b, search.Limits{MoveTime: 100 * time.Millisecond}, nil)
	if el := time.Since(start); el > 2*time.Second || r.Nodes == 0 {
		t.Errorf("100 ms search took %v, %d playouts", el, r.Nodes)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r = e.Search(ctx, b, search.Limits{MoveTime: time.Hour}, nil)
	if !b.IsLegal(r.Move) {
		t.Errorf("cancelled search: illegal move %s", r.Move)
	}
	r = e.Search(context.Background(), b, search.Limits{Depth: 12}, nil)
	if r.Nodes != 777 {
		t.Errorf("no limit: %d playouts, want the Config's 777", r.Nodes)
	}
	start = time.Now()
	e.Search(context.Background(), b, search.Limits{Remaining: time.Second}, nil)
	if el := time.Since(start); el > 700*time.Millisecond {
		t.Errorf("a 1 s clock at %d empties took %v", b.NumEmpties(), el)
	}
	var infos int
	e.Search(context.Background(), b, search.Limits{Nodes: 20000}, func(search.Info) { infos++ })
	if infos < 2 {
		t.Errorf("%d info reports for 20000 playouts", infos)
	}
}

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig("playouts=1000,threads=2,playout=cutoff,cutoff=3,c=0.5,tuned=on,prune=paper,r=1.96,inner=on,early=on,seed=9,reuse=off,time=50ms")
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Playouts: 1000, Threads: 2, Playout: PlayoutCutoff, CutoffPlies: 3, C: 0.5, Tuned: true,
		Prune: PrunePaper, PruneR: 1.96, PruneInner: true, StopEarly: true, Seed: 9, NoReuse: true, MoveTime: 50 * time.Millisecond}
	if c != want {
		t.Errorf("got %+v\nwant %+v", c, want)
	}
	for text, want := range map[string]Prune{"prune=on": PrunePaper, "prune=off": PruneOff, "prune=visits": PruneVisits, "prune=halving": PruneHalving} {
		if c, err := ParseConfig(text); err != nil || c.Prune != want {
			t.Errorf("%q: prune %v (%v), want %v", text, c.Prune, err, want)
		}
	}
	for _, bad := range []string{"prune=maybe", "playout=smart", "x=1", "c", "tuned=yes", "c=-1", "eval=mobility"} {
		if _, err := ParseConfig(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
