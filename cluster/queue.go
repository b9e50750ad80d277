package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
	// The controller's engine build and weights (BuildID, WeightsID): a worker that runs
	// another refuses the task.
	Build   string `json:"v"`
	Weights string `json:"e"`
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
	// The worker's build and weights; Refused says why it did not take the task (another
	// build or weights: the task went back to the queue), Failed why it gave up on it (the
	// worker's time limit): the controller uses neither as an answer.
	Build   string `json:"bv"`
	Weights string `json:"bw"`
	Refused string `json:"rf,omitempty"`
	Failed  string `json:"gf,omitempty"`

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
// What a Queue hands out has been parsed and, with a cluster key, authenticated; entries
// that fail are dropped from the server and counted. RedisQueue is the implementation.
type Queue interface {
	// Start opens a job: its results are kept, its tasks solved, until Finish.
	Start(ctx context.Context, job string) error
	// Alive reports whether the server still holds the job and the task queue; when it does
	// not (a restart without persistence, a flush), it opens them again and reports false:
	// the tasks out are lost and must be submitted again.
	Alive(ctx context.Context, job string) (bool, error)
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
	// been withdrawn (or its job is over).
	Extend(ctx context.Context, d *Delivery) (cancelled bool, err error)
	// Complete posts the result of d and removes the task.
	Complete(ctx context.Context, d *Delivery, r Result) error
	// Release gives d back unsolved, for another worker.
	Release(ctx context.Context, d *Delivery) error
	// Refuse gives d back for another worker and posts r, the reason, to its controller.
	Refuse(ctx context.Context, d *Delivery, r Result) error
	// Drop removes a task the worker will not solve (out of its bounds).
	Drop(ctx context.Context, d *Delivery) error
	// Dropped counts the entries dropped so far: malformed, unsigned, or of another job.
	Dropped() uint64
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
	// Key signs the tasks and results and authenticates those read (nil: none, and no
	// protection against anyone who can write to the server).
	Key *Key
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
	// Logf, when set, gets a line per dropped entry (the first ones, then one in 1000) and
	// the warning that the eviction policy could not be read.
	Logf func(format string, args ...any)
}

// RedisQueue is the Queue on a Redis server: the tasks are a stream read by the consumer
// group of the workers (XREADGROUP), each task stays in the group's pending list until its
// worker acknowledges it with its result, and a worker that finds a pending task idle for
// longer than the visibility timeout claims it (XAUTOCLAIM). Each job has a key that says it
// is running, its results are a stream of their own that the controller reads (XREAD), and
// its withdrawn tasks a set. None of these keys has a TTL, so that an eviction policy
// volatile-* never takes them (the global table's entries have one); a server whose policy
// is allkeys-* is refused.
type RedisQueue struct {
	c   *redis.Client
	opt QueueOptions
	ns  string

	mu        sync.Mutex
	msgs      map[string]map[int]string // job -> task id -> stream id of tasks not known done
	lastRead  map[string]string         // job -> last result stream id read
	lastClaim time.Time
	dropped   atomic.Uint64
}

const consumerGroup = "workers"

// NewRedisQueue connects to the server, checks its eviction policy and makes the consumer
// group if need be.
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
	if err := q.checkEviction(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return q, nil
}

// checkEviction refuses a server that may evict any key when its memory is full: the task
// queue would go with the table's entries.
func (q *RedisQueue) checkEviction(ctx context.Context) error {
	info, err := q.c.Info(ctx, "memory").Result()
	if err != nil {
		if strings.HasPrefix(err.Error(), "NOPERM") {
			q.logf("redis %s: cannot read maxmemory-policy (INFO not allowed to this user): it must be noeviction or volatile-*", q.opt.Server)
			return nil
		}
		return fmt.Errorf("redis %s: %w", q.opt.Server, err)
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "maxmemory_policy:"); ok && strings.HasPrefix(v, "allkeys-") {
			return fmt.Errorf("redis %s: maxmemory-policy %s may evict the task queue: set it to volatile-lru (the global table's entries have a TTL, the queue's keys none) or noeviction (docs/distributed.md)", q.opt.Server, v)
		}
	}
	return nil
}

func (q *RedisQueue) logf(format string, args ...any) {
	if q.opt.Logf != nil {
		q.opt.Logf(format, args...)
	}
}

// drop counts a dropped entry and logs the first ones, then one in 1000.
func (q *RedisQueue) drop(format string, args ...any) {
	if n := q.dropped.Add(1); n <= 10 || n%1000 == 0 {
		q.logf("redis %s: entry dropped (%d so far): "+format, append([]any{q.opt.Server, n}, args...)...)
	}
}

// Dropped counts the entries dropped: tasks or results malformed, unsigned, or of another
// job.
func (q *RedisQueue) Dropped() uint64 { return q.dropped.Load() }

// Close closes the connection.
func (q *RedisQueue) Close() error { return q.c.Close() }

// Visibility is the queue's visibility timeout.
func (q *RedisQueue) Visibility() time.Duration { return q.opt.Visibility }

