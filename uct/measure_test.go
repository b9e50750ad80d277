package uct

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/search"
)

// TestMatch plays the match that UCT_MATCH names, "A vs B", when it is set (the measurements
// of docs/uct.md; skipped otherwise). A player is a Config in ParseConfig's form (its budget
// from playouts= or time=), "ab:" and the alpha-beta engine's limits (nodes=, depth=,
// time=; eval.Default()), or "random". UCT_PAIRS openings (default 200) of UCT_PLIES random
// plies (default 8) from UCT_SEED (default 1) are each played with both colours on
// UCT_WORKERS goroutines (default 2). Game g gives UCT players the seed Config.Seed+g.
//
//	UCT_MATCH='playouts=1000,prune=visits vs playouts=1000' UCT_PAIRS=200 \
//	    go test -run TestMatch -v -timeout 0 ./uct
func TestMatch(t *testing.T) {
	spec := os.Getenv("UCT_MATCH")
	if spec == "" {
		t.Skip("UCT_MATCH not set")
	}
	a, b, ok := strings.Cut(spec, " vs ")
	if !ok {
		t.Fatalf("UCT_MATCH %q: want \"A vs B\"", spec)
	}
	pairs, plies, seed, workers := envInt(t, "UCT_PAIRS", 200), envInt(t, "UCT_PLIES", 8), envInt(t, "UCT_SEED", 1), envInt(t, "UCT_WORKERS", 2)
	var clocks [2]moveClock
	var logs [2]pruneLog
	newA, newB := moverMaker(t, strings.TrimSpace(a), &clocks[0], &logs[0]), moverMaker(t, strings.TrimSpace(b), &clocks[1], &logs[1])
	openings := RandomOpenings(uint64(seed), pairs, plies)
	start := time.Now()
	t.Logf("A = %q vs B = %q: %d openings of %d plies from seed %d, both colours, %d workers, %s",
		a, b, len(openings), plies, seed, workers, start.Format("2006-01-02 15:04"))
	res, err := PlayMatch(context.Background(), newA, newB, openings, workers, func(r MatchResult) {
		if g := r.Games(); g%100 == 0 {
			t.Logf("after %d games: %v", g, r)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("A = %q vs B = %q: %v; A %s, B %s; %v", a, b, res, &clocks[0], &clocks[1], time.Since(start).Round(time.Second))
	for i, l := range []*pruneLog{&logs[0], &logs[1]} {
		if l.moves.Load() > 0 {
			t.Logf("%c: %s", 'A'+i, l)
		}
	}
}

// pruneLog adds up what the pruning did over a UCT player's searches (Engine.LastStats).
type pruneLog struct {
	moves, pruning, playouts, prunedSims, redirected, firstPrune atomic.Int64
}

func (l *pruneLog) add(st Stats) {
	l.moves.Add(1)
	l.playouts.Add(int64(st.Playouts))
	l.prunedSims.Add(st.PrunedSims)
	l.redirected.Add(st.Redirected)
	if st.FirstPrune > 0 {
		l.pruning.Add(1)
		l.firstPrune.Add(st.FirstPrune)
	}
}

func (l *pruneLog) String() string {
	n := float64(max(l.moves.Load(), 1))
	k := float64(max(l.pruning.Load(), 1))
	return fmt.Sprintf("%d searches, %.0f playouts a search; pruning in %.1f%% of them, first at playout %.0f on average; "+
		"%.0f playouts a search with a move pruned, %.1f a search (%.2f%% of the playouts) moved off a pruned move",
		l.moves.Load(), float64(l.playouts.Load())/n, 100*float64(l.pruning.Load())/n, float64(l.firstPrune.Load())/k,
		float64(l.prunedSims.Load())/n, float64(l.redirected.Load())/n, 100*float64(l.redirected.Load())/float64(max(l.playouts.Load(), 1)))
}

func envInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive number", name, s)
	}
	return n
}

// moveClock adds up a player's moves and thinking time across the games.
type moveClock struct{ moves, nanos atomic.Int64 }

func (c *moveClock) String() string {
	n := max(c.moves.Load(), 1)
	return fmt.Sprintf("%.2f ms/move", float64(c.nanos.Load())/float64(n)/1e6)
}

func (c *moveClock) wrap(m Mover) Mover {
	return func(ctx context.Context, b board.Board) board.Square {
		start := time.Now()
		sq := m(ctx, b)
		c.moves.Add(1)
		c.nanos.Add(int64(time.Since(start)))
		return sq
	}
}

// moverMaker reads a player of TestMatch.
func moverMaker(t *testing.T, spec string, clock *moveClock, log *pruneLog) func(g int) Mover {
	switch {
	case spec == "random":
		return func(g int) Mover {
			r := newRNG(uint64(g), 99)
			return clock.wrap(func(_ context.Context, b board.Board) board.Square { return r.randomMove(b.LegalMoves()) })
		}
	case strings.HasPrefix(spec, "ab:"):
		var lim search.Limits
		for _, kv := range strings.Split(strings.TrimPrefix(spec, "ab:"), ",") {
			k, v, _ := strings.Cut(kv, "=")
			var err error
			switch k {
			case "nodes":
				lim.Nodes, err = strconv.ParseUint(v, 10, 64)
			case "depth":
				lim.Depth, err = strconv.Atoi(v)
			case "time":
				lim.MoveTime, err = time.ParseDuration(v)
			default:
				err = fmt.Errorf("want nodes, depth or time")
			}
			if err != nil {
				t.Fatalf("%q: %s: %v", spec, kv, err)
			}
		}
		ev, err := eval.Default()
		if err != nil {
			t.Fatal(err)
		}
		return func(int) Mover {
			e := search.NewEngine(search.Config{Eval: ev, TTMiB: 4, SolverMiB: 4})
			return clock.wrap(SearchMover(e, lim))
		}
	}
	cfg, err := ParseConfig(spec)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(cfg); err != nil {
		t.Fatal(err)
	}
	return func(g int) Mover {
		c := cfg
		c.Seed += uint64(g)
		e, err := New(c)
		if err != nil {
			panic(err)
		}
		return clock.wrap(func(ctx context.Context, b board.Board) board.Square {
			r := e.Search(ctx, b, search.Limits{}, nil)
			if !b.GameOver() {
				log.add(e.LastStats())
			}
			return r.Move
		})
	}
}

// TestPlayMatch: a short match counts every game once, UCT beats random moves, and an
// illegal move is an error.
func TestPlayMatch(t *testing.T) {
	ctx := context.Background()
	openings := RandomOpenings(3, 4, 8)
	if len(openings) != 4 {
		t.Fatalf("%d openings", len(openings))
	}
	uct := func(g int) Mover {
		e, err := New(Config{Seed: uint64(g), Playouts: 200})
		if err != nil {
			panic(err)
		}
		return SearchMover(e, search.Limits{})
	}
	random := func(g int) Mover {
		r := newRNG(uint64(g), 1)
		return func(_ context.Context, b board.Board) board.Square { return r.randomMove(b.LegalMoves()) }
	}
	var calls int
	res, err := PlayMatch(ctx, uct, random, openings, 2, func(MatchResult) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if res.Games() != 8 || calls != 4 || len(res.pairs) != 4 {
		t.Fatalf("%v: %d games, %d progress calls", res, res.Games(), calls)
	}
	if res.Score() < 0.75 {
		t.Errorf("UCT at 200 playouts against random moves: %v", res)
	}
	bad := func(int) Mover {
		return func(context.Context, board.Board) board.Square { return board.A1 }
	}
	if _, err := PlayMatch(ctx, uct, bad, openings, 1, nil); err == nil {
		t.Error("an illegal move is no error")
	}
}

func TestMatchResultSE(t *testing.T) {
	r := MatchResult{Wins: 3, Draws: 2, Losses: 3, pairs: []float64{2, 0, 1, 1}}
	if r.Score() != 0.5 {
		t.Errorf("score %v", r.Score())
	}
	// Games 1,1,1,.5,.5,0,0,0: variance (sum of squares 3.5/8 - 1/4)*8/7 = 3/14, SE sqrt(3/14/8).
	if got, want := r.SE(), 0.16366341767699427; got-want > 1e-12 || want-got > 1e-12 {
		t.Errorf("SE %v, want %v", got, want)
	}
	// Pairs 1, 0, .5, .5: variance (1.5/4 - 1/4)*4/3 = 1/6, SE sqrt(1/6/4).
	if got, want := r.PairedSE(), 0.2041241452319315; got-want > 1e-12 || want-got > 1e-12 {
		t.Errorf("paired SE %v, want %v", got, want)
	}
	if s := r.String(); !strings.Contains(s, "+3 =2 -3") {
		t.Errorf("String %q", s)
	}
}
