package uct

import (
	"context"
	"math"
	"math/bits"
	"testing"

	"github.com/othellogo/othello/search"
)

// rootVisits returns the visits of the root moves.
func rootVisits(e *Engine) []int {
	ks := e.root.kids()
	v := make([]int, len(ks))
	for i := range ks {
		v[i] = int(ks[i].visits.Load())
	}
	return v
}

// dead returns the root moves that can no longer become the most visited one with left
// simulations to come (a bitboard of their squares).
func dead(v []int, ks []node, left int) uint64 {
	top := mostVisited(ks)
	var d uint64
	for i := range v {
		if i != top && v[i]+left < v[top] {
			d |= ks[i].move.Bit()
		}
	}
	return d
}

// TestStopEarlySameMove: a search that stops as soon as no move can overtake the most visited
// one plays the move of the same search (same seed, one thread) run to the end of its budget.
// This is the property the pruning rule rests on, checked exactly.
func TestStopEarlySameMove(t *testing.T) {
	ctx := context.Background()
	positions := randomPositions(11, 40, 16)
	if testing.Short() {
		positions = positions[:15]
	}
	var stopped, saved, searches int
	for i, b := range positions {
		for _, n := range []uint64{100, 400, 1500} {
			for _, pl := range []Playout{PlayoutRandom, PlayoutCutoff} {
				cfg := Config{Seed: uint64(i), Playout: pl}
				full := newEngine(t, cfg).Search(ctx, b, search.Limits{Nodes: n}, nil)
				cfg.StopEarly = true
				early := newEngine(t, cfg).Search(ctx, b, search.Limits{Nodes: n}, nil)
				searches++
				if early.Move != full.Move {
					t.Errorf("%s, %d playouts, %s: early stop plays %s, the full search %s",
						b.OBF(), n, pl, early.Move, full.Move)
				}
				if early.Nodes < full.Nodes {
					stopped++
					saved += int(full.Nodes - early.Nodes)
				}
			}
		}
	}
	if stopped == 0 {
		t.Fatal("no search stopped early: the test checks nothing")
	}
	t.Logf("%d of %d searches stopped early, saving %d playouts", stopped, searches, saved)
}

// TestPruneVisitsSafe: the PruneVisits rule drops only moves that can no longer become the
// most visited one with the simulations left; the search without pruning (same seed) never
// plays a move the rule would have dropped at any point of it; and the pruned search is the
// same as the plain one up to the first move dropped.
func TestPruneVisitsSafe(t *testing.T) {
	ctx := context.Background()
	positions := randomPositions(12, 30, 14)
	if testing.Short() {
		positions = positions[:12]
	}
	var pruned, same, searches int
	for i, b := range positions {
		for _, n := range []int{200, 1000} {
			// The plain search, recording the moves the rule would drop after each simulation.
			plain := newEngine(t, Config{Seed: uint64(i)})
			var plainVisits [][]int
			var deadPlain uint64
			k := 0
			plain.onSimulation = func() {
				k++
				v := rootVisits(plain)
				plainVisits = append(plainVisits, v)
				deadPlain |= dead(v, plain.root.kids(), n-k)
			}
			rp := plain.Search(ctx, b, search.Limits{Nodes: uint64(n)}, nil)
			if rp.Move.Bit()&deadPlain != 0 {
				t.Errorf("%s, %d playouts: the plain search plays %s, a move the rule would have dropped", b.OBF(), n, rp.Move)
			}
			// The pruned search: every dropped move is dead, and until the first drop the
			// two searches are the same simulation for simulation.
			pr := newEngine(t, Config{Seed: uint64(i), Prune: PruneVisits})
			k = 0
			first := -1
			pr.onSimulation = func() {
				k++
				v := rootVisits(pr)
				ks := pr.root.kids()
				d := dead(v, ks, n-k)
				for j := range ks {
					if ks[j].pruned.Load() {
						if d&ks[j].move.Bit() == 0 {
							t.Errorf("%s, %d playouts, simulation %d: %s pruned with %v visits, %d to come",
								b.OBF(), n, k, ks[j].move, v, n-k)
						}
						if first < 0 {
							first = k
						}
					}
				}
				if first < 0 && !equalInts(v, plainVisits[k-1]) {
					t.Errorf("%s, %d playouts, simulation %d: visits %v before any pruning, plain %v",
						b.OBF(), n, k, v, plainVisits[k-1])
				}
			}
			rr := pr.Search(ctx, b, search.Limits{Nodes: uint64(n)}, nil)
			searches++
			if first >= 0 {
				pruned++
			}
			if rr.Move == rp.Move {
				same++
			}
			if st := pr.LastStats(); st.Playouts != uint64(n) {
				t.Errorf("pruned search ran %d playouts, want %d", st.Playouts, n)
			}
		}
	}
	if pruned == 0 {
		t.Fatal("nothing was pruned: the test checks nothing")
	}
	t.Logf("%d searches, %d with pruning, %d play the plain search's move", searches, pruned, same)
}