func (q *RedisQueue) tasksKey() string             { return q.ns + ":tasks" }
func (q *RedisQueue) resultsKey(job string) string { return q.ns + ":results:" + job }
func (q *RedisQueue) cancelKey(job string) string  { return q.ns + ":cancel:" + job }
func (q *RedisQueue) jobKey(job string) string     { return q.ns + ":job:" + job }

func (q *RedisQueue) ensureGroup(ctx context.Context) error {
	err := q.c.XGroupCreateMkStream(ctx, q.tasksKey(), consumerGroup, "0").Err()
	if err != nil && !strings.HasPrefix(err.Error(), "BUSYGROUP") {
		return fmt.Errorf("redis %s: %w", q.opt.Server, err)
	}
	return nil
}

// sign returns the MAC of a message of the domain ("" without a key).
func (q *RedisQueue) sign(domain byte, msg []byte) string {
	if q.opt.Key == nil {
		return ""
	}
	return string(q.opt.Key.mac(nil, domain, msg))
}

// open reads a stream entry's message (field f) and, with a key, checks its MAC (field m).
func (q *RedisQueue) open(m redis.XMessage, f string, domain byte) ([]byte, error) {
	v, ok := m.Values[f].(string)
	if !ok {
		return nil, fmt.Errorf("no field %q", f)
	}
	if q.opt.Key != nil {
		mac, _ := m.Values["m"].(string)
		if !q.opt.Key.verify([]byte(mac), domain, []byte(v)) {
			return nil, errors.New("no valid MAC")
		}
	}
	return []byte(v), nil
}

func (q *RedisQueue) Start(ctx context.Context, job string) error {
	if err := q.c.Set(ctx, q.jobKey(job), 1, 0).Err(); err != nil {
		return fmt.Errorf("redis %s: start: %w", q.opt.Server, err)
	}
	return nil
}

func (q *RedisQueue) Alive(ctx context.Context, job string) (bool, error) {
	n, err := q.c.Exists(ctx, q.jobKey(job), q.tasksKey()).Result()
	if err != nil {
		return false, fmt.Errorf("redis %s: %w", q.opt.Server, err)
	}
	if n == 2 {
		return true, nil
	}
	if err := q.ensureGroup(ctx); err != nil {
		return false, err
	}
	if err := q.Start(ctx, job); err != nil {
		return false, err
	}
	q.mu.Lock()
	q.msgs[job] = map[int]string{}
	q.mu.Unlock()
	return false, nil
}

func (q *RedisQueue) Submit(ctx context.Context, tasks []Task) error {
	if len(tasks) == 0 {
		return nil
	}
	cmds := make([]*redis.StringCmd, len(tasks))
	_, err := q.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, t := range tasks {
			b, _ := json.Marshal(t)
			cmds[i] = p.XAdd(ctx, &redis.XAddArgs{Stream: q.tasksKey(), Values: []any{"t", b, "m", q.sign(macTask, b)}})
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
			b, err := q.open(m, "r", macResult)
			var r Result
			if err == nil {
				err = json.Unmarshal(b, &r)
			}
			if err == nil && r.Job != job {
				err = errors.New("a result of another job")
			}
			if err != nil {
				q.drop("result %s of job %s: %v", m.ID, job, err)
				continue
			}
			if !r.Cancelled && r.Refused == "" {
				delete(q.msgs[job], r.ID)
			}
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
		p.Del(ctx, q.jobKey(job), q.cancelKey(job), q.resultsKey(job))
		if len(msgIDs) > 0 {
			p.XDel(ctx, q.tasksKey(), msgIDs...)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("redis %s: finish: %w", q.opt.Server, err)
	}
	return nil
}

// maxClaimScan bounds the pending entries one claim looks through (malformed ones are
// dropped on the way).
const maxClaimScan = 64

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
		cursor := "0-0"
		for scanned := 0; scanned < maxClaimScan; {
			msgs, next, err := q.c.XAutoClaim(ctx, &redis.XAutoClaimArgs{Stream: q.tasksKey(), Group: consumerGroup, MinIdle: q.opt.Visibility, Start: cursor, Count: 8, Consumer: worker}).Result()
			if err != nil {
				if q.noGroup(ctx, err) != nil {
					return nil, fmt.Errorf("redis %s: claim: %w", q.opt.Server, err)
				}
				break
			}
			if d := q.delivery(ctx, msgs, worker); d != nil {
				d.Reclaimed = true
				d.Fetch = time.Since(start)
				return d, nil
			}
			scanned += len(msgs)
			if next == "0-0" || len(msgs) == 0 {
				break
			}
			cursor = next
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

// read reads new tasks of the group, blocking up to block (negative: not at all), until a
// good one comes or none is left.
func (q *RedisQueue) read(ctx context.Context, worker string, block time.Duration) (*Delivery, error) {
	if block == 0 {
		block = time.Millisecond // 0 would block for ever
	}
	for {
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
		n := 0
		for _, s := range streams {
			n += len(s.Messages)
			if d := q.delivery(ctx, s.Messages, worker); d != nil {
				return d, nil
			}
		}
		if n == 0 {
			return nil, nil
		}
		block = -1 // what was waiting was dropped: look again, without blocking
	}
}

// noGroup makes the consumer group again when err says it is gone (the server restarted
// without its data, or someone flushed it); it returns err otherwise.
func (q *RedisQueue) noGroup(ctx context.Context, err error) error {
	if !strings.HasPrefix(err.Error(), "NOGROUP") {
		return err
	}
	return q.ensureGroup(ctx)
}

// delivery returns the first good task of msgs; the malformed or unsigned ones before it
// are acknowledged and deleted, so that no worker claims them again.
func (q *RedisQueue) delivery(ctx context.Context, msgs []redis.XMessage, worker string) *Delivery {
	for _, m := range msgs {
		b, err := q.open(m, "t", macTask)
		var t Task
		if err == nil {
			err = json.Unmarshal(b, &t)
		}
		if err != nil {
			q.drop("task %s: %v", m.ID, err)
			q.remove(ctx, m.ID)
			continue
		}
		return &Delivery{Task: t, msgID: m.ID, worker: worker}
	}
	return nil
}

// remove acknowledges and deletes a task entry; a failure leaves it for a later claim.
func (q *RedisQueue) remove(ctx context.Context, msgID string) error {
	_, err := q.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.XAck(ctx, q.tasksKey(), consumerGroup, msgID)
		p.XDel(ctx, q.tasksKey(), msgID)
		return nil
	})
	return err
}

