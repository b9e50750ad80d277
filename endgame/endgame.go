package endgame

import (
	"math"
	"math/bits"
	"sync/atomic"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/ybwc"
)

// SolverOptions configure a Solver. The switches exist to measure what each technique buys
// (see the feature table in docs/endgame.md); the defaults (DefaultSolverOptions) turn all of them on.
type SolverOptions struct {
	TableMiB  int  // size of the transposition table in MiB (0: no table)
	Table     bool // use the transposition table
	Stability bool // stability cutoffs
	Parity    bool // region parity in the move order
	Last4     bool // the hand-written code for the last 4 empties (off: the generic search)
	// Aspiration solves a wide root window with narrow windows around a guess first.
	Aspiration bool
	// TableEmpties is the fewest empties at which the table is probed and written (0: default).
	TableEmpties int
	// Eval, when set, orders the moves far from the leaves by shallow searches with the
	// pattern evaluation instead of the mobility fallback. The scores stay exact either way.
	Eval *eval.Evaluator
	// Threads is the number of threads that search each position (0 or 1: one).
	Threads int
	// SplitEmpties is the fewest empties at which a node's moves are shared out among the
	// threads (0: defaultSplitEmpties).
	SplitEmpties int

	Global        GlobalTable // a table shared with other processes (global.go; nil: none)
	GlobalEmpties int         // fewest empties at which Global is asked (0: default)

	// Knobs for tuning experiments (zero: the default).
	midOrderEmpties  int   // fewest empties at which mid sorts moves fastest-first
	aspStep          int   // widening step of the aspiration window
	sortDeep         int   // fewest empties at which deep orders by a shallow search (0: never)
	sortDepth        int   // depth of that shallow search
	sortStep         int   // the shallow search is one ply deeper every sortStep empties above sortDeep (0: never)
	etcEmpties       int   // fewest empties for enhanced transposition cutoffs (0: default)
	wMob, wPot, wPar int32 // fastest-first weights (0: default)
	wCorner          int32 // fastest-first weight of corner stability (0: default, <0: none)
	cornerEmpties    int   // fewest empties at which it is weighed (0: default)
	wBad             int32 // fastest-first penalty of the squares next to an empty corner (0: default, <0: none)
	noBadOrder       bool  // the unsorted nodes (4-6 empties) do not put those squares last
	sortMargin       int   // the shallow-search sort's window below the best move so far (0: default)
	sortDeeper       int   // fewest empties at which that search is 2 plies deeper (0: default)
	stabAlpha        int   // stability cutoffs from this alpha (0: default)
}

// DefaultSolverOptions returns the options with every technique on and a table of ttMiB MiB.
func DefaultSolverOptions(ttMiB int) SolverOptions {
	return SolverOptions{TableMiB: ttMiB, Table: ttMiB > 0, Stability: true, Parity: true, Last4: true, Aspiration: true}
}

// SolveResult is the outcome of a solve.
type SolveResult struct {
	// Score is the final disc difference for the side to move under best play, exact when it
	// lies strictly inside the window; otherwise a bound (fail-soft): Score <= alpha proves
	// exact <= Score, Score >= beta proves exact >= Score.
	Score int
	// Move is the best move (a move achieving Score), board.NoSquare when the side to move
	// must pass or the game is over.
	Move board.Square
	// PV is the principal variation from the position, passes as board.NoSquare. Exact only
	// for an exact Score.
	PV []board.Square
	// Nodes counts the positions searched, leaves with one empty square included; the extra
	// work to extract the PV is not counted.
	Nodes uint64
	// OrderingNodes counts the nodes of the shallow searches over the evaluation that order
	// the moves far from the leaves (and of a probable solve's cut tests), not in Nodes. Edax
	// and Egaroucid count theirs among their nodes: Nodes+OrderingNodes compares with them.
	OrderingNodes uint64
	// ScoredNodes counts the positions made and looked at without a search, not in Nodes:
	// each move the fastest-first order scores (not the table's move, nor a single legal move)
	// and each child probed for an enhanced transposition cutoff. Edax counts both among its nodes (its COUNT_NODES 7:
	// SEARCH_UPDATE_ALL_NODES in movelist_evaluate_fast and search_ETC_NWS); Egaroucid does
	// not, nor does Nodes. Nodes+OrderingNodes+ScoredNodes compares with Edax's count.
	ScoredNodes uint64
	// Interrupted reports that the stop flag ended the solve early: Score, Move and PV are
	// then meaningless.
	Interrupted bool
	// ProvenMove, when Interrupted and not board.NoSquare: a root aspiration window that
	// finished before the stop proved that this move scores at least ProvenLow (at the
	// solve's selectivity). The first window is the win/loss/draw one, so a solve stopped
	// while it narrows a winning score down may still name a winning move.
	ProvenMove board.Square
	ProvenLow  int
}

