package search

import (
	"context"
	"sort"
	"sync/atomic"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/ybwc"
)

// Config sets up an Engine. The zero Config is the full engine with the mobility/corner
// evaluation; the No* switches turn single features off for measurements (othello bench).
type Config struct {
	TTMiB int // memory for the two bounds tables together, in MiB (0: 16)
	// SolverMiB is the endgame solver's table, in MiB (0: 16).
	SolverMiB int
	// Eval is the evaluation (nil: the plain mobility/corner one).
	Eval *eval.Evaluator

	NoMPC       bool // never use Multi-ProbCut, whatever Limits.Selectivity says
	NoPVS       bool // plain alpha-beta everywhere
	NoPrevOrder bool // do not order moves by the previous iteration's table
	NoKiller    bool // no killer moves in the last plies' fixed order
	// ExactOrderKeys: the shallow searches that order a node's moves resolve every move's
	// value (a full window), not only those near or above the node's alpha (sortAlphaDelta;
	// measurement, and always so with DepthByDeviation, which needs the values).
	ExactOrderKeys bool
	// NoTable: the bounds tables give no cutoffs and take no entries (measurement; without
	// Multi-ProbCut a search's value is then the minimax value whatever its move order, which
	// the parallel search's tests use).
	NoTable bool
	// NoStaticCut: no Multi-ProbCut tests at heights 1-2, where the test is the static
	// evaluation's prediction alone (staticCut; measurement).
	NoStaticCut bool
	// NoEvalCache: every static evaluation sums the patterns, none is taken from the engine's
	// cache of recent values (eval.Cache; measurement: the values are the same either way).
	NoEvalCache bool
	// PVSHeight and TTHeight override the heights where PVS and the tables start (0: the
	// measured defaults, which for the tables depend on the selectivity).
	PVSHeight int
	TTHeight  int
	// EvalOrderHeight overrides the height from which moves without a table entry are
	// ordered by a shallow search of each child rather than the cheap mobility score (0: the
	// measured default; a height above any search's turns it off).
	EvalOrderHeight int
	// EndHandover overrides how many empties a search that reaches the end of the game has
	// left when it hands the node to the exact solver (0: the measured default; negative:
	// never, the midgame search goes on to the last move).
	EndHandover int
	// LeafSolve: leaves of the midgame search with at most this many empties get their exact
	// value from the solver instead of the evaluation (0: timedLeafSolve under a game clock or
	// a time per move of timedLeafSolveMoveTime or more, defaultLeafSolve otherwise; negative:
	// never).
	LeafSolve int
	// ProbableBand: under time control, positions up to this many empties above the exact
	// solve get probable solves (endgame Multi-ProbCut) instead of a win/loss/draw proof
	// (0: defaultProbableBand; negative: none, the proof as before).
	ProbableBand int
	// NoWLDRefine: where a win/loss/draw proof picks the move to play, play the solver's first
	// winning move instead of the midgame's best among the winning ones (refineWLD;
	// measurement).
	NoWLDRefine bool
	// NoSolveBudget: under a game clock, a solving move gets the same hard limit as any other
	// (a third of the usable clock at most) instead of half (measurement).
	NoSolveBudget bool
	// NoTimeExtension: under a game clock, stop starting midgame iterations at the plan's soft
	// limit even when the last one changed the best move or lowered the value (measurement).
	NoTimeExtension bool
	// NoResultTime: under a game clock, from the end phase on (resultTimeFrom empties) a move's
	// target and limits do not follow how close the value of the engine's previous move was
	// to a draw (by default they do: more time when the game's result is at stake, less when
	// it is not; resultFactor, timePlan.scaled).
	NoResultTime bool
	// NoEndSolves: under time control, a midgame search whose last iteration reached the end
	// of the game (selectively) before the soft limit stops there, instead of going on with
	// the solver's probable solves of higher confidence and the exact solve (endSolveLevels;
	// measurement).
	NoEndSolves bool
	// NoTimeBand: under time control, no band of win/loss/draw proofs or probable solves
	// above the exact solve, whose midgame search stops at depth 10: such a position keeps
	// the whole midgame search, which reaches the end of the game selectively, and the
	// solves after it (endSolveLevels; measurement).
	NoTimeBand bool
	// EndWLD: those solves prove the game result (win/loss/draw, at the same levels,
	// refineWLD) instead of solving the score (measurement).
	EndWLD bool
	// TimeBandTop, when above 0: under time control the band of proofs or probable solves
	// stops at this many empties; a band position with more keeps the whole midgame search,
	// as with NoTimeBand (measurement).
	TimeBandTop int
	// BandWLD: under time control, after the band's first probable solve (73%) the surer
	// ones (95%, exact) prove the game result in its ranking (refineWLD) instead of solving
	// the score, when one move is wanted (measurement).
	BandWLD bool
	// Settle: under a game clock, a best move kept for several deep iterations at a steady
	// value shrinks the soft limit (iterHistory.add; measurement).
	Settle bool
	// ClockSelectivity: under a game clock, a move whose time is long enough searches at the
	// less selective clockLevel at most (measurement; off, the level asked for).
	ClockSelectivity bool
	// NoSolverHint: the in-game solver does not order its nodes of 20 or more empties by the
	// midgame tables' moves (midgameHint; measurement).
	NoSolverHint bool
	// WLDLevel overrides the solver selectivity of the win/loss/draw band above the exact
	// solve (0: the plan's, see levelWLDSelectivity; negative: proofs; measurement).
	WLDLevel int
	// MPCScreen is the width of the Multi-ProbCut screen, in deviations of the static
	// evaluation's prediction (probCut; 0: defaultMPCScreen; negative: no screen, every test
	// runs its shallow search).
	MPCScreen float64
	// MPCT overrides the midgame Multi-ProbCut threshold of the search's level, in standard
	// deviations (0: the level's own, endgame.SelectivityT; measurement). The solver's probable
	// solves keep their level's threshold.
	MPCT float64
	// MPCTop is the highest height with Multi-ProbCut tests (0: DefaultMPCTop); heights above
	// the fitted ones get derived regressions (MPCParams.withDeepHeights).
	MPCTop int
	// ClockHorizon is the empties down to which a game clock is shared out over the moves
	// left (0: defaultClockHorizon; measurement).
	ClockHorizon int
	// EndHorizon is the empties down to which a game clock is shared out from
	// EndHorizon+endPhase empties on, when it is above the clock horizon (planTimeTo; 0:
	// defaultEndHorizon; negative: none; measurement).
	EndHorizon int
	// EndProofWeight counts a game clock's own moves at EndHorizon+3 and EndHorizon+4 empties
	// as this many moves when the end phase's clock is shared out (planTimeWeighted; 0 or 1:
	// one; measurement).
	EndProofWeight int
	// EndLastShare is the percentage of the usable clock the last own move before the end
	// horizon targets and may take (planTimeWeighted; 0: half, as one of two moves left;
	// measurement).
	EndLastShare int
	// ExactTimeScale, when above 0, multiplies the budget from which a timed search picks the
	// empties of its exact solve (exactEmptiesForTime): above 1 it solves exactly from more
	// empties for the same time, and the band of proofs or probable solves above it moves up
	// with it (measurement).
	ExactTimeScale float64
	// SurerLevels, when not empty, are the solver selectivities, in order, of the solves that
	// follow a timed search's first probable solve or its selective search to the end of the
	// game (default {3, 0}: 95%, then exact; endSolveLevels; measurement).
	SurerLevels []int
	// NoSalvage: a score solve stopped by the clock is dropped whole, even when one of its
	// finished root windows proved a win for another move than the one to be played
	// (salvageSolve; measurement).
	NoSalvage bool
	// Threads is the number of threads that search each position (0 or 1: one).
	Threads int
	// Parallel chooses what a thread does when no split point is open: wait (ParallelYBWC)
	// or take speculative tasks (ParallelSpeculative); the zero value is the measured default.
	Parallel ParallelMode
	// SplitHeight is the least height at which a node's moves are shared out among the
	// threads (0: defaultSplitHeight).
	SplitHeight int
	// MPC holds the Multi-ProbCut regressions (nil: MPCFor(Eval), those stored with the weights).
	MPC *MPCParams
	// DepthByDeviation: nodes of height devMinHeight or more search each child to their
	// height minus a cost in plies that depends on the child's deviation value among its
	// siblings (deviation.go, docs/deviation.md); DevCost is the table (nil: DevCostFor(Eval),
	// the one stored with the weights or the committed default).
	DepthByDeviation bool
	DevCost          *DevCost
}

