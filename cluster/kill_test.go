package cluster

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/othellogo/othello/endgame"
)

// The test binary doubles as a worker process: with CLUSTER_TEST_WORKER set to a Redis
// address it runs a worker on it until killed, so that a test can SIGKILL a real process.
func TestMain(m *testing.M) {
	SilenceClientLog() // the tests kill servers: every failed dial would be logged
	if addr := os.Getenv("CLUSTER_TEST_WORKER"); addr != "" {
		os.Exit(runTestWorker(addr, os.Getenv("CLUSTER_TEST_NAME")))
	}
	os.Exit(m.Run())
}

const testVisibility = time.Second

// testStall is the tests' controllers' stall limit: long, since the test processes may be
// stopped for minutes on a shared machine (SIGSTOP); a hang still ends the test. The tests
// do not bound times: the limits are the options', and a hang would not return at all.
const testStall = 5 * time.Minute

func runTestWorker(addr, name string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	delay, _ := time.ParseDuration(os.Getenv("CLUSTER_TEST_DELAY"))
	q, err := NewRedisQueue(ctx, QueueOptions{Server: Endpoint{Addr: addr}, Visibility: testVisibility, Delay: delay})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	tab, err := NewRedisTable(TableOptions{Servers: []Endpoint{{Addr: addr}}, Delay: delay})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	c := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2})
	c.Set(ctx, "test:ready:"+name, 1, 0)
	c.Close()
	opt := WorkerOptions{Name: name, Table: tab, Poll: 50 * time.Millisecond, Wait: 200 * time.Millisecond}
	opt.Solver = endgame.DefaultSolverOptions(16)
	opt.Solver.GlobalEmpties = 14
	if err := NewWorker(q, opt).Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// startWorkerProcess starts the test binary as a worker process on addr.
// delay, when not "", is the simulated latency of its Redis calls.
func startWorkerProcess(t *testing.T, addr, name, delay string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CLUSTER_TEST_WORKER="+addr, "CLUSTER_TEST_NAME="+name, "CLUSTER_TEST_DELAY="+delay)
	cmd.Stderr = os.Stderr
	dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	return cmd
}

// waitPending waits until the worker holds a task (an entry of the consumer group's pending
// list), so that a kill lands in the middle of a search.
func waitPending(t *testing.T, c *redis.Client, worker string, deadline time.Duration) bool {
	t.Helper()
	for start := time.Now(); time.Since(start) < deadline; time.Sleep(5 * time.Millisecond) {
		ps, err := c.XPendingExt(context.Background(), &redis.XPendingExtArgs{Stream: "othello:tasks", Group: consumerGroup, Start: "-", End: "+", Count: 10, Consumer: worker}).Result()
		if err == nil && len(ps) > 0 {
			return true
		}
	}
	return false
}

