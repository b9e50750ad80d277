package search

import (
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
)

// Time control. A search gets a soft limit (no new iteration starts after it) and a hard one
// (the search stops wherever it is). Under a game clock the hard limit is a fraction of what is
// left after a reserve, so the engine never runs out of time however long an iteration or a
// solve turns out to be: the hard limit is polled every few thousand nodes.

type timePlan struct {
	soft, hard time.Duration // 0: none
	// solve, under a game clock, is the hard limit of a move that solves the endgame (exactly,
	// for win/loss/draw or probably): such a solve makes the rest of the game nearly free, so it
	// may take half of what is left rather than a third of it for a few moves (0: hard).
	solve time.Duration
	// exactScale, when above 0, multiplies the budget from which exactEmptiesForTime picks
	// the empties of the exact solve (Config.ExactTimeScale; measurement).
	exactScale float64
}

// solveShare is the part of the usable clock a solving move may take.
const solveShare = 2

// clockReserve is kept back from the game clock for the GUI's and the process's latency.
func clockReserve(remaining time.Duration) time.Duration {
	r := remaining/20 + 30*time.Millisecond
	return min(r, 2*time.Second)
}

// defaultClockHorizon is the empties at which a game clock's plan expects its own moves to
// end (the moves left are counted down to it, two empties a move). The exact solve at about
// 20 empties finishes a game for the clock, so counting down to 12 left a fifth of the clock
// unspent: against NTest depth 18 on an 8.2 s clock (200 games, openings 141-240 of
// xot-large), horizon 12 spent 79.9% of the clock and scored 47.8%, horizon 16 spent 85.9%
// and scored 48.8% (paired +1.0, SE 2.8; docs/matches.md), none lost on time.
const defaultClockHorizon = 16

// planTime turns the limits into soft and hard durations for a position with empties empty
// squares, with the default clock and end horizons.
func planTime(lim Limits, empties int) timePlan {
	return planTimeTo(lim, empties, defaultClockHorizon, defaultEndHorizon)
}

// endPhase is how many empties above its end horizon a game clock's plan counts its moves
// down to that horizon instead of the clock horizon (planTimeTo).
const endPhase = 6

// defaultEndHorizon: from 26 empties on the clock is shared out down to 20 empties, where the
// exact solve takes little of it, and a move may take half of the usable clock. With the
// clock horizon alone about 0.8 s of a 7 s clock was never spent. Against NTest depth 18 from
// the positions at 26 empties of 800 games (200 positions, both colours, a 2.1 s clock, what
// those games had left there): 47.1% against 46.1% (paired +1.0 points, SE 0.7), 77.6% of
// the clock used against 59.2%; in whole games on a 7 s clock (openings 1973-2072, 200 games
// each, both runs at once) 52.8% against 51.0% (paired +1.8, SE 1.7), 93.7% of the clock
// used against 88.2%, none lost on time (docs/matches.md).
const defaultEndHorizon = 20

// planTimeTo is planTime with the clock's moves counted down to horizon empties; from
// endHorizon+endPhase empties on, when endHorizon is above horizon, they are counted down to
// endHorizon instead, and a move may take half of the usable clock rather than a third (0:
// horizon throughout).
func planTimeTo(lim Limits, empties, horizon, endHorizon int) timePlan {
	return planTimeWeighted(lim, empties, horizon, endHorizon, 1, 0)
}

