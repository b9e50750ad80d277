package uct

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/ybwc"
	"github.com/othellogo/othello/search"
)

// maxPath bounds the plies from the root to a leaf: 60 moves and the passes between them.
const maxPath = 128

// Engine is a UCT search with its tree, kept from one search to the next. Two Engines may
// search at the same time in one process; one Engine runs one search at a time (its methods
// are not safe for concurrent use).
type Engine struct {
	cfg     Config
	ev      *eval.Evaluator
	workers []*worker
	// pool runs the workers: thread i of the parallel search's pool runs workers[i], thread 0
	// being the caller's goroutine; one split point per search holds the simulation loop.
	pool  *ybwc.Pool
	split uctSplit

	root      *node
	rootBoard board.Board
	nodes     counter // nodes in the tree, for Config.MaxNodes

	// Per-search state, shared by the workers.
	stop     atomic.Bool
	started  counter // simulations claimed in this search
	budget   int64   // simulations of this search (0: none)
	timed    bool
	start    time.Time
	deadline time.Time
	half     time.Duration // PrunePaper: pruning starts after this much time (timed searches)

	// What the pruning did in this search (Stats): simulations whose root choice skipped a
	// pruned move, those of them whose UCB1 choice among all moves was a pruned one, and the
	// simulations claimed when a move was first pruned (0: never).
	prunedSims, redirected, firstPrune atomic.Int64

	// PruneHalving: the rounds of this search and how many have begun; halvingMu is taken only
	// to drop the worse half of the survivors, once per round.
	rounds    int32
	round     atomic.Int32
	halvingMu sync.Mutex

	// onSimulation, when set (tests), is called by the first worker after each simulation.
	onSimulation func()
	// report, when set, is called by the first worker from time to time during a search.
	report     func()
	nextReport int64
}

// counter is an atomic counter on cache lines of its own: the threads add to it at every
// simulation, and the engine's fields that they read at every simulation must not share its
// line (on two cores the shared lines cost as much as the playouts).
type counter struct {
	_ [64]byte
	atomic.Int64
	_ [56]byte
}

// worker is the state of one goroutine of a search: its random numbers, its copy of the
// board and the path of the simulation under way.
type worker struct {
	e    *Engine
	id   int
	r    rng
	b    board.Board
	path [maxPath]step
	sims atomic.Int64 // simulations of this search (read by the reports during the search)
	_    [64]byte     // the next worker's fields on other cache lines
}

// step is one node of a simulation's path and the colour of the player who moved into it.
type step struct {
	n     *node
	black bool
}

// New makes an engine. The evaluation is loaded (eval.Default) only for playouts that use it
// when Config.Eval is nil.
func New(cfg Config) (*Engine, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	e := &Engine{cfg: cfg, ev: cfg.Eval}
	if e.ev == nil && cfg.Playout.usesEval() {
		ev, err := eval.Default()
		if err != nil {
			return nil, fmt.Errorf("uct: the built-in evaluation: %v", err)
		}
		e.ev = ev
	}
	for i := range cfg.Threads {
		e.workers = append(e.workers, &worker{e: e, id: i, r: newRNG(cfg.Seed, uint64(i))})
	}
	e.pool = ybwc.New(cfg.Threads)
	e.split.e = e
	e.split.Init(&e.split)
	return e, nil
}

// Config returns the engine's configuration with its defaults filled in.
func (e *Engine) Config() Config { return e.cfg }

// Reset drops the tree.
func (e *Engine) Reset() {
	e.root = nil
	e.nodes.Store(0)
}

// Advance moves the root of the tree down by the moves played (board.NoSquare for a pass), so
// that the next search of the position reached starts from what was searched below it. It
// reports false, dropping the tree, when a move leads out of the tree or is not legal.
func (e *Engine) Advance(moves ...board.Square) bool {
	if e.root == nil {
		return false
	}
	n, b := e.root, e.rootBoard
	for _, m := range moves {
		var next *node
		ks := n.kids()
		for i := range ks {
			if ks[i].move == m {
				next = &ks[i]
				break
			}
		}
		if next == nil {
			e.Reset()
			return false
		}
		play(&b, m)
		n = next
	}
	if n != e.root {
		e.root = detach(n)
		e.nodes.Store(int64(countNodes(e.root) + 1))
	}
	e.rootBoard = b
	return true
}

