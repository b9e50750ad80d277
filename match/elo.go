package match

import "math"

// Match statistics: the Elo difference implied by a match score, with a 95% confidence
// interval from the per-game score variance (the usual normal approximation over
// win/draw/loss outcomes, as in engine-testing tools).

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