// Engine holds all the state of one search: two Engines may search at the same time in one
// process. An Engine runs one search at a time; its methods are not safe for concurrent use.
type Engine struct {
	cfg       Config
	tables    [2]boundsTable
	cur, prev *boundsTable
	gen       uint8
	usePrev   bool
	pvsHeight int
	ttHeight  int
	ev        *eval.Evaluator
	evc       *eval.Cache // the evaluator's recent values (nil: none)
	scale     int         // evaluation units per disc
	maxScore  int         // 64 discs in evaluation units: no score, evaluated or final, is beyond it
	// bitboardEval: the evaluation reads only the bitboards, so leaves skip Make.
	bitboardEval bool
	// evalOrderHeight: from this height children are ordered by a shallow search (the full
	// evaluation at first); below it by the cheap mobility/corner score.
	evalOrderHeight int
	mpc             *MPCParams
	level           int     // selectivity level of the running search
	mpcT            float64 // its confidence threshold
	mpcScreen       float64 // probCut screen width in deviations of the static prediction (0: off)
	clockHorizon    int     // empties down to which a game clock is shared out (planTimeTo)
	endHorizon      int     // the same near the end (planTimeTo; 0: none)
	solver          *endgame.Solver
	solveStop       atomic.Bool // set by a watcher goroutine to stop the solver
	endHandover     int         // nodes of a search to the end with this many empties go to the solver
	leafSolve       int         // leaves with this many empties or fewer are solved, not evaluated
	// mayReachEnd: the running search is as deep as the empties somewhere, so nodes must look
	// for the end of the game (height minus empties is the same all along a path, passes
	// included, and check searches are shallower); false spares the other searches the test.
	mayReachEnd bool

	// dev is the cost table of depth by deviation value (nil: off), devHeight the lowest
	// height of its nodes, devRem the fraction of a ply (1/devUnit) a node hands its child.
	dev       *DevCost
	devHeight int
	devRem    int

	// per-search state
	b            board.Board
	ply          int
	nodes        uint64
	nextPoll     uint64 // node count of the next poll
	stopped      bool
	ctx          context.Context
	start        time.Time
	hardDeadline time.Time
	hasDeadline  bool
	nodeLimit    uint64
	pv           [maxPly][maxPly]board.Square
	pvLen        [maxPly]int
	// lastEmpties and lastValue: the empties and best value (scale units) of the last search,
	// kept for the next one (Config.NoResultTime); 0 empties when there is none.
	lastEmpties, lastValue int
	// Parallel search (parallel.go): the team, this engine's thread and its split points.
	team        *midTeam
	th          *ybwc.Thread
	splitHeight int
	nSplits     int
	splits      [16]midSplit
	root        rootSplit
	// specQ: the speculative tasks' queue, on the first thread in speculative mode (nil:
	// none).
	specQ *specQueue
	// speculating: the engine runs a speculative task (a helper's), which serves the split
	// points that recruit its thread.
	speculating bool
	// rootHeight is the running iteration's height: a node with height+ply below it lies in
	// a shallower check or ordering search, whose brothers are not published.
	rootHeight int
	// killer[ply] is the move (a bitboard of one square, or 0) that last refuted a node at
	// ply below sortHeight (always 0 with cfg.NoKiller).
	killer [maxPly]uint64
}