// TreeSize returns the number of nodes in the tree.
func (e *Engine) TreeSize() int { return int(e.nodes.Load()) }

// setRoot makes b the root: the node of b in the kept tree (up to three plies below the old
// root, so the engine's move, the opponent's and a pass), or a new tree.
func (e *Engine) setRoot(b board.Board) {
	var n *node
	if e.root != nil && !e.cfg.NoReuse {
		n = findNode(e.root, e.rootBoard, &b, 3)
	}
	switch {
	case n == nil:
		e.root = &node{move: board.NoSquare}
		e.nodes.Store(1)
	case n != e.root:
		e.root = detach(n)
		e.nodes.Store(int64(countNodes(e.root) + 1))
	}
	e.rootBoard = b
	e.nodes.Add(int64(e.root.expand(&e.rootBoard)))
	for i, ks := 0, e.root.kids(); i < len(ks); i++ {
		ks[i].pruned.Store(false)
	}
}

// plan sets the budget of a search of a position with empties empty squares from lim, or
// from the Config when lim gives none.
func (e *Engine) plan(lim search.Limits, empties int) {
	e.budget, e.timed = 0, false
	var d time.Duration
	if lim.Nodes > 0 {
		e.budget = int64(min(lim.Nodes, math.MaxInt64/2))
	}
	if lim.MoveTime > 0 {
		d = lim.MoveTime - min(lim.MoveTime/20, 10*time.Millisecond)
	}
	if lim.Remaining > 0 {
		usable := lim.Remaining - min(lim.Remaining/20+30*time.Millisecond, 2*time.Second)
		usable = max(usable, time.Millisecond)
		movesLeft := max((empties+1)/2, 1)
		c := min(usable/time.Duration(movesLeft)+lim.Increment*3/4, usable/3)
		if d == 0 || c < d {
			d = c
		}
	}
	if e.budget == 0 && d == 0 {
		e.budget, d = int64(e.cfg.Playouts), e.cfg.MoveTime
		if e.budget == 0 && d == 0 {
			e.budget = DefaultPlayouts
		}
	}
	if d > 0 {
		e.timed = true
		e.deadline = e.start.Add(max(d, time.Millisecond))
		e.half = d / 2
	}
}

// remaining bounds the simulations still to come in this search, the ones under way
// included: exact under a playout budget, the rate so far times the time left under a time
// budget.
func (e *Engine) remaining() int64 {
	started := e.started.Load()
	r := int64(math.MaxInt64 / 4)
	if e.budget > 0 {
		r = max(e.budget-started, 0) + int64(len(e.workers))
	}
	if e.timed {
		now := time.Now()
		el := now.Sub(e.start)
		if el > 0 {
			left := max(e.deadline.Sub(now), 0)
			est := int64(float64(started)*float64(left)/float64(el)) + int64(len(e.workers))
			r = min(r, est)
		}
	}
	return r
}

// pastHalf reports whether half the budget is spent (PrunePaper starts there).
func (e *Engine) pastHalf() bool {
	if e.budget > 0 && 2*e.started.Load() >= e.budget {
		return true
	}
	return e.timed && time.Since(e.start) >= e.half
}

// updateRoot applies the pruning rule to the root moves before a simulation, and reports
// false, stopping the search, when StopEarly holds and no move can overtake the most visited
// one.
func (e *Engine) updateRoot() bool {
	if e.cfg.Prune == PruneOff && !e.cfg.StopEarly {
		return true
	}
	ks := e.root.kids()
	if len(ks) == 0 {
		return true
	}
	if e.cfg.Prune == PruneHalving {
		// The rounds spend the whole budget; StopEarly's test on visits does not apply.
		e.halve(ks)
		return true
	}
	r := e.remaining()
	top := mostVisited(ks)
	maxV := int64(ks[top].visits.Load())
	behind := 0 // moves that cannot catch the most visited one
	for i := range ks {
		if i != top && int64(ks[i].visits.Load())+r < maxV {
			behind++
		}
	}
	if e.cfg.StopEarly && behind == len(ks)-1 {
		e.stop.Store(true)
		return false
	}
	switch e.cfg.Prune {
	case PruneVisits:
		for i := range ks {
			p := i != top && int64(ks[i].visits.Load())+r < maxV
			ks[i].pruned.Store(p)
			if p && e.firstPrune.Load() == 0 {
				e.firstPrune.CompareAndSwap(0, e.started.Load())
			}
		}
	case PrunePaper:
		if !e.pastHalf() {
			return true
		}
		var sumX, maxX float64
		for i := range ks {
			x := ks[i].mean()
			sumX += x
			maxX = max(maxX, x)
		}
		if sumX == 0 {
			return true
		}
		for i := range ks {
			p := i != top && e.paperBound(&ks[i], sumX, float64(r)) < maxX
			ks[i].pruned.Store(p)
			if p && e.firstPrune.Load() == 0 {
				e.firstPrune.CompareAndSwap(0, e.started.Load())
			}
		}
	}
	return true
}