// TestPaperBound checks equations 7, 8, 10 and 11 of the paper on one move: 100 visits, 40
// wins, win rates summing to 1.5, 300 simulations left.
func TestPaperBound(t *testing.T) {
	var c node
	c.visits.Store(100)
	c.value.Store(40 * rewardOne)
	c.sq.Store(40 * rewardOne) // win/loss rewards: the squares are the rewards
	e := newEngine(t, Config{})
	// e_i = 0.4/1.5*300 = 80; P_i = (40+80)/(100+80).
	if got, want := e.paperBound(&c, 1.5, 300), 120.0/180; math.Abs(got-want) > 1e-12 {
		t.Errorf("equation 8: %v, want %v", got, want)
	}
	// sigma = sqrt(0.4*0.6); the predicted reward min(1, 0.4 + 1.96*sigma/10).
	e = newEngine(t, Config{PruneR: 1.96})
	u := 0.4 + 1.96*math.Sqrt(0.24)/10
	if got, want := e.paperBound(&c, 1.5, 300), (40+80*u)/180; math.Abs(got-want) > 1e-12 {
		t.Errorf("equations 10-11: %v, want %v", got, want)
	}
}

// TestPrunePaper: the paper's rule prunes nothing in the first half of the budget, never
// prunes the most visited move, and does prune in the second half.
func TestPrunePaper(t *testing.T) {
	ctx := context.Background()
	var prunedAny int
	for i, b := range randomPositions(13, 10, 20) {
		const n = 2000
		e := newEngine(t, Config{Seed: uint64(i), Prune: PrunePaper})
		k := 0
		e.onSimulation = func() {
			k++
			ks := e.root.kids()
			top := mostVisited(ks)
			for j := range ks {
				if !ks[j].pruned.Load() {
					continue
				}
				if k < n/2 {
					t.Fatalf("%s: %s pruned at simulation %d of %d", b.OBF(), ks[j].move, k, n)
				}
				// The flags were set before this simulation, which went to a move not
				// pruned: a pruned move cannot have become the most visited one since.
				if j == top {
					t.Errorf("%s: the most visited move %s is pruned", b.OBF(), ks[j].move)
				}
				prunedAny++
			}
		}
		e.Search(ctx, b, search.Limits{Nodes: n}, nil)
	}
	if prunedAny == 0 {
		t.Error("the paper's rule pruned nothing")
	}
}

