package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math/bits"
	"sort"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
)

// Split is how the controller divides a position into tasks.
type Split int

const (
	// PVSplit searches the principal variation first, down PVDepth plies, and then tests the
	// other moves of each node on it with null windows, in parallel.
	PVSplit Split = iota
	// TreeSplit makes every move of the root a task with the full window (the paper's
	// Tree-Splitting, for comparison).
	TreeSplit
)

// ParseSplit reads "pvsplit" or "tree".
func ParseSplit(s string) (Split, error) {
	switch s {
	case "pvsplit", "pv":
		return PVSplit, nil
	case "tree":
		return TreeSplit, nil
	}
	return 0, fmt.Errorf("split %q: want pvsplit or tree", s)
}

func (s Split) String() string {
	if s == TreeSplit {
		return "tree"
	}
	return "pvsplit"
}

// ControllerOptions configure a Controller.
type ControllerOptions struct {
	Split Split
	// PVDepth is the number of plies of the principal variation that are split (0: 4). A
	// node on it is split only while its moves leave at least TaskEmpties empties.
	PVDepth     int
	TaskEmpties int // 0: 16
	// Strict waits, as the paper's PVSplit does, until a node of the principal variation is
	// solved before its parent's other moves are handed out. Otherwise (the default) they
	// are handed out as soon as the principal variation's first task has returned, with the
	// value it predicts for every node above it, and tested again in the rare case that the
	// prediction fails: the workers do not wait at each level.
	Strict bool
	// Eval orders the moves of the nodes the controller splits (nil: mobility);
	// OrderDepth is the depth of that search (0: 4).
	Eval       *eval.Evaluator
	OrderDepth int
	// Wait is how long one read of results blocks (0: 200 ms).
	Wait time.Duration
	// GiveUp: Solve fails when the queue has failed for this long without a break (0: 30 s).
	GiveUp time.Duration
	// Stall, when positive, makes Solve fail when no result has come for this long while
	// tasks are out (no worker running).
	Stall time.Duration
	// Logf, when set, gets a line per queue failure and per stall.
	Logf func(format string, args ...any)
}

// Controller is the paper's Controller: it splits a position into tasks, hands them to the
// workers through the queue and combines their results into the exact score.
type Controller struct {
	q   Queue
	opt ControllerOptions
}

// NewController returns a controller on q.
func NewController(q Queue, opt ControllerOptions) *Controller {
	if opt.PVDepth <= 0 {
		opt.PVDepth = 4
	}
	if opt.TaskEmpties <= 0 {
		opt.TaskEmpties = 16
	}
	if opt.OrderDepth <= 0 {
		opt.OrderDepth = 4
	}
	if opt.Wait <= 0 {
		opt.Wait = 200 * time.Millisecond
	}
	if opt.GiveUp <= 0 {
		opt.GiveUp = 30 * time.Second
	}
	return &Controller{q: q, opt: opt}
}

// Outcome is the result of a distributed solve.
type Outcome struct {
	// Score is the exact final disc difference for the side to move when it lies inside the
	// window, else a bound (fail-soft, as endgame.SolveResult).
	Score int
	Move  board.Square // board.NoSquare for a pass or a finished game
	// PV is the principal variation as far as the tasks' results give it (a task proven by
	// two null windows gives none).
	PV []board.Square
	Stats
}

// Stats count a solve's tasks and sum the workers' times, for the paper's overheads.
type Stats struct {
	Wall       time.Duration
	Tasks      int // tasks handed out
	Results    int // results used (duplicates and withdrawn tasks not counted)
	Withdrawn  int // tasks withdrawn by the controller
	Duplicates int // results of tasks solved twice (a worker was thought dead)
	Reclaimed  int // results of tasks taken over from a worker that stopped answering
	FromTable  int // tasks the global table answered without search
	Workers    int // distinct workers that answered
	Nodes      uint64
	// The workers' times, summed: solving (with the probes), waiting for global table
	// probes, fetching tasks that were waiting, posting results (CO), and blocked with no
	// task (part of SY).
	Search, Probe, Fetch, Post, Idle time.Duration
	Probes, Hits                     uint64
	// Queue is the controller's own time in queue calls other than waiting for results.
	Queue time.Duration
}