// Solver is an exact endgame solver. It holds all the state of a solve (the transposition
// table, counters, the stop flag); a Solver is reused across positions and must not be used by
// two goroutines at once. Two Solvers are independent.
type Solver struct {
	opt              SolverOptions
	tt               *endTT // shared by the solvers of a parallel team
	ttMin            int    // fewest empties at which the table is used
	midOrder         int    // fewest empties at which mid sorts its moves
	aspStep          int
	sortDeep         int // for the running solve (see sortBelowRoot)
	sortDeepBase     int
	sortDepth        int
	etcEmpties       int
	sortMargin       int
	sortDeeper       int
	wMob, wPot, wPar int32
	wCorner, wBad    int32
	cornerEmpties    int
	// stabAlpha is the lowest alpha at which a node of 4 empties or more tries a stability
	// cutoff; above 64 (inf), never.
	stabAlpha int
	// hint, when set (SetMoveHint), names a move to search first at nodes of at least
	// HintEmpties empties where the solver's own table has none (noMove: no hint).
	hint func(p, o uint64) int
	// guess is the score the root's aspiration starts at (SolveNear), noGuess for Solve's
	// win/loss/draw window.
	guess int
	// provenLow and provenMove: the best lower bound a finished root aspiration window of
	// this solve proved, and the move that proved it (noMove: none; SolveResult.ProvenMove).
	provenLow  int
	provenMove int
	nodes      uint64
	nextPoll   uint64
	// evalNodes counts the nodes of the shallow searches over the evaluation (ordering and
	// probable-solve cuts), which nodes leaves out; a probable solve polls on them too.
	evalNodes, nextEvalPoll uint64
	// evalHanded is how many of them went to the owners of splits this solver helped, less
	// what its own splits' helpers handed to it: orderingNodes is what it reports.
	evalHanded uint64
	// scored counts the positions of SolveResult.ScoredNodes, scoredHanded as evalHanded.
	scored, scoredHanded uint64
	stop                 *atomic.Bool
	deadline             time.Time // zero: none; polled with stop
	// level is the selectivity of the solve (0: exact; see SetSelectivity) and mpcT its
	// Multi-ProbCut threshold in standard deviations.
	level    int
	mpcT     float64
	stopped  bool
	progress atomic.Uint64
	// Parallel search (parallel.go): the team of solvers sharing the table (nil: one
	// thread), this solver's thread in the team's pool, and its split points.
	team         *team
	thread       int
	th           *ybwc.Thread
	splitEmpties int
	nSplits      int
	splits       [maxSplits]endSplit
	// lists[e] is the move list of the node with e empties on the current path: kept here,
	// it is neither allocated nor cleared per node.
	lists [61]moveList
}

