package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Task is one unit of work: solve (P, O), P to move, within the window (Alpha, Beta),
// fail-soft. Job names the controller's solve it belongs to, ID the task within the job.
// A task with a positive Depth is a midgame search instead (search.Engine.Search at that
// depth and Multi-ProbCut level Sel, as a local book or analysis search would run it).
type Task struct {
	Job   string `json:"j"`
	ID    int    `json:"i"`
	P     uint64 `json:"p"`
	O     uint64 `json:"o"`
	Alpha int    `json:"a"`
	Beta  int    `json:"b"`
	Depth int    `json:"d,omitempty"`
	Sel   int    `json:"l,omitempty"`
}

// Result is a worker's answer to a task, with what the controller needs for the paper's
// overheads. The durations before the search (Fetch, Idle, Post) are the worker's time
// between its previous task and this one.
type Result struct {
	Job       string `json:"j"`
	ID        int    `json:"i"`
	Score     int    `json:"s"`
	Move      int    `json:"m"` // the best move's square, -1 for none (a pass, or a fail-low)
	PV        []int  `json:"pv,omitempty"`
	Nodes     uint64 `json:"n"`
	Cancelled bool   `json:"c,omitempty"` // the controller withdrew the task: no score
	Worker    string `json:"w"`
	Reclaimed bool   `json:"r,omitempty"` // taken over from a worker that stopped answering
	FromTable bool   `json:"t,omitempty"` // answered by the global table, no search

	// A midgame search task's answer: its value in discs, the depth reached (the empties for
	// a solve), whether it is exact, and the selectivity in percent (search.Info's fields).
	Value  float64 `json:"v,omitempty"`
	Depth  int     `json:"d,omitempty"`
	Exact  bool    `json:"x,omitempty"`
	SelPct int     `json:"sp,omitempty"`

	Search time.Duration `json:"st"` // solving, including the table probes
	Probe  time.Duration `json:"pt"` // waiting for global table probes (all threads)
	Probes uint64        `json:"pn"`
	Hits   uint64        `json:"ph"`
	Fetch  time.Duration `json:"ft"` // the round trips that fetched this task while it waited
	Idle   time.Duration `json:"it"` // blocked with no task to take
	Post   time.Duration `json:"ot"` // posting the previous result
}

// Queue carries tasks from the controller to the workers and results back. A task taken by
// a worker that then stops answering (no Extend within the visibility timeout) is handed to
// another worker; a result may therefore arrive twice, and the controller keeps the first.
// RedisQueue is the implementation.
type Queue interface {
	// Submit queues tasks, in order.
	Submit(ctx context.Context, tasks []Task) error
	// Cancel withdraws tasks of a job: those not yet taken are dropped, those being solved
	// are stopped at the worker's next Extend.
	Cancel(ctx context.Context, job string, ids []int) error
	// Results returns the job's results that arrived since the last call, waiting up to
	// wait for the first one (none: an empty slice and no error).
	Results(ctx context.Context, job string, wait time.Duration) ([]Result, error)
	// Finish withdraws whatever is left of the job and drops its results.
	Finish(ctx context.Context, job string) error

	// Next gives the worker a task, waiting up to wait for one (nil, nil: none came).
	Next(ctx context.Context, worker string, wait time.Duration) (*Delivery, error)
	// Extend tells the queue the worker is still solving d, and reports whether the task has
	// been withdrawn.
	Extend(ctx context.Context, d *Delivery) (cancelled bool, err error)
	// Complete posts the result of d and removes the task.
	Complete(ctx context.Context, d *Delivery, r Result) error
	// Release gives d back unsolved, for another worker.
	Release(ctx context.Context, d *Delivery) error
}

// Delivery is a task handed to a worker.
type Delivery struct {
	Task      Task
	Reclaimed bool          // its first worker stopped answering
	Fetch     time.Duration // round trips that found it waiting
	Idle      time.Duration // time blocked before it came
	msgID     string
	worker    string
}

// QueueOptions configure a RedisQueue.
type QueueOptions struct {
	Server Endpoint
	// Namespace prefixes the queue's keys, so that several clusters can share a server
	// ("" : "othello").
	Namespace string
	// Delay is added to every round trip (simulated network latency).
	Delay time.Duration
	// Timeout bounds each command (0: 5 s); failed commands are retried a few times.
	Timeout time.Duration
	// Visibility is how long a taken task may go without an Extend before another worker
	// takes it over (0: 10 s). Workers extend every third of it.
	Visibility time.Duration
}

// RedisQueue is the Queue on a Redis server: the tasks are a stream read by the consumer
// group of the workers (XREADGROUP), each task stays in the group's pending list until its
// worker acknowledges it with its result, and a worker that finds a pending task idle for
// longer than the visibility timeout claims it (XAUTOCLAIM). Each job's results are a
// stream of their own that the controller reads (XREAD), and its withdrawn tasks a set.
type RedisQueue struct {
	c   *redis.Client
	opt QueueOptions
	ns  string

	mu        sync.Mutex
	msgs      map[string]map[int]string // job -> task id -> stream id of tasks not known done
	lastRead  map[string]string         // job -> last result stream id read
	lastClaim time.Time
}

