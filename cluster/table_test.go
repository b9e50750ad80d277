package cluster

import (
	"math/bits"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
)

// ffo loads the FFO positions of ../endgame/testdata/fforum-<name>.obf.
func ffo(t testing.TB, name string) []endgame.Problem {
	t.Helper()
	ps, err := endgame.ReadProblemFile("../endgame/testdata/fforum-" + name + ".obf")
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// randomPosition plays random moves from the start until empties squares are left.
func randomPosition(r *rand.Rand, empties int) (p, o uint64, ok bool) {
	b := board.Start()
	p, o = b.P, b.O
	for bits.OnesCount64(^(p | o)) > empties {
		moves := board.LegalMoves(p, o)
		if moves == 0 {
			if board.LegalMoves(o, p) == 0 {
				return 0, 0, false
			}
			p, o = o, p
			continue
		}
		for n := r.IntN(bits.OnesCount64(moves)); n > 0; n-- {
			moves &= moves - 1
		}
		sq := board.FirstSquare(moves)
		f := board.Flips(p, o, sq)
		p, o = o^f, p|f|sq.Bit()
	}
	return p, o, true
}

// flush waits until the table's queued stores are written.
func flush(t *testing.T, tab *RedisTable) {
	t.Helper()
	for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
		queued := 0
		for _, sh := range tab.shards {
			queued += len(sh.in)
		}
		if queued == 0 {
			time.Sleep(20 * time.Millisecond) // the batch on its way
			return
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("%d stores still queued", queued)
		}
	}
}

// Entries merge on the server: the tighter bounds of both, the move of the one that has
// one; positions spread over the servers of a partitioned table and each is found again.
func TestTableMergesAndShards(t *testing.T) {
	r1, r2 := startRedis(t), startRedis(t)
	tab, err := NewRedisTable(TableOptions{Servers: endpoints(r1, r2)})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	mergeAndShard(t, tab, r1, r2)
}

// mergeAndShard stores 201 positions and finds them again, one of them the merge of two
// entries.
func mergeAndShard(t *testing.T, tab *RedisTable, r1, r2 *redisServer) {
	t.Helper()
	start := board.Start()
	tab.Store(start.P, start.O, endgame.GlobalEntry{Lower: -10, Upper: 64, Move: 19, Empties: 60})
	tab.Store(start.P, start.O, endgame.GlobalEntry{Lower: -64, Upper: 4, Move: endgame.NoMove, Empties: 60})
	r := rand.New(rand.NewPCG(1, 2))
	type pos struct {
		p, o  uint64
		move  uint8
		empty uint8
	}
	var ps []pos
	for len(ps) < 200 {
		p, o, ok := randomPosition(r, 20+r.IntN(30))
		if !ok || board.LegalMoves(p, o) == 0 {
			continue
		}
		i := len(ps)
		ps = append(ps, pos{p, o, uint8(board.FirstSquare(board.LegalMoves(p, o))), uint8(board.Count(^(p | o)))})
		tab.Store(p, o, endgame.GlobalEntry{Lower: int8(i%129 - 64), Upper: 64, Move: ps[i].move, Empties: ps[i].empty})
	}
	flush(t, tab)
	e, ok := tab.Probe(start.P, start.O)
	if want := (endgame.GlobalEntry{Lower: -10, Upper: 4, Move: 19, Empties: 60}); !ok || e != want {
		t.Fatalf("merged entry %+v %v, want %+v", e, ok, want)
	}
	for i, p := range ps {
		e, ok := tab.Probe(p.p, p.o)
		if !ok || int(e.Lower) != i%129-64 || e.Upper != 64 || e.Move != p.move || e.Empties != p.empty {
			t.Fatalf("position %d: %+v %v", i, e, ok)
		}
	}
	if _, ok := tab.Probe(start.O, start.P|1); ok {
		t.Fatal("a position never stored was found")
	}
	n, err := TableInfo(t.Context(), endpoints(r1, r2))
	if err != nil {
		t.Fatal(err)
	}
	if n[0]+n[1] != 201 || n[0] < 60 || n[1] < 60 {
		t.Fatalf("entries per server %v, want 201 spread over both", n)
	}
	if st := tab.Stats(); st.Hits != 201 || st.Probes != 202 || st.Stores != 202 || st.Dropped != 0 || st.Rejected != 0 {
		t.Fatalf("stats %+v", st)
	}
}

// With a cluster key the entries are signed, merge on the server all the same, and are
// found again.
func TestSignedTableMergesAndShards(t *testing.T) {
	r1, r2 := startRedis(t), startRedis(t)
	tab, err := NewRedisTable(TableOptions{Servers: endpoints(r1, r2), Key: NewKey([]byte("a test key of the cluster"))})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	mergeAndShard(t, tab, r1, r2)
	c := r1.Client(t, tableDB)
	keys, err := c.Keys(t.Context(), "t:*").Result()
	if err != nil || len(keys) == 0 {
		t.Fatal(keys, err)
	}
	v, _ := c.Get(t.Context(), keys[0]).Bytes()
	ttl, _ := c.TTL(t.Context(), keys[0]).Result()
	if len(v) != signedEntryLen || ttl <= 0 {
		t.Fatalf("a signed entry is %d bytes with TTL %v, want %d bytes and a TTL", len(v), ttl, signedEntryLen)
	}
}