// Add adds the counts of t to s (totals over positions).
func (s *Stats) Add(t Stats) {
	s.Wall += t.Wall
	s.Tasks += t.Tasks
	s.Results += t.Results
	s.Withdrawn += t.Withdrawn
	s.Duplicates += t.Duplicates
	s.Reclaimed += t.Reclaimed
	s.FromTable += t.FromTable
	s.Workers = max(s.Workers, t.Workers)
	s.Nodes += t.Nodes
	s.Search += t.Search
	s.Probe += t.Probe
	s.Fetch += t.Fetch
	s.Post += t.Post
	s.Idle += t.Idle
	s.Probes += t.Probes
	s.Hits += t.Hits
	s.Queue += t.Queue
}

// Comm is the communication time of the paper's CO: the workers' time in the table's probes
// and in the round trips between two tasks.
func (s Stats) Comm() time.Duration { return s.Probe + s.Fetch + s.Post }

// node is a position of the controller's tree: the root, the nodes of the principal
// variation it splits (internal: kids) and their moves (leaves: solved by tasks). lo and hi
// bound its exact value from the side to move's view.
type node struct {
	p, o   uint64
	move   board.Square // the move from the parent (board.NoSquare: a pass)
	parent *node
	kids   []*node
	lo, hi int
	known  bool   // a task has answered (leaves)
	task   *task  // the task out for it (leaves)
	pv     []int  // a full-window result's principal variation (leaves)
	end    bool   // the game is over here
	empty  uint64 // its empty squares
}

type task struct {
	id          int
	n           *node
	alpha, beta int
	needed      bool // seen by the last scheduling pass
	withdrawn   bool
	done        bool
}

// solve is the state of one Solve.
type solve struct {
	c       *Controller
	ctx     context.Context
	job     string
	tasks   []*task
	out     []*task // tasks handed out and not answered
	pending []*task // made by the scheduling pass, to hand out
	workers map[string]bool
	st      Stats
}

// Solve returns the score of p to move against o within (alpha, beta), fail-soft; with
// (-64, 64) the exact score.
func (c *Controller) Solve(ctx context.Context, p, o uint64, alpha, beta int) (Outcome, error) {
	start := time.Now()
	var id [8]byte
	rand.Read(id[:])
	s := &solve{c: c, ctx: ctx, job: hex.EncodeToString(id[:]), workers: map[string]bool{}}
	// Scores lie in [-64, 64]: a window reaching either end is opened by one so that the
	// extreme scores are exact (as endgame.Solver.Solve).
	if alpha <= -64 {
		alpha = -65
	}
	if beta >= 64 {
		beta = 65
	}
	if alpha >= beta {
		alpha = beta - 1
	}
	root := &node{p: p, o: o, move: board.NoSquare, lo: -64, hi: 64}
	s.expand(root, 0)
	err := s.run(root, alpha, beta)
	fctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	if ferr := c.q.Finish(fctx, s.job); ferr != nil && err == nil {
		c.logf("%v", ferr)
	}
	cancel()
	s.st.Wall = time.Since(start)
	s.st.Workers = len(s.workers)
	out := Outcome{Stats: s.st, Move: board.NoSquare}
	if err != nil {
		return out, err
	}
	out.Score = root.lo
	if root.hi <= alpha {
		out.Score = root.hi
	}
	out.Move, out.PV = bestLine(root)
	return out, nil
}

func (c *Controller) logf(format string, args ...any) {
	if c.opt.Logf != nil {
		c.opt.Logf(format, args...)
	}
}

// expand gives n its moves, best first; the first is expanded in turn while PVSplit goes
// deeper.
func (s *solve) expand(n *node, ply int) {
	n.empty = ^(n.p | n.o)
	moves := board.LegalMoves(n.p, n.o)
	if moves == 0 {
		if board.LegalMoves(n.o, n.p) == 0 {
			n.end, n.known = true, true
			n.lo = board.DiscDiff(n.p, n.o)
			n.hi = n.lo
			return
		}
		kid := &node{p: n.o, o: n.p, move: board.NoSquare, parent: n, lo: -64, hi: 64}
		n.kids = []*node{kid}
		s.expand(kid, ply)
		n.update()
		return
	}
	for _, sq := range orderMoves(s.c.opt.Eval, n.p, n.o, s.c.opt.OrderDepth) {
		f := board.Flips(n.p, n.o, sq)
		kid := &node{p: n.o ^ f, o: n.p | f | 1<<uint(sq), move: sq, parent: n, lo: -64, hi: 64}
		kid.empty = ^(kid.p | kid.o)
		n.kids = append(n.kids, kid)
	}
	first := n.kids[0]
	if s.c.opt.Split == PVSplit && ply+1 < s.c.opt.PVDepth && bits.OnesCount64(first.empty)-1 >= s.c.opt.TaskEmpties {
		s.expand(first, ply+1)
	}
	n.update()
}

