package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/search"
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
	// PVDepth is the number of plies of the principal variation that are split (0: 3;
	// see docs/distributed.md for 2 to 4). A node on it is split only while its moves leave
	// at least TaskEmpties empties.
	PVDepth     int
	TaskEmpties int // 0: 16
	// Strict waits, as the paper's PVSplit does, until a node of the principal variation is
	// solved before its parent's other moves are handed out. Otherwise (the default) they
	// are handed out as soon as the principal variation's first task has returned, with the
	// value it predicts for every node above it, and tested again in the rare case that the
	// prediction fails: the workers do not wait at each level.
	Strict bool
	// Speculate: while the end of the principal variation is solved first, the other
	// workers test the other moves against the value the evaluation predicts for it,
	// instead of waiting as in the paper. Off: on FFO #40-#49 with two workers it searched
	// 34% more nodes and took longer (docs/distributed.md), the guesses being too far off.
	Speculate bool
	// HelpEmpties, when positive: while the end of the principal variation is solved
	// first, the other workers solve its moves but the first with the full window
	// (helpers), when they keep at least this many empties (the workers' -global-empties).
	// Off (0), the other workers wait, as in the paper: on FFO #40-#49 with two workers the
	// helpers cut the waiting from 6.2 s to 2.7 s but added 16% to the nodes, and the time
	// was the same (docs/distributed.md).
	HelpEmpties int
	// NoAspiration solves with the caller's window at once instead of narrow windows first
	// (measurement).
	NoAspiration bool
	// Eval orders the moves of the nodes the controller splits (nil: mobility);
	// OrderDepth is the depth of that search (0: 6; on FFO #40-#44 with one worker, depth 4
	// instead costs 21% more nodes: more first moves that are not the best).
	Eval       *eval.Evaluator
	OrderDepth int
	// Wait is how long one read of results blocks (0: 200 ms).
	Wait time.Duration
	// GiveUp: Solve fails when the queue has failed for this long without a break (0: 30 s).
	GiveUp time.Duration
	// Stall, when positive, makes Solve fail when no result has come for this long while
	// tasks are out (no worker running).
	Stall time.Duration
	// Build and Weights name the engine of the job's tasks (""/"": BuildID() and
	// WeightsID(Eval)); the results of workers that run another are not used.
	Build, Weights string
	// Alive is how often the controller checks that the server still holds its job and
	// the task queue while it waits (0: 1 s); if they are gone, the tasks out are
	// submitted again.
	Alive time.Duration
	// Logf, when set, gets a line per queue failure, stall, dropped result and ignored
	// worker; Debugf a line per window and per result.
	Logf, Debugf func(format string, args ...any)
}

// Controller is the paper's Controller: it splits a position into tasks, hands them to the
// workers through the queue and combines their results into the exact score.
type Controller struct {
	q   Queue
	opt ControllerOptions

	mu      sync.Mutex
	ignored map[string]bool // "worker: reason"
}

// NewController returns a controller on q.
func NewController(q Queue, opt ControllerOptions) *Controller {
	if opt.PVDepth <= 0 {
		opt.PVDepth = 3
	}
	if opt.TaskEmpties <= 0 {
		opt.TaskEmpties = 16
	}
	if opt.OrderDepth <= 0 {
		opt.OrderDepth = 6
	}
	if opt.Wait <= 0 {
		opt.Wait = 200 * time.Millisecond
	}
	if opt.GiveUp <= 0 {
		opt.GiveUp = 30 * time.Second
	}
	if opt.Build == "" {
		opt.Build = BuildID()
	}
	if opt.Weights == "" {
		opt.Weights = WeightsID(opt.Eval)
	}
	if opt.Alive <= 0 {
		opt.Alive = time.Second
	}
	return &Controller{q: q, opt: opt, ignored: map[string]bool{}}
}