const (
	inf = 127
	// pollNodes is how many nodes pass between two looks at the stop flag.
	pollNodes = 1 << 14
	// defaultTableEmpties: with fewer empties a subtree is cheaper to search than the table
	// probes and writes it would save (measured, see docs/endgame.md).
	// From 9 rather than 10 since the children's buckets are loaded ahead of their probes
	// (endTT.prefetch). With mobility order from 6 empties (midOrderEmpties), FFO #45-#46 466.0 M
	// nodes in 13.4 s of CPU against 523.3 M in 13.3 s from 10; from 8, 431.6 M in 14.3 s
	// (one quiet run, 2026-11-25).
	defaultTableEmpties = 9
	// From sortDeepEmpties empties on, moves are ordered by a shallow search of depth
	// sortDeepDepth; measured on FFO #26-#42: 12% fewer nodes and 10% less time than
	// fastest-first alone.
	sortDeepEmpties = 16
	sortDeepDepth   = 3
	// sortBelowRoot: a solve of more than sortDeepEmpties+sortBelowRoot empties sorts only
	// from sortBelowRoot empties below its root. There the sorts' nodes are 13-19% of the
	// solver's, against 3% at 24-26 empties, and cost more than they save: from 17 instead of
	// 16, FFO #55-#59 (29-34 empties) 2.6-10% less time, #45-#49 (24-26) 4.6% more; then
	// #57-#59 8.2% less again, most of it #59's (docs/endgame.md).
	sortBelowRoot = 12
	// etcEmpties: from here on, children are looked up in the table before any is searched
	// (enhanced transposition cutoff); 8% fewer nodes on FFO #26-#42. From 11 rather than 12
	// since commit cf9651f: FFO #20-#39 1.2% fewer nodes and about 1% less time, the
	// probable band 1% less. From 10 with the table from 9: FFO #40-#44 0.6% fewer nodes, 2% more
	// time (1b78794).
	etcEmpties = 11
	// sortMargin: the shallow-search sort tells apart the moves within 2 discs of the best so
	// far; the others get fail-soft bounds (-1: full windows). FFO #56 2% more nodes in 12%
	// less time than full windows (docs/endgame.md).
	sortMargin = 2 * eval.Scale
	// sortDeeperEmpties: from here on the sort searches 2 plies deeper; off (99), as from 24 it
	// saved 3.5% on FFO #56 but cost 3.7% on #45-#49 and was not measured on all of #53-#59
	// (docs/endgame.md).
	sortDeeperEmpties = 99
)

// NewSolver returns a solver with every technique on and a transposition table of ttMiB MiB.
func NewSolver(ttMiB int) *Solver { return NewSolverWith(DefaultSolverOptions(ttMiB)) }

// NewSolverWith returns a solver with the given options.
func NewSolverWith(opt SolverOptions) *Solver {
	s := &Solver{opt: opt, ttMin: opt.TableEmpties, midOrder: opt.midOrderEmpties, aspStep: opt.aspStep}
	if s.midOrder <= 0 {
		s.midOrder = midOrderEmpties
	}
	s.sortDeep, s.sortDepth = opt.sortDeep, opt.sortDepth
	if s.sortDeep <= 0 {
		s.sortDeep = sortDeepEmpties
	}
	s.sortDeepBase = s.sortDeep
	if s.sortDepth <= 0 {
		s.sortDepth = sortDeepDepth
	}
	s.sortDeeper = opt.sortDeeper
	if s.sortDeeper <= 0 {
		s.sortDeeper = sortDeeperEmpties
	}
	s.sortMargin = opt.sortMargin
	if s.sortMargin == 0 {
		s.sortMargin = sortMargin
	}
	s.etcEmpties = opt.etcEmpties
	if s.etcEmpties <= 0 {
		s.etcEmpties = etcEmpties
	}
	s.wMob, s.wPot, s.wPar = opt.wMob, opt.wPot, opt.wPar
	if s.wMob == 0 {
		// Potential mobility at a quarter of a mobility unit, not an eighth: FFO #40-#49 789.4 M
		// nodes against 796.4 M, #50-#54 7,746 M against 7,881 M, in the same time or less.
		s.wMob, s.wPot, s.wPar = 64, 16, 24
	}
	s.wCorner, s.cornerEmpties = opt.wCorner, opt.cornerEmpties
	if s.wCorner == 0 {
		s.wCorner = 32
	}
	if s.wCorner < 0 {
		s.wCorner = 0
	}
	s.wBad = opt.wBad
	if s.wBad == 0 {
		s.wBad = 16
	}
	if s.wBad < 0 {
		s.wBad = 0
	}
	if s.cornerEmpties <= 0 {
		s.cornerEmpties = cornerEmpties
	}
	if s.aspStep <= 0 {
		s.aspStep = 2
	}
	if s.ttMin <= 0 {
		s.ttMin = defaultTableEmpties
	}
	if s.ttMin < 5 {
		s.ttMin = 5
	}
	if !opt.Table || opt.TableMiB <= 0 {
		s.opt.Table = false
		s.ttMin = 99
		s.tt = &endTT{}
	} else {
		s.tt = newEndTT(opt.TableMiB)
	}
	s.stabAlpha = opt.stabAlpha
	if s.stabAlpha == 0 {
		s.stabAlpha = stabilityAlpha
	}
	if !opt.Stability {
		s.stabAlpha = inf
	}
	s.splitEmpties = opt.SplitEmpties
	if s.splitEmpties <= 0 {
		s.splitEmpties = defaultSplitEmpties
	}
	s.newTeam(max(opt.Threads, 1))
	for _, m := range s.team.members {
		m.th = s.team.pool.Thread(m.thread)
	}
	return s
}

