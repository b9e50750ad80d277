package search

import (
	"sort"
	"sync"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
)

// The switch from the midgame search to the endgame endgame.Solver near the end of the game: after a
// few midgame iterations have ordered the root moves, the position is solved exactly, or first
// for win/loss/draw when time is short (see planSearch). A solve that the context or the hard
// deadline stops is dropped and the midgame result stands.

// endValue solves p to move against o within (alpha, beta) with the engine's endgame.Solver, stopping
// it when the search's context ends or its hard deadline passes. It reports false when stopped.
func (e *Engine) endValue(p, o uint64, alpha, beta int) (endgame.SolveResult, bool) {
	e.solveStop.Store(false)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var timeout <-chan time.Time
		if e.hasDeadline {
			t := time.NewTimer(time.Until(e.hardDeadline))
			defer t.Stop()
			timeout = t.C
		}
		var cancel <-chan struct{}
		if e.ctx != nil {
			cancel = e.ctx.Done()
		}
		select {
		case <-done:
		case <-cancel:
			e.solveStop.Store(true)
		case <-timeout:
			e.solveStop.Store(true)
		}
	}()
	r := e.solver.Solve(p, o, alpha, beta)
	close(done)
	wg.Wait()
	e.nodes += r.Nodes
	if r.Interrupted {
		e.stopped = true
		return r, false
	}
	return r, true
}

// defaultEndHandover: a midgame search that reaches the end of the game (an iteration as deep
// as the empties, a probable solve under Multi-ProbCut) hands its nodes with this many empties
// or fewer to the exact solver.
const defaultEndHandover = 12

// defaultLeafSolve: leaves of the midgame search with this many empties or fewer are solved
// exactly (endNode) instead of evaluated. It matters where iterations come within a few plies
// of the end (from about 22 empties at 25 ms a move) without an exact solve of the whole
// position. Measured with 25 ms a move on 150 real-game positions at 20 and 19 empties, every
// move valued exactly: mean loss 0.60-0.63 and 0.93 discs a move with evaluated leaves, 0.39
// and 0.61 with 6, 0.57 and 0.61 with 5, 0.43 and 0.73 with 7 (the iterations get shallower),
// 0.63 with 8 (see docs/midgame.md for the games).
const defaultLeafSolve = 6

// timedLeafSolve is defaultLeafSolve under a game clock or a time per move of at least
// timedLeafSolveMoveTime, whose moves near the end take tenths of a second or more: their
// iterations reach 8 empties from the end at 24-26 empties, and solving those leaves costs an
// iteration there about 1.6 times its time (depth 16 at level 5 on 240 real-game positions at
// 24 empties: 4.4 times the nodes, solver nodes included; the time ratio from one run each on
// a loaded machine) but removes the evaluation's error of 6-7 discs at 8 empties. From the 200
// positions at 26 empties of 400 games against NTest depth 18, both colours: on a 2.1 s clock
// +0.9 and +0.5 points (SE 0.6 each, two runs of the same positions) against 6, and 10 there
// -2.2 (SE 0.9) against 8; at 100 ms a move +1.1 (SE 1.0) against 6 (docs/matches.md).
const timedLeafSolve = 8

// timedLeafSolveMoveTime is the least time per move that solves leaves from timedLeafSolve
// empties: at 25 ms a move leaves solved from 8 empties chose worse moves at 19-20 empties
// than 6 (docs/midgame.md), at 100 ms they scored better.
const timedLeafSolveMoveTime = 100 * time.Millisecond

// leafSolveFor is the leaf solve of a search with cfg under lim (Config.LeafSolve).
func leafSolveFor(cfg Config, lim Limits) int {
	switch {
	case cfg.LeafSolve != 0:
		return max(cfg.LeafSolve, -1)
	case lim.Remaining > 0, lim.MoveTime >= timedLeafSolveMoveTime:
		return timedLeafSolve
	}
	return defaultLeafSolve
}