// planTimeWeighted is planTimeTo with the own moves at endHorizon+3 and endHorizon+4 empties
// (where a result proof first fits) counted as proofWeight moves when the end phase's clock
// is shared out, the others as one; proofWeight 1 is planTimeTo. lastShare, when above 0,
// is the percentage of the usable clock that the own move at 1-2 empties above the end
// horizon (the last before it) targets and may take, instead of a half as one of two moves
// left (0: planTimeTo's plan).
func planTimeWeighted(lim Limits, empties, horizon, endHorizon, proofWeight, lastShare int) timePlan {
	var tp timePlan
	if lim.MoveTime > 0 {
		margin := min(lim.MoveTime/20, 20*time.Millisecond)
		tp.hard = lim.MoveTime - margin
		tp.soft = tp.hard / 2
	}
	if lim.Remaining > 0 {
		usable := lim.Remaining - clockReserve(lim.Remaining)
		if usable < time.Millisecond {
			usable = time.Millisecond
		}
		// Our moves left before the exact solve finishes the game, roughly.
		ceiling := usable / 3
		weighted := false
		if endHorizon > horizon && empties <= endHorizon+endPhase {
			// Near the end a move may take what a solving move may.
			horizon, ceiling = endHorizon, usable/solveShare
			weighted = proofWeight > 1
		}
		movesLeft := max((empties-horizon)/2, 2)
		target := usable/time.Duration(movesLeft) + lim.Increment*3/4
		if lastShare > 0 && endHorizon > 0 && horizon == endHorizon && empties > horizon && empties <= horizon+2 {
			// The last own move before the end horizon: what is left there is the exact
			// solve's, which takes little.
			target = usable * time.Duration(lastShare) / 100
			ceiling = target
		}
		if weighted {
			w, sum := 0, 0
			for e := empties; e > horizon; e -= 2 {
				wt := 1
				if e >= horizon+3 && e <= horizon+4 {
					wt = proofWeight
				}
				if e == empties {
					w = wt
				}
				sum += wt
			}
			sum = max(sum, w+1) // as movesLeft: at least one more move
			if w > 0 {
				target = usable*time.Duration(w)/time.Duration(sum) + lim.Increment*3/4
				ceiling = max(ceiling, min(target, usable))
			}
		}
		hard := min(target*3, ceiling)
		if target > hard {
			target = hard
		}
		soft := target * 2 / 3
		solve := max(usable/solveShare, hard)
		if tp.hard > 0 {
			solve = min(solve, tp.hard) // a time per move caps every move
		}
		if tp.hard == 0 || hard < tp.hard {
			tp.hard, tp.soft = hard, soft
		}
		tp.solve = solve
	}
	if tp.hard > 0 && tp.hard < time.Millisecond {
		tp.hard = time.Millisecond
	}
	tp.solve = max(tp.solve, tp.hard)
	return tp
}

// searchPlan says how deep the midgame goes and whether an endgame solve follows.
type searchPlan struct {
	maxDepth int  // last midgame iteration
	solve    bool // solve exactly after the midgame iterations
	wldFirst bool // prove win/loss/draw before the exact solve
	wldOnly  bool // after the midgame iterations, prove win/loss/draw and stop there
	probable bool // after the midgame iterations, probable solves of rising confidence
	// wldLevel is the solver selectivity of the wldOnly proof: 0 a proof, higher a probable
	// win/loss/draw result (levelWLDSelectivity).
	wldLevel int
}

// wldBand is how many empties above its exact solve a depth-limited search (a GUI level, no
// clock) still proves win/loss/draw after its midgame iterations, up to maxLevelSolve
// empties: a level-8 search solves exactly from 16 empties and for win/loss/draw at 17 and
// 18, as NTest's level 8 does at 14-17.
const wldBand = 2

// exactEmptiesForTime is the most empties the engine tries to solve exactly in budget; a solve
// that does not finish in time is abandoned for the midgame result. Measured on 30 positions
// of real games per size (exact solve after a win/loss/draw one, one core): 14 empties take
// about 1 ms (9 ms for the slowest tenth), 16 about 5 ms (15 ms), 18 about 12 ms (50 ms), 20
// about 60 ms (250 ms), each 2 more empties some 4-5 times as long; the budget must cover the
// slow tenth with room to spare.
func exactEmptiesForTime(budget time.Duration) int {
	switch {
	case budget < 15*time.Millisecond:
		return 12
	case budget < 50*time.Millisecond:
		return 14
	case budget < 250*time.Millisecond:
		return 16
	case budget < time.Second:
		return 18
	case budget < 5*time.Second:
		return 20
	case budget < 30*time.Second:
		return 22
	}
	return 24
}