// Solvers that share the global table give exact scores, and the second one to solve a
// position finds the first one's entries.
func TestSolversShareGlobalTable(t *testing.T) {
	rs := startRedis(t)
	tab, err := NewRedisTable(TableOptions{Servers: endpoints(rs)})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	opt := endgame.DefaultSolverOptions(4)
	opt.Global = tab
	opt.GlobalEmpties = 12
	a, b := endgame.NewSolverWith(opt), endgame.NewSolverWith(opt)
	ps := ffo(t, "1-19")[:6]
	for i, pr := range ps {
		best, _ := pr.Best()
		ra := a.Solve(pr.Board.P, pr.Board.O, -64, 64)
		flush(t, tab)
		st := tab.Stats()
		rb := b.Solve(pr.Board.P, pr.Board.O, -64, 64)
		hits := tab.Stats().Sub(st).Hits
		if ra.Score != best || rb.Score != best {
			t.Fatalf("FFO #%d: scores %d and %d, want %d", i+1, ra.Score, rb.Score, best)
		}
		if hits == 0 || rb.Nodes >= ra.Nodes {
			t.Errorf("FFO #%d: the second solver had %d global hits and %d nodes (first %d)", i+1, hits, rb.Nodes, ra.Nodes)
		}
	}
}

// A table whose server is killed answers every probe with a miss after one timeout, drops
// its stores without blocking, and the solves stay exact.
func TestTableServerKilled(t *testing.T) {
	rs := startRedis(t)
	tab, err := NewRedisTable(TableOptions{Servers: endpoints(rs), ProbeTimeout: 50 * time.Millisecond, Backoff: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	opt := endgame.DefaultSolverOptions(4)
	opt.Global = tab
	opt.GlobalEmpties = 10
	s := endgame.NewSolverWith(opt)
	ps := ffo(t, "1-19")[6:12]
	rs.Kill()
	start := time.Now()
	for i, pr := range ps {
		best, _ := pr.Best()
		if r := s.Solve(pr.Board.P, pr.Board.O, -64, 64); r.Score != best {
			t.Fatalf("FFO #%d without its table's server: %d, want %d", i+7, r.Score, best)
		}
	}
	st := tab.Stats()
	if st.ProbeErrors == 0 || st.ProbeErrors > 2 || st.Hits != 0 {
		t.Fatalf("stats %+v: want one or two failed probes, then the server left alone", st)
	}
	t.Logf("solves took %v without the server", time.Since(start))
}

// A probe fetches the entries of the position's children in its round trip; their probes
// are answered from it, found or not, once; on two servers only the children on the
// parent's server are prefetched, and every child is found wherever it lives.
func TestTablePrefetch(t *testing.T) {
	r1, r2 := startRedis(t), startRedis(t)
	b := board.Start()
	var kids [][2]uint64
	for m := b.LegalMoves(); m != 0; m &= m - 1 {
		bb := b
		bb.Make(board.FirstSquare(m))
		kids = append(kids, [2]uint64{bb.P, bb.O})
	}
	for _, addrs := range [][]Endpoint{endpoints(r1), endpoints(r1, r2)} {
		FlushTable(t.Context(), addrs)
		tab, err := NewRedisTable(TableOptions{Servers: addrs, PrefetchEmpties: 50})
		if err != nil {
			t.Fatal(err)
		}
		for i, k := range kids[1:] {
			tab.Store(k[0], k[1], endgame.GlobalEntry{Lower: int8(i), Upper: 64, Move: endgame.NoMove, Empties: 59})
		}
		flush(t, tab)
		if _, ok := tab.Probe(b.P, b.O); ok {
			t.Fatal("the start position was found")
		}
		for round := 0; round < 2; round++ {
			for i, k := range kids {
				e, ok := tab.Probe(k[0], k[1])
				if ok != (i > 0) || ok && int(e.Lower) != i-1 {
					t.Fatalf("%d server(s), round %d, child %d: %+v %v", len(addrs), round, i, e, ok)
				}
			}
		}
		st := tab.Stats()
		sameServer := 0
		for _, k := range kids {
			if tab.shard(k[0], k[1]) == tab.shard(b.P, b.O) {
				sameServer++
			}
		}
		if st.Prefetched != uint64(sameServer) || st.Probes != uint64(1+2*len(kids)) || st.Hits != uint64(2*(len(kids)-1)) {
			t.Fatalf("%d server(s): stats %+v, %d children on the parent's server", len(addrs), st, sameServer)
		}
		tab.Close()
	}
}