// endNode is the exact value of e.b within (alpha, beta) in evaluation units, fail-soft, from
// the solver. The window is widened to whole discs, so a bound the solver returns stays a
// bound of the caller's window.
func (e *Engine) endNode(alpha, beta int) int {
	sc := e.scale
	lo := min(max(floorDiv(alpha, sc), -65), 64)
	hi := max(min(-floorDiv(-beta, sc), 65), lo+1)
	if e.speculating {
		// The solver does not serve split points: one that recruits a speculating thread
		// while it solves aborts the task instead (speculative.go).
		e.th.HoldServe(true)
		if e.th.Recruited() {
			e.serve()
		}
	}
	v, nodes, stopped := e.solver.Window(e.b.P, e.b.O, lo, hi)
	if e.speculating {
		e.th.HoldServe(false)
	}
	e.nodes += nodes
	if stopped {
		e.stopped = true
		return 0
	}
	return v * sc
}

// floorDiv is a/b rounded down, for b > 0.
func floorDiv(a, b int) int {
	q := a / b
	if a%b != 0 && a < 0 {
		q--
	}
	return q
}

// solveRoot solves the root exactly (wld false) or for win/loss/draw only and on success
// puts the result in rm (values in scaled discs), best first, reporting true. With n == 1 one
// solve of the root gives the best move; with more, each move is solved with a window that
// keeps the n best exact, like searchRoot. A stopped solve leaves rm unchanged, except that
// with n == 1 a score solve stopped after it proved a win for another move than rm's first
// plays that move (salvageSolve).
func (e *Engine) solveRoot(rm []rootMove, n int, wld bool) bool {
	lo, hi := -64, 64
	if wld {
		lo, hi = -1, 1
	}
	if n == 1 {
		r, ok := e.endValue(e.b.P, e.b.O, lo, hi)
		if !ok && !wld {
			e.salvageSolve(rm, r)
		}
		if !ok || r.Move == board.NoSquare {
			return false
		}
		if wld && r.Score < 0 {
			// A proven loss: every move loses, keep the midgame's choice.
			rm[0].score = -e.scale
			rm[0].exact, rm[0].lower = true, false
			return true
		}
		toFront(rm, r.Move)
		rm[0].score = clampSign(r.Score, wld) * e.scale
		rm[0].exact, rm[0].lower = true, false
		rm[0].pv = append([]board.Square(nil), r.PV...)
		if len(rm[0].pv) == 0 {
			rm[0].pv = []board.Square{r.Move}
		}
		for i := 1; i < len(rm); i++ {
			rm[i].exact = false
		}
		return true
	}
	res := make([]rootMove, len(rm))
	copy(res, rm)
	for i := range res {
		thr := lo - 1
		if i >= n {
			if t := nthBest(res[:i], n); t > -scoreInf {
				thr = t / e.scale
			}
		}
		u := e.b.Make(res[i].sq)
		p, o := e.b.P, e.b.O
		e.b.Unmake(u)
		var r endgame.SolveResult
		ok := true
		switch {
		case wld:
			r, ok = e.endValue(p, o, -1, 1)
		case thr >= lo:
			r, ok = e.endValue(p, o, -thr-1, -thr)
			if ok && -r.Score > thr {
				r, ok = e.endValue(p, o, -hi, -thr)
			}
		default:
			r, ok = e.endValue(p, o, -hi, -lo)
		}
		if !ok {
			return false
		}
		v := -r.Score
		res[i].score = clampSign(v, wld) * e.scale
		res[i].exact, res[i].lower = wld || v > thr, false
		res[i].pv = append([]board.Square{res[i].sq}, r.PV...)
	}
	sort.SliceStable(res, func(a, b int) bool {
		if res[a].exact != res[b].exact {
			return res[a].exact
		}
		return res[a].score > res[b].score
	})
	copy(rm, res)
	return true
}

