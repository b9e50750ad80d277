package cluster

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/book"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/search"
)

// moveValues is every legal move's exact value in b, solved locally one by one.
func moveValues(b board.Board) map[board.Square]int {
	ref := endgame.NewSolver(4)
	out := map[board.Square]int{}
	for m := b.LegalMoves(); m != 0; m &= m - 1 {
		sq := board.FirstSquare(m)
		bb := b
		bb.Make(sq)
		out[sq] = -ref.Solve(bb.P, bb.O, -64, 64).Score
	}
	return out
}

// The distributed analysis gives every move the value the local solver gives it, and with
// n best moves, those n exact and the others bounds that do not beat them.
func TestAnalyzeExact(t *testing.T) {
	rs := startRedis(t)
	tc := newTestCluster(t, endpoint(rs), endpoints(rs), 3, WorkerOptions{})
	c := NewController(tc.q, ControllerOptions{TaskEmpties: 8, Stall: testStall})
	rnd := rand.New(rand.NewPCG(3, 5))
	for i := 0; i < 4; i++ {
		p, o, ok := randomPosition(rnd, 13+i)
		if !ok || board.LegalMoves(p, o) == 0 {
			i--
			continue
		}
		b := board.FromColors(p, o, true)
		want := moveValues(b)
		for _, n := range []int{0, 2} {
			ms, st, err := c.AnalyzeExact(t.Context(), b, n)
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) != len(want) || st.Tasks == 0 {
				t.Fatalf("position %d, n %d: %d moves, %d tasks; want %d moves", i, n, len(ms), st.Tasks, len(want))
			}
			best := make([]int, 0, len(want))
			for _, v := range want {
				best = append(best, v)
			}
			for a := range best {
				for b := a + 1; b < len(best); b++ {
					if best[b] > best[a] {
						best[a], best[b] = best[b], best[a]
					}
				}
			}
			for k, m := range ms {
				v := want[m.Move]
				switch {
				case m.Exact && int(m.Score) != v:
					t.Fatalf("position %d, n %d: %v %v exact, want %d", i, n, m.Move, m.Score, v)
				case !m.Exact && (n == 0 || int(m.Score) < v || v > best[min(n, len(best))-1]):
					t.Fatalf("position %d, n %d: %v bound %v, value %d", i, n, m.Move, m.Score, v)
				case m.Exact && k < len(best) && v != best[k]:
					t.Fatalf("position %d, n %d: move %d is %v with %d, want value %d", i, n, k, m.Move, v, best[k])
				}
			}
		}
	}
}

// A search task is the local engine's search: without the bounds tables the value at a
// depth is the minimax value whatever the order or the tables' history, so every move's
// value from the workers equals a local search of its position one ply less.
func TestAnalyzeDepth(t *testing.T) {
	rs := startRedis(t)
	cfg := search.Config{TTMiB: 4, NoTable: true}
	tc := newTestCluster(t, endpoint(rs), nil, 2, WorkerOptions{Search: cfg})
	c := NewController(tc.q, ControllerOptions{Stall: testStall})
	rnd := rand.New(rand.NewPCG(9, 1))
	local := search.NewEngine(cfg)
	for i := 0; i < 3; i++ {
		p, o, ok := randomPosition(rnd, 40-6*i)
		if !ok || board.LegalMoves(p, o) == 0 {
			i--
			continue
		}
		b := board.FromColors(p, o, true)
		lim := search.Limits{Depth: 5}
		ms, st, err := c.AnalyzeDepth(t.Context(), b, lim)
		if err != nil {
			t.Fatal(err)
		}
		if len(ms) != board.Count(b.LegalMoves()) || st.Tasks != len(ms) {
			t.Fatalf("position %d: %d moves from %d tasks, want %d", i, len(ms), st.Tasks, board.Count(b.LegalMoves()))
		}
		for k, m := range ms {
			bb := b
			bb.Make(m.Move)
			r := local.Search(t.Context(), bb, search.Limits{Depth: lim.Depth - 1}, nil)
			if m.Score != -r.Score || m.PV[0] != m.Move {
				t.Fatalf("position %d: %v %v from the workers, %v locally", i, m.Move, m.Score, -r.Score)
			}
			if k > 0 && m.Score > ms[k-1].Score {
				t.Fatalf("position %d: not best first: %v after %v", i, m.Score, ms[k-1].Score)
			}
		}
	}
}

