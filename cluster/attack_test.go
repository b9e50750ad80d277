package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
)

// keyedCluster is a controller's queue and n workers on one server, all with the key
// (nil: none), each worker with its own queue and global table, kept for their counts.
type keyedCluster struct {
	q      *RedisQueue
	wqs    []*RedisQueue
	tabs   []*RedisTable
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func newKeyedCluster(t *testing.T, rs *redisServer, key *Key, n int) *keyedCluster {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	kc := &keyedCluster{cancel: cancel}
	var err error
	if kc.q, err = NewRedisQueue(ctx, QueueOptions{Server: endpoint(rs), Key: key, Visibility: time.Second}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		wq, err := NewRedisQueue(ctx, QueueOptions{Server: endpoint(rs), Key: key, Visibility: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		tab, err := NewRedisTable(TableOptions{Servers: endpoints(rs), Key: key})
		if err != nil {
			t.Fatal(err)
		}
		kc.wqs, kc.tabs = append(kc.wqs, wq), append(kc.tabs, tab)
		opt := WorkerOptions{Name: fmt.Sprintf("w%d", i), Table: tab, GiveUp: 5 * time.Second, Wait: 100 * time.Millisecond}
		opt.Solver = endgame.DefaultSolverOptions(4)
		opt.Solver.GlobalEmpties = 8
		w := NewWorker(wq, opt)
		kc.wg.Add(1)
		go func() {
			defer kc.wg.Done()
			if err := w.Run(ctx); err != nil {
				t.Errorf("worker: %v", err)
			}
		}()
	}
	t.Cleanup(kc.stop)
	return kc
}

func (kc *keyedCluster) stop() {
	kc.cancel()
	kc.wg.Wait()
	for i := range kc.wqs {
		kc.wqs[i].Close()
		kc.tabs[i].Close()
	}
	kc.q.Close()
}

// rejected sums the entries the workers' global tables rejected, dropped the tasks their
// queues dropped.
func (kc *keyedCluster) counts() (rejected, dropped uint64) {
	for i := range kc.wqs {
		rejected += kc.tabs[i].Stats().Rejected
		dropped += kc.wqs[i].Dropped()
	}
	return
}

// solveAll solves FFO #1-#4 and fails the test on any wrong score.
func solveAll(t *testing.T, c *Controller, what string) Stats {
	t.Helper()
	var tot Stats
	for i, pr := range ffo(t, "1-19")[:4] {
		best, _ := pr.Best()
		out, err := c.Solve(t.Context(), pr.Board.P, pr.Board.O, -64, 64)
		if err != nil {
			t.Fatalf("%s, FFO #%d: %v", what, i+1, err)
		}
		if out.Score != best {
			t.Fatalf("%s, FFO #%d: score %+d, want %+d", what, i+1, out.Score, best)
		}
		tot.Add(out.Stats)
	}
	return tot
}

// rewriteTable applies f to every value of the global table, as any client of the server
// can.
func rewriteTable(t *testing.T, c *redis.Client, f func(v []byte) []byte) int {
	t.Helper()
	keys, err := c.Keys(t.Context(), tableKeyPrefix+"*").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		v, err := c.Get(t.Context(), k).Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Set(t.Context(), k, f(v), 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	return len(keys)
}

// forgeResults posts, until stop, a false result for every task it sees on the queue,
// with the build and weights the controller wants and a MAC of garbage, as a hostile
// client of the server can.
func forgeResults(c *redis.Client, score, move int, stop chan struct{}, forged *atomic.Int64) {
	seen := map[string]bool{}
	for {
		select {
		case <-stop:
			return
		case <-time.After(time.Millisecond):
		}
		msgs, err := c.XRange(context.Background(), "othello:tasks", "-", "+").Result()
		if err != nil {
			continue
		}
		for _, m := range msgs {
			var tk Task
			if s, ok := m.Values["t"].(string); !ok || json.Unmarshal([]byte(s), &tk) != nil || seen[m.ID] {
				continue
			}
			seen[m.ID] = true
			b, _ := json.Marshal(Result{Job: tk.Job, ID: tk.ID, Score: score, Move: move, Worker: "forger", Build: tk.Build, Weights: tk.Weights})
			c.XAdd(context.Background(), &redis.XAddArgs{Stream: "othello:results:" + tk.Job, Values: []any{"r", b, "m", "0123456789abcdef"}})
			forged.Add(1)
		}
	}
}

// The attacks on a cluster with a key, by a client of the same server without
// it: every global table entry's bounds shifted by 4, garbage values, false results posted
// for every task, tasks injected (60 empties, garbage, unsigned). The scores stay the FFO
// ones, and every forgery is dropped and counted.
func TestAttacksWithKey(t *testing.T) {
	rs := startRedis(t)
	key := NewKey([]byte("the cluster's shared secret"))
	kc := newKeyedCluster(t, rs, key, 2)
	c := NewController(kc.q, ControllerOptions{TaskEmpties: 8, PVDepth: 3, Stall: testStall})
	solveAll(t, c, "clean")
	kc.stop() // its last stores written
	raw := rs.Client(t, tableDB)

	// Every entry's bounds moved up by 4 (the halves' first bytes), then solved again by
	// workers whose local tables have not seen the positions.
	n := rewriteTable(t, raw, func(v []byte) []byte {
		v = append([]byte(nil), v...)
		if len(v) == signedEntryLen {
			v[0] += 4
			v[halfLen] += 4
		}
		return v
	})
	if n == 0 {
		t.Fatal("no global table entry to poison")
	}
	kc = newKeyedCluster(t, rs, key, 2)
	c = NewController(kc.q, ControllerOptions{TaskEmpties: 8, PVDepth: 3, Stall: testStall})
	solveAll(t, c, "shifted bounds")
	rej, _ := kc.counts()
	if rej == 0 {
		t.Fatalf("shifted entries: none rejected")
	}
	t.Logf("%d entries shifted by +4: %d halves rejected, scores exact", n, rej)

	// Garbage of every length.
	kc.stop()
	r := rand.New(rand.NewPCG(3, 4))
	rewriteTable(t, raw, func([]byte) []byte {
		g := make([]byte, r.IntN(2*signedEntryLen))
		for i := range g {
			g[i] = byte(r.Uint32())
		}
		return g
	})
	kc = newKeyedCluster(t, rs, key, 2)
	c = NewController(kc.q, ControllerOptions{TaskEmpties: 8, PVDepth: 3, Stall: testStall})
	solveAll(t, c, "garbage entries")
	if rej, _ := kc.counts(); rej == 0 {
		t.Fatal("garbage entries: none rejected")
	}

	// False results for every task, and tasks injected.
	queue := rs.Client(t, queueDB)
	b := board.Start()
	for _, v := range [][]any{
		{"t", fmt.Sprintf(`{"j":"x","i":0,"p":%d,"o":%d,"a":-65,"b":65}`, b.P, b.O), "m", "garbage-mac-1234"},
		{"t", fmt.Sprintf(`{"j":"x","i":1,"p":%d,"o":%d,"a":-65,"b":65}`, b.P, b.O)},
		{"t", "{not json"},
		{"x", "y"},
	} {
		if err := queue.XAdd(t.Context(), &redis.XAddArgs{Stream: "othello:tasks", Values: v}).Err(); err != nil {
			t.Fatal(err)
		}
	}
	stop := make(chan struct{})
	var forged atomic.Int64
	go forgeResults(queue, 64, -1, stop, &forged)
	st := solveAll(t, c, "forged results")
	close(stop)
	if forged.Load() == 0 || kc.q.Dropped() < uint64(forged.Load())/2 {
		t.Fatalf("%d results forged, %d dropped", forged.Load(), kc.q.Dropped())
	}
	if st.Workers > 2 {
		t.Fatalf("%d workers counted: the forger among them", st.Workers)
	}
	_, dropped := kc.counts()
	if dropped < 4 {
		t.Fatalf("injected tasks: %d dropped by the workers, want the 4", dropped)
	}
	if l, _ := queue.XLen(t.Context(), "othello:tasks").Result(); l != 0 {
		t.Fatalf("%d entries left on the task stream", l)
	}
	t.Logf("%d false results dropped by the controller, %d injected tasks by the workers", kc.q.Dropped(), dropped)
}

// Without a key (loopback only) what is out of range is still dropped: global table
// values with impossible bounds, illegal moves or the wrong empties, and results with
// impossible scores or moves.
func TestAttacksWithoutKey(t *testing.T) {
	rs := startRedis(t)
	kc := newKeyedCluster(t, rs, nil, 2)
	c := NewController(kc.q, ControllerOptions{TaskEmpties: 8, PVDepth: 3, Stall: testStall})
	solveAll(t, c, "clean")
	kc.stop()
	raw := rs.Client(t, tableDB)
	i := 0
	rewriteTable(t, raw, func(v []byte) []byte {
		i++
		switch i % 3 {
		case 0:
			return []byte{64 + 65, 64 + 65, v[2], v[3]} // +65
		case 1:
			return []byte{v[0], v[1], 63, v[3]} // h8, not legal in these positions
		}
		return []byte{v[0], v[1], v[2], v[3] + 1} // another number of empties
	})
	kc = newKeyedCluster(t, rs, nil, 2)
	c = NewController(kc.q, ControllerOptions{TaskEmpties: 8, PVDepth: 3, Stall: testStall})
	stop := make(chan struct{})
	var forged atomic.Int64
	go forgeResults(rs.Client(t, queueDB), 65, -1, stop, &forged)
	st := solveAll(t, c, "without a key")
	close(stop)
	rej, _ := kc.counts()
	if rej == 0 || st.Dropped == 0 {
		t.Fatalf("%d table entries rejected, %d of %d false results dropped", rej, st.Dropped, forged.Load())
	}
	t.Logf("%d table entries rejected, %d results dropped", rej, st.Dropped)
}