// halve starts the rounds of PruneHalving that the budget spent so far has reached: each
// drops the worse half (rounded down) of the surviving root moves by win rate.
func (e *Engine) halve(ks []node) {
	f := 0.0 // the share of the budget spent
	if e.budget > 0 {
		f = float64(e.started.Load()) / float64(e.budget)
	}
	if e.timed {
		if d := e.deadline.Sub(e.start); d > 0 {
			f = max(f, float64(time.Since(e.start))/float64(d))
		}
	}
	target := min(int32(f*float64(e.rounds)), e.rounds-1)
	if target <= e.round.Load() {
		return
	}
	e.halvingMu.Lock()
	defer e.halvingMu.Unlock()
	for e.round.Load() < target {
		var live [64]int
		n := 0
		for i := range ks {
			if !ks[i].pruned.Load() && n < len(live) {
				live[n] = i
				n++
			}
		}
		sort.Slice(live[:n], func(a, b int) bool { return ks[live[a]].mean() > ks[live[b]].mean() })
		for _, i := range live[(n+1)/2 : n] {
			ks[i].pruned.Store(true)
		}
		if n > 1 && e.firstPrune.Load() == 0 {
			e.firstPrune.Store(e.started.Load())
		}
		e.round.Add(1)
	}
}

// paperBound is the paper's reachable upper win rate P_i of a root move (equations 7, 8 and
// 10-11): n remaining simulations, sumX the sum of the root moves' win rates.
func (e *Engine) paperBound(c *node, sumX, n float64) float64 {
	s := float64(c.visits.Load())
	if s == 0 {
		return 1
	}
	X := float64(c.value.Load()) / rewardOne
	x := X / s
	ei := x / sumX * n
	u := 1.0
	if e.cfg.PruneR > 0 {
		v := max(float64(c.sq.Load())/rewardOne/s-x*x, 0)
		u = min(1, x+e.cfg.PruneR*math.Sqrt(v/s))
	}
	return (X + ei*u) / (s + ei)
}

// mostVisited returns the index of the move to play among ks: the most visits, then the best
// mean, then the first square.
func mostVisited(ks []node) int {
	best := 0
	for i := 1; i < len(ks); i++ {
		if better(&ks[i], &ks[best]) {
			best = i
		}
	}
	return best
}

// rootBetter orders the root moves for the choice of the move: as better, except under
// PruneHalving, where the survivors come first and among them the best win rate (their
// visits differ only by the order of the last round).
func (e *Engine) rootBetter(a, b *node) bool {
	if e.cfg.Prune != PruneHalving {
		return better(a, b)
	}
	if pa, pb := a.pruned.Load(), b.pruned.Load(); pa != pb {
		return pb
	}
	if ma, mb := a.mean(), b.mean(); ma != mb {
		return ma > mb
	}
	return a.visits.Load() > b.visits.Load()
}

func better(a, b *node) bool {
	va, vb := a.visits.Load(), b.visits.Load()
	if va != vb {
		return va > vb
	}
	return a.mean() > b.mean()
}