func (q *RedisQueue) Drop(ctx context.Context, d *Delivery) error {
	q.drop("task %s/%d out of bounds", d.Task.Job, d.Task.ID)
	if err := q.remove(ctx, d.msgID); err != nil {
		return fmt.Errorf("redis %s: drop: %w", q.opt.Server, err)
	}
	return nil
}

func (q *RedisQueue) Extend(ctx context.Context, d *Delivery) (bool, error) {
	var cancelled *redis.BoolSliceCmd
	var job *redis.IntCmd
	_, err := q.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.XClaimJustID(ctx, &redis.XClaimArgs{Stream: q.tasksKey(), Group: consumerGroup, Consumer: d.worker, MinIdle: 0, Messages: []string{d.msgID}})
		cancelled = p.SMIsMember(ctx, q.cancelKey(d.Task.Job), strconv.Itoa(d.Task.ID))
		job = p.Exists(ctx, q.jobKey(d.Task.Job))
		return nil
	})
	// The claim fails when the group is gone (a restart): the job's answer says the rest.
	if err != nil && (cancelled.Err() != nil || job.Err() != nil) {
		return false, fmt.Errorf("redis %s: extend: %w", q.opt.Server, err)
	}
	if job.Val() == 0 {
		return true, nil
	}
	for _, c := range cancelled.Val() {
		if c {
			return true, nil
		}
	}
	return false, nil
}

// completeScript posts a result, if its job is still running, and removes its task.
var completeScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('XADD', KEYS[2], '*', 'r', ARGV[1], 'm', ARGV[2])
end
redis.pcall('XACK', KEYS[3], ARGV[4], ARGV[3])
redis.call('XDEL', KEYS[3], ARGV[3])
if ARGV[5] ~= '' then
  redis.call('XADD', KEYS[3], '*', 't', ARGV[5], 'm', ARGV[6])
end
return 1
`)

func (q *RedisQueue) post(ctx context.Context, d *Delivery, r *Result, again bool) error {
	var b []byte
	if r != nil {
		var err error
		if b, err = json.Marshal(r); err != nil {
			return err
		}
	}
	var t []byte
	if again {
		t, _ = json.Marshal(d.Task)
	}
	job := d.Task.Job
	keys := []string{q.jobKey(job), q.resultsKey(job), q.tasksKey()}
	if r == nil {
		keys[0] = q.ns + ":nojob" // no result to post
	}
	return completeScript.Run(ctx, q.c, keys, b, q.sign(macResult, b), d.msgID, consumerGroup, t, q.sign(macTask, t)).Err()
}

func (q *RedisQueue) Complete(ctx context.Context, d *Delivery, r Result) error {
	if err := q.post(ctx, d, &r, false); err != nil {
		return fmt.Errorf("redis %s: complete: %w", q.opt.Server, err)
	}
	return nil
}

func (q *RedisQueue) Release(ctx context.Context, d *Delivery) error {
	if err := q.post(ctx, d, nil, true); err != nil {
		return fmt.Errorf("redis %s: release: %w", q.opt.Server, err)
	}
	return nil
}

func (q *RedisQueue) Refuse(ctx context.Context, d *Delivery, r Result) error {
	if err := q.post(ctx, d, &r, true); err != nil {
		return fmt.Errorf("redis %s: refuse: %w", q.opt.Server, err)
	}
	return nil
}
