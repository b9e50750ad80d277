package search

import (
	"math/rand/v2"
	"testing"
	"time"
)

func TestClockShare(t *testing.T) {
	for e := 1; e <= 60; e++ {
		if s := clockShare(e, 18); s <= 0 || s > 1 {
			t.Fatalf("share at %d empties %v", e, s)
		}
	}
	if s := clockShare(1, 18); s != 1 {
		t.Fatalf("the last move gets %v of the clock, want all of it", s)
	}
	if s := clockShare(2, 18); s != 1 {
		t.Fatalf("the last move (2 empties) gets %v of the clock, want all of it", s)
	}
	// Spending every move's share exactly spends the whole clock over the game.
	left := 1.0
	for e := 52; e > 0; e -= 2 {
		left -= left * clockShare(e, 18)
	}
	if left > 1e-9 {
		t.Fatalf("%v of the clock left after spending every share", left)
	}
	// For the same clock left, a midgame move gets more than an opening one, and a move of
	// the endgame band more than a midgame one; the moves after the solve get little.
	lim := Limits{Remaining: 5 * time.Second}
	open, mid := planTime(lim, 52), planTime(lim, 34)
	band, after := planTime(Limits{Remaining: time.Second}, 20), planTime(Limits{Remaining: time.Second}, 12)
	midSmall := planTime(Limits{Remaining: time.Second}, 26)
	if open.soft >= mid.soft || midSmall.soft >= band.soft || after.soft >= band.soft {
		t.Fatalf("targets: opening %v midgame %v; clock 1 s: midgame %v band %v after the solve %v",
			open.soft, mid.soft, midSmall.soft, band.soft, after.soft)
	}
}

func TestPlanTimeClock(t *testing.T) {
	for _, rem := range []time.Duration{time.Millisecond, 20 * time.Millisecond, 300 * time.Millisecond, 4 * time.Second, time.Minute, time.Hour} {
		for _, inc := range []time.Duration{0, 100 * time.Millisecond, 2 * time.Second} {
			for e := 1; e <= 60; e++ {
				tp := planTime(Limits{Remaining: rem, Increment: inc}, e)
				if !tp.banked || tp.soft <= 0 || tp.soft > tp.stretch || tp.stretch > tp.hard || tp.hard > tp.solve {
					t.Fatalf("clock %v + %v, %d empties: plan %+v out of order", rem, inc, e, tp)
				}
				if rem > 10*time.Millisecond && (tp.hard > rem/3 || tp.solve > rem/2) {
					t.Fatalf("clock %v + %v, %d empties: plan %+v takes too much of the clock", rem, inc, e, tp)
				}
				if inc > 0 && rem >= time.Second && e >= 30 {
					without := planTime(Limits{Remaining: rem}, e)
					if tp.soft <= without.soft {
						t.Fatalf("clock %v, %d empties: the increment does not raise the target (%v, %v)", rem, e, tp.soft, without.soft)
					}
				}
			}
		}
	}
	// A time per move alone banks nothing.
	if tp := planTime(Limits{MoveTime: time.Second}, 30); tp.banked || tp.stretch != tp.soft {
		t.Fatalf("move time plan %+v", tp)
	}
}

func TestIterClock(t *testing.T) {
	ms := time.Millisecond
	tp := timePlan{soft: 60 * ms, stretch: 150 * ms, hard: 400 * ms, solve: 400 * ms, banked: true}
	c := newIterClock(tp)
	at := time.Duration(0)
	// Stable iterations, each three times the last: they run until the soft limit.
	n := 0
	for d, dur := 1, ms; ; d, dur = d+1, dur*3 {
		at += dur
		c.done(at, 7, 1)
		n++
		if !c.next(at) {
			break
		}
	}
	if at <= 60*ms/3 || at > 60*ms*3 {
		t.Fatalf("stable search stopped at %v after %d iterations (soft %v)", at, n, tp.soft)
	}
	// After the soft limit but within the stretch, a change of the best move goes on.
	tp.hard = time.Second
	c = newIterClock(tp)
	for _, t0 := range []time.Duration{1, 2, 4, 8, 16} {
		c.done(t0*ms, 7, 1)
	}
	c.done(70*ms, 9, 1) // the best move changed, 54 ms after the last
	if !c.next(70 * ms) {
		t.Fatal("an unstable search stopped at the soft limit")
	}
	if c.next(160 * ms) {
		t.Fatal("an unstable search went past its stretch")
	}
	// A value drop of two discs against the iteration of the same parity counts too; an
	// odd-even swing of the same size alone does not.
	c = newIterClock(tp)
	for _, v := range []float64{1, 3, 1, 3, 1, 3} {
		c.done(20*ms, 7, v)
	}
	if c.unstable {
		t.Fatal("an odd-even swing counted as a drop")
	}
	c.done(21*ms, 7, -1.5)
	if !c.unstable {
		t.Fatal("a drop of 2.5 discs did not count")
	}
	// An iteration that would end after the hard limit does not start.
	c = newIterClock(timePlan{soft: 300 * ms, stretch: 300 * ms, hard: 400 * ms, banked: true})
	c.done(50*ms, 7, 1)
	c.done(200*ms, 7, 1) // 150 ms after 50: the next would take about 450 ms
	if c.next(200 * ms) {
		t.Fatal("an iteration predicted to end after the hard limit would start")
	}
	// Under a time per move (nothing banked) it still starts: its partial result counts.
	c = newIterClock(timePlan{soft: 300 * ms, stretch: 300 * ms, hard: 400 * ms})
	c.done(50*ms, 7, 1)
	c.done(200*ms, 7, 1)
	if !c.next(200 * ms) {
		t.Fatal("under a time per move an iteration before the soft limit did not start")
	}
	// No time limit: only the depth stops the search.
	c = newIterClock(timePlan{})
	c.done(time.Hour, 7, 1)
	if !c.next(time.Hour) {
		t.Fatal("without a time limit the clock stopped the search")
	}
}