// HintEmpties is the fewest empties at which the solver asks its move hint. An engine's hint is
// the best move its midgame iterations stored for the position; from fewer empties those
// entries come from shallow searches and order worse than the solver's own sort. On 100
// positions at 22-23 empties of level-12 games, each searched by a fresh engine at depth 12
// with its probable win/loss/draw band: hints from 20 empties 274 M nodes, from 18 289 M,
// from 14 292 M, none 312 M; the same moves and results in all 100.
const HintEmpties = 20

// SetMoveHint installs a move hint for the nodes of at least HintEmpties empties that the
// solver's table knows nothing of: hint returns a square to search first, or noMove (64) or
// any square that is not a legal move for none. The hint only orders moves; the scores do not
// depend on it (nil removes it).
func (s *Solver) SetMoveHint(hint func(p, o uint64) int) { s.hint, s.team.set.hint = hint, hint }

// SetStop installs a flag that another goroutine may set to end the current solve early; the
// solver looks at it every few thousand nodes. nil removes it.
func (s *Solver) SetStop(stop *atomic.Bool) { s.stop, s.team.set.stop = stop, stop }

// SetDeadline makes the solves stop at t, looked at with the stop flag (the zero time: none).
func (s *Solver) SetDeadline(t time.Time) { s.deadline, s.team.set.deadline = t, t }

// Reset clears the stop of an interrupted solve for the next one: a search that calls
// Window (the midgame search) calls it before each search; Solve does it itself.
func (s *Solver) Reset() { s.team.halt.Store(false) }

// Selectivity is the level set by SetSelectivity (0 without the pattern evaluation).
func (s *Solver) Selectivity() int { return s.level }

// Progress returns the number of nodes of the current solve, updated every few thousand
// nodes; safe to call from another goroutine.
func (s *Solver) Progress() uint64 { return s.progress.Load() }

// ClearTable empties the transposition table (its entries stay valid across positions; this
// is only for measurements that must not profit from earlier solves).
func (s *Solver) ClearTable() {
	if s.opt.Table {
		s.tt.clear()
	}
}

// Solve returns the exact final score of the position (p to move against o) within the
// window (alpha, beta), fail-soft: see SolveResult. Solve(p, o, -64, 64) is a full solve,
// Solve(p, o, -1, 1) a win/loss/draw proof.
func (s *Solver) Solve(p, o uint64, alpha, beta int) SolveResult {
	return s.SolveNear(p, o, alpha, beta, noGuess)
}

// noGuess: no expected score, the aspiration starts with the win/loss/draw window.
const noGuess = math.MinInt

// SolveNear is Solve whose root aspiration starts with a window of two around guess, an
// expected score (a midgame search's, say), instead of the win/loss/draw window: when the
// guess is right, the first window proves the score. The result does not depend on it.
func (s *Solver) SolveNear(p, o uint64, alpha, beta, guess int) SolveResult {
	s.guess = guess
	s.provenMove = noMove
	s.setSortDeep(bits.OnesCount64(^(p | o)))
	s.team.set.sortDeep = s.sortDeep
	s.team.pool.Start()
	defer s.team.pool.Stop()
	s.team.halt.Store(false)
	s.nodes = 0
	s.nextPoll = pollNodes
	e0, c0 := s.orderingNodes(), s.scoredNodes()
	s.stopped = false
	s.progress.Store(0)
	s.tt.gen++
	// Scores lie in [-64, 64]: a window reaching either end proves nothing beyond it, so it
	// is opened by one to make the extreme scores exact.
	if alpha <= -64 {
		alpha = -65
	}
	if beta >= 64 {
		beta = 65
	}
	if alpha >= beta {
		alpha = beta - 1
	}
	score, move := s.root(p, o, alpha, beta)
	res := SolveResult{Score: score, Move: board.Square(move), Nodes: s.nodes, OrderingNodes: s.orderingNodes() - e0, ScoredNodes: s.scoredNodes() - c0, Interrupted: s.stopped, ProvenMove: board.NoSquare}
	if move == noMove {
		res.Move = board.NoSquare
	}
	if !s.stopped && score > alpha && score < beta {
		res.PV = s.principalVariation(p, o, score, move)
	}
	s.progress.Store(s.nodes)
	res.Nodes = s.nodes
	if res.Interrupted {
		res.Score, res.Move, res.PV = 0, board.NoSquare, nil
		if s.provenMove != noMove {
			res.ProvenMove, res.ProvenLow = board.Square(s.provenMove), s.provenLow
		}
	}
	return res
}