// midgameHint is the solver's move hint (endgame.Solver.SetMoveHint): the best move the midgame
// iterations stored for the position, from the current table or the previous one. A band
// solve at 21-23 empties follows midgame iterations that searched its top plies 8-10 plies
// deep; their moves order those nodes better than the solver's shallow searches (commit
// 4d4f705, level 12 against NTest depth 12, openings 101-300, 400 games: the band's time
// per move relative to NTest's -12%, the score 50.1% against 50.5%, paired -0.4, SE 0.4).
func (e *Engine) midgameHint(p, o uint64) int {
	key := boundsHash(p, o)
	en, ok := e.cur.probe(key, e.gen)
	if !ok {
		en, ok = e.prev.probe(key, e.gen-1)
	}
	if !ok || en.move < 0 {
		return endgame.NoMove
	}
	return int(en.move)
}

// NewEngine makes an engine with its tables allocated.
func NewEngine(cfg Config) *Engine {
	e := &Engine{}
	e.configure(cfg)
	solverMiB := cfg.SolverMiB
	if solverMiB <= 0 {
		solverMiB = 16
	}
	so := endgame.DefaultSolverOptions(solverMiB)
	so.Eval = cfg.Eval // deep ordering of in-game solves by the pattern evaluation
	so.Threads = max(cfg.Threads, 1)
	e.solver = endgame.NewSolverWith(so)
	e.solver.SetStop(&e.solveStop)
	if !cfg.NoSolverHint {
		e.solver.SetMoveHint(e.midgameHint)
	}
	mib := cfg.TTMiB
	if mib <= 0 {
		mib = 16
	}
	e.tables[0] = newBoundsTable(mib << 19)
	e.tables[1] = newBoundsTable(mib << 19)
	e.cur, e.prev = &e.tables[0], &e.tables[1]
	e.mpc = cfg.MPC
	if e.mpc == nil {
		e.mpc = MPCFor(cfg.Eval)
	}
	if e.mpc != nil {
		top := DefaultMPCTop
		if cfg.MPCTop > 0 {
			top = cfg.MPCTop
		}
		e.mpc = e.mpc.withDeepHeights(top)
	}
	if cfg.DepthByDeviation {
		c := DevCostFor(cfg.Eval)
		if cfg.DevCost != nil {
			c = cfg.DevCost
		}
		// A copy within the bounds that keep every child's height positive and make every
		// deviation node lower the fractional height (the search ends).
		e.dev = &DevCost{Eval: c.Eval}
		for i, v := range c.Cost {
			e.dev.Cost[i] = min(max(v, devMinCost), devMaxCost)
		}
	}
	e.newTeam()
	return e
}

