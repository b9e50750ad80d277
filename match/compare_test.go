package match

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/ggf"
)

// record is a GGF game from the start position: the opening's moves without times, then
// two timed moves, black's taking tb and white's tw seconds; result is black's discs.
func record(t *testing.T, black, white, opening, timed, result string) *ggf.Game {
	t.Helper()
	text := "(;GM[Othello]PB[" + black + "]PW[" + white + "]RE[" + result + "]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]" + opening + timed + ";)"
	g, _, err := ggf.Parse(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return g
}

// Three openings (the moves after them are legal in each).
var compareOpenings = [][2]string{
	{"B[F5]W[D6]", "B[C3//0.5]W[D3//0.25]"},
	{"B[F5]W[F6]", "B[E6//0.5]W[F4//0.25]"},
	{"B[F5]W[F4]", "B[E3//0.5]W[F6//0.25]"},
}

// run makes a run's six games from A's scores as black and as white on each opening
// (1 a win by 2 discs, 0.5 a draw, 0 a loss by 2).
func run(t *testing.T, scores [3][2]float64) []*ggf.Game {
	var games []*ggf.Game
	for i, o := range compareOpenings {
		for col := 0; col < 2; col++ {
			d := map[float64]string{1: "+2", 0.5: "0", 0: "-2"}[scores[i][col]]
			black, white := "A x", "B y"
			if col == 1 {
				black, white = white, black
				d = map[string]string{"+2": "-2", "0": "0", "-2": "+2"}[d]
			}
			games = append(games, record(t, black, white, o[0], o[1], d))
		}
	}
	return games
}

func TestSummarizeAndPaired(t *testing.T) {
	base := [3][2]float64{{1, 0}, {0.5, 1}, {0, 0}}
	try := [3][2]float64{{1, 1}, {0.5, 1}, {0.5, 0}}
	a := Summarize(run(t, base), "A ", 0)
	b := Summarize(run(t, try), "A ", 0)
	if a.Stats.Wins != 2 || a.Stats.Draws != 1 || a.Stats.Losses != 3 || a.Openings != 3 || a.Skipped != 0 {
		t.Fatalf("base: %+v", a)
	}
	if a.Player != "A x" || len(a.Opponents) != 1 || a.Opponents[0] != "B y" {
		t.Errorf("players %q against %q", a.Player, a.Opponents)
	}
	// A plays one timed move a game (0.5 s as black, 0.25 s as white), so 0.375 s a game.
	if a.TimedGames != 6 || a.Time.Seconds() != 0.375 || a.OppTime.Seconds() != 0.375 {
		t.Errorf("times %v and %v over %d games", a.Time, a.OppTime, a.TimedGames)
	}
	wantSE := OpeningSE([][]float64{{1, 0}, {0.5, 1}, {0, 0}})
	if math.Abs(a.SE-wantSE) > 1e-12 {
		t.Errorf("SE %v, want %v", a.SE, wantSE)
	}
	// By opening: +0.5, 0, +0.25; mean 0.25, deviation 0.25, SE 0.25/sqrt(3).
	p := Paired(a, b)
	if p.Openings != 3 || math.Abs(p.Diff-0.25) > 1e-12 || math.Abs(p.SE-0.25/math.Sqrt(3)) > 1e-12 {
		t.Errorf("paired %+v, want 3 openings, +0.25, SE %v", p, 0.25/math.Sqrt(3))
	}
	if q := Paired(b, a); math.Abs(q.Diff+0.25) > 1e-12 || math.Abs(q.SE-p.SE) > 1e-12 {
		t.Errorf("reversed %+v", q)
	}

	// An opening missing a colour in one run is left out of the pairing.
	short := Summarize(run(t, try)[:5], "A ", 0)
	if q := Paired(a, short); q.Openings != 2 || math.Abs(q.Diff-0.25) > 1e-12 {
		t.Errorf("one colour missing: %+v, want 2 openings, +0.25", q)
	}
	// With the first move as the opening, the three are one.
	if one := Summarize(run(t, base), "A ", 1); one.Openings != 1 || !math.IsNaN(one.SE) {
		t.Errorf("-plies 1: %d openings, SE %v", one.Openings, one.SE)
	}
	if q := Paired(Summarize(run(t, base), "A ", 1), Summarize(run(t, try), "A ", 1)); q.Openings != 1 || !math.IsNaN(q.SE) || math.Abs(q.Diff-0.25) > 1e-12 {
		t.Errorf("one opening: %+v", q)
	}

	var out bytes.Buffer
	WriteComparison(&out, []string{"base.ggf", "try.ggf"}, []RunSummary{a, b})
	for _, want := range []string{
		`run 1 (base.ggf): "A x", 6 games, 2-1-3, score 41.7% (SE `,
		`run 2 (try.ggf): "A x", 6 games, 3-2-1, score 66.7%`,
		`  against "B y"`,
		"thinking time a game: 0.38 s, its opponent 0.38 s (1.00 times the opponent's)",
		"run 2 - run 1: +25.0 points paired by opening (SE 14.4, 3 openings with both colours in both runs)",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestSummarizeSkips(t *testing.T) {
	o := compareOpenings[0]
	games := []*ggf.Game{
		record(t, "A x", "B y", o[0], o[1], "+4"),
		record(t, "A x", "A z", o[0], o[1], "+4"), // A on both sides
		record(t, "C x", "B y", o[0], o[1], "+4"), // no A
		record(t, "B y", "A x", o[0], o[1], "?"),  // no result, game not over
		record(t, "B y", "A x", o[0], o[1], "junk"),
	}
	s := Summarize(games, "A ", 0)
	if s.Stats.Games() != 1 || s.Stats.DiscSum != 4 || s.Skipped != 4 {
		t.Errorf("%d games, discs %d, %d skipped; want 1, 4, 4", s.Stats.Games(), s.Stats.DiscSum, s.Skipped)
	}
	if p := Paired(s, s); p.Openings != 0 || !math.IsNaN(p.Diff) {
		t.Errorf("paired without both colours: %+v", p)
	}
	var out bytes.Buffer
	WriteComparison(&out, []string{"a", "b"}, []RunSummary{s, s})
	if !strings.Contains(out.String(), "4 games left out") || !strings.Contains(out.String(), "run 2 - run 1: no opening played with both colours in both runs") {
		t.Errorf("report:\n%s", out.String())
	}
}

// A finished game without a numeric result is scored by its final board; an unfinished one
// without a result is left out.
func TestSummarizeFinalBoard(t *testing.T) {
	full := strings.Repeat("*", 40) + strings.Repeat("O", 24) // 40-24: black by 16
	rows := make([]string, 8)
	for i := range rows {
		rows[i] = full[8*i : 8*i+8]
	}
	text := "(;GM[Othello]PB[B y]PW[A x]RE[?]TY[8]BO[8 " + strings.Join(rows, " ") + " *];)"
	g, _, err := ggf.Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	s := Summarize([]*ggf.Game{g}, "A ", 0)
	if s.Stats.Games() != 1 || s.Stats.DiscSum != -16 || s.Skipped != 0 || s.TimedGames != 0 {
		t.Errorf("finished game: %d games, A's discs %d, %d skipped, %d timed; want 1, -16, 0, 0", s.Stats.Games(), s.Stats.DiscSum, s.Skipped, s.TimedGames)
	}
}

// The player's clock comes from each record's TB or TW (else TI): its mean over the games
// that give one, and the part of it the player's moves took.
func TestSummarizeClock(t *testing.T) {
	games := run(t, [3][2]float64{{1, 0}, {0.5, 1}, {0, 0}})
	if s := Summarize(games, "A ", 0); s.ClockedGames != 0 || s.Clock != 0 {
		t.Fatalf("records without clocks: %+v", s)
	}
	// A's clock 2 s in the first four games (TB or TW by its colour, the other side's clock
	// there 9 s), TI 4 s for both in the fifth, none in the sixth.
	for i, g := range games[:4] {
		aBlack := i%2 == 0
		own, other := &g.BlackClock, &g.WhiteClock
		if !aBlack {
			own, other = other, own
		}
		*own = ggf.Clock{Main: 2 * time.Second, Set: true}
		*other = ggf.Clock{Main: 9 * time.Second, Set: true}
	}
	games[4].Clock = ggf.Clock{Main: 3 * time.Second, Extension: time.Second, Set: true}
	s := Summarize(games, "A ", 0)
	// A's moves: 0.5 s as black (games 1, 3, 5), 0.25 s as white (games 2, 4): 2 s of 12.
	if s.ClockedGames != 5 || s.Clock != 2400*time.Millisecond || math.Abs(s.ClockUsed-2.0/12) > 1e-9 {
		t.Errorf("clock %v over %d games, %.4f used; want 2.4s over 5, %.4f", s.Clock, s.ClockedGames, s.ClockUsed, 2.0/12)
	}
	var out bytes.Buffer
	WriteComparison(&out, []string{"c.ggf"}, []RunSummary{s})
	if want := "  its clock: 2.40 s a game on average over 5 games, 16.7% of it used"; !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
}
