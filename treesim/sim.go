package treesim

import (
	"fmt"
	"math"
)

// Order is how the idle processes choose among the available tasks. Ties go to the leftmost
// task, the one a sequential depth-first search would reach first.
type Order int

const (
	// Method runs the task with the largest P_n first, P_n from the paper's table (section 2.3).
	Method Order = iota
	// NoDist is the method with P_n in {0, 1} by equation 14.
	NoDist
	// DepthFirst runs the tasks with P_n = 1 first, then the leftmost.
	DepthFirst
	// YBWC runs the leftmost task, and a node's children after the first only once the first
	// has finished (Young Brothers Wait).
	YBWC
	// Exact is the method with distributions kept as histograms, every elder brother's
	// prediction used and no table: the paper's "no approximations" row.
	Exact
	numOrders
)

func (o Order) String() string {
	switch o {
	case Method:
		return "method"
	case NoDist:
		return "nodist"
	case DepthFirst:
		return "depthfirst"
	case YBWC:
		return "ybwc"
	case Exact:
		return "exact"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// ParseOrder reads an order's name as String writes it.
func ParseOrder(s string) (Order, error) {
	for o := range numOrders {
		if o.String() == s {
			return o, nil
		}
	}
	return 0, fmt.Errorf("unknown order %q (want method, nodist, depthfirst, ybwc or exact)", s)
}

// oneP is where a probability counts as 1 for the depth-first order (the paper's footnote 5).
const oneP = 1 - 1e-6

type state uint8

const (
	pending  state = iota // waiting for a process
	running               // taken by a process this step
	waiting               // expanded, its shallow search under way
	expanded              // its children are the tasks
	done
)

// node is one search of a tree node to a depth: a task while pending, then the parent of its
// shallow search and of its children's searches.
type node struct {
	sig      uint64 // tree node
	key      uint64 // depth-first order: smaller is further left
	pri      float64
	muA, muB float64
	sdA, sdB float64
	h        int32 // provisional value
	parent   int32
	prelude  int32  // the shallow search, -1 if none
	kids     int32  // first of the B children, -1 before they exist
	a, b     int32  // parallel window: the bounds known now
	as, bs   int32  // sequential window (alpha', beta')
	lo, hi   int32  // while expanded: max of -hi and -lo over the finished children; when done: the result
	heapAt   int32  // position in the heap, -1 when not queued
	hist     int32  // exact order: index of the node's histograms, -1 if none
	hv, inPV uint32 // exact order: version of the histograms, the parent's version they came from
	t, j     uint8  // tree depth, search depth
	nk       uint8  // number of children once they exist
	inDone   uint8  // exact order: finished elder brothers when the histograms were made
	idx      uint8  // 0 for a shallow search, i for the i-th child
	ndone    uint8
	state    state
	// kidsDirty: the children's windows must be recomputed; subDirty: something below changed.
	kidsDirty, subDirty bool
}

func (n *node) window() Window {
	return Window{n.as, n.bs, n.muA, n.muB, n.sdA, n.sdB}
}

// setWindow stores a window and reports whether it changed.
func (n *node) setWindow(a, b, as, bs int32, muA, muB, sdA, sdB float64) bool {
	if n.a == a && n.b == b && n.as == as && n.bs == bs && n.muA == muA && n.muB == muB && n.sdA == sdA && n.sdB == sdB {
		return false
	}
	n.a, n.b, n.as, n.bs, n.muA, n.muB, n.sdA, n.sdB = a, b, as, bs, muA, muB, sdA, sdB
	return true
}

// entry is a queued task: a copy of its priority and key, so that the heap compares without
// touching the nodes.
type entry struct {
	pri  float64
	key  uint64
	node int32
}

func (e entry) before(f entry) bool {
	return e.pri > f.pri || e.pri == f.pri && e.key < f.key
}

// Result is what one simulated search measured.
type Result struct {
	Steps int   // steps until the root's value was known
	Nodes int   // tasks executed: node searches that used a process for a step
	Value int32 // the root's value
}

// Sim runs simulated searches; it keeps its buffers between runs. Not safe for concurrent use.
type Sim struct {
	table  Table
	nodes  []node
	heap   []entry
	tt     boundTable
	seen   boundTable // with OnceNodes: the signatures of the nodes executed so far
	run    []int32
	kidBuf []kid
	weight []uint64
	ex     exactState

	tree       *Tree
	oth        *OthelloTree // when not nil, the tree searched instead of tree
	pos        []othPos     // Othello trees: each node's position, by node index
	okBuf      [maxKids]okid
	order      Order
	procs      int
	idStep     int
	freeLeaves bool
	leafSteps  bool
	onceNodes  bool
	b, d       int
}

// NewSim returns a simulator.
func NewSim() *Sim {
	return &Sim{}
}

// Options say how a simulated search runs.
type Options struct {
	Order Order
	Procs int // processes
	// IDStep is how much shallower a node's shallow search is than the node's search (the
	// paper's multiple iterative deepening): a search of depth j >= IDStep+1 first runs one of
	// depth j-IDStep. 0 turns shallow searches off.
	IDStep int
	// FreeLeaves makes a search's leaves part of their parent's task: expanding a node of depth
	// 1 evaluates its children, in order, until one cuts. By default a leaf is a task of its own.
	FreeLeaves bool
	// LeafSteps makes only leaf evaluations take steps, as in the paper's simulation (section
	// 4.2: the tree is expanded until P leaves are chosen, and evaluating them is a step); a
	// node's expansion and its shallow search's start cost nothing.
	LeafSteps bool
	// OnceNodes makes a node cost a step only the first time a task on it is executed: a
	// search of a node that an earlier (shallower) search expanded or evaluated is free.
	OnceNodes bool
}

// Run searches tree with the given options.
func (s *Sim) Run(tree *Tree, o Options) (Result, error) {
	if err := o.check(); err != nil {
		return Result{}, err
	}
	s.tree, s.oth = tree, nil
	s.b, s.d = tree.M.B, tree.Depth
	return s.simulate(o, tree.M.SigmaR)
}

func (o Options) check() error {
	if o.Procs < 1 {
		return fmt.Errorf("%d processes: want at least 1", o.Procs)
	}
	if o.Order < 0 || o.Order >= numOrders {
		return fmt.Errorf("unknown order %d", int(o.Order))
	}
	if o.IDStep < 0 {
		return fmt.Errorf("shallow search step %d: want 0 or more", o.IDStep)
	}
	return nil
}

// simulate is the simulation of the tree set in s (s.tree or s.oth, s.b and s.d); sr is the
// deviation given to the root's (unbounded) window.
func (s *Sim) simulate(o Options, sr float64) (Result, error) {
	s.order, s.procs, s.idStep, s.freeLeaves, s.leafSteps, s.onceNodes = o.Order, o.Procs, o.IDStep, o.FreeLeaves, o.LeafSteps, o.OnceNodes
	order := o.Order
	s.nodes = s.nodes[:0]
	s.pos = s.pos[:0]
	s.heap = s.heap[:0]
	s.tt.reset()
	s.seen.reset()
	s.ex.reset()
	if cap(s.kidBuf) < s.b {
		s.kidBuf = make([]kid, s.b)
	}
	s.kidBuf = s.kidBuf[:s.b]
	s.weight = s.weight[:0]
	w := uint64(1)
	for i := 0; i <= s.d; i++ {
		s.weight = append(s.weight, w)
		w *= uint64(s.b + 1)
	}
	s.nodes = append(s.nodes, node{
		parent: -1, prelude: -1, kids: -1, hist: -1, heapAt: -1,
		a: -inf, b: inf, as: -inf, bs: inf,
		muA: math.Inf(-1), muB: math.Inf(1), sdA: sr, sdB: sr,
		j: uint8(s.d),
	})
	if s.oth != nil {
		s.nodes[0].sig = s.oth.rootSig
		s.pos = append(s.pos, s.oth.root)
	}
	if order == Exact {
		s.ex.root(s)
	}
	s.queue(0)
	var res Result
	// Every step either finishes the root or executes a task, and every search executes at most
	// one task per node and depth of the tree, so this bounds a correct run.
	limit := 1
	for i := 0; i <= s.d; i++ {
		limit = min(limit*s.b+1, math.MaxInt/(4*(s.b+1)*(s.d+1)))
	}
	limit *= s.d + 1
	for s.nodes[0].state != done {
		s.run = s.run[:0]
		for len(s.run) < s.procs {
			i := s.pop()
			if i < 0 {
				break
			}
			if s.probe(i) {
				s.settle()
				continue
			}
			if s.onceNodes {
				if _, _, _, ok := s.seen.get(s.nodes[i].sig); ok {
					s.nodes[i].state = running
					s.execute(i)
					s.settle()
					continue
				}
				s.seen.put(s.nodes[i].sig, 0, 0, 0)
			}
			if s.leafSteps && !s.isLeafTask(i) {
				s.nodes[i].state = running
				s.execute(i)
				s.settle()
				continue
			}
			s.nodes[i].state = running
			s.run = append(s.run, i)
		}
		if len(s.run) == 0 {
			if s.nodes[0].state == done {
				break
			}
			return res, fmt.Errorf("treesim: no task left before the root is done")
		}
		res.Steps++
		res.Nodes += len(s.run)
		if res.Steps > limit {
			return res, fmt.Errorf("treesim: more than %d steps", limit)
		}
		for _, i := range s.run {
			if s.nodes[i].state == running { // not killed by another task's result
				s.execute(i)
			}
		}
		s.settle()
	}
	root := s.nodes[0]
	if root.lo != root.hi {
		return res, fmt.Errorf("treesim: root ended with bounds [%d, %d]", root.lo, root.hi)
	}
	res.Value = root.lo
	return res, nil
}

// probe answers a task from the transposition table when an entry at least as deep decides its
// window; that costs no process.
func (s *Sim) probe(i int32) bool {
	n := &s.nodes[i]
	depth, lo, hi, ok := s.tt.get(n.sig)
	if !ok || int(depth) < int(n.j) || !(lo == hi || lo >= n.b || hi <= n.a) {
		return false
	}
	s.finish(i, lo, hi)
	return true
}

func (s *Sim) store(sig uint64, depth uint8, lo, hi int32) {
	store(&s.tt, sig, depth, lo, hi)
}

// isLeafTask reports whether task i is an evaluation rather than an expansion.
func (s *Sim) isLeafTask(i int32) bool {
	return s.nodes[i].j == 0 || s.oth != nil && s.oth.terminal(s.pos[i])
}

// execute is one process's step on task i: a leaf's evaluation, or a node's expansion.
func (s *Sim) execute(i int32) {
	n := &s.nodes[i]
	if n.j == 0 || s.oth != nil && s.oth.terminal(s.pos[i]) {
		s.evaluate(i)
		return
	}
	pj := int(n.j) - s.idStep
	if s.idStep > 0 && pj >= 1 {
		if depth, _, _, ok := s.tt.get(n.sig); !ok || int(depth) < pj {
			s.startPrelude(i, uint8(pj))
			return
		}
	}
	s.spawnKids(i)
}

func (s *Sim) startPrelude(i int32, depth uint8) {
	p := int32(len(s.nodes))
	n := s.nodes[i]
	s.nodes = append(s.nodes, node{
		sig: n.sig, key: n.key, h: n.h, parent: i, prelude: -1, kids: -1, hist: -1, heapAt: -1,
		a: n.a, b: n.b, as: n.as, bs: n.bs, muA: n.muA, muB: n.muB, sdA: n.sdA, sdB: n.sdB,
		t: n.t, j: depth,
	})
	if s.oth != nil {
		s.pos = append(s.pos, s.pos[i])
	}
	s.nodes[i].prelude = p
	s.nodes[i].state = waiting
	if s.order == Exact {
		s.ex.expand(s, i)
		s.ex.prelude(s, i, p)
	}
	s.queue(p)
}

func (s *Sim) spawnKids(i int32) {
	if s.order == Exact {
		s.ex.expand(s, i)
	}
	n := &s.nodes[i]
	n.state = expanded
	n.lo, n.hi, n.ndone = -inf, -inf, 0
	base := int32(len(s.nodes))
	n.kids = base
	key, t, j, w := n.key, n.t+1, n.j-1, s.weight[n.j-1]
	if s.oth != nil {
		nk := s.oth.children(s.pos[i], int(n.t), s.okBuf[:])
		n.nk = uint8(nk)
		for k, c := range s.okBuf[:nk] {
			s.nodes = append(s.nodes, node{
				sig: c.sig, key: key + uint64(k+1)*w, h: c.h, parent: i, prelude: -1, kids: -1, hist: -1, heapAt: -1,
				t: t, j: j, idx: uint8(k + 1),
			})
			s.pos = append(s.pos, c.pos)
		}
	} else {
		s.tree.children(n.sig, n.h, s.kidBuf)
		n.nk = uint8(s.b)
		for k, c := range s.kidBuf {
			s.nodes = append(s.nodes, node{
				sig: c.sig, key: key + uint64(k+1)*w, h: c.h, parent: i, prelude: -1, kids: -1, hist: -1, heapAt: -1,
				t: t, j: j, idx: uint8(k + 1),
			})
		}
	}
	s.nodes[i].kidsDirty = true
	s.markDirty(i)
	if s.freeLeaves && j == 0 {
		for c := base; c < base+int32(s.nodes[i].nk) && s.nodes[i].state == expanded; c++ {
			s.evaluate(c)
		}
	}
}

// evaluate finishes the search of depth 0 at node i with its value: the leaf's, or the exact
// value of the subtree for the frontier of a shallow search.
func (s *Sim) evaluate(i int32) {
	n := &s.nodes[i]
	var v int32
	switch {
	case s.oth != nil:
		v = s.oth.value(s.pos[i], int(n.t))
	case int(n.t) == s.d:
		v = s.tree.leafValue(n.sig, n.h)
	default:
		v = s.tree.Value(n.sig, n.h, int(n.t))
	}
	s.finish(i, v, v)
}

// finish records the result of node i and tells its parent, which may finish in turn.
func (s *Sim) finish(i int32, lo, hi int32) {
	n := &s.nodes[i]
	n.state = done
	n.lo, n.hi = lo, hi
	s.store(n.sig, n.j, lo, hi)
	s.kill(i)
	n = &s.nodes[i]
	p := n.parent
	if p < 0 {
		return
	}
	if n.idx == 0 { // a shallow search: its result is not used, it only had to be done
		s.spawnKids(p)
		return
	}
	pn := &s.nodes[p]
	pn.lo = max(pn.lo, -hi)
	pn.hi = max(pn.hi, -lo)
	pn.ndone++
	switch {
	case pn.lo >= pn.b:
		s.finish(p, pn.lo, inf)
	case pn.ndone == pn.nk:
		s.finish(p, pn.lo, pn.hi)
	default:
		pn.kidsDirty = true
		s.markDirty(p)
	}
}

// kill ends the searches below node i, which has finished: their tasks leave the heap and
// their results, should a process be running one, are dropped.
func (s *Sim) kill(i int32) {
	n := &s.nodes[i]
	if n.heapAt >= 0 {
		s.remove(n.heapAt)
	}
	if s.order == Exact {
		s.ex.release(s, i)
	}
	if c := n.prelude; c >= 0 && s.nodes[c].state != done {
		s.nodes[c].state = done
		s.kill(c)
	}
	if k := n.kids; k >= 0 {
		for c := k; c < k+int32(n.nk); c++ {
			if s.nodes[c].state != done {
				s.nodes[c].state = done
				s.kill(c)
			}
		}
	}
}

func (s *Sim) markDirty(i int32) {
	for ; i >= 0 && !s.nodes[i].subDirty; i = s.nodes[i].parent {
		s.nodes[i].subDirty = true
	}
}

// settle brings every live node's windows up to date after results came in, finishing the
// nodes whose window closed, and queues the tasks whose priority changed.
func (s *Sim) settle() {
	if s.nodes[0].state != done {
		s.visit(0)
	}
}

func (s *Sim) visit(i int32) {
	for {
		n := &s.nodes[i]
		if n.state == done {
			return
		}
		if n.state == expanded && n.lo >= n.b {
			s.finish(i, n.lo, inf)
			return
		}
		n.subDirty = false
		if n.kidsDirty {
			n.kidsDirty = false
			s.recomputeKids(i)
		}
		if c := s.nodes[i].prelude; c >= 0 && s.nodes[c].state != done && s.nodes[c].subDirty {
			s.visit(c)
			if s.nodes[i].state == done {
				return
			}
		}
		if k := s.nodes[i].kids; k >= 0 {
			for c := k; c < k+int32(s.nodes[i].nk); c++ {
				if s.nodes[c].state == done || !s.nodes[c].subDirty {
					continue
				}
				s.visit(c)
				if s.nodes[i].state == done {
					return
				}
			}
		}
		n = &s.nodes[i]
		if !n.kidsDirty && !n.subDirty {
			return
		}
	}
}

// recomputeKids sets the windows of node i's live children (equations 1-6 and the rules for
// the predicted beta) and passes the changes on.
func (s *Sim) recomputeKids(i int32) {
	n := s.nodes[i]
	if c := n.prelude; c >= 0 && s.nodes[c].state != done {
		// A shallow search uses its node's window.
		changed := s.nodes[c].setWindow(n.a, n.b, n.as, n.bs, n.muA, n.muB, n.sdA, n.sdB)
		if s.order == Exact {
			changed = s.ex.prelude(s, i, c) || changed
		}
		s.touch(c, changed)
	}
	if n.kids < 0 {
		return
	}
	kids := s.nodes[n.kids : n.kids+int32(n.nk)]
	best := -inf // the best finished child, seen from n
	for k := range kids {
		if kids[k].state == done {
			best = max(best, -kids[k].hi)
		}
	}
	first := kids[0].state == done
	// The eldest child's predicted value seen from n: the paper's r_n + epsilon_n.
	var pred, sdPred float64
	if s.oth != nil {
		pred, sdPred = s.oth.predict(kids[0].h, s.pos[n.kids], s.d-int(n.t)-1)
		pred = -pred
	} else {
		pred, sdPred = -(float64(kids[0].h) + s.tree.M.Eps[(s.d-int(n.t)-1)&1]), s.tree.M.SigmaR
	}
	usePred := !first && n.muA < pred
	var changed [maxKids]bool
	seq := n.as // alpha' raised by the finished elder brothers
	for k := range kids {
		c := &kids[k]
		if c.state == done {
			seq = max(seq, -c.hi)
			continue
		}
		muB, sdB := -n.muA, n.sdA
		if k > 0 && usePred {
			muB, sdB = -pred, sdPred
		}
		changed[k] = c.setWindow(-n.b, -max(n.a, best), -n.bs, -seq, -n.muB, muB, n.sdB, sdB)
	}
	if s.order == Exact {
		s.ex.kids(s, i, changed[:n.nk])
	}
	for k := range kids {
		if kids[k].state != done {
			s.touch(n.kids+int32(k), changed[k])
		}
	}
}

// touch passes a change of node c's window on: a task is queued again, a node's children
// recomputed.
func (s *Sim) touch(c int32, changed bool) {
	n := &s.nodes[c]
	switch n.state {
	case pending:
		if changed || n.heapAt < 0 {
			s.queue(c)
		}
	case waiting, expanded:
		if changed {
			n.kidsDirty = true
			n.subDirty = true
		}
	}
}

// queue enters pending task i in the heap, or moves it when its priority changed.
func (s *Sim) queue(i int32) {
	n := &s.nodes[i]
	var pri float64
	switch s.order {
	case Method:
		pri = s.table.P(n.window())
	case NoDist:
		if n.window().NoDist() {
			pri = 1
		}
	case DepthFirst:
		if s.table.P(n.window()) >= oneP {
			pri = 1
		}
	case YBWC:
		if n.idx > 1 && s.nodes[s.nodes[n.parent].kids].state != done {
			return // a younger brother waits for the eldest
		}
	case Exact:
		pri = s.ex.p(s, i)
	}
	if n.heapAt >= 0 {
		if pri == n.pri {
			return
		}
		n.pri = pri
		k := n.heapAt
		s.heap[k].pri = pri
		s.down(s.up(k))
		return
	}
	n.pri = pri
	s.heap = append(s.heap, entry{pri, n.key, i})
	k := int32(len(s.heap) - 1)
	n.heapAt = k
	s.up(k)
}

// The heap is binary and indexed: each queued node knows its position.

func (s *Sim) swap(a, b int32) {
	h := s.heap
	h[a], h[b] = h[b], h[a]
	s.nodes[h[a].node].heapAt = a
	s.nodes[h[b].node].heapAt = b
}

func (s *Sim) up(k int32) int32 {
	for k > 0 {
		p := (k - 1) / 2
		if !s.heap[k].before(s.heap[p]) {
			break
		}
		s.swap(k, p)
		k = p
	}
	return k
}

func (s *Sim) down(k int32) {
	n := int32(len(s.heap))
	for {
		l := 2*k + 1
		if l >= n {
			return
		}
		if r := l + 1; r < n && s.heap[r].before(s.heap[l]) {
			l = r
		}
		if !s.heap[l].before(s.heap[k]) {
			return
		}
		s.swap(k, l)
		k = l
	}
}

// remove takes the entry at position k out of the heap.
func (s *Sim) remove(k int32) {
	last := int32(len(s.heap) - 1)
	s.nodes[s.heap[k].node].heapAt = -1
	if k != last {
		s.heap[k] = s.heap[last]
		s.nodes[s.heap[k].node].heapAt = k
	}
	s.heap = s.heap[:last]
	if k != last {
		s.down(s.up(k))
	}
}

// pop takes the best task off the heap, or returns -1.
func (s *Sim) pop() int32 {
	if len(s.heap) == 0 {
		return -1
	}
	i := s.heap[0].node
	s.remove(0)
	return i
}
