package cluster

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
)

// testCluster is a queue on a real Redis server with n workers running in goroutines, each
// with its own queue connection and its own global table connection (nil without one).
type testCluster struct {
	q      *RedisQueue
	cancel context.CancelFunc
	wg     sync.WaitGroup
	errs   chan error
}

func newTestCluster(t testing.TB, queueAddr Endpoint, tableAddrs []Endpoint, n int, wo WorkerOptions) *testCluster {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	q, err := NewRedisQueue(ctx, QueueOptions{Server: queueAddr, Visibility: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	tc := &testCluster{q: q, cancel: cancel, errs: make(chan error, n)}
	for i := 0; i < n; i++ {
		wq, err := NewRedisQueue(ctx, QueueOptions{Server: queueAddr, Visibility: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		o := wo
		o.Name = fmt.Sprintf("w%d", i)
		if o.Solver.TableMiB == 0 {
			o.Solver = endgame.DefaultSolverOptions(4)
		}
		if o.GiveUp == 0 {
			o.GiveUp = 2 * time.Second
		}
		if len(tableAddrs) > 0 {
			tab, err := NewRedisTable(TableOptions{Servers: tableAddrs})
			if err != nil {
				t.Fatal(err)
			}
			o.Table = tab
		}
		w := NewWorker(wq, o)
		tc.wg.Add(1)
		go func() {
			defer tc.wg.Done()
			defer wq.Close()
			if o.Table != nil {
				defer o.Table.Close()
			}
			if err := w.Run(ctx); err != nil {
				tc.errs <- err
			}
		}()
	}
	t.Cleanup(tc.stop)
	return tc
}

func (tc *testCluster) stop() {
	tc.cancel()
	tc.wg.Wait()
	tc.q.Close()
}

// The controller's score is the exact one for every way of splitting, with and without the
// global table, with one server or two, on FFO positions and on random positions split
// from few empties (so that they have a deep principal variation and many tasks).
func TestControllerExact(t *testing.T) {
	r1, r2 := startRedis(t), startRedis(t)
	ps := ffo(t, "1-19")
	var cases []struct {
		p, o  uint64
		score int
	}
	for _, pr := range ps[:4] {
		best, _ := pr.Best()
		cases = append(cases, struct {
			p, o  uint64
			score int
		}{pr.Board.P, pr.Board.O, best})
	}
	rnd := rand.New(rand.NewPCG(7, 8))
	ref := endgame.NewSolver(4)
	for len(cases) < 10 {
		p, o, ok := randomPosition(rnd, 12+rnd.IntN(4))
		if !ok {
			continue
		}
		cases = append(cases, struct {
			p, o  uint64
			score int
		}{p, o, ref.Solve(p, o, -64, 64).Score})
	}
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	layouts := []struct {
		name  string
		table []Endpoint
	}{{"local tables", nil}, {"centralised", endpoints(r1)}, {"partitioned", endpoints(r1, r2)}}
	for _, l := range layouts {
		wo := WorkerOptions{}
		wo.Solver = endgame.DefaultSolverOptions(4)
		wo.Solver.GlobalEmpties = 9
		tc := newTestCluster(t, endpoint(r1), l.table, 3, wo)
		for _, co := range []ControllerOptions{
			{Split: PVSplit, TaskEmpties: 8, PVDepth: 4},
			// The controller orders by the evaluation, the job names the workers' weights.
			{Split: PVSplit, TaskEmpties: 8, PVDepth: 4, Eval: ev, Weights: WeightsID(nil)},
			{Split: PVSplit, TaskEmpties: 8, PVDepth: 4, Eval: ev, Weights: WeightsID(nil), Speculate: true},
			{Split: PVSplit, TaskEmpties: 8, PVDepth: 2, HelpEmpties: 8}, // helpers in the first step
			{Split: PVSplit, TaskEmpties: 8, PVDepth: 2},
			{Split: PVSplit, TaskEmpties: 8, PVDepth: 4, Strict: true},
			{Split: TreeSplit},
		} {
			co.Stall = testStall
			c := NewController(tc.q, co)
			for i, cs := range cases {
				out, err := c.Solve(t.Context(), cs.p, cs.o, -64, 64)
				if err != nil {
					t.Fatalf("%s, %s strict=%v, case %d: %v", l.name, co.Split, co.Strict, i, err)
				}
				if out.Score != cs.score {
					t.Fatalf("%s, %s strict=%v, case %d: score %d, want %d", l.name, co.Split, co.Strict, i, out.Score, cs.score)
				}
				if out.Tasks == 0 || out.Results == 0 || out.Workers == 0 {
					t.Fatalf("%s, case %d: stats %+v", l.name, i, out.Stats)
				}
				// A window around the score gives a true fail-soft bound.
				a := cs.score - 1 - rnd.IntN(6)
				w, err := c.Solve(t.Context(), cs.p, cs.o, a, a+1+rnd.IntN(4))
				if err != nil {
					t.Fatal(err)
				}
				if w.Score <= a && w.Score < cs.score || w.Score > a && w.Score < a+1 && w.Score != cs.score {
					t.Fatalf("%s, case %d: window at %d gave %d, exact %d", l.name, i, a, w.Score, cs.score)
				}
			}
		}
		tc.stop()
		select {
		case err := <-tc.errs:
			t.Fatalf("worker: %v", err)
		default:
		}
	}
}