// salvageSolve moves to rm's front the move that a stopped solve's finished root window proved a
// win (endgame.SolveResult.ProvenMove), when rm's first move is another: a win proven at the
// solve's confidence is surer than the earlier search's choice, which that window did not
// prove to win (the solver searches it first when it agrees). The move's value is the bound
// proved. It reports whether rm changed (never with Config.NoSalvage).
func (e *Engine) salvageSolve(rm []rootMove, r endgame.SolveResult) bool {
	if e.cfg.NoSalvage || r.ProvenMove == board.NoSquare || r.ProvenLow < 1 || r.ProvenMove == rm[0].sq {
		return false
	}
	if !toFront(rm, r.ProvenMove) {
		return false
	}
	rm[0].score, rm[0].exact, rm[0].lower = r.ProvenLow*e.scale, false, true
	rm[0].pv = []board.Square{rm[0].sq}
	return true
}

// toFront moves the root move sq to rm's front, the others keeping their order, and reports
// whether rm has it.
func toFront(rm []rootMove, sq board.Square) bool {
	for i := range rm {
		if rm[i].sq == sq {
			m := rm[i]
			copy(rm[1:i+1], rm[:i])
			rm[0] = m
			return true
		}
	}
	return false
}

// clampSign maps a score to its sign for a win/loss/draw result.
func clampSign(v int, wld bool) int {
	if !wld {
		return v
	}
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// resultClass is the game result of a final disc difference: -1 loss, 0 draw, 1 win.
func resultClass(v int) int8 {
	return int8(clampSign(v, true))
}

// refineWLD proves which root move keeps the best game result, in the order of rm (the
// midgame's ranking): the first move is solved for win/loss/draw and each later one only
// tested for a better result than the best so far, so among the moves of the best result the
// ranking decides. solveRoot(rm, 1, true) plays the solver's first winning move instead, which
// gives away discs the midgame would have kept (0.92 against 0.57 discs a move at level 8 on
// 150 real-game positions with 18 empties). The proofs are kept in the moves' wld fields and
// rm is reordered by them (orderByResult), also when the solver is stopped half way. It
// reports the best result proven (-2: none) and whether the proof finished.
func (e *Engine) refineWLD(rm []rootMove) (best int8, done bool) {
	best = -2
	for i := range rm {
		if best == 1 {
			break
		}
		// Our window in discs: the whole win/loss/draw one, or after a proven draw only
		// "better than a draw".
		lo, hi := -1, 1
		if best == 0 {
			lo = 0
		}
		u := e.b.Make(rm[i].sq)
		p, o := e.b.P, e.b.O
		e.b.Unmake(u)
		r, ok := e.endValue(p, o, -hi, -lo)
		if !ok {
			orderByResult(rm)
			return best, false
		}
		m := &rm[i]
		m.wldKnown = true
		switch v := -r.Score; {
		case v <= lo: // at most lo's result
			m.wldLo, m.wldHi = -1, resultClass(lo)
		case v >= hi: // at least hi's: a win
			m.wldLo, m.wldHi = 1, 1
		default:
			m.wldLo, m.wldHi = resultClass(v), resultClass(v)
		}
		best = max(best, m.wldLo)
	}
	orderByResult(rm)
	return best, true
}

// orderByResult moves the root moves with the best proven game result to the front, keeping
// the order among equals: moves are ranked by the lower bound of their result (an unproven
// move is at least a loss), so a move proven better than the first one takes its place, and
// an unproven move never displaces a proven one. It does nothing when nothing is proven.
func orderByResult(rm []rootMove) {
	key := func(m *rootMove) int {
		if !m.wldKnown {
			return -1
		}
		return int(m.wldLo)
	}
	proven := false
	for i := range rm {
		proven = proven || rm[i].wldKnown
	}
	if !proven {
		return
	}
	sort.SliceStable(rm, func(a, b int) bool { return key(&rm[a]) > key(&rm[b]) })
}