// wldBandTime is how many empties above its exact solve a search under time control proves
// win/loss/draw instead of playing its midgame choice. A win/loss/draw proof costs about a
// tenth of the exact solve of the same position (30 positions of real games each, one core,
// 16 MiB table: 16 empties 1 ms median, 4 ms for the slowest tenth; 18: 2 and 15 ms; 20: 8 and
// 46 ms), so four empties above the exact solve it takes about what that solve takes. A proof
// that does not finish in time is dropped for the midgame result, as an exact solve is.
const wldBandTime = 4

// defaultProbableBand: under time control the positions of the win/loss/draw band get
// probable solves instead (73%, then 95%, then exact, as time allows; endgame_mpc.go). On
// 200 real-game positions each at 25 ms a move: 18 empties, mean loss 1.60 -> 1.04 discs a
// move, wrong results 13 -> 12; 16 empties, 1.53 -> 0.03, none wrong either way. In games:
// 400 at 25 ms against the proof, 50.6% and +2.0 discs; against NTest depth 12 (400 games)
// 30.2% against 31.5%, mean disc difference -3.15 against -4.93.
const defaultProbableBand = wldBandTime

// Depth levels from levelProbableDepth up (a GUI's level 10 and more) solve exactly from
// levelExact empties, prove win/loss/draw from levelProofTop empties down to levelExact+1 and
// find the probable win/loss/draw result (endgame Multi-ProbCut at selectivity
// levelWLDSelectivity, 73%) from levelWLDTop empties down to levelProofTop+1, after their
// midgame iterations: a proof or an exact solve at 21-23 empties can take seconds, where these
// take tens of milliseconds and decide about as many games. Against NTest depth 12 (400 games
// each, openings 101-300, paired by opening; commit 7d2ed84): the plan before the
// probable band (exact from 22 empties) 51.5% with 39.6 ms a move (NTest 12.6 ms, the slowest
// move 10.9 s); the band with the exact solve from 18 49.9% with 13.8 ms (NTest 11.5 ms,
// slowest 2.2 s); exact from 18 alone 41.6%, with proofs at 19-20 45.6%, at 19-22 51.5% with
// 21.9 ms a move. On openings 301-500 the band 48.2% (15.0 ms), the one before 48.9% (37.0
// ms); level 10 against NTest depth 10: 58.0% (8.7 ms) against 54.6% (18.6 ms). Since commit
// b61fdbd the exact solve starts at 16 with proofs at 17-18 (a proof keeps every
// result the exact solve would: the game score cannot suffer, only the disc margin): level 12
// against NTest depth 12, openings 301-500, 49.0% against 49.2% with the exact solve from 18
// (paired -0.2, SE 0.5), 1.12 against 1.19 times NTest's time, the moves at 16-18 empties
// 42 against 59 ms together; exact from 14 with proofs at 15-18 49.5% at 1.13 times, proofs
// at 19 too 49.5% at 1.15 times.
const (
	levelProbableDepth  = 10
	levelExact          = 16
	levelProofTop       = 18
	levelWLDTop         = 23
	levelWLDSelectivity = 5
)

// maxLevelSolve is the most empties a depth-limited search (a GUI level) solves exactly or
// proves win/loss/draw (the probable band of levels from levelProbableDepth reaches
// levelWLDTop).
const maxLevelSolve = 22

// exactEmptiesForDepth is where a depth-limited search (a GUI level) solves exactly.
func exactEmptiesForDepth(depth int) int {
	return min(2*depth, maxLevelSolve)
}

