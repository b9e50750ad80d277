package endgame

import (
	"math"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
)

// Multi-ProbCut in the endgame (probable solves). A solve with selectivity predicts the exact
// score of a node from a shallow search over the pattern evaluation, score ~ a*v + b with
// residual deviation sigma, and cuts when the prediction clears the window by t standard
// deviations (t from the selectivity level, as in the midgame). Under time control the engine
// runs such solves before (or in place of) the exact one, each more exact than the last: the
// table keeps their moves, so the next one is well ordered (Edax's scheme).

// endMPCMin is the fewest empties at which a probable solve tries the cut; below it the
// subtrees are too small to pay for the shallow searches.
const endMPCMin = 12

// endMPCPair is one regression of the exact score (discs) on the shallow value (discs).
type endMPCPair struct {
	depth    int
	a, b, sd float64
}

// endMPCFit holds the regressions by empties: from the exact scores of 1,800 positions of
// real games (200 at each number of empties from 12 to 20, from games of this engine against
// NTest) against the shallow search values of the embedded weights. The intercepts alternate
// with the parity of the empties (the evaluation rates the side to move 1-2.5 discs too high
// when the opponent will have the last move, too low when it will have it), so more empties
// than 20 use the fit at 19 or 20, whichever has the same parity.
var endMPCFit = [...]endMPCPair{
	12: {2, 0.68, -1.2, 7.71},
	13: {2, 0.65, +1.2, 8.20},
	14: {2, 0.42, -1.4, 8.85},
	15: {2, 0.50, +2.2, 8.04},
	16: {2, 0.52, -1.3, 7.26},
	17: {2, 0.65, +2.1, 6.51},
	18: {4, 0.82, -1.1, 5.09},
	19: {4, 0.80, +1.6, 4.96},
	20: {4, 0.86, -1.6, 4.89},
}

func endMPCFor(empties int) endMPCPair {
	if empties > 20 {
		empties = 20 - empties&1
	}
	return endMPCFit[empties]
}

// SetSelectivity sets the selectivity of the next solves: level 0 is exact, levels 1 to
// MaxSelectivity cut with the confidence of the midgame levels (needs the pattern evaluation
// in the options; without it every level solves exactly). The solver's own table keeps the
// level of its bounds, so a more exact solve never uses a less exact one's bounds.
func (s *Solver) SetSelectivity(level int) {
	s.level = max(0, min(level, MaxSelectivity))
	s.mpcT = SelectivityT(s.level)
	if s.opt.Eval == nil {
		s.level, s.mpcT = 0, 0
	}
	s.team.set.level, s.team.set.mpcT = s.level, s.mpcT
}

// probCut tries the cut at a node of a probable solve.
func (s *Solver) probCut(p, o uint64, alpha, beta, empties int) (int, bool) {
	if s.evalNodes >= s.nextEvalPoll {
		// The shallow searches can outweigh the counted nodes many times over: without this
		// poll a stop could wait for seconds on a slow machine.
		s.nextEvalPoll = s.evalNodes + pollNodes
		s.poll()
		if s.stopped {
			return 0, true
		}
	}
	pr := endMPCFor(empties)
	margin := s.mpcT * pr.sd
	b := board.FromColors(p, o, true)
	const sc = float64(eval.Scale)
	if beta <= 64 {
		// score >= beta is likely when v >= (beta + margin - b)/a.
		bound := int(math.Ceil((float64(beta) + margin - pr.b) / pr.a * sc))
		if bound < 64*eval.Scale && s.shallowEval(&b, bound-1, bound, pr.depth) >= bound {
			return beta, true
		}
	}
	if alpha >= -64 {
		bound := int(math.Floor((float64(alpha) - margin - pr.b) / pr.a * sc))
		if bound > -64*eval.Scale && s.shallowEval(&b, bound, bound+1, pr.depth) <= bound {
			return alpha, true
		}
	}
	return 0, false
}