// setSortDeep sets the fewest empties at which this solver sorts by shallow searches for a
// search whose root has rootEmpties (sortBelowRoot).
func (s *Solver) setSortDeep(rootEmpties int) {
	s.sortDeep = s.sortDeepBase
	if s.opt.sortDeep == 0 {
		s.sortDeep = max(s.sortDeepBase, rootEmpties-sortBelowRoot)
	}
}

// orderingNodes counts the ordering nodes this solver reports: its own and its helpers'.
func (s *Solver) orderingNodes() uint64 { return s.evalNodes - s.evalHanded }

// scoredNodes counts the scored positions this solver reports: its own and its helpers'.
func (s *Solver) scoredNodes() uint64 { return s.scored - s.scoredHanded }

// root searches the position with aspiration when the window is wide, and returns the score
// and the best move (noMove for a pass or a finished game).
func (s *Solver) root(p, o uint64, alpha, beta int) (int, int) {
	empties := bits.OnesCount64(^(p | o))
	if board.LegalMoves(p, o) == 0 {
		if board.LegalMoves(o, p) == 0 {
			return finalScore(p, o), noMove
		}
		if s.guess != noGuess {
			s.guess = -s.guess // the guess is the side to move's
		}
		v, _ := s.root(o, p, -beta, -alpha)
		s.provenMove = noMove // the opponent's move, and its bound
		return -v, noMove
	}
	if !s.opt.Aspiration || beta-alpha <= 2 || empties < 12 {
		return s.rootSearch(p, o, alpha, beta, empties)
	}
	// Aspiration: a narrow window around a guess, widened on the failing side until the score
	// lies inside. Final scores are even except in rare odd-disc endings, hence the steps.
	// The first window is the win/loss/draw one, (-1, 1), when the caller's window allows:
	// cheap to prove, and its fail-soft bound is a good first guess of the score; or, with
	// SolveNear, the one around the caller's guess.
	guess := 0
	if s.guess != noGuess {
		guess = max(-64, min(64, s.guess))
	}
	guess = min(max(guess, alpha+1), beta-1)
	lo, hi := max(alpha, guess-1), min(beta, guess+1)
	failedLow, failedHigh := false, false
	for {
		v, m := s.rootSearch(p, o, lo, hi, empties)
		if s.stopped || (v > lo && v < hi) || v <= alpha || v >= beta {
			return v, m
		}
		// A probable solve's cuts depend on the window, so its bounds need not agree: once the
		// windows have failed on both sides the caller's whole window settles it (an exact
		// solve never gets here). The stop is polled here too, as a root whose children all
		// answer from the table counts few nodes.
		if v >= hi && m != noMove && (s.provenMove == noMove || v > s.provenLow) {
			s.provenLow, s.provenMove = v, m
		}
		if afterRootWindow != nil {
			afterRootWindow(s)
		}
		failedLow, failedHigh = failedLow || v <= lo, failedHigh || v >= hi
		if s.poll(); s.stopped {
			return 0, noMove
		}
		if failedLow && failedHigh {
			lo, hi = alpha, beta
			continue
		}
		// v failed one side of the narrow window but lies inside the caller's: move towards it.
		if v <= lo {
			hi = v + 1
			lo = max(alpha, v-s.aspStep-1)
		} else {
			lo = v - 1
			hi = min(beta, v+s.aspStep+1)
		}
	}
}

// afterRootWindow, when set (tests only), is called after each root aspiration window that
// neither ends the solve nor holds the score.
var afterRootWindow func(s *Solver)