// planSearch plans the search of a position with empties empty squares; under time control
// the probBand empties above the exact solve get probable solves (0: none).
func planSearch(lim Limits, tp timePlan, empties, probBand int) searchPlan {
	var p searchPlan
	exactAt, wldAt := 60, 0
	switch {
	case tp.hard > 0:
		budget := max(tp.hard, tp.solve)
		if tp.exactScale > 0 {
			budget = time.Duration(float64(budget) * tp.exactScale)
		}
		exactAt = exactEmptiesForTime(budget)
		wldAt = exactAt + wldBandTime
		if lim.Depth > 0 {
			exactAt = min(exactAt, exactEmptiesForDepth(lim.Depth))
			wldAt = min(wldAt, min(exactEmptiesForDepth(lim.Depth)+wldBand, maxLevelSolve))
		}
	case lim.Depth > 0:
		exactAt = exactEmptiesForDepth(lim.Depth)
		wldAt = min(exactAt+wldBand, maxLevelSolve)
		if lim.Depth >= levelProbableDepth {
			exactAt, wldAt = levelExact, levelWLDTop
			p.wldLevel = levelWLDSelectivity
		}
	case lim.Nodes > 0:
		exactAt = 14
	}
	if lim.ExactEmpties > 0 {
		timeExact, timeWLD := exactAt, wldAt
		exactAt, wldAt = lim.ExactEmpties, max(lim.WLDEmpties, 0)
		p.wldLevel = 0
		if tp.hard > 0 {
			// A level under a clock: no solve the clock could not pay for (a solve that runs
			// out of time is thrown away, and its time with it).
			exactAt, wldAt = min(exactAt, timeExact), min(wldAt, max(timeWLD, exactAt))
		}
	}
	if lim.Selectivity == 0 {
		// Exact depths asked for: no probable win/loss/draw result either.
		p.wldLevel = 0
	}
	// An iteration as deep as the empties searches to the end of the game: exact without
	// selectivity, a probable solve with it, its last empties solved exactly (endNode).
	p.maxDepth = empties
	if lim.Depth > 0 {
		p.maxDepth = min(p.maxDepth, lim.Depth)
	} else if tp.hard == 0 && lim.Nodes == 0 {
		p.maxDepth = min(p.maxDepth, 60)
	}
	// Under time control a band position gets its proof or its probable solves only when a
	// typical one fits the move's budget (bandFits); otherwise the midgame search, which
	// reaches the end of the game selectively with solved leaves, keeps the whole time.
	budget := max(tp.hard, tp.solve)
	if empties > exactAt && empties <= wldAt && (tp.hard == 0 || bandFits(wldMedian[:], empties, budget)) {
		p.wldOnly = true
	}
	if probBand > 0 && tp.hard > 0 && empties > exactAt && empties <= exactAt+probBand && lim.ExactEmpties == 0 {
		p.wldOnly = false
		p.probable = bandFits(probableMedian[:], empties, budget)
	}
	if (p.wldOnly || p.probable) && tp.hard > 0 {
		// Under time control the proof or the probable solves get most of the time: a
		// shallow midgame search orders the root moves and stands in if they do not finish.
		p.maxDepth = min(p.maxDepth, max(2, min(10, empties-12)))
	}
	if empties <= exactAt {
		p.solve = true
		// A shallow midgame search orders the root moves for the solve.
		p.maxDepth = min(p.maxDepth, max(2, min(10, empties-12)))
		p.wldFirst = tp.hard > 0 && empties > exactAt-2
	}
	if !p.wldOnly || empties <= levelProofTop {
		// The level band's proofs (a probable result only above levelProofTop).
		p.wldLevel = 0
	}
	if p.maxDepth < 1 {
		p.maxDepth = 1
	}
	return p
}

// withoutTimeBand is p without the band of win/loss/draw proofs or probable solves a time
// plan puts above the exact solve (Config.NoTimeBand): such a position keeps the whole
// midgame search instead of one stopped at depth 10. Plans without a clock, and levels with
// explicit solve depths, are returned unchanged.
func withoutTimeBand(p searchPlan, lim Limits, tp timePlan, empties int) searchPlan {
	if tp.hard == 0 || lim.ExactEmpties > 0 || !(p.wldOnly || p.probable) {
		return p
	}
	p.wldOnly, p.probable = false, false
	p.maxDepth = empties
	if lim.Depth > 0 {
		p.maxDepth = min(empties, lim.Depth)
	}
	return p
}