// selectChild picks the child of n (children ks) that the simulation goes down to: an
// unvisited one first, in square order, else the best by UCB1 (or UCB1-Tuned). At the root
// it skips the pruned moves; with PruneInner, inner nodes skip the children that cannot reach
// their most visited sibling's visits with r simulations.
func (e *Engine) selectChild(n *node, ks []node, atRoot bool, r int64) *node {
	var floor int64 = -1 << 62
	if e.cfg.PruneInner && !atRoot {
		var maxV int32
		for i := range ks {
			maxV = max(maxV, ks[i].visits.Load())
		}
		floor = int64(maxV) - r
	}
	if atRoot && e.cfg.Prune == PruneHalving {
		return e.leastVisited(ks)
	}
	logN := math.Log(float64(max(n.visits.Load(), 1)))
	best, bestU := -1, math.Inf(-1)
	prunedU := math.Inf(-1) // the best bound among the pruned root moves
	anyPruned := false
	for i := range ks {
		c := &ks[i]
		pruned := atRoot && c.pruned.Load()
		v := c.visits.Load()
		if !pruned && int64(v) < floor {
			continue
		}
		u := math.Inf(1) // unvisited first, in square order
		if v > 0 {
			s := float64(v)
			mean := float64(c.value.Load()) / (s * rewardOne)
			if e.cfg.Tuned {
				variance := max(float64(c.sq.Load())/(s*rewardOne)-mean*mean, 0) + math.Sqrt(2*logN/s)
				u = mean + math.Sqrt(logN/s*min(0.25, variance))
			} else {
				u = mean + e.cfg.C*math.Sqrt(logN/s)
			}
		}
		if pruned {
			anyPruned = true
			prunedU = max(prunedU, u)
			continue
		}
		if u > bestU {
			best, bestU = i, u
		}
	}
	if anyPruned {
		e.prunedSims.Add(1)
		if prunedU > bestU {
			e.redirected.Add(1)
		}
	}
	if best < 0 {
		// Every child is pruned (a race with the pruning of another thread): the move to play.
		return &ks[mostVisited(ks)]
	}
	return &ks[best]
}

// leastVisited is PruneHalving's choice at the root: the surviving move with the fewest
// visits, the first in square order among equals.
func (e *Engine) leastVisited(ks []node) *node {
	best, bestV, anyPruned := -1, int32(math.MaxInt32), false
	for i := range ks {
		if ks[i].pruned.Load() {
			anyPruned = true
			continue
		}
		if v := ks[i].visits.Load(); v < bestV {
			best, bestV = i, v
		}
	}
	if anyPruned {
		e.prunedSims.Add(1)
	}
	if best < 0 {
		return &ks[mostVisited(ks)]
	}
	return &ks[best]
}

// simulate runs one simulation: down the tree by selectChild, expanding the node reached
// if it was visited before, a playout from there, and the reward back up the path. It
// reports false, doing nothing, when the root's update stops the search.
func (w *worker) simulate() bool {
	e := w.e
	if !e.updateRoot() {
		return false
	}
	w.b = e.rootBoard
	n := e.root
	n.visits.Add(1)
	w.path[0] = step{n: n, black: !w.b.BlackToMove}
	k := 1
	r := int64(0)
	if e.cfg.PruneInner {
		r = e.remaining()
	}
	var reward uint64 // black's
	for {
		ks := n.kids()
		if ks == nil {
			if n.visits.Load() < 2 || e.nodes.Load() >= int64(e.cfg.MaxNodes) {
				reward = w.playout()
				break
			}
			e.nodes.Add(int64(n.expand(&w.b)))
			ks = n.kids()
		}
		if len(ks) == 0 {
			reward = blackReward(w.b.BlackScore())
			break
		}
		c := e.selectChild(n, ks, k == 1, r)
		c.visits.Add(1)
		w.path[k] = step{n: c, black: w.b.BlackToMove}
		k++
		play(&w.b, c.move)
		n = c
		if k == maxPath {
			reward = w.playout()
			break
		}
	}
	// The squares only for the rules that read them: every atomic add on the nodes near the
	// root is a cache line the threads contend for.
	sq := e.cfg.Tuned || e.cfg.PruneR > 0
	for i := range k {
		x := reward
		if !w.path[i].black {
			x = rewardOne - x
		}
		w.path[i].n.value.Add(x)
		if sq {
			w.path[i].n.sq.Add(x * x / rewardOne)
		}
	}
	w.sims.Add(1)
	return true
}

