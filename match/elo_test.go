package match

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestEloFromScore(t *testing.T) {
	for _, c := range []struct{ s, elo float64 }{{0.5, 0}, {0.75, 190.849}, {0.25, -190.849}, {10.0 / 11, 400}} {
		if got := EloFromScore(c.s); math.Abs(got-c.elo) > 0.01 {
			t.Errorf("EloFromScore(%v) = %v, want %v", c.s, got, c.elo)
		}
	}
	if !math.IsInf(EloFromScore(1), 1) || !math.IsInf(EloFromScore(0), -1) {
		t.Error("a perfect score must be infinite")
	}
}

func TestStatsElo(t *testing.T) {
	var s Stats
	for i := 0; i < 60; i++ {
		s.Add(10)
	}
	for i := 0; i < 20; i++ {
		s.Add(0)
	}
	for i := 0; i < 20; i++ {
		s.Add(-4)
	}
	if s.Games() != 100 || s.Score() != 0.7 || s.MeanDiscDiff() != 5.2 {
		t.Fatalf("stats %+v: games %d score %v mean %v", s, s.Games(), s.Score(), s.MeanDiscDiff())
	}
	elo, lo, hi := s.Elo()
	// score 0.7: Elo 147.2; per-game sd sqrt(.6*.09+.2*.04+.2*.49)=0.4; se 0.04;
	// interval scores 0.6216 and 0.7784.
	want := []float64{147.19, EloFromScore(0.7 - 1.959964*0.04), EloFromScore(0.7 + 1.959964*0.04)}
	for i, got := range []float64{elo, lo, hi} {
		if math.Abs(got-want[i]) > 0.05 {
			t.Errorf("Elo value %d = %v, want %v", i, got, want[i])
		}
	}
	if !(lo < elo && elo < hi) {
		t.Errorf("interval [%v, %v] does not hold %v", lo, hi, elo)
	}
	// All draws: no spread, a zero-width interval at 0.
	var d Stats
	d.Add(0)
	d.Add(0)
	if e, l, h := d.Elo(); e != 0 || l != 0 || h != 0 {
		t.Errorf("all draws: %v [%v, %v]", e, l, h)
	}
}

// OpeningSE against the standard error of the openings' mean scores, computed the plain way,
// when every opening has both colours; by hand for an opening with one game; NaN below two.
func TestOpeningSE(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	vals := []float64{0, 0.5, 1}
	for trial := 0; trial < 50; trial++ {
		k := 2 + rng.IntN(60)
		groups := make([][]float64, k)
		means := make([]float64, k)
		for i := range groups {
			a, b := vals[rng.IntN(3)], vals[rng.IntN(3)]
			groups[i] = []float64{a, b}
			means[i] = (a + b) / 2
		}
		m := 0.0
		for _, x := range means {
			m += x
		}
		m /= float64(k)
		ss := 0.0
		for _, x := range means {
			ss += (x - m) * (x - m)
		}
		want := math.Sqrt(ss / float64(k-1) / float64(k))
		if got := OpeningSE(groups); math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d: %v, want %v (groups %v)", trial, got, want, groups)
		}
	}
	// Scores 1,1 | 0 | 0.5,0: mean 0.5; residual sums 1, -0.5, -0.5; 3/2 * 1.5 / 25.
	if got, want := OpeningSE([][]float64{{1, 1}, {0}, {0.5, 0}}), math.Sqrt(1.5*1.5)/5; math.Abs(got-want) > 1e-12 {
		t.Errorf("unequal groups: %v, want %v", got, want)
	}
	for _, g := range [][][]float64{nil, {{1, 0}}, {{1, 0}, {}}} {
		if got := OpeningSE(g); !math.IsNaN(got) {
			t.Errorf("%v: %v, want NaN", g, got)
		}
	}
}