// bandOff reports whether a position with empties empty squares is kept out of the band
// above the exact solve (Config.NoTimeBand, Config.TimeBandTop).
func (c *Config) bandOff(empties int) bool {
	return c.NoTimeBand || (c.TimeBandTop > 0 && empties > c.TimeBandTop)
}

// Median times on one core of the development machine (`othello solve --wld` and `--sel 5`
// on 150 real-game positions at each of 18, 19 and 20 empties, and 22 for the proof; the
// others extrapolated at about twice per empty) of a win/loss/draw proof and of the first
// probable solve (73%, with the pattern evaluation).
var (
	wldMedian      = [...]time.Duration{16: 2 * time.Millisecond, 17: 4500 * time.Microsecond, 18: 9 * time.Millisecond, 19: 21 * time.Millisecond, 20: 40 * time.Millisecond, 21: 90 * time.Millisecond, 22: 210 * time.Millisecond}
	probableMedian = [...]time.Duration{16: 4 * time.Millisecond, 17: 7 * time.Millisecond, 18: 14 * time.Millisecond, 19: 31 * time.Millisecond, 20: 50 * time.Millisecond, 21: 100 * time.Millisecond, 22: 200 * time.Millisecond}
)

// bandFits reports whether a solve with the given median times fits budget at empties: one
// and a half times its median must fit, so that most of them finish.
func bandFits(median []time.Duration, empties int, budget time.Duration) bool {
	var m time.Duration
	switch {
	case empties < 16:
		m = median[16]
	case empties < len(median):
		m = median[empties]
	case empties-len(median) >= 16:
		return false // hours
	default:
		m = median[len(median)-1] << (empties - len(median) + 1)
	}
	return m*3/2 <= budget
}

// endSolveLevels are the solver selectivities (95%, exact) with which a timed search goes on
// after a midgame search that reached the end of the game (unless Config.NoEndSolves): on a
// 40 s clock the moves at 29-25 empties spent under a second of their 2-4 s targets, their
// last iteration being as deep as the empties. Against NTest depth 18 on a 4.5 s clock
// (openings 1121-1220, 200 games each, both runs at once) the solves raised the clock used
// from 83.0% to 87.8% at the same score (55.8% against 55.5%, paired +0.2, SE 1.3); on a 40 s
// clock against NTest depth 23 (32 games) from 77.8% to 85.0%, 51.6% both (docs/matches.md).
var endSolveLevels = [...]int{3, 0}

// Under a game clock the soft limit moves with the midgame iterations, as Edax's and
// Egaroucid's do: an iteration that changed the best move, or whose value fell well below
// that of the iteration of the same parity before it, means the choice is not settled, and
// the next iteration is worth more than the time it takes from later moves. Against NTest
// depth 18 on an 8.2 s clock (200 games, openings 241-340 of xot-large, both runs at once):
// 52.0% against 47.8% without (paired +4.2, SE 3.0), 7.09 s a game against 7.04; with 100 more
// games each on openings 441-490, 51.3% against 47.0% over 300 (paired +4.3, SE 2.6).
const (
	extendMinDepth = 6 // shallower iterations' changes say little
	extendChange   = 2 // soft limit factor after a change of the best move
	extendDrop     = 3 // discs: a fall this large from two iterations before ...
	extendDropBy   = 1.5
	// With settling on (Config.Settle), a best move kept for settleRuns iterations from
	// settleMinDepth on, its value within a disc of two iterations before, shrinks the soft
	// limit to settleBy of its base: the time goes to the moves that are not settled.
	settleMinDepth = 10
	settleRuns     = 4
	settleBy       = 0.6
)

// iterHistory keeps the midgame iterations' best moves and values.
type iterHistory struct {
	n     int
	same  int             // iterations in a row with the last best move
	moves [2]board.Square // last, before last
	vals  [2]int
}