// update recomputes an inner node's bounds from its moves'.
func (n *node) update() {
	if len(n.kids) == 0 {
		return
	}
	n.lo, n.hi = -65, -65
	for _, k := range n.kids {
		n.lo, n.hi = max(n.lo, -k.hi), max(n.hi, -k.lo)
	}
}

// settled reports whether n's bounds decide its fail-soft value for the window.
func (n *node) settled(alpha, beta int) bool { return n.lo >= beta || n.hi <= alpha || n.lo == n.hi }

// expected is the value n will have if the tests still to come confirm what the answered
// tasks predict; false until the principal variation's first task has answered.
func (n *node) expected() (int, bool) {
	if len(n.kids) == 0 {
		if !n.known {
			return 0, false
		}
		if n.lo > -64 {
			return n.lo, true
		}
		return n.hi, true
	}
	e, ok := n.kids[0].expected()
	if !ok {
		return 0, false
	}
	return max(-e, n.lo), true
}

// schedule makes the tasks that n needs for the window (alpha, beta) and marks those
// already out that it still needs.
func (s *solve) schedule(n *node, alpha, beta int) {
	if n.settled(alpha, beta) {
		return
	}
	if len(n.kids) == 0 {
		if n.task != nil {
			n.task.needed = true
			return
		}
		s.newTask(n, max(alpha, n.lo-1), min(beta, n.hi+1))
		return
	}
	a := max(alpha, n.lo)
	if s.c.opt.Split == TreeSplit {
		for _, k := range n.kids {
			if -k.lo > a {
				s.schedule(k, -beta, -a)
			}
		}
		return
	}
	first := n.kids[0]
	if -first.lo > a {
		s.schedule(first, -beta, -a)
	}
	if len(n.kids) == 1 {
		return
	}
	sib := a
	if s.c.opt.Strict {
		if !first.settled(-beta, -a) {
			return
		}
	} else {
		e, ok := first.expected()
		if !ok || -e >= beta {
			return // no prediction yet, or a cutoff predicted
		}
		sib = max(a, -e)
	}
	for _, k := range n.kids[1:] {
		if -k.lo <= sib {
			continue
		}
		if -k.hi >= sib && k.known {
			// It failed high at this level before: its exact value, with the full window.
			s.schedule(k, -beta, -sib)
		} else {
			s.schedule(k, -sib-1, -sib)
		}
	}
}

func (s *solve) newTask(n *node, alpha, beta int) {
	t := &task{id: len(s.tasks), n: n, alpha: alpha, beta: beta, needed: true}
	s.tasks = append(s.tasks, t)
	s.pending = append(s.pending, t)
	n.task = t
}

// run hands out tasks and takes results until the root is settled.
func (s *solve) run(root *node, alpha, beta int) error {
	if err := s.step(root, alpha, beta); err != nil {
		return err
	}
	var failing time.Time
	last := time.Now()
	for !root.settled(alpha, beta) {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		rs, err := s.c.q.Results(s.ctx, s.job, s.c.opt.Wait)
		if err != nil {
			if s.ctx.Err() != nil {
				return s.ctx.Err()
			}
			if failing.IsZero() {
				failing = time.Now()
			}
			if time.Since(failing) >= s.c.opt.GiveUp {
				return err
			}
			s.c.logf("%v (retrying)", err)
			time.Sleep(200 * time.Millisecond)
			continue
		}
		failing = time.Time{}
		if len(rs) == 0 {
			if s.c.opt.Stall > 0 && time.Since(last) >= s.c.opt.Stall {
				return fmt.Errorf("no result for %v with %d task(s) out: are the workers running?", s.c.opt.Stall, len(s.out))
			}
			continue
		}
		last = time.Now()
		for _, r := range rs {
			s.take(r)
		}
		if err := s.step(root, alpha, beta); err != nil {
			return err
		}
	}
	return nil
}