const consumerGroup = "workers"

// NewRedisQueue connects to the server and makes the consumer group if need be.
func NewRedisQueue(ctx context.Context, opt QueueOptions) (*RedisQueue, error) {
	if opt.Timeout <= 0 {
		opt.Timeout = 5 * time.Second
	}
	if opt.Visibility <= 0 {
		opt.Visibility = 10 * time.Second
	}
	ns := opt.Namespace
	if ns == "" {
		ns = "othello"
	}
	c := newClient(opt.Server, queueDB, opt.Timeout+opt.Delay, 3, opt.Delay)
	q := &RedisQueue{c: c, opt: opt, ns: ns, msgs: map[string]map[int]string{}, lastRead: map[string]string{}}
	if err := q.ensureGroup(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return q, nil
}

// Close closes the connection.
func (q *RedisQueue) Close() error { return q.c.Close() }

// Visibility is the queue's visibility timeout.
func (q *RedisQueue) Visibility() time.Duration { return q.opt.Visibility }

func (q *RedisQueue) tasksKey() string             { return q.ns + ":tasks" }
func (q *RedisQueue) resultsKey(job string) string { return q.ns + ":results:" + job }
func (q *RedisQueue) cancelKey(job string) string  { return q.ns + ":cancel:" + job }

func (q *RedisQueue) ensureGroup(ctx context.Context) error {
	err := q.c.XGroupCreateMkStream(ctx, q.tasksKey(), consumerGroup, "0").Err()
	if err != nil && !strings.HasPrefix(err.Error(), "BUSYGROUP") {
		return fmt.Errorf("redis %s: %w", q.opt.Server, err)
	}
	return nil
}

// keepAround is how long a job's results and withdrawals outlive a controller that died
// before Finish.
const keepAround = time.Hour

func (q *RedisQueue) Submit(ctx context.Context, tasks []Task) error {
	if len(tasks) == 0 {
		return nil
	}
	cmds := make([]*redis.StringCmd, len(tasks))
	_, err := q.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, t := range tasks {
			b, _ := json.Marshal(t)
			cmds[i] = p.XAdd(ctx, &redis.XAddArgs{Stream: q.tasksKey(), Values: []any{"t", b}})
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("redis %s: submit: %w", q.opt.Server, err)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	for i, t := range tasks {
		m := q.msgs[t.Job]
		if m == nil {
			m = map[int]string{}
			q.msgs[t.Job] = m
		}
		m[t.ID] = cmds[i].Val()
	}
	return nil
}

func (q *RedisQueue) Cancel(ctx context.Context, job string, ids []int) error {
	if len(ids) == 0 {
		return nil
	}
	members := make([]any, len(ids))
	var msgIDs []string
	q.mu.Lock()
	for i, id := range ids {
		members[i] = strconv.Itoa(id)
		if m, ok := q.msgs[job][id]; ok {
			msgIDs = append(msgIDs, m)
			delete(q.msgs[job], id)
		}
	}
	q.mu.Unlock()
	_, err := q.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.SAdd(ctx, q.cancelKey(job), members...)
		p.Expire(ctx, q.cancelKey(job), keepAround)
		if len(msgIDs) > 0 {
			p.XDel(ctx, q.tasksKey(), msgIDs...)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("redis %s: cancel: %w", q.opt.Server, err)
	}
	return nil
}

func (q *RedisQueue) Results(ctx context.Context, job string, wait time.Duration) ([]Result, error) {
	q.mu.Lock()
	last := q.lastRead[job]
	q.mu.Unlock()
	if last == "" {
		last = "0"
	}
	streams, err := q.c.XRead(ctx, &redis.XReadArgs{Streams: []string{q.resultsKey(job), last}, Count: 256, Block: max(wait, time.Millisecond)}).Result()
	if err == redis.Nil {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("redis %s: results: %w", q.opt.Server, err)
	}
	var out []Result
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, s := range streams {
		for _, m := range s.Messages {
			q.lastRead[job] = m.ID
			var r Result
			if v, ok := m.Values["r"].(string); !ok || json.Unmarshal([]byte(v), &r) != nil {
				continue
			}
			delete(q.msgs[job], r.ID)
			out = append(out, r)
		}
	}
	return out, nil
}

func (q *RedisQueue) Finish(ctx context.Context, job string) error {
	q.mu.Lock()
	var msgIDs []string
	for _, m := range q.msgs[job] {
		msgIDs = append(msgIDs, m)
	}
	delete(q.msgs, job)
	delete(q.lastRead, job)
	q.mu.Unlock()
	_, err := q.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.SAdd(ctx, q.cancelKey(job), "all")
		p.Expire(ctx, q.cancelKey(job), keepAround)
		if len(msgIDs) > 0 {
			p.XDel(ctx, q.tasksKey(), msgIDs...)
		}
		p.Del(ctx, q.resultsKey(job))
		return nil
	})
	if err != nil {
		return fmt.Errorf("redis %s: finish: %w", q.opt.Server, err)
	}
	return nil
}