// add records an iteration's best move and value (in scale units per disc) and returns the
// factor by which the soft limit is to be stretched (or, settling, shrunk) for the next one.
func (h *iterHistory) add(depth int, best board.Square, val, scale int, settle bool) float64 {
	f := 1.0
	if h.n > 0 && best == h.moves[0] {
		h.same++
	} else {
		h.same = 1
	}
	if depth >= extendMinDepth && h.n >= 2 {
		fall := h.vals[1] - val // from the iteration two before, of the same parity
		switch {
		case best != h.moves[0]:
			f = extendChange
		case fall >= extendDrop*scale:
			f = extendDropBy
		case settle && depth >= settleMinDepth && h.same >= settleRuns && fall < scale && fall > -scale:
			f = settleBy
		}
	}
	h.moves[1], h.vals[1] = h.moves[0], h.vals[0]
	h.moves[0], h.vals[0] = best, val
	h.n++
	return f
}

// Unless Config.NoResultTime, from resultTimeFrom empties down (the end phase of a game clock,
// where the engine loses its points to NTest by results turned, for want of time:
// docs/matches.md) a move whose previous own move's value was within resultClose discs of a
// draw gets resultStretch times the plan's target and limits, and one whose previous value
// was resultSure discs or more from it resultShrink times: the time goes to the moves whose
// result is at stake. (A first version stretched only the soft limit after each iteration,
// which moved hardly any time: docs/tried-and-rejected.md.)
const (
	resultTimeFrom = 26
	resultClose    = 4
	resultStretch  = 2.0
	resultSure     = 16
	resultShrink   = 0.5
)

// resultFactor is the factor of a move's time at a position with empties empty squares whose
// previous own move's value was val (scale units per disc).
func resultFactor(empties, val, scale int) float64 {
	if empties > resultTimeFrom {
		return 1
	}
	if val < 0 {
		val = -val
	}
	switch {
	case val <= resultClose*scale:
		return resultStretch
	case val >= resultSure*scale:
		return resultShrink
	}
	return 1
}

// scaled is the plan with its soft and hard limits times f, the hard limit kept within what a
// solving move may take of the clock remaining (timePlan.solve's share).
func (tp timePlan) scaled(f float64, remaining time.Duration) timePlan {
	if f == 1 || tp.hard == 0 {
		return tp
	}
	usable := remaining - clockReserve(remaining)
	hard := min(time.Duration(float64(tp.hard)*f), usable/solveShare)
	if hard < time.Millisecond {
		return tp
	}
	soft := time.Duration(float64(tp.soft) * f)
	tp.hard, tp.soft = hard, min(soft, hard)
	tp.solve = max(tp.solve, tp.hard)
	return tp
}

// extendedSoft is the soft limit scaled by f: stretched, it is kept under half the hard limit
// so that an iteration started late still has room to finish.
func (tp timePlan) extendedSoft(f float64) time.Duration {
	if tp.soft == 0 || f == 1 {
		return tp.soft
	}
	s := time.Duration(float64(tp.soft) * f)
	if f < 1 {
		return max(s, time.Millisecond)
	}
	return max(min(s, tp.hard/2), tp.soft)
}

// With Config.ClockSelectivity, under a game clock a move whose soft limit reaches
// clockSelSoft searches at Multi-ProbCut level clockSelLevel (87%) at most: level 5 (73%) was
// the better at 25 and 60 ms a move (protocol.DefaultSelectivity), and the deeper cuts above
// the fitted heights (DefaultMPCTop) might cost more accuracy at a few hundred milliseconds.
// Against NTest depth 18 on an 8.2 s clock (soft limits of about 150-400 ms; 200 games,
// openings 341-440, both runs at once) level 4 scored 46.8% against level 5's 44.0% (paired
// +2.8, SE 3.4): within the noise, so it is a measurement switch (match clocksel=on), off.
const (
	clockSelSoft  = 100 * time.Millisecond
	clockSelLevel = 4
)

// clockLevel is the most selective Multi-ProbCut level a move with this plan searches at.
func clockLevel(tp timePlan) int {
	if tp.soft >= clockSelSoft {
		return clockSelLevel
	}
	return endgame.MaxSelectivity
}