// step schedules from the root, hands out the new tasks, biggest first, and withdraws the
// tasks out that are no longer needed.
func (s *solve) step(root *node, alpha, beta int) error {
	for _, t := range s.out {
		t.needed = false
	}
	s.pending = s.pending[:0]
	s.schedule(root, alpha, beta)
	var withdraw []int
	keep := s.out[:0]
	for _, t := range s.out {
		if t.needed {
			keep = append(keep, t)
			continue
		}
		t.withdrawn = true
		t.n.task = nil
		withdraw = append(withdraw, t.id)
	}
	s.out = keep
	sort.SliceStable(s.pending, func(i, j int) bool {
		return bits.OnesCount64(s.pending[i].n.empty) > bits.OnesCount64(s.pending[j].n.empty)
	})
	batch := make([]Task, len(s.pending))
	for i, t := range s.pending {
		batch[i] = Task{Job: s.job, ID: t.id, P: t.n.p, O: t.n.o, Alpha: t.alpha, Beta: t.beta}
	}
	s.out = append(s.out, s.pending...)
	s.st.Tasks += len(batch)
	s.st.Withdrawn += len(withdraw)
	start := time.Now()
	defer func() { s.st.Queue += time.Since(start) }()
	if err := retry(s.ctx, s.c.opt.GiveUp, s.c.logf, func() error { return s.c.q.Cancel(s.ctx, s.job, withdraw) }); err != nil {
		return err
	}
	return retry(s.ctx, s.c.opt.GiveUp, s.c.logf, func() error { return s.c.q.Submit(s.ctx, batch) })
}

// retry calls f until it succeeds, ctx ends, or it has failed for giveUp.
func retry(ctx context.Context, giveUp time.Duration, logf func(string, ...any), f func() error) error {
	start := time.Now()
	for {
		err := f()
		if err == nil || ctx.Err() != nil || time.Since(start) >= giveUp {
			return err
		}
		logf("%v (retrying)", err)
		time.Sleep(200 * time.Millisecond)
	}
}

// take applies a worker's result.
func (s *solve) take(r Result) {
	if r.ID < 0 || r.ID >= len(s.tasks) {
		return
	}
	t := s.tasks[r.ID]
	if t.done {
		s.st.Duplicates++
		return
	}
	t.done = true
	s.workers[r.Worker] = true
	s.st.Nodes += r.Nodes
	s.st.Search += r.Search
	s.st.Probe += r.Probe
	s.st.Fetch += r.Fetch
	s.st.Post += r.Post
	s.st.Idle += r.Idle
	s.st.Probes += r.Probes
	s.st.Hits += r.Hits
	if r.Reclaimed {
		s.st.Reclaimed++
	}
	if r.FromTable {
		s.st.FromTable++
	}
	n := t.n
	if n.task == t {
		n.task = nil
	}
	for i, u := range s.out {
		if u == t {
			s.out = append(s.out[:i], s.out[i+1:]...)
			break
		}
	}
	if r.Cancelled {
		return
	}
	s.st.Results++
	// Even a withdrawn task's answer is a true bound.
	n.known = true
	switch {
	case r.Score <= t.alpha:
		n.hi = min(n.hi, r.Score)
	case r.Score >= t.beta:
		n.lo = max(n.lo, r.Score)
	default:
		n.lo, n.hi = r.Score, r.Score
		n.pv = r.PV
	}
	for p := n.parent; p != nil; p = p.parent {
		p.update()
	}
}

// bestLine returns the root's best move and as much of the principal variation as known.
func bestLine(root *node) (board.Square, []board.Square) {
	var pv []board.Square
	n := root
	for len(n.kids) > 0 {
		var best *node
		for _, k := range n.kids {
			if -k.hi == n.lo {
				best = k
				break
			}
		}
		if best == nil {
			break
		}
		pv = append(pv, best.move)
		n = best
	}
	if len(n.kids) == 0 && n.lo == n.hi {
		for _, sq := range n.pv {
			pv = append(pv, board.Square(sq))
		}
	}
	move := board.NoSquare
	if len(pv) > 0 {
		move = pv[0]
	}
	return move, pv
}