// configure sets the fields that follow from the configuration alone (a helper of a
// parallel search gets them too).
func (e *Engine) configure(cfg Config) {
	e.cfg, e.scale, e.bitboardEval, e.evalOrderHeight = cfg, mobilityScale, true, defaultEvalOrderHeight
	if cfg.Eval != nil {
		e.ev, e.scale, e.bitboardEval = cfg.Eval, eval.Scale, false
		if !cfg.NoEvalCache {
			e.evc = eval.NewCache(cfg.Eval)
		}
	}
	e.maxScore = 64 * e.scale
	if cfg.EvalOrderHeight > 0 {
		e.evalOrderHeight = cfg.EvalOrderHeight
	}
	e.devHeight = max(devMinHeight, e.evalOrderHeight)
	e.endHandover = defaultEndHandover
	if cfg.EndHandover != 0 {
		e.endHandover = max(cfg.EndHandover, -1)
	}
	e.leafSolve = leafSolveFor(cfg, Limits{}) // begin sets it for each search
	e.usePrev = !cfg.NoPrevOrder
	e.pvsHeight = defaultPVSHeight
	if cfg.PVSHeight > 0 {
		e.pvsHeight = cfg.PVSHeight
	}
	if cfg.NoPVS {
		e.pvsHeight = maxPly
	}
	switch {
	case cfg.MPCScreen > 0:
		e.mpcScreen = cfg.MPCScreen
	case cfg.MPCScreen == 0:
		e.mpcScreen = defaultMPCScreen
	}
	e.clockHorizon, e.endHorizon = defaultClockHorizon, defaultEndHorizon
	switch {
	case cfg.EndHorizon > 0:
		e.endHorizon = cfg.EndHorizon
	case cfg.EndHorizon < 0:
		e.endHorizon = 0
	}
	if cfg.ClockHorizon > 0 {
		e.clockHorizon = cfg.ClockHorizon
	}
	e.splitHeight = defaultSplitHeight
	if cfg.SplitHeight > 0 {
		e.splitHeight = cfg.SplitHeight
	}
}

// evaluate is the static value of e.b from the side to move's view, in e.scale units per disc.
func (e *Engine) evaluate() int {
	if e.ev != nil {
		if e.evc != nil {
			return e.evc.Eval(&e.b)
		}
		return e.ev.Eval(&e.b)
	}
	return mobilityEval(e.b.P, e.b.O)
}