func (q *RedisQueue) Next(ctx context.Context, worker string, wait time.Duration) (*Delivery, error) {
	start := time.Now()
	// A task whose worker stopped extending it comes first; the scan costs a round trip, so
	// it is made only a few times per visibility timeout.
	q.mu.Lock()
	claim := start.Sub(q.lastClaim) >= q.opt.Visibility/4
	if claim {
		q.lastClaim = start
	}
	q.mu.Unlock()
	if claim {
		msgs, _, err := q.c.XAutoClaim(ctx, &redis.XAutoClaimArgs{Stream: q.tasksKey(), Group: consumerGroup, MinIdle: q.opt.Visibility, Start: "0-0", Count: 1, Consumer: worker}).Result()
		if err != nil && q.noGroup(ctx, err) != nil {
			return nil, fmt.Errorf("redis %s: claim: %w", q.opt.Server, err)
		}
		if d := q.delivery(msgs, worker); d != nil {
			d.Reclaimed = true
			d.Fetch = time.Since(start)
			return d, nil
		}
	}
	d, err := q.read(ctx, worker, -1)
	if d != nil || err != nil {
		if d != nil {
			d.Fetch = time.Since(start)
		}
		return d, err
	}
	idle := time.Now()
	d, err = q.read(ctx, worker, wait)
	if d != nil {
		d.Fetch = idle.Sub(start)
		d.Idle = time.Since(idle)
	}
	return d, err
}

// read reads one new task of the group, blocking up to block (negative: not at all).
func (q *RedisQueue) read(ctx context.Context, worker string, block time.Duration) (*Delivery, error) {
	if block == 0 {
		block = time.Millisecond // 0 would block for ever
	}
	streams, err := q.c.XReadGroup(ctx, &redis.XReadGroupArgs{Group: consumerGroup, Consumer: worker, Streams: []string{q.tasksKey(), ">"}, Count: 1, Block: block}).Result()
	if err == redis.Nil {
		return nil, nil
	}
	if err != nil {
		if q.noGroup(ctx, err) == nil {
			return nil, nil
		}
		return nil, fmt.Errorf("redis %s: read: %w", q.opt.Server, err)
	}
	for _, s := range streams {
		if d := q.delivery(s.Messages, worker); d != nil {
			return d, nil
		}
	}
	return nil, nil
}

// noGroup makes the consumer group again when err says it is gone (the server restarted
// without its data, or someone flushed it); it returns err otherwise.
func (q *RedisQueue) noGroup(ctx context.Context, err error) error {
	if !strings.HasPrefix(err.Error(), "NOGROUP") {
		return err
	}
	return q.ensureGroup(ctx)
}

func (q *RedisQueue) delivery(msgs []redis.XMessage, worker string) *Delivery {
	for _, m := range msgs {
		var t Task
		v, ok := m.Values["t"].(string)
		if !ok || json.Unmarshal([]byte(v), &t) != nil {
			continue
		}
		return &Delivery{Task: t, msgID: m.ID, worker: worker}
	}
	return nil
}

func (q *RedisQueue) Extend(ctx context.Context, d *Delivery) (bool, error) {
	var cancelled *redis.BoolSliceCmd
	_, err := q.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.XClaimJustID(ctx, &redis.XClaimArgs{Stream: q.tasksKey(), Group: consumerGroup, Consumer: d.worker, MinIdle: 0, Messages: []string{d.msgID}})
		cancelled = p.SMIsMember(ctx, q.cancelKey(d.Task.Job), strconv.Itoa(d.Task.ID), "all")
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("redis %s: extend: %w", q.opt.Server, err)
	}
	for _, c := range cancelled.Val() {
		if c {
			return true, nil
		}
	}
	return false, nil
}

func (q *RedisQueue) Complete(ctx context.Context, d *Delivery, r Result) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = q.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XAdd(ctx, &redis.XAddArgs{Stream: q.resultsKey(d.Task.Job), Values: []any{"r", b}})
		p.Expire(ctx, q.resultsKey(d.Task.Job), keepAround)
		p.XAck(ctx, q.tasksKey(), consumerGroup, d.msgID)
		p.XDel(ctx, q.tasksKey(), d.msgID)
		return nil
	})
	if err != nil {
		return fmt.Errorf("redis %s: complete: %w", q.opt.Server, err)
	}
	return nil
}

func (q *RedisQueue) Release(ctx context.Context, d *Delivery) error {
	b, _ := json.Marshal(d.Task)
	_, err := q.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XAdd(ctx, &redis.XAddArgs{Stream: q.tasksKey(), Values: []any{"t", b}})
		p.XAck(ctx, q.tasksKey(), consumerGroup, d.msgID)
		p.XDel(ctx, q.tasksKey(), d.msgID)
		return nil
	})
	if err != nil {
		return fmt.Errorf("redis %s: release: %w", q.opt.Server, err)
	}
	return nil
}
