package endgame

// The selectivity levels are shared by the midgame's Multi-ProbCut and the solver's probable
// solves: a level names a cut threshold t (in standard deviations of the predicted value) and
// the confidence it stands for.
var levels = [...]struct {
	t       float64
	percent int
}{{0, 100}, {3.3, 99}, {2.6, 98}, {2.0, 95}, {1.5, 87}, {1.1, 73}}

// MaxSelectivity is the most selective level; level 0 cuts nothing (exact).
const MaxSelectivity = len(levels) - 1

// SelectivityPercent is the confidence of a selectivity level, 100 for level 0.
func SelectivityPercent(level int) int {
	return levels[max(0, min(level, MaxSelectivity))].percent
}

// SelectivityT is the cut threshold of a selectivity level, in standard deviations (0 for
// level 0, which never cuts).
func SelectivityT(level int) float64 {
	return levels[max(0, min(level, MaxSelectivity))].t
}