// TestPruneHalving: sequential halving leaves ceil(k/2^(R-1)) of k root moves after its
// R = ceil(log2 k) rounds, spends the budget, gives the survivors at least the visits of
// any dropped move (less one: the order of a round), plays the survivor with the best win
// rate, and drops nothing before the end of its first round.
func TestPruneHalving(t *testing.T) {
	ctx := context.Background()
	for i, b := range randomPositions(17, 12, 20) {
		const n = 3000
		e := newEngine(t, Config{Seed: uint64(i), Prune: PruneHalving, NoReuse: true})
		k := bits.OnesCount64(b.LegalMoves())
		rounds := 0
		for x := 1; x < k; x *= 2 {
			rounds++
		}
		sims := 0
		e.onSimulation = func() {
			sims++
			if st := e.LastStats(); rounds > 0 && st.Pruned > 0 && sims < n/rounds {
				t.Fatalf("%s: %d moves dropped after %d of %d playouts, %d rounds", b.OBF(), st.Pruned, sims, n, rounds)
			}
		}
		r := e.Search(ctx, b, search.Limits{Nodes: n}, nil)
		st := e.LastStats()
		left := k
		for range max(rounds-1, 0) {
			left = (left + 1) / 2
		}
		if st.Playouts != n || st.Moves != k || st.Moves-st.Pruned != left {
			t.Fatalf("%s: %d moves, %d left after %d playouts; want %d left of %d after %d", b.OBF(), st.Moves, st.Moves-st.Pruned, st.Playouts, left, k, n)
		}
		ks := e.root.kids()
		var best *node
		minLive, maxDead := int32(math.MaxInt32), int32(0)
		for j := range ks {
			if ks[j].pruned.Load() {
				maxDead = max(maxDead, ks[j].visits.Load())
				continue
			}
			minLive = min(minLive, ks[j].visits.Load())
			if best == nil || ks[j].mean() > best.mean() {
				best = &ks[j]
			}
		}
		if minLive+1 < maxDead {
			t.Errorf("%s: a survivor has %d visits, a dropped move %d", b.OBF(), minLive, maxDead)
		}
		if r.Move != best.move {
			t.Errorf("%s: played %s, the best surviving win rate is %s's", b.OBF(), r.Move, best.move)
		}
	}
}

// TestPruneInnerLegal: inner pruning keeps the searches' moves legal and the trees
// consistent (its safety at inner nodes is not a claim: it only sharpens the inner values).
func TestPruneInnerLegal(t *testing.T) {
	ctx := context.Background()
	for i, b := range randomPositions(14, 6, 24) {
		e := newEngine(t, Config{Seed: uint64(i), Prune: PruneVisits, PruneInner: true})
		r := e.Search(ctx, b, search.Limits{Nodes: 3000}, nil)
		if !b.IsLegal(r.Move) {
			t.Fatalf("%s: illegal %s", b.OBF(), r.Move)
		}
		checkTree(t, e.root)
	}
}

// TestPruneEffect reports what each rule does to a search (docs/uct.md): the most visited
// move's share of the playouts, the share the rule moved off pruned moves, and how often the
// move is the plain search's (same seed). It checks nothing and is skipped with -short.
func TestPruneEffect(t *testing.T) {
	if testing.Short() {
		t.Skip("a report, not a check")
	}
	ctx := context.Background()
	pos := randomPositions(21, 40, 20)
	for _, n := range []uint64{1000, 4000, 16000} {
		for _, pr := range []Prune{PruneOff, PruneVisits, PrunePaper, PruneHalving} {
			var moves, share, moved, same float64
			for i, b := range pos {
				e := newEngine(t, Config{Seed: uint64(i), Prune: pr})
				r := e.Search(ctx, b, search.Limits{Nodes: n}, nil)
				st := e.LastStats()
				moves += float64(st.Moves)
				top := 0
				for _, v := range st.Visits {
					top = max(top, v)
				}
				share += float64(top) / float64(n)
				moved += float64(st.Redirected) / float64(n)
				if p := newEngine(t, Config{Seed: uint64(i)}).Search(ctx, b, search.Limits{Nodes: n}, nil); p.Move == r.Move {
					same++
				}
			}
			k := float64(len(pos))
			t.Logf("%d playouts, prune %s: %.1f moves, most visited %.0f%%, moved off pruned moves %.1f%%, plain search's move %.0f%%",
				n, pr, moves/k, 100*share/k, 100*moved/k, 100*same/k)
		}
	}
}