// Scale is the number of evaluation units per disc of the engine's scores.
func (e *Engine) Scale() int { return e.scale }

// nextGeneration swaps the tables: the current one becomes the previous one, and the old
// previous one (two generations back, so all stale) receives the new iteration.
func (e *Engine) nextGeneration() {
	e.gen++
	e.cur, e.prev = &e.tables[e.gen&1], &e.tables[(e.gen-1)&1]
}

// begin resets the per-search state.
func (e *Engine) begin(ctx context.Context, b board.Board, lim Limits, tp timePlan) {
	e.b = b
	e.ply = 0
	e.nodes = 0
	e.nextPoll = pollInterval
	e.stopped = false
	e.ctx = ctx
	e.start = time.Now()
	e.hasDeadline = tp.hard > 0
	e.hardDeadline = e.start.Add(tp.hard)
	e.mayReachEnd = true // searchRoot narrows it per iteration
	e.killer = [maxPly]uint64{}
	e.solveStop.Store(false)
	e.team.halt.Store(false)
	e.solver.Reset()
	e.solver.SetDeadline(time.Time{})
	if e.hasDeadline {
		e.solver.SetDeadline(e.hardDeadline)
	}
	e.nodeLimit = lim.Nodes
	e.leafSolve = leafSolveFor(e.cfg, lim)
	e.level = 0
	if !e.cfg.NoMPC && lim.Selectivity > 0 && e.mpc != nil {
		e.level = min(lim.Selectivity, MaxSelectivity)
		if lim.Remaining > 0 && e.cfg.ClockSelectivity {
			e.level = min(e.level, clockLevel(tp))
		}
		e.mpcT = endgame.SelectivityT(e.level)
		if e.cfg.MPCT > 0 {
			e.mpcT = e.cfg.MPCT
		}
	}
	e.ttHeight = defaultTTHeight
	if e.level > 0 {
		e.ttHeight = defaultTTHeightMPC
	}
	if e.cfg.TTHeight > 0 {
		e.ttHeight = e.cfg.TTHeight
	}
}

// poll checks the stop conditions: cancellation, the hard deadline, the node limit.
func (e *Engine) poll() {
	e.nextPoll = e.nodes + pollInterval
	stop := false
	if e.th.ID == 0 {
		// The search's own goroutine watches the context and the node limit for all threads.
		if e.ctx != nil {
			select {
			case <-e.ctx.Done():
				stop = true
			default:
			}
		}
		if e.nodeLimit != 0 && e.nodes >= e.nodeLimit {
			stop = true
		}
	}
	if e.hasDeadline && time.Now().After(e.hardDeadline) {
		stop = true
	}
	if stop {
		e.stopped = true
		e.team.halt.Store(true)
	}
	if e.team.halt.Load() || e.th.Split.Aborted() {
		e.stopped = true
	}
}

// rootMove is a root move with its last searched value.
type rootMove struct {
	sq    board.Square
	score int
	exact bool // score is exact at this depth (not only an upper bound)
	lower bool // score is only a lower bound (salvage)
	pv    []board.Square
	// wldLo and wldHi bound the game result of the move (-1 loss, 0 draw, 1 win) as far as
	// refineWLD has proven it; wldKnown is false before any proof (bounds -1 and 1).
	wldLo, wldHi int8
	wldKnown     bool
}

func (e *Engine) rootMoves(moves uint64) []rootMove {
	var rm []rootMove
	for m := moves; m != 0; m &= m - 1 {
		rm = append(rm, rootMove{sq: board.FirstSquare(m), score: -scoreInf})
	}
	return rm
}