// Ignored are the workers whose results a controller did not use (another build or
// weights), each with the reason, sorted.
func (c *Controller) Ignored() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for w := range c.ignored {
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// ignore notes a worker whose results are not used, and logs it the first time.
func (c *Controller) ignore(worker, why string) {
	k := worker + ": " + why
	c.mu.Lock()
	seen := c.ignored[k]
	c.ignored[k] = true
	c.mu.Unlock()
	if !seen {
		c.logf("worker %s ignored: %s", worker, why)
	}
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
	Wall      time.Duration
	Tasks     int // tasks handed out
	Results   int // results used (duplicates and withdrawn tasks not counted)
	Withdrawn int // tasks withdrawn by the controller
	// WithdrawnNodes counts the nodes of withdrawn tasks (in Nodes too): the work that
	// speculation and changed windows wasted.
	WithdrawnNodes uint64
	Windows        int // aspiration windows
	Duplicates     int // results of tasks solved twice (a worker was thought dead)
	Reclaimed      int // results of tasks taken over from a worker that stopped answering
	FromTable      int // tasks the global table answered without search
	// Dropped counts the results not used because they were not true to their task
	// (out of range, an illegal move), Ignored those of workers of another build or
	// weights, Resubmitted the tasks submitted again (lost by the server, or given up by
	// a worker); Lost the times the server had lost the job.
	Dropped, Ignored, Resubmitted, Lost int
	Workers                             int // distinct workers that answered
	Nodes                               uint64
	// The workers' times, summed: solving (with the probes), waiting for global table
	// probes, fetching tasks that were waiting, posting results (CO), and blocked with no
	// task (part of SY).
	Search, Probe, Fetch, Post, Idle time.Duration
	Probes, Hits                     uint64
	// Split is the controller's time making tasks (ordering moves, scheduling) and Queue
	// its time in queue calls other than waiting for results: the paper's T_split.
	Split, Queue time.Duration
}

// Add adds the counts of t to s (totals over positions).
func (s *Stats) Add(t Stats) {
	s.Wall += t.Wall
	s.Tasks += t.Tasks
	s.Results += t.Results
	s.Withdrawn += t.Withdrawn
	s.WithdrawnNodes += t.WithdrawnNodes
	s.Windows += t.Windows
	s.Duplicates += t.Duplicates
	s.Reclaimed += t.Reclaimed
	s.FromTable += t.FromTable
	s.Dropped += t.Dropped
	s.Ignored += t.Ignored
	s.Resubmitted += t.Resubmitted
	s.Lost += t.Lost
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
	s.Split += t.Split
}

// WorkerComm is the workers' part of the paper's communication time, summed over the
// workers: waiting for global table probes (T_TM) and for the round trips between two tasks.
func (s Stats) WorkerComm() time.Duration { return s.Probe + s.Fetch + s.Post }

// ControllerComm is the controller's part (T_split): making tasks and handing them out.
func (s Stats) ControllerComm() time.Duration { return s.Split + s.Queue }

// node is a position of the controller's tree: the root, the nodes of the principal
// variation it splits (inner nodes: kids, their best first) and their other moves (leaves,
// solved by tasks). lo and hi bound its exact value from the side to move's view: the
// bounds its own tasks proved (dlo, dhi) met with those its moves give.
type node struct {
	p, o     uint64
	move     board.Square // the move from the parent (board.NoSquare: a pass)
	parent   *node
	kids     []*node
	lo, hi   int
	dlo, dhi int
	known    bool // a task of its own has answered
	guessed  bool // guess stands for its value until it is known
	guess    int
	task     *task  // its task out
	pv       []int  // a full-window result's principal variation
	empty    uint64 // its empty squares
}

type task struct {
	id          int
	n           *node
	alpha, beta int
	depth, sel  int     // a midgame search task (Controller.Search)
	res         *Result // its answer
	needed      bool    // marked by the last scheduling pass
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
	again   []*task // out, to hand out again (lost, or given back)
	workers map[string]bool
	st      Stats
}

func newNode(p, o uint64, move board.Square, parent *node) *node {
	n := &node{p: p, o: o, move: move, parent: parent, lo: -64, hi: 64, dlo: -64, dhi: 64, empty: ^(p | o)}
	if board.LegalMoves(p, o) == 0 && board.LegalMoves(o, p) == 0 {
		n.dlo = board.DiscDiff(p, o)
		n.dhi, n.lo, n.hi, n.known = n.dlo, n.dlo, n.dlo, true
	}
	return n
}

// Solve returns the score of p to move against o within (alpha, beta), fail-soft; with
// (-64, 64) the exact score.
func (c *Controller) Solve(ctx context.Context, p, o uint64, alpha, beta int) (Outcome, error) {
	start := time.Now()
	s, err := c.newSolve(ctx)
	if err != nil {
		return Outcome{Move: board.NoSquare}, err
	}
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
	root := newNode(p, o, board.NoSquare, nil)
	t0 := time.Now()
	s.expand(root, 0)
	s.st.Split += time.Since(t0)
	score, err := s.aspiration(root, alpha, beta)
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
	out.Score = score
	if root.lo == root.hi {
		out.Move, out.PV = bestLine(root)
	}
	return out, nil
}

func (c *Controller) newSolve(ctx context.Context) (*solve, error) {
	var id [8]byte
	rand.Read(id[:])
	s := &solve{c: c, ctx: ctx, job: hex.EncodeToString(id[:]), workers: map[string]bool{}}
	return s, retry(ctx, c.opt.GiveUp, c.logf, func() error { return c.q.Start(ctx, s.job) })
}

// Search has one worker search b with the limits' depth and selectivity (a midgame search
// task: the worker's search.Engine.Search, as a local search with the same limits would
// run) and returns its result. The depth must be positive: a worker's search has no clock.
func (c *Controller) Search(ctx context.Context, b board.Board, lim search.Limits) (search.Result, Stats, error) {
	if lim.Depth <= 0 || lim.Depth > 60 {
		return search.Result{}, Stats{}, fmt.Errorf("distributed search: depth %d, want 1 to 60", lim.Depth)
	}
	start := time.Now()
	s, err := c.newSolve(ctx)
	if err != nil {
		return search.Result{}, Stats{}, err
	}
	n := newNode(b.P, b.O, board.NoSquare, nil)
	var t *task
	err = s.loop(func() {
		if t != nil && n.task == t {
			t.needed = true
			return
		}
		if t == nil || t.res == nil {
			s.newTask(n, -65, 65)
			t = n.task
			t.depth, t.sel = lim.Depth, lim.Selectivity
		}
	}, func() bool { return t != nil && t.res != nil })
	fctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	if ferr := c.q.Finish(fctx, s.job); ferr != nil && err == nil {
		c.logf("%v", ferr)
	}
	cancel()
	s.st.Wall = time.Since(start)
	s.st.Workers = len(s.workers)
	if err != nil {
		return search.Result{}, s.st, err
	}
	r := t.res
	out := search.Result{Move: board.NoSquare, Info: search.Info{Depth: r.Depth, Selectivity: r.SelPct, Exact: r.Exact, Score: r.Value, Nodes: r.Nodes, Elapsed: s.st.Wall}}
	if r.Move >= 0 {
		out.Move = board.Square(r.Move)
	}
	for _, sq := range r.PV {
		out.PV = append(out.PV, board.Square(sq))
	}
	return out, s.st, nil
}

// aspiration solves the root with narrow windows first, as the solver does at its root
// (endgame.Solver.Solve): close to null windows, every task is nearer a proof, and a first
// move that the controller's shallow ordering got wrong costs little. The first guess is
// the value that the end of the principal variation, solved exactly first (PVSplit's first
// step), predicts; a window that fails moves towards the score, twice as far each time it
// fails on the same side again. After each window the move that proved best at each node
// of the principal variation becomes its first. The tree's bounds carry over from one
// window to the next. It returns the fail-soft value for (alpha, beta).
func (s *solve) aspiration(root *node, alpha, beta int) (int, error) {
	if s.c.opt.NoAspiration || beta-alpha <= 2 || bits.OnesCount64(root.empty) < 12 {
		err := s.run(root, alpha, beta)
		return root.value(alpha, beta), err
	}
	leaf := root
	for len(leaf.kids) > 0 {
		leaf = leaf.kids[0]
	}
	if !leaf.known {
		s.st.Windows++
		s.c.debugf("principal variation's end, full window")
		// The other workers need not wait for it: the evaluation's guess of its value
		// predicts the others' windows, and tests against it are true bounds whatever the
		// value turns out to be (most of them still decide their move).
		spec := s.c.opt.Speculate && !s.c.opt.Strict && s.c.opt.Split == PVSplit && s.c.opt.Eval != nil
		if spec {
			leaf.guess, leaf.guessed = s.guess(leaf), true
		}
		helpers := s.helpers(leaf)
		err := s.loop(func() {
			if leaf.task != nil {
				leaf.task.needed = true
			} else if !leaf.known {
				s.newTask(leaf, -65, 65)
			}
			for _, h := range helpers {
				switch {
				case h.task != nil:
					h.task.needed = true
				case !h.known:
					s.newTask(h, -65, 65)
				}
			}
			if e, ok := root.expected(); spec && ok && !leaf.known {
				s.schedule(root, max(alpha, e-1), min(beta, e+1))
			}
		}, func() bool { return leaf.known })
		leaf.guessed = false
		if err != nil {
			return 0, err
		}
	}
	guess := 0
	if e, ok := root.expected(); ok {
		guess = e
	}
	guess = min(max(guess, alpha+1), beta-1)
	lo, hi := max(alpha, guess-1), min(beta, guess+1)
	step, side := 2, 0
	for {
		if err := s.run(root, lo, hi); err != nil {
			return 0, err
		}
		v := root.value(lo, hi)
		if (v > lo && v < hi) || v <= alpha || v >= beta || root.lo == root.hi {
			return root.value(alpha, beta), nil
		}
		t0 := time.Now()
		s.reroot(root)
		s.st.Split += time.Since(t0)
		if v <= lo {
			if side == -1 {
				step *= 2
			}
			side = -1
			lo, hi = max(alpha, min(v, root.hi)-step-1), min(beta, v+1)
		} else {
			if side == 1 {
				step *= 2
			}
			side = 1
			lo, hi = max(alpha, v-1), min(beta, max(v, root.lo)+step+1)
		}
	}
}

// helpers are the positions the other workers solve while the end of the principal
// variation, leaf, is solved first: its moves but the first, the last first, each a solve
// with the full window whose result goes to the global table, where the worker solving leaf
// finds it when its search comes to that move (the moves keep enough empties for the
// workers to ask the table: HelpEmpties). They are outside the tree: when the first step
// ends, those still out are withdrawn.
func (s *solve) helpers(leaf *node) []*node {
	if s.c.opt.HelpEmpties <= 0 || s.c.opt.Split != PVSplit || bits.OnesCount64(leaf.empty)-1 < s.c.opt.HelpEmpties {
		return nil
	}
	t0 := time.Now()
	defer func() { s.st.Split += time.Since(t0) }()
	if board.LegalMoves(leaf.p, leaf.o) == 0 {
		return nil
	}
	moves := orderMoves(s.c.opt.Eval, leaf.p, leaf.o, s.c.opt.OrderDepth)
	var out []*node
	for i := len(moves) - 1; i >= 1; i-- {
		f := board.Flips(leaf.p, leaf.o, moves[i])
		out = append(out, newNode(leaf.o^f, leaf.p|f|1<<uint(moves[i]), moves[i], nil))
	}
	return out
}

// guess is the value of n that a shallow search of the evaluation predicts, in discs.
func (s *solve) guess(n *node) int {
	t0 := time.Now()
	defer func() { s.st.Split += time.Since(t0) }()
	b := board.FromColors(n.p, n.o, true)
	v := shallow(s.c.opt.Eval, &b, -1<<30, 1<<30, s.c.opt.OrderDepth)
	return min(max((v+sign(v)*eval.Scale/2)/eval.Scale, -64), 64)
}

func sign(v int) int {
	if v < 0 {
		return -1
	}
	return 1
}

// value is the fail-soft value of a node settled for (alpha, beta).
func (n *node) value(alpha, beta int) int {
	switch {
	case n.lo >= beta || n.lo == n.hi:
		return n.lo
	case n.hi <= alpha:
		return n.hi
	}
	return n.lo
}

func (c *Controller) debugf(format string, args ...any) {
	if c.opt.Debugf != nil {
		c.opt.Debugf(format, args...)
	}
}

func (c *Controller) logf(format string, args ...any) {
	if c.opt.Logf != nil {
		c.opt.Logf(format, args...)
	}
}

// expand gives n its moves, best first; the first is expanded in turn while PVSplit goes
// deeper.
func (s *solve) expand(n *node, ply int) {
	if board.LegalMoves(n.p, n.o)|board.LegalMoves(n.o, n.p) == 0 {
		return // the game is over
	}
	if board.LegalMoves(n.p, n.o) == 0 {
		kid := newNode(n.o, n.p, board.NoSquare, n)
		n.kids = []*node{kid}
		s.expand(kid, ply)
		n.update()
		return
	}
	for _, sq := range orderMoves(s.c.opt.Eval, n.p, n.o, s.c.opt.OrderDepth) {
		f := board.Flips(n.p, n.o, sq)
		n.kids = append(n.kids, newNode(n.o^f, n.p|f|1<<uint(sq), sq, n))
	}
	s.deepen(n, ply)
	n.update()
}

// deepen expands n's first move when PVSplit splits the principal variation that deep.
func (s *solve) deepen(n *node, ply int) {
	first := n.kids[0]
	if len(first.kids) == 0 && s.c.opt.Split == PVSplit && ply+1 < s.c.opt.PVDepth && bits.OnesCount64(first.empty)-1 >= s.c.opt.TaskEmpties {
		s.expand(first, ply+1)
	}
}

// reroot makes the move with the best proven value the first at each node of the principal
// variation, where the windows so far found one better than the first, and expands it: the
// next window's principal variation is the one the tasks found.
func (s *solve) reroot(root *node) {
	n, ply := root, 0
	for len(n.kids) > 0 {
		best := 0
		for i, k := range n.kids {
			if -k.hi > -n.kids[best].hi {
				best = i
			}
		}
		if best > 0 {
			k := n.kids[best]
			copy(n.kids[1:best+1], n.kids[:best])
			n.kids[0] = k
			s.c.debugf("ply %d: %v first", ply, k.move)
			s.deepen(n, ply)
		}
		n = n.kids[0]
		if n.move != board.NoSquare {
			ply++
		}
	}
}

func (n *node) ply() int {
	d := 0
	for p := n.parent; p != nil; p = p.parent {
		d++
	}
	return d
}

// update recomputes a node's bounds from its own and its moves'.
func (n *node) update() {
	n.lo, n.hi = n.dlo, n.dhi
	if len(n.kids) == 0 {
		return
	}
	lo, hi := -65, -65
	for _, k := range n.kids {
		lo, hi = max(lo, -k.hi), max(hi, -k.lo)
	}
	n.lo, n.hi = max(n.lo, lo), min(n.hi, hi)
}

// settled reports whether n's bounds decide its fail-soft value for the window.
func (n *node) settled(alpha, beta int) bool { return n.lo >= beta || n.hi <= alpha || n.lo == n.hi }

// expected is the value n will have if the tests still to come confirm what the answered
// tasks predict; false until the principal variation's end has answered.
func (n *node) expected() (int, bool) {
	if len(n.kids) > 0 {
		if e, ok := n.kids[0].expected(); ok {
			return min(max(-e, n.lo), n.hi), true
		}
	}
	if !n.known {
		return n.guess, n.guessed
	}
	if n.lo > -64 {
		return n.lo, true
	}
	return n.hi, true
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
	// The move that failed high with the highest bound gets the window up to beta, as the
	// re-search of principal variation search; the others are tested against its bound.
	var best *node
	for _, k := range n.kids[1:] {
		if -k.hi >= sib && -k.hi > -64 && (best == nil || k.hi < best.hi) {
			best = k
		}
	}
	for _, k := range n.kids[1:] {
		switch {
		case -k.lo <= sib:
		case k == best:
			s.schedule(k, -beta, -sib)
		default:
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
	s.st.Windows++
	s.c.debugf("window (%d,%d)", alpha, beta)
	return s.loop(func() { s.schedule(root, alpha, beta) }, func() bool { return root.settled(alpha, beta) })
}

// loop hands out the tasks that sched makes and takes results until done.
func (s *solve) loop(sched func(), done func() bool) error {
	if err := s.step(sched); err != nil {
		return err
	}
	var failing time.Time
	last, checked := time.Now(), time.Now()
	for !done() {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		if time.Since(checked) >= s.c.opt.Alive {
			checked = time.Now()
			if err := s.alive(); err != nil {
				return err
			}
			if len(s.again) > 0 {
				if err := s.step(sched); err != nil {
					return err
				}
			}
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
				return s.stalled()
			}
			continue
		}
		used := false
		for _, r := range rs {
			ok, err := s.take(r)
			if err != nil {
				return err
			}
			used = used || ok
		}
		if used {
			last = time.Now()
		}
		if done() {
			// The tasks still out stay out: the next window may want their answers
			// (after a fail-high at the root, most of them), and its first scheduling
			// pass withdraws those it does not.
			break
		}
		if err := s.step(sched); err != nil {
			return err
		}
	}
	return nil
}

// stalled is the error of a solve that had no result for the stall limit.
func (s *solve) stalled() error {
	err := fmt.Errorf("no result for %v with %d task(s) out: are the workers running?", s.c.opt.Stall, len(s.out))
	if ig := s.c.Ignored(); len(ig) > 0 {
		err = fmt.Errorf("%w (workers ignored: %s)", err, strings.Join(ig, "; "))
	}
	return err
}

// alive checks that the server still holds the job and its queue; when it does not, every
// task out is handed out again.
func (s *solve) alive() error {
	var ok bool
	err := retry(s.ctx, s.c.opt.GiveUp, s.c.logf, func() error {
		var err error
		ok, err = s.c.q.Alive(s.ctx, s.job)
		return err
	})
	if err != nil || ok {
		return err
	}
	s.st.Lost++
	s.c.logf("the Redis server lost job %s and its queue (a restart without persistence, or a flush): %d task(s) submitted again", s.job, len(s.out))
	s.again = append(s.again[:0], s.out...)
	return nil
}

// step runs the scheduling pass sched, hands out the new tasks, biggest first, and
// withdraws the tasks out that the pass did not mark needed.
func (s *solve) step(sched func()) error {
	for _, t := range s.out {
		t.needed = false
	}
	s.pending = s.pending[:0]
	t0 := time.Now()
	sched()
	s.st.Split += time.Since(t0)
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
	if len(withdraw) > 0 || len(s.pending) > 0 {
		s.c.debugf("withdraw %v, hand out %d", withdraw, len(s.pending))
	}
	sort.SliceStable(s.pending, func(i, j int) bool {
		return bits.OnesCount64(s.pending[i].n.empty) > bits.OnesCount64(s.pending[j].n.empty)
	})
	batch := make([]Task, len(s.pending))
	for i, t := range s.pending {
		batch[i] = Task{Job: s.job, ID: t.id, P: t.n.p, O: t.n.o, Alpha: t.alpha, Beta: t.beta, Depth: t.depth, Sel: t.sel}
	}
	// Tasks to hand out again that are still needed go with the new ones.
	for _, t := range s.again {
		if !t.withdrawn && !t.done && t.needed {
			batch = append(batch, Task{Job: s.job, ID: t.id, P: t.n.p, O: t.n.o, Alpha: t.alpha, Beta: t.beta, Depth: t.depth, Sel: t.sel})
			s.st.Resubmitted++
		}
	}
	s.again = s.again[:0]
	for i := range batch {
		batch[i].Build, batch[i].Weights = s.c.opt.Build, s.c.opt.Weights
	}
	s.out = append(s.out, s.pending...)
	s.st.Tasks += len(s.pending)
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

// take applies a worker's result and reports whether it was used; a result not true to
// its task is dropped, that of a worker of another engine ignored, and a task a worker gave
// back is handed out again; a task a worker gave up on fails the solve.
func (s *solve) take(r Result) (bool, error) {
	if r.ID < 0 || r.ID >= len(s.tasks) {
		s.drop(r, "no such task")
		return false, nil
	}
	t := s.tasks[r.ID]
	if r.Build != s.c.opt.Build || r.Weights != s.c.opt.Weights {
		s.st.Ignored++
		s.c.ignore(r.Worker, fmt.Sprintf("build %q with weights %s, not this controller's %q with %s", r.Build, r.Weights, s.c.opt.Build, s.c.opt.Weights))
		if r.Refused == "" {
			s.redo(t) // it solved and removed the task
		}
		return false, nil
	}
	if r.Refused != "" {
		s.st.Ignored++
		s.c.ignore(r.Worker, r.Refused)
		return false, nil
	}
	if t.done {
		s.st.Duplicates++
		return false, nil
	}
	if r.Failed != "" {
		return false, fmt.Errorf("task %d (%d empties): worker %s: %s", t.id, bits.OnesCount64(t.n.empty), r.Worker, r.Failed)
	}
	if r.Cancelled && !t.withdrawn {
		// Stopped without being withdrawn (its job seemed gone to the worker): solved by
		// no one unless handed out again.
		s.redo(t)
		return false, nil
	}
	if why := checkResult(t, &r); why != "" {
		s.drop(r, why)
		s.redo(t)
		return false, nil
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
	if t.withdrawn {
		s.st.WithdrawnNodes += r.Nodes
	}
	s.c.debugf("result %d (%d,%d) ply %d from %s: %d, %d nodes%s", t.id, t.alpha, t.beta, t.n.ply(), r.Worker, r.Score, r.Nodes, note(r))
	if r.Cancelled {
		return true, nil
	}
	s.st.Results++
	if t.depth > 0 {
		t.res = &r
		return true, nil
	}
	// Even a withdrawn task's answer is a true bound.
	n.known = true
	switch {
	case r.Score <= t.alpha:
		n.dhi = min(n.dhi, r.Score)
	case r.Score >= t.beta:
		n.dlo = max(n.dlo, r.Score)
	default:
		n.dlo, n.dhi = r.Score, r.Score
		n.pv = r.PV
	}
	for p := n; p != nil; p = p.parent {
		p.update()
	}
	return true, nil
}

// redo hands t out again at the next step, if it is still needed then.
func (s *solve) redo(t *task) {
	if !t.done && !t.withdrawn {
		s.again = append(s.again, t)
	}
}

// drop counts and logs a result that is not used.
func (s *solve) drop(r Result, why string) {
	s.st.Dropped++
	s.c.logf("result of task %s/%d from worker %q dropped: %s", s.job, r.ID, r.Worker, why)
}

// checkResult returns why r cannot be the answer to t ("" when it can): a score outside
// -64..64, a move not legal in t's position, a midgame search's value, depth or selectivity
// out of range. A principal variation is only shown: it is cut where it cannot be played.
func checkResult(t *task, r *Result) string {
	p, o := t.n.p, t.n.o
	if r.Score < -64 || r.Score > 64 {
		return fmt.Sprintf("score %d", r.Score)
	}
	if r.Move != -1 && (r.Move < 0 || r.Move > 63 || board.LegalMoves(p, o)&(1<<uint(r.Move)) == 0) {
		return fmt.Sprintf("move %d is not legal in the position", r.Move)
	}
	for i, sq := range r.PV {
		ok := true
		switch {
		case sq >= 0 && sq < 64 && board.LegalMoves(p, o)&(1<<uint(sq)) != 0:
			f := board.Flips(p, o, board.Square(sq))
			p, o = o^f, p|f|1<<uint(sq)
		case sq == int(board.NoSquare) && board.LegalMoves(p, o) == 0 && board.LegalMoves(o, p) != 0:
			p, o = o, p
		default:
			ok = false
		}
		if !ok || i >= 60 {
			r.PV = r.PV[:i]
			break
		}
	}
	if t.depth > 0 {
		switch {
		case math.IsNaN(r.Value) || r.Value < -64 || r.Value > 64:
			return fmt.Sprintf("value %v", r.Value)
		case r.Depth < 0 || r.Depth > 60 || r.SelPct < 0 || r.SelPct > 100:
			return fmt.Sprintf("depth %d at %d%%", r.Depth, r.SelPct)
		}
	}
	return ""
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
	if n.dlo == n.dhi && n.dlo == n.lo {
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