// simulateGame plays the mover's moves of a game from 52 empties against a clock with a model
// of the search: iterations whose cost grows by a random factor of 2-5, cut at the hard limit;
// from exactAt empties down an exact solve of random cost (a fifth to three times a median
// that grows fourfold every two empties), cut at the solve limit, after which the moves are
// nearly free; and overhead per move. It returns the clock left at the end (negative: lost on
// time) and the time the game made available (the clock and the increments).
func simulateGame(rng *rand.Rand, clock, inc time.Duration) (left, total time.Duration) {
	const overhead = 300 * time.Microsecond
	left, total = clock, clock
	solved := false
	for empties := 52; empties > 0; empties -= 2 {
		tp := planTime(Limits{Remaining: left, Increment: inc}, empties)
		var used time.Duration
		switch {
		case solved:
			used = 50 * time.Microsecond
		case empties <= exactEmptiesForTime(tp.solve):
			median := 5 * time.Millisecond << (max(empties-16, 0))
			if empties < 16 {
				median = time.Millisecond
			}
			cost := time.Duration(float64(median) * (0.2 + 2.8*rng.Float64()))
			used = min(cost, tp.solve)
			solved = cost <= tp.solve
		default:
			c := newIterClock(tp)
			dur := time.Duration(float64(100*time.Microsecond) * (0.5 + rng.Float64()))
			for d := 1; d <= 60; d++ {
				if used+dur > tp.hard {
					used = tp.hard // cut where it is
					break
				}
				used += dur
				c.done(used, rng.IntN(2)*rng.IntN(2), rng.NormFloat64())
				if !c.next(used) {
					break
				}
				dur = time.Duration(float64(dur) * (2 + 3*rng.Float64()))
			}
		}
		left += inc - used - overhead
		total += inc
		if left < 0 {
			return left, total
		}
	}
	return left, total
}

// TestSimulatedGamesKeepTheClock plays simulated games at clocks from 50 ms to 10 minutes:
// none runs out of time, and the plan spends at least 85% of clocks of a second and more on
// average; with an increment of a hundredth of the clock at least 75% of the clock and the
// increments together (those of the moves after the exact solve cannot be spent).
func TestSimulatedGamesKeepTheClock(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := 300
	if testing.Short() {
		games = 60
	}
	for _, clock := range []time.Duration{50 * time.Millisecond, 350 * time.Millisecond, time.Second, 4 * time.Second, 8 * time.Second, time.Minute, 10 * time.Minute} {
		for _, inc := range []time.Duration{0, clock / 100} {
			var spent float64
			for g := 0; g < games; g++ {
				left, total := simulateGame(rng, clock, inc)
				if left < 0 {
					t.Fatalf("clock %v + %v: game %d lost on time (%v)", clock, inc, g, left)
				}
				spent += 1 - float64(left)/float64(total)
			}
			spent /= float64(games)
			t.Logf("clock %v + %v: %.1f%% of the clock spent on average", clock, inc, 100*spent)
			want := 0.85
			if inc > 0 {
				want = 0.75
			}
			if clock >= time.Second && spent < want {
				t.Errorf("clock %v + %v: %.1f%% spent on average, want %.0f%% or more", clock, inc, 100*spent, 100*want)
			}
		}
	}
}
