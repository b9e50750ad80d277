package cluster

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/redistest"
)

// A worker of other weights or another build refuses the controller's tasks and says so;
// the controller reports it as ignored, and the solve, done by the worker that matches, is
// exact.
func TestOtherEngineIgnored(t *testing.T) {
	rs := startRedis(t)
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	var refusals []string
	same := WorkerOptions{Wait: 100 * time.Millisecond}
	same.Solver = endgame.DefaultSolverOptions(4)
	same.Solver.Eval = ev
	mobility := same
	mobility.Solver.Eval = nil
	mobility.Warnf = func(format string, args ...any) { refusals = append(refusals, format) }
	older := same
	older.Build = "p1 an older build"
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	done := make(chan struct{})
	names := []string{"same", "mobility", "older"}
	for i, o := range []WorkerOptions{same, mobility, older} {
		q, err := NewRedisQueue(ctx, QueueOptions{Server: endpoint(rs), Visibility: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		defer q.Close()
		o.Name = names[i]
		go func() { NewWorker(q, o).Run(ctx); done <- struct{}{} }()
	}
	q, err := NewRedisQueue(ctx, QueueOptions{Server: endpoint(rs)})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	c := NewController(q, ControllerOptions{Eval: ev, TaskEmpties: 8, Stall: testStall})
	st := solveAll(t, c, "three engines")
	cancel()
	for range names {
		<-done
	}
	ig := strings.Join(c.Ignored(), "\n")
	if st.Ignored == 0 || !strings.Contains(ig, "mobility:") || !strings.Contains(ig, "older:") || strings.Contains(ig, "same:") {
		t.Fatalf("%d results ignored, workers ignored:\n%s", st.Ignored, ig)
	}
	if len(refusals) == 0 {
		t.Fatal("the mobility worker logged no refusal")
	}
	t.Logf("ignored:\n%s", ig)
}

// A task beyond a worker's bounds is dropped, not solved; one that runs past its time
// limit is stopped and fails the controller's solve with a clear error.
func TestTaskBounds(t *testing.T) {
	rs := startRedis(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	wq, err := NewRedisQueue(ctx, QueueOptions{Server: endpoint(rs)})
	if err != nil {
		t.Fatal(err)
	}
	defer wq.Close()
	o := WorkerOptions{Name: "slow", MaxTaskTime: 50 * time.Millisecond, Wait: 100 * time.Millisecond}
	o.Solver = endgame.DefaultSolverOptions(4)
	go NewWorker(wq, o).Run(ctx)
	q, err := NewRedisQueue(ctx, QueueOptions{Server: endpoint(rs)})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	c := NewController(q, ControllerOptions{Split: TreeSplit, Stall: testStall})
	pr := ffo(t, "20-39")[19] // FFO #39, 26 empties
	_, err = c.Solve(t.Context(), pr.Board.P, pr.Board.O, -64, 64)
	if err == nil || !strings.Contains(err.Error(), "max-task-time") {
		t.Fatalf("a task past the time limit: %v", err)
	}
	t.Log(err)

	// The tasks of 59 empties (beyond the default 40) never reach the solver.
	b := pr.Board
	b.P, b.O = 1<<27|1<<36, 1<<28|1<<35
	c = NewController(q, ControllerOptions{Split: TreeSplit, Stall: 3 * time.Second})
	if _, err := c.Solve(t.Context(), b.P, b.O, -64, 64); err == nil || !strings.Contains(err.Error(), "no result") {
		t.Fatalf("tasks of 59 empties: %v", err)
	}
	if wq.Dropped() == 0 {
		t.Fatal("no task dropped by the worker")
	}
}

// A server restarted without persistence in the middle of a solve loses the queue; the
// controller notices and submits its tasks again, and the score is exact.
func TestServerRestartMidSolve(t *testing.T) {
	rs := startRedis(t)
	tc := newTestCluster(t, endpoint(rs), endpoints(rs), 2, WorkerOptions{GiveUp: time.Minute})
	pr := ffo(t, "20-39")[13] // FFO #33
	best, _ := pr.Best()
	c := NewController(tc.q, ControllerOptions{TaskEmpties: 12, PVDepth: 4, Stall: testStall, Alive: 200 * time.Millisecond})
	type answer struct {
		out Outcome
		err error
	}
	done := make(chan answer, 1)
	go func() {
		out, err := c.Solve(t.Context(), pr.Board.P, pr.Board.O, -64, 64)
		done <- answer{out, err}
	}()
	raw := rs.Client(t, queueDB)
	for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
		if n, _ := raw.XLen(t.Context(), "othello:tasks").Result(); n > 0 {
			break
		}
		if time.Since(start) > time.Minute {
			t.Fatal("no task was ever queued")
		}
	}
	rs.Restart(t)
	a := <-done
	if a.err != nil || a.out.Score != best {
		t.Fatalf("after a restart mid-solve: %+d, %v; want %+d", a.out.Score, a.err, best)
	}
	if a.out.Lost == 0 || a.out.Resubmitted == 0 {
		t.Fatalf("the controller did not notice the lost queue: %+v", a.out.Stats)
	}
	t.Logf("FFO #33 %+d after the restart: lost %d time(s), %d tasks submitted again", a.out.Score, a.out.Lost, a.out.Resubmitted)
}

// Malformed entries left pending by a consumer that died are acknowledged and deleted by
// the next worker's claim, which then takes over the task that consumer held: the solve
// ends exact instead of waiting for ever.
func TestMalformedPendingAndTakeOver(t *testing.T) {
	rs := startRedis(t)
	raw := rs.Client(t, queueDB)
	q, err := NewRedisQueue(t.Context(), QueueOptions{Server: endpoint(rs), Visibility: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	for i := 0; i < 20; i++ {
		raw.XAdd(t.Context(), &redis.XAddArgs{Stream: "othello:tasks", Values: []any{"t", "{broken"}})
	}
	ghostRead := func(n int64) {
		if err := raw.XReadGroup(t.Context(), &redis.XReadGroupArgs{Group: consumerGroup, Consumer: "ghost", Streams: []string{"othello:tasks", ">"}, Count: n, Block: time.Minute}).Err(); err != nil {
			t.Fatal(err)
		}
	}
	ghostRead(20)
	pr := ffo(t, "1-19")[0]
	best, _ := pr.Best()
	c := NewController(q, ControllerOptions{TaskEmpties: 8, Stall: testStall})
	type answer struct {
		out Outcome
		err error
	}
	done := make(chan answer, 1)
	go func() {
		out, err := c.Solve(t.Context(), pr.Board.P, pr.Board.O, -64, 64)
		done <- answer{out, err}
	}()
	ghostRead(1) // the first task, held by a consumer that never answers
	newTestCluster(t, endpoint(rs), nil, 1, WorkerOptions{})
	a := <-done
	if a.err != nil || a.out.Score != best || a.out.Reclaimed == 0 {
		t.Fatalf("%+d, %v, %d taken over; want %+d after a take-over", a.out.Score, a.err, a.out.Reclaimed, best)
	}
	if n, _ := raw.XLen(t.Context(), "othello:tasks").Result(); n != 0 {
		t.Fatalf("%d entries left on the stream", n)
	}
}

// A server whose eviction policy may take any key is refused with the reason; volatile-*
// and noeviction are accepted.
func TestEvictionPolicy(t *testing.T) {
	for _, policy := range []string{"allkeys-lru", "allkeys-random", "volatile-lru", "noeviction"} {
		rs := redistest.StartWith(t, redistest.Options{Args: []string{"--maxmemory-policy", policy}})
		q, err := NewRedisQueue(t.Context(), QueueOptions{Server: endpoint(rs)})
		if strings.HasPrefix(policy, "allkeys-") {
			if err == nil || !strings.Contains(err.Error(), policy) || !strings.Contains(err.Error(), "volatile-lru") {
				t.Errorf("%s: %v", policy, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", policy, err)
			continue
		}
		q.Close()
		rs.Kill()
	}
}

// A result is used only if it can be the answer to its task: scores, moves and a midgame
// search's values in range; a principal variation is cut where it cannot be played.
func TestCheckResult(t *testing.T) {
	b := board.Start()
	tk := &task{n: newNode(b.P, b.O, board.NoSquare, nil), alpha: -65, beta: 65}
	d3 := 19 // d3, legal at the start
	for _, c := range []struct {
		r  Result
		ok bool
	}{
		{Result{Score: 0, Move: d3}, true},
		{Result{Score: 64, Move: -1}, true},
		{Result{Score: 65, Move: -1}, false},
		{Result{Score: -65, Move: -1}, false},
		{Result{Score: 0, Move: 0}, false},  // a1
		{Result{Score: 0, Move: 64}, false}, // no square
	} {
		if got := checkResult(tk, &c.r) == ""; got != c.ok {
			t.Errorf("%+v: used %v, want %v", c.r, got, c.ok)
		}
	}
	r := Result{Move: d3, PV: []int{d3, 0, d3}}
	if checkResult(tk, &r) != "" || len(r.PV) != 1 {
		t.Errorf("principal variation %v, want it cut after d3", r.PV)
	}
	mid := &task{n: tk.n, depth: 4}
	for _, r := range []Result{{Value: 70}, {Value: math.NaN()}, {Depth: 61}, {SelPct: 101}} {
		if checkResult(mid, &r) == "" {
			t.Errorf("midgame %+v used", r)
		}
	}
}