// A book extended through the workers is the book extended locally, byte for byte, when
// the leaves are solved exactly (the values of midgame leaves depend on what a searcher's
// tables hold from earlier searches, locally as well).
func TestSearcherBook(t *testing.T) {
	rs := startRedis(t)
	tc := newTestCluster(t, endpoint(rs), endpoints(rs), 2, WorkerOptions{Search: search.Config{TTMiB: 4}})
	c := NewController(tc.q, ControllerOptions{Stall: testStall})
	rnd := rand.New(rand.NewPCG(4, 4))
	var games []book.Game
	for len(games) < 3 {
		p, o, ok := randomPosition(rnd, 16)
		if !ok || board.LegalMoves(p, o) == 0 {
			continue
		}
		b := board.FromColors(p, o, true)
		sq := board.FirstSquare(b.LegalMoves())
		games = append(games, book.Game{Start: b, Moves: []board.Square{sq}})
	}
	build := func(s book.Searcher, helpers ...book.Searcher) []byte {
		bk := book.New()
		for _, g := range games {
			if _, err := bk.AddGame(g, 60); err != nil {
				t.Fatal(err)
			}
		}
		opt := book.Options{Depth: 8, Helpers: helpers}
		if _, err := bk.Evaluate(t.Context(), s, opt); err != nil {
			t.Fatal(err)
		}
		if _, _, err := bk.ExtendRounds(t.Context(), s, opt, 60, 2); err != nil {
			t.Fatal(err)
		}
		return bk.Encode()
	}
	want := build(search.NewEngine(search.Config{TTMiB: 4}))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s := &Searcher{C: c, Stop: cancel}
	got := build(s, s, s)
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if ctx.Err() != nil {
		t.Fatal("the searcher stopped the run")
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("the book extended on the workers differs from the local one (%d and %d bytes)", len(got), len(want))
	}
	if st := s.Stats(); st.Tasks == 0 || st.Workers == 0 {
		t.Fatalf("no task went to the workers: %+v", st)
	}
}

// A dead Redis gives errors, not a hang or a panic: the connection is refused at once,
// and a server that dies under a running controller fails its searches after GiveUp; the
// Searcher stops the book's run and keeps the error.
func TestControllerRedisDead(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	if _, err := NewRedisQueue(t.Context(), QueueOptions{Server: Endpoint{Addr: addr}, Timeout: time.Second}); err == nil || !strings.Contains(err.Error(), addr) {
		t.Fatalf("no server: %v, want an error naming %s", err, addr)
	}

	rs := startRedis(t)
	q, err := NewRedisQueue(t.Context(), QueueOptions{Server: endpoint(rs), Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	c := NewController(q, ControllerOptions{GiveUp: time.Second, Stall: time.Minute})
	rs.Kill()
	ps := ffo(t, "1-19")
	b := ps[0].Board
	if _, err := c.Solve(t.Context(), b.P, b.O, -64, 64); err == nil {
		t.Fatal("solve with the server gone: no error")
	}
	if _, _, err := c.AnalyzeExact(t.Context(), b, 0); err == nil {
		t.Fatal("analysis with the server gone: no error")
	}
	if _, _, err := c.AnalyzeDepth(t.Context(), b, search.Limits{Depth: 4}); err == nil {
		t.Fatal("midgame analysis with the server gone: no error")
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	s := &Searcher{C: c, Stop: cancel}
	s.Search(ctx, b, search.Limits{Depth: 4}, nil)
	if s.Err() == nil || ctx.Err() == nil {
		t.Fatalf("searcher with the server gone: error %v, run stopped %v", s.Err(), ctx.Err() != nil)
	}
}