// rootSearch is the negascout of the root, which also returns the best move.
func (s *Solver) rootSearch(p, o uint64, alpha, beta, empties int) (int, int) {
	var list moveList
	s.genMoves(&list, p, o, empties, s.rootParity(p, o), noMove, unknownMoves)
	ttMove := noMove
	if e, ok := s.ttEntry(p, o, empties); ok && e.move != noMove {
		ttMove = int(e.move)
	}
	if ttMove == noMove && s.hint != nil && empties >= HintEmpties {
		ttMove = s.hint(p, o)
	}
	if empties >= s.sortDeep {
		s.sortByShallowSearch(&list, p, o, ttMove)
	}
	if ttMove != noMove {
		list.promote(ttMove)
	}
	best, bestMove := -inf, noMove
	a := alpha
	parity := s.rootParity(p, o)
	for i := 0; i < list.n; i++ {
		if i > 0 && empties >= s.splitEmpties {
			if b, bm, ok := s.trySplit(&list, i, p, o, a, beta, empties, parity, best, bestMove, true); ok {
				if s.stopped {
					return 0, noMove
				}
				best, bestMove = b, bm
				break
			}
		}
		list.selectBest(i)
		m := &list.m[i]
		np, no := o^m.flips, p|m.flips|1<<uint(m.sq)
		var v int
		if i == 0 {
			v = -s.search(np, no, -beta, -a, empties-1, parity^quadrant[m.sq])
		} else {
			v = -s.search(np, no, -a-1, -a, empties-1, parity^quadrant[m.sq])
			if v > a && v < beta && !s.stopped {
				v = -s.search(np, no, -beta, -v, empties-1, parity^quadrant[m.sq])
			}
		}
		if s.stopped {
			return 0, noMove
		}
		if v > best {
			best, bestMove = v, int(m.sq)
			if v > a {
				a = v
				if v >= beta {
					break
				}
			}
		}
	}
	if s.opt.Table && empties >= s.ttMin {
		s.tt.store(p, o, empties, alpha, beta, best, bestMove, s.level)
	}
	return best, bestMove
}

func (s *Solver) ttEntry(p, o uint64, empties int) (endEntry, bool) {
	if !s.opt.Table || empties < s.ttMin {
		return endEntry{}, false
	}
	return s.tt.probe(p, o)
}

// rootParity returns the quadrants holding an odd number of empty squares.
func (s *Solver) rootParity(p, o uint64) uint {
	var parity uint
	for e := ^(p | o); e != 0; e &= e - 1 {
		parity ^= quadrant[bits.TrailingZeros64(e)]
	}
	return parity
}

// principalVariation follows the exact score down the tree: at each position it takes the
// table's move when that move provably keeps the score, else the first move that does.
func (s *Solver) principalVariation(p, o uint64, score, first int) []board.Square {
	// Its work is not counted, in any of the counts.
	saved, savedEval, savedScored := s.nodes, s.evalNodes, s.scored
	defer func() { s.nodes, s.evalNodes, s.scored = saved, savedEval, savedScored }()
	var pv []board.Square
	for len(pv) < 80 {
		moves := board.LegalMoves(p, o)
		if moves == 0 {
			if board.LegalMoves(o, p) == 0 {
				break
			}
			pv = append(pv, board.NoSquare)
			p, o, score = o, p, -score
			continue
		}
		empties := bits.OnesCount64(^(p | o))
		parity := s.rootParity(p, o)
		found := noMove
		try := func(sq int) bool {
			f := flips(p, o, sq)
			np, no := o^f, p|f|1<<uint(sq)
			return -s.search(np, no, -score-1, -score+1, empties-1, parity^quadrant[sq]) == score
		}
		if first != noMove && moves&(1<<uint(first)) != 0 && try(first) {
			found = first
		}
		if found == noMove {
			// Copy the move out of the entry: the search in try may overwrite the entry.
			if e, ok := s.ttEntry(p, o, empties); ok {
				if tm := int(e.move); tm != noMove && moves&(1<<uint(tm)) != 0 && try(tm) {
					found = tm
				}
			}
		}
		for m := moves; found == noMove && m != 0; m &= m - 1 {
			if sq := bits.TrailingZeros64(m); try(sq) {
				found = sq
			}
		}
		if found == noMove {
			break // cannot happen with an exact score; stop rather than loop
		}
		first = noMove
		pv = append(pv, board.Square(found))
		f := flips(p, o, found)
		p, o, score = o^f, p|f|1<<uint(found), -score
	}
	return pv
}