// A worker killed with SIGKILL in the middle of a task does not change the score: its task
// goes to another worker after the visibility timeout and the solve ends exact. In the first
// solve the victim holds the one task everything waits for (the end of the principal
// variation, slowed down by a simulated latency), so the take-over is sure to happen; in the
// others it is killed whenever it next holds a task.
func TestWorkerKilled(t *testing.T) {
	rs := startRedis(t)
	ps := ffo(t, "20-39")
	// FFO #33, #34, #35: 20-21 empties.
	cases := ps[13:16]
	if testing.Short() {
		cases = cases[:2]
	}
	c := redis.NewClient(&redis.Options{Addr: rs.Addr, Protocol: 2})
	defer c.Close()
	q, err := NewRedisQueue(t.Context(), QueueOptions{Server: endpoint(rs)})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	ctl := NewController(q, ControllerOptions{TaskEmpties: 12, PVDepth: 4, Stall: testStall})
	for i, pr := range cases {
		victim := fmt.Sprintf("victim%d", i)
		delay := ""
		if i == 0 {
			delay = "5ms"
		}
		cmd := startWorkerProcess(t, rs.Addr, victim, delay)
		if i == 0 {
			waitGroupReady(t, c, victim)
		}
		type answer struct {
			out Outcome
			err error
		}
		done := make(chan answer, 1)
		go func() {
			out, err := ctl.Solve(t.Context(), pr.Board.P, pr.Board.O, -64, 64)
			done <- answer{out, err}
		}()
		if !waitPending(t, c, victim, 20*time.Second) {
			t.Fatalf("case %d: the victim never took a task", i)
		}
		if i == 0 {
			startWorkerProcess(t, rs.Addr, "survivor", "")
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		a := <-done
		if a.err != nil {
			t.Fatalf("case %d: %v", i, a.err)
		}
		best, _ := pr.Best()
		if a.out.Score != best {
			t.Fatalf("case %d (FFO #%d): score %d after a worker was killed, want %d", i, 33+i, a.out.Score, best)
		}
		if i == 0 && a.out.Reclaimed == 0 {
			t.Errorf("case %d: no task was taken over from the killed worker (stats %+v)", i, a.out.Stats)
		}
		t.Logf("FFO #%d: %+d exact after the kill; %d tasks, %d taken over", 33+i, a.out.Score, a.out.Tasks, a.out.Reclaimed)
	}
}

// waitGroupReady waits until the worker process is ready to take tasks: it sets a key
// then (a consumer that has not yet received anything is not listed by Redis 7.0).
func waitGroupReady(t *testing.T, c *redis.Client, worker string) {
	t.Helper()
	for start := time.Now(); time.Since(start) < 20*time.Second; time.Sleep(5 * time.Millisecond) {
		if n, err := c.Exists(context.Background(), "test:ready:"+worker).Result(); err == nil && n == 1 {
			return
		}
	}
	t.Fatalf("worker %s never got ready", worker)
}

// Without its Redis server, a worker's Run and a controller's Solve end with an error after
// their give-up time instead of hanging; a worker whose server comes back in time goes on.
func TestRedisKilled(t *testing.T) {
	rs := startRedis(t)
	ctx := t.Context()
	q, err := NewRedisQueue(ctx, QueueOptions{Server: endpoint(rs), Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	wq, err := NewRedisQueue(ctx, QueueOptions{Server: endpoint(rs), Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer wq.Close()
	opt := WorkerOptions{Name: "w", GiveUp: 1500 * time.Millisecond, Wait: 100 * time.Millisecond}
	opt.Solver = endgame.DefaultSolverOptions(4)
	w := NewWorker(wq, opt)
	errc := make(chan error, 1)
	go func() { errc <- w.Run(ctx) }()

	// A restart within the give-up time: the worker carries on and solves.
	rs.Restart(t)
	ctl := NewController(q, ControllerOptions{TaskEmpties: 8, GiveUp: 1500 * time.Millisecond, Stall: testStall})
	pr := ffo(t, "1-19")[0]
	best, _ := pr.Best()
	var out Outcome
	for try := 0; ; try++ {
		// The first commands after the restart may find the old connections closed.
		if out, err = ctl.Solve(ctx, pr.Board.P, pr.Board.O, -64, 64); err == nil || try == 3 {
			break
		}
	}
	if err != nil || out.Score != best {
		t.Fatalf("after a restart: %d, %v; want %d", out.Score, err, best)
	}

	rs.Kill()
	start := time.Now()
	select {
	case err := <-errc:
		if err == nil {
			t.Fatal("worker: Run returned no error without its server")
		}
		t.Logf("worker gave up after %v", time.Since(start))
	case <-time.After(5 * time.Minute):
		t.Fatal("worker: Run still going 5 minutes after its server died (give-up 1.5 s)")
	}
	start = time.Now()
	if _, err := ctl.Solve(ctx, pr.Board.P, pr.Board.O, -64, 64); err == nil {
		t.Fatal("controller: Solve succeeded without its server")
	}
	t.Logf("controller gave up after %v", time.Since(start))
}