// searchRoot searches the root moves to height, keeping the n best exact: a move is searched
// with a null window at the n-th best value so far and re-searched on fail high. It sorts rm
// best first and reports false when the search stopped before the first move was done.
// Moves whose search was cut short by a stop keep their previous value.
func (e *Engine) searchRoot(rm []rootMove, height, n int) bool {
	e.mayReachEnd = e.devReach(height) >= e.b.NumEmpties()
	e.rootHeight = height
	done := make([]bool, len(rm))
	for i := range rm {
		if i == 1 && e.searchRootParallel(rm, done, height, n) {
			break
		}
		thr := -scoreInf
		if i >= n {
			thr = nthBest(rm[:i], n)
		}
		published := i == 0 && n == 1 && len(rm) > 1 && e.specQ != nil
		if published {
			e.specPublishRoot(rm, height)
		}
		u := e.b.Make(rm[i].sq)
		e.ply = 1
		v, failedHigh := e.rootChild(thr, height)
		e.ply = 0
		e.b.Unmake(u)
		if published {
			e.specRetract()
		}
		if e.stopped {
			if failedHigh && n == 1 {
				rm[i].salvage(thr)
				done[i] = true
			}
			break
		}
		rm[i].score = v
		rm[i].exact, rm[i].lower = v > thr, false
		if rm[i].exact {
			rm[i].pv = append(append(rm[i].pv[:0], rm[i].sq), e.pv[1][1:e.pvLen[1]]...)
		} else {
			rm[i].pv = append(rm[i].pv[:0], rm[i].sq)
		}
		done[i] = true
	}
	if !done[0] {
		return false
	}
	// Moves done at this height come first, ordered by value; the others keep their order.
	idx := make([]int, len(rm))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ia, ib := idx[a], idx[b]
		if done[ia] != done[ib] {
			return done[ia]
		}
		return done[ia] && rm[ia].score > rm[ib].score
	})
	sorted := make([]rootMove, len(rm))
	for i, j := range idx {
		sorted[i] = rm[j]
	}
	copy(rm, sorted)
	return true
}

// rootChild is the value of the root move just made (e.ply 1) to height, searched with a null
// window at thr (the n-th best value so far) and again above it on a fail high. failedHigh
// says that the null window proved the move better than thr: when the search is stopped
// during the re-search, that proof still holds (see rootMove.salvage).
func (e *Engine) rootChild(thr, height int) (v int, failedHigh bool) {
	if thr > -scoreInf && e.pvsHeight <= height+1 {
		v := -e.alphaBeta(-thr-1, -thr, height-1)
		if v > thr && !e.stopped {
			return -e.alphaBeta(-scoreInf, -thr, height-1), true
		}
		return v, false
	}
	return -e.alphaBeta(-scoreInf, -thr, height-1), false
}

// salvage keeps a move whose null window at thr, the best value so far, failed high before
// the search was stopped during its re-search: it is better than every move searched before
// it at this depth, so it is the move to play, valued at thr+1, the least its proof gives
// (a lower bound, like Edax's and Egaroucid's move kept on a fail high at the time limit).
func (m *rootMove) salvage(thr int) {
	m.score, m.exact, m.lower = thr+1, true, true
	m.pv = append(m.pv[:0], m.sq)
}

// nthBest returns the n-th best exact score among rm (or -scoreInf when fewer are exact).
func nthBest(rm []rootMove, n int) int {
	var s []int
	for _, m := range rm {
		if m.exact {
			s = append(s, m.score)
		}
	}
	if len(s) < n {
		return -scoreInf
	}
	sort.Sort(sort.Reverse(sort.IntSlice(s)))
	return s[n-1]
}

// Search finds the best move of b within lim, reporting each completed iteration to info
// (which may be nil). It stops at once when ctx is cancelled and returns the best move known.
func (e *Engine) Search(ctx context.Context, b board.Board, lim Limits, info func(Info)) Result {
	ms := e.analyze(ctx, b, lim, 1, func(ms []MoveScore) {
		if info != nil && len(ms) > 0 {
			info(ms[0].Info)
		}
	})
	if len(ms) == 0 {
		return Result{Move: board.NoSquare}
	}
	return Result{Move: ms[0].Move, Info: ms[0].Info}
}

// Analyze searches b within lim for the n best moves (all moves when n <= 0 or n exceeds their
// number) and returns them best first, with their values and principal variations; only the n
// first have exact values at the depth reached, the others are upper bounds. info, when not
// nil, gets the list after each completed iteration.
func (e *Engine) Analyze(ctx context.Context, b board.Board, lim Limits, n int, info func([]MoveScore)) []MoveScore {
	return e.analyze(ctx, b, lim, n, info)
}