// playout plays the simulation on from w.b and returns black's reward.
func (w *worker) playout() uint64 {
	cfg := &w.e.cfg
	switch cfg.Playout {
	case PlayoutGreedy:
		return guidedPlayout(&w.b, w.e.ev, false, cfg.Epsilon, cfg.Temperature, &w.r)
	case PlayoutSoftmax:
		return guidedPlayout(&w.b, w.e.ev, true, cfg.Epsilon, cfg.Temperature, &w.r)
	case PlayoutCutoff:
		return cutoffPlayout(&w.b, w.e.ev, cfg.CutoffPlies, cfg.WinScale, &w.r)
	}
	return randomPlayout(w.b.P, w.b.O, w.b.BlackToMove, &w.r)
}

// run claims and runs simulations until the budget is spent or the search is stopped.
func (w *worker) run() {
	e := w.e
	for !e.stop.Load() {
		if e.budget > 0 && e.started.Add(1) > e.budget {
			e.stop.Store(true)
			break
		}
		if e.budget == 0 {
			e.started.Add(1)
		}
		if e.timed && !time.Now().Before(e.deadline) {
			e.stop.Store(true)
			break
		}
		if !w.simulate() {
			break
		}
		if w.id == 0 {
			if e.onSimulation != nil {
				e.onSimulation()
			}
			if e.report != nil && w.sims.Load() >= e.nextReport {
				e.nextReport *= 2
				e.report()
			}
		}
	}
}

// search runs the simulations of one search of b on all threads. report, when not nil, is
// called from time to time; the caller reports the end.
func (e *Engine) search(ctx context.Context, b board.Board, lim search.Limits, report func()) {
	e.start = time.Now()
	e.setRoot(b)
	e.stop.Store(false)
	e.started.Store(0)
	e.prunedSims.Store(0)
	e.redirected.Store(0)
	e.firstPrune.Store(0)
	e.round.Store(0)
	e.rounds = int32(bits.Len(uint(max(len(e.root.kids()), 1) - 1))) // ceil(log2 k)
	for _, w := range e.workers {
		w.sims.Store(0)
	}
	e.report, e.nextReport = report, 4096
	if len(e.root.kids()) == 0 {
		return
	}
	e.plan(lim, b.NumEmpties())
	if ctx != nil {
		stop := context.AfterFunc(ctx, func() { e.stop.Store(true) })
		defer stop()
	}
	e.pool.Start()
	defer e.pool.Stop()
	th := e.pool.Thread(0)
	if len(e.workers) > 1 && e.pool.Split(th, &e.split.Split) {
		e.workers[0].run()
		e.pool.Wait(th, &e.split.Split)
	} else {
		e.workers[0].run()
	}
	e.report = nil
}

// uctSplit is the one split point of a search: every thread of the pool joins it at the
// start and runs simulations on the shared tree until the budget is spent or the search is
// stopped (tree parallelism; the virtual loss is in the node counts, see node).
type uctSplit struct {
	ybwc.Split
	e *Engine
}

// Join runs the simulations of thread t with its own worker state.
func (sp *uctSplit) Join(t *ybwc.Thread) { sp.e.workers[t.ID].run() }

// PoolStats returns the counts of the worker pool since the engine was made: one split
// point per search with more than one thread, joined by the other threads.
func (e *Engine) PoolStats() ybwc.Stats { return e.pool.Stats() }

// playouts returns the simulations run by the last search.
func (e *Engine) playouts() uint64 {
	var n int64
	for _, w := range e.workers {
		n += w.sims.Load()
	}
	return uint64(n)
}

// ScoreOf maps a win probability to Info.Score: the evaluation in discs whose
// WinProbability at the engine's scale it is (the logit times Config.WinScale), within
// +-64. A cut-off search's scores are thus on the evaluation's scale; 50% is 0.
func (e *Engine) ScoreOf(p float64) float64 {
	p = min(max(p, 1e-9), 1-1e-9)
	return min(max(e.cfg.WinScale*math.Log(p/(1-p)), -64), 64)
}

// WinRate is the inverse of ScoreOf: the win probability an Info.Score stands for.
func (e *Engine) WinRate(score float64) float64 { return WinProbability(score, e.cfg.WinScale) }

// pv is the most visited line from the root move c.
func pv(c *node) []board.Square {
	line := []board.Square{c.move}
	for n := c; len(line) < maxPath; {
		ks := n.kids()
		if len(ks) == 0 {
			break
		}
		n = &ks[mostVisited(ks)]
		if n.visits.Load() == 0 {
			break
		}
		line = append(line, n.move)
	}
	return line
}

