package match

import "math"

// Match statistics: the Elo difference implied by a match score, with a 95% confidence
// interval from the per-game score variance (the usual normal approximation over
// win/draw/loss outcomes, as in engine-testing tools), and the score's standard error with
// the games of one opening taken together (OpeningSE).

// Stats counts a match's results from the first player's view.
type Stats struct {
	Wins, Draws, Losses int
	DiscSum             int // sum of the first player's final disc differences
}

// Add records one game with the first player's final disc difference.
func (s *Stats) Add(discDiff int) {
	switch {
	case discDiff > 0:
		s.Wins++
	case discDiff < 0:
		s.Losses++
	default:
		s.Draws++
	}
	s.DiscSum += discDiff
}

// Games is the number of games recorded.
func (s Stats) Games() int { return s.Wins + s.Draws + s.Losses }

// Score is the first player's score fraction, a draw counting one half (0.5 with no games).
func (s Stats) Score() float64 {
	n := s.Games()
	if n == 0 {
		return 0.5
	}
	return (float64(s.Wins) + 0.5*float64(s.Draws)) / float64(n)
}

// MeanDiscDiff is the first player's mean final disc difference.
func (s Stats) MeanDiscDiff() float64 {
	if s.Games() == 0 {
		return 0
	}
	return float64(s.DiscSum) / float64(s.Games())
}

// EloFromScore is the Elo difference that gives the expected score s (logistic model);
// +Inf for 1 and -Inf for 0.
func EloFromScore(s float64) float64 {
	switch {
	case s >= 1:
		return math.Inf(1)
	case s <= 0:
		return math.Inf(-1)
	}
	return -400 * math.Log10(1/s-1)
}

// Elo returns the Elo difference of the first player and its 95% confidence interval.
func (s Stats) Elo() (elo, lo, hi float64) {
	n := float64(s.Games())
	mu := s.Score()
	if n == 0 {
		return 0, math.Inf(-1), math.Inf(1)
	}
	w, d, l := float64(s.Wins)/n, float64(s.Draws)/n, float64(s.Losses)/n
	variance := w*(1-mu)*(1-mu) + d*(0.5-mu)*(0.5-mu) + l*mu*mu
	se := math.Sqrt(variance / n)
	return EloFromScore(mu), EloFromScore(mu - 1.959964*se), EloFromScore(mu + 1.959964*se)
}

// OpeningSE is the standard error of the mean of scores (each 0, 0.5 or 1) when the games
// fall into groups that are not independent of each other, the two colours of one opening:
// the usual cluster-robust estimate, sum over groups of the squared sum of their games'
// deviations from the mean, times groups/(groups-1), over the games squared. With both
// colours of every opening it is the standard error of the openings' mean scores. NaN with
// fewer than two groups.
func OpeningSE(groups [][]float64) float64 {
	n, k, sum := 0, 0, 0.0
	for _, g := range groups {
		if len(g) > 0 {
			k++
		}
		for _, s := range g {
			n++
			sum += s
		}
	}
	if k < 2 {
		return math.NaN()
	}
	mu := sum / float64(n)
	v := 0.0
	for _, g := range groups {
		r := 0.0
		for _, s := range g {
			r += s - mu
		}
		v += r * r
	}
	v *= float64(k) / float64(k-1)
	return math.Sqrt(v) / float64(n)
}
