package match

import (
	"math"
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