// moveScores returns the root moves, the move to play first, then by visits.
func (e *Engine) moveScores() []search.MoveScore {
	ks := e.root.kids()
	idx := make([]int, len(ks))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return e.rootBetter(&ks[idx[a]], &ks[idx[b]]) })
	out := make([]search.MoveScore, len(ks))
	nodes, el := e.playouts(), time.Since(e.start)
	for i, j := range idx {
		c := &ks[j]
		line := pv(c)
		score := 0.0 // a move never simulated (StopEarly with one move) counts as even
		if c.visits.Load() > 0 {
			score = e.ScoreOf(c.mean())
		}
		out[i] = search.MoveScore{Move: c.move, Info: search.Info{
			MonteCarlo: true, Score: score, Nodes: nodes, Elapsed: el, PV: line,
		}}
	}
	return out
}

// gameOver is the answer for a finished game: a pass with the final score.
func gameOver(b *board.Board) search.MoveScore {
	return search.MoveScore{Move: board.NoSquare, Info: search.Info{
		Exact: true, Selectivity: 100, Score: float64(b.FinalScore()),
	}}
}

// Search returns the most visited move of b after the simulations lim allows (Limits.Nodes
// playouts, Limits.MoveTime, or a share of the clock; the Config's budget when lim gives
// none; Depth and Selectivity are ignored). info, when not nil, gets the best move's Info
// from time to time and at the end. Info.Score is the move's win rate mapped by ScoreOf,
// Info.MonteCarlo set (no depth: the PV is the most visited line), Info.Nodes the playouts. The move
// is always legal: board.NoSquare when the side to move must pass. It returns soon after ctx
// is cancelled, with the best move so far.
func (e *Engine) Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result {
	if b.GameOver() {
		ms := gameOver(&b)
		return search.Result{Move: ms.Move, Info: ms.Info}
	}
	var report func()
	if info != nil {
		report = func() { info(e.moveScores()[0].Info) }
	}
	e.search(ctx, b, lim, report)
	ms := e.moveScores()[0]
	if info != nil {
		info(ms.Info)
	}
	return search.Result{Move: ms.Move, Info: ms.Info}
}

// Analyze searches b as Search does and returns the n most visited moves (all when n <= 0 or
// above their number), the move Search would play first, each with its win rate mapped by
// ScoreOf and its most visited line. info, when not nil, gets the list from time to time and
// at the end.
func (e *Engine) Analyze(ctx context.Context, b board.Board, lim search.Limits, n int, info func([]search.MoveScore)) []search.MoveScore {
	if b.GameOver() {
		return []search.MoveScore{gameOver(&b)}
	}
	cut := func(ms []search.MoveScore) []search.MoveScore {
		if n > 0 && n < len(ms) {
			ms = ms[:n]
		}
		return ms
	}
	var report func()
	if info != nil {
		report = func() { info(cut(e.moveScores())) }
	}
	e.search(ctx, b, lim, report)
	ms := cut(e.moveScores())
	if info != nil {
		info(ms)
	}
	return ms
}

// Stats describes the root after a search, for tests and measurements.
type Stats struct {
	Playouts uint64 // simulations of the last search
	Pruned   int    // root moves pruned at its end
	Moves    int    // root moves
	Visits   []int  // visits of the root moves, in square order
	// PrunedSims counts the simulations whose root choice skipped at least one pruned move,
	// Redirected those of them that UCB1 would have sent to a pruned move: the simulations
	// the pruning moved to other moves. FirstPrune is the number of simulations claimed when
	// a move was first pruned (0: none was).
	PrunedSims, Redirected, FirstPrune int64
}

// LastStats returns the Stats of the last search.
func (e *Engine) LastStats() Stats {
	st := Stats{Playouts: e.playouts(), PrunedSims: e.prunedSims.Load(), Redirected: e.redirected.Load(), FirstPrune: e.firstPrune.Load()}
	if e.root == nil {
		return st
	}
	ks := e.root.kids()
	st.Moves = len(ks)
	for i := range ks {
		if ks[i].pruned.Load() {
			st.Pruned++
		}
		st.Visits = append(st.Visits, int(ks[i].visits.Load()))
	}
	return st
}