func (e *Engine) analyze(ctx context.Context, b board.Board, lim Limits, n int, info func([]MoveScore)) []MoveScore {
	empties := b.NumEmpties()
	tp := planTimeWeighted(lim, empties, e.clockHorizon, e.endHorizon, max(e.cfg.EndProofWeight, 1), e.cfg.EndLastShare)
	if !e.cfg.NoResultTime && lim.Remaining > 0 && e.lastEmpties > empties && e.lastEmpties <= empties+3 {
		// The engine's previous move in this game (two plies back, three after a pass).
		tp = tp.scaled(resultFactor(empties, e.lastValue, e.scale), lim.Remaining)
	}
	e.lastEmpties = 0
	e.team.pool.Start()
	defer e.team.pool.Stop()
	e.begin(ctx, b, lim, tp)
	moves := b.LegalMoves()
	if moves == 0 {
		ms := MoveScore{Move: board.NoSquare}
		if b.GameOver() {
			ms.Exact = true
			ms.Score = float64(b.FinalScore())
			ms.Selectivity = 100
			return []MoveScore{ms}
		}
		// A forced pass: search the opponent's position and negate.
		bb := b
		bb.Pass()
		r := e.analyze(ctx, bb, lim, 1, nil)
		if len(r) > 0 {
			ms.Info = r[0].Info
			ms.Score = -ms.Score
			ms.PV = append([]board.Square{board.NoSquare}, ms.PV...)
		}
		return []MoveScore{ms}
	}
	rm := e.rootMoves(moves)
	if n <= 0 || n > len(rm) {
		n = len(rm)
	}
	band := defaultProbableBand
	if e.cfg.ProbableBand != 0 {
		band = max(e.cfg.ProbableBand, 0)
	}
	if e.ev == nil {
		band = 0 // probable solves predict from the pattern evaluation
	}
	if e.cfg.NoSolveBudget {
		tp.solve = 0
	}
	tp.exactScale = e.cfg.ExactTimeScale
	plan := planSearch(lim, tp, empties, band)
	if e.cfg.bandOff(empties) {
		plan = withoutTimeBand(plan, lim, tp, empties)
	}
	if (plan.solve || plan.wldOnly || plan.probable) && tp.solve > tp.hard {
		// A solving move may take the larger share of the clock (timePlan.solve).
		e.hardDeadline = e.start.Add(tp.solve)
		e.solver.SetDeadline(e.hardDeadline)
	}
	var out []MoveScore
	report := func(depth int, exact, wld bool, sel int) {
		out = out[:0]
		for i := range rm {
			out = append(out, MoveScore{Move: rm[i].sq, Info: Info{
				Depth: depth, Selectivity: sel, Exact: exact, WLD: wld, Lower: rm[i].lower,
				Score: float64(rm[i].score) / float64(e.scale), Nodes: e.nodes,
				Elapsed: time.Since(e.start), PV: append([]board.Square(nil), rm[i].pv...),
			}, Bound: !rm[i].exact})
		}
		if info != nil {
			info(append([]MoveScore(nil), out...))
		}
	}
	if len(rm) == 1 && tp.hard > 0 {
		// One legal move under a clock: a quick look for the value, no more.
		e.searchRoot(rm, 1, 1)
		report(1, false, false, 100)
		return out
	}
	sel := 100
	if e.level > 0 {
		sel = endgame.SelectivityPercent(e.level)
	}
	soft := tp.soft
	var hist iterHistory
	reached := 0 // the last midgame iteration completed
	for d := 1; d <= plan.maxDepth; d++ {
		if d > 1 {
			e.poll()
		}
		e.nextGeneration()
		if !e.searchRoot(rm, d, n) {
			break
		}
		reached = d
		report(d, false, false, sel)
		if lim.Remaining > 0 && !e.cfg.NoTimeExtension {
			soft = tp.extendedSoft(hist.add(d, rm[0].sq, rm[0].score, e.scale, e.cfg.Settle))
		}
		if e.stopped || (soft > 0 && time.Since(e.start) > soft) {
			break
		}
	}
	if (plan.solve || plan.wldOnly) && !e.stopped {
		e.poll()
	}
	// ladder runs solves at those of levels under below, each more exact than the last, until one
	// does not finish or the soft limit (0: none) has passed: like the midgame iterations,
	// no new solve starts after it, as the next would most likely run into the hard limit
	// and be thrown away. With wld (one move wanted) each proves the game result in the
	// midgame's ranking (refineWLD) instead of solving the score.
	proven := func() {
		rm[0].score, rm[0].exact, rm[0].lower = int(rm[0].wldLo)*e.scale, true, false
		rm[0].pv = []board.Square{rm[0].sq}
	}
	// It reports whether every level finished with the soft limit still ahead.
	ladder := func(levels []int, below int, soft time.Duration, wld bool) bool {
		for _, l := range levels {
			if l >= below {
				continue
			}
			e.solver.SetSelectivity(l)
			var ok bool
			if wld {
				if _, ok = e.refineWLD(rm); ok {
					proven()
				}
			} else {
				first := rm[0].sq
				ok = e.solveRoot(rm, n, false)
				if !ok && rm[0].sq != first {
					report(empties, false, false, SelectivityPercent(l)) // salvaged
				}
			}
			e.solver.SetSelectivity(0)
			if !ok {
				return false
			}
			report(empties, l == 0 && !wld, wld, SelectivityPercent(l))
			if soft > 0 && time.Since(e.start) > soft {
				return false
			}
		}
		return true
	}
	surer := endSolveLevels[:]
	if len(e.cfg.SurerLevels) > 0 {
		surer = e.cfg.SurerLevels
	}
	if plan.probable && !e.stopped {
		if e.cfg.BandWLD && n == 1 {
			// The first probable solve ranks the moves; the surer ones prove the result.
			if ladder([]int{5}, MaxSelectivity+1, tp.soft, false) {
				ladder(surer, MaxSelectivity+1, tp.soft, true)
			}
		} else if ladder([]int{5}, MaxSelectivity+1, tp.soft, false) {
			ladder(surer, MaxSelectivity+1, tp.soft, false)
		}
	}
	if !e.cfg.NoEndSolves && tp.hard > 0 && band > 0 && reached == empties && e.level > 0 &&
		!plan.solve && !plan.wldOnly && !plan.probable && !e.stopped && time.Since(e.start) <= soft {
		// The selective search reached the end of the game with time to spare: surer solves,
		// each dropped for the result before it if it runs into the hard limit.
		ladder(surer, e.level, soft, e.cfg.EndWLD && n == 1)
	}
	if plan.wldOnly && !e.stopped {
		// A depth level's band is probable (plan.wldLevel): the solver's cuts at that
		// confidence, reported with it.
		level := plan.wldLevel
		if e.cfg.WLDLevel != 0 {
			level = max(e.cfg.WLDLevel, 0)
		}
		e.solver.SetSelectivity(level)
		wldSel := SelectivityPercent(e.solver.Selectivity()) // 0 without the pattern evaluation
		switch {
		case n > 1 || e.cfg.NoWLDRefine:
			if e.solveRoot(rm, n, true) {
				report(empties, false, true, wldSel)
			}
		default:
			// The move to play: proven in the midgame's ranking, so that among the moves
			// of the best result the midgame's best is kept (refineWLD).
			if _, done := e.refineWLD(rm); done {
				proven()
				report(empties, false, true, wldSel)
			} else if len(out) > 0 {
				report(out[0].Depth, false, false, out[0].Selectivity)
			}
		}
		e.solver.SetSelectivity(0)
	}
	if plan.solve && !e.stopped {
		if plan.wldFirst {
			if e.solveRoot(rm, n, true) {
				report(empties, false, true, 100)
			}
		}
		if !e.stopped {
			first := rm[0].sq
			if e.solveRoot(rm, n, false) {
				report(empties, true, false, 100)
			} else if rm[0].sq != first {
				report(empties, false, false, 100) // salvaged
			}
		}
	}
	if out == nil {
		// Stopped before even depth 1 finished: any legal move is better than none.
		report(0, false, false, sel)
	}
	// The values are those of the last search completed, the count all the nodes searched:
	// a stopped iteration or solve searched some too.
	for i := range out {
		out[i].Nodes, out[i].Elapsed = e.nodes, time.Since(e.start)
	}
	if len(out) > 0 && out[0].Depth > 0 {
		// The value of the last iteration or solve completed, stopped or not.
		e.lastEmpties, e.lastValue = empties, rm[0].score
	}
	return out
}
