package search

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

// endMPCFit holds the regressions by empties: from the exact scores of 1,000 positions of
// real games (200 each at 12, 14, 16, 18 and 20 empties, from games of this engine against
// NTest) against the shallow search values of the embedded weights. Odd numbers of empties
// use the even one below, 21+ the fit at 20.
var endMPCFit = map[int]endMPCPair{
	12: {4, 0.80, -1.6, 6.97},
	14: {4, 0.72, -1.4, 7.93},
	16: {4, 0.68, -1.6, 7.02},
	18: {6, 0.88, -1.4, 5.03},
	20: {6, 0.96, -1.1, 4.35},
}

func endMPCFor(empties int) endMPCPair {
	e := min(empties&^1, 20)
	return endMPCFit[e]
}

// SetSelectivity sets the selectivity of the next solves: level 0 is exact, levels 1 to
// MaxSelectivity cut with the confidence of the midgame levels (needs the pattern evaluation
// in the options; without it every level solves exactly). The solver's own table keeps the
// level of its bounds, so a more exact solve never uses a less exact one's bounds.
func (s *Solver) SetSelectivity(level int) {
	s.level = max(0, min(level, MaxSelectivity))
	s.mpcT = mpcLevels[s.level].t
	if s.opt.Eval == nil {
		s.level, s.mpcT = 0, 0
	}
}

// probCut tries the cut at a node of a probable solve.
func (s *Solver) probCut(p, o uint64, alpha, beta, empties int) (int, bool) {
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
