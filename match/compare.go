package match

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/ggf"
)

// Comparing runs: a change is judged by a run of the engine with it and a run without it on
// the same openings, both colours each, and the difference of the two scores is read opening
// by opening (paired), which removes most of what the openings themselves decide. Summarize
// scores one run's games for one player, keyed by opening; Paired takes two such runs.

// RunSummary is one run's games scored for one player.
type RunSummary struct {
	Player     string // the player's name (the GGF PB or PW that matched)
	Opponents  []string
	Stats      Stats   // the player's wins, draws, losses and disc differences
	SE         float64 // standard error of the score fraction by opening (OpeningSE), NaN below two openings
	Openings   int     // distinct openings
	Time       time.Duration
	OppTime    time.Duration // thinking time a game, the player's and its opponents'
	TimedGames int           // games with at least one timed move, over which the times are averaged
	// Clock is the player's mean game clock (main time and extension) over the ClockedGames
	// whose record gives it one (TB/TW, else TI; match writes each game's), and ClockUsed the
	// part of those clocks its moves took; 0 with no such game.
	Clock        time.Duration
	ClockUsed    float64
	ClockedGames int
	Skipped      int // games without a result or without the player
	// byOpening holds the player's scores (0, 0.5, 1) by opening and colour (0 black, 1 white).
	byOpening map[string]*[2][]float64
}

// OpeningKey is what identifies the opening of a game: its start position and the moves
// played before the first one with a thinking time (match writes the opening's moves
// without times), or its first plies moves when plies > 0.
func OpeningKey(g *ggf.Game, plies int) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%016x %016x %t|", g.Start.P, g.Start.O, g.Start.BlackToMove)
	for i, m := range g.Moves {
		if plies > 0 && i >= plies || plies <= 0 && m.HasTime {
			break
		}
		sb.WriteString(m.Square.String())
	}
	return sb.String()
}

// blackResult is the game's final disc difference for black: the GGF result when it is a
// number, else the final board's discs when the game is over; ok false when neither.
func blackResult(g *ggf.Game) (int, bool) {
	if v, ok := g.StoredResult(); ok {
		return v, true
	}
	f := g.Final()
	if board.LegalMoves(f.P, f.O) == 0 && board.LegalMoves(f.O, f.P) == 0 {
		return f.BlackScore(), true
	}
	return 0, false
}

// Summarize scores the games for the player whose GGF name starts with prefix (match names
// its players "A <settings>" and "B <settings>", so "A " is this engine's side). Games
// without such a player (or with it on both sides), or without a result, are counted in
// Skipped. plies is as for OpeningKey.
func Summarize(games []*ggf.Game, prefix string, plies int) RunSummary {
	s := RunSummary{byOpening: map[string]*[2][]float64{}}
	var t, ot, clocks, spent time.Duration
	for _, g := range games {
		isB, isW := strings.HasPrefix(g.Black, prefix), strings.HasPrefix(g.White, prefix)
		r, ok := blackResult(g)
		if isB == isW || !ok {
			s.Skipped++
			continue
		}
		name, opp, col := g.Black, g.White, 0
		if isW {
			name, opp, col, r = g.White, g.Black, 1, -r
		}
		if s.Player == "" {
			s.Player = name
		}
		if !slices.Contains(s.Opponents, opp) {
			s.Opponents = append(s.Opponents, opp)
		}
		s.Stats.Add(r)
		k := OpeningKey(g, plies)
		o := s.byOpening[k]
		if o == nil {
			o = new([2][]float64)
			s.byOpening[k] = o
		}
		o[col] = append(o[col], points(float64(r)))
		timed := false
		var own time.Duration
		for _, m := range g.Moves {
			if !m.HasTime {
				continue
			}
			timed = true
			if m.Black == isB {
				own += m.Time
			} else {
				ot += m.Time
			}
		}
		t += own
		if timed {
			s.TimedGames++
		}
		if c := g.PlayerClock(isB); c.Set && c.Main+c.Extension > 0 {
			clocks += c.Main + c.Extension
			spent += own
			s.ClockedGames++
		}
	}
	s.Openings = len(s.byOpening)
	groups := make([][]float64, 0, len(s.byOpening))
	for _, o := range s.byOpening {
		groups = append(groups, append(append([]float64(nil), o[0]...), o[1]...))
	}
	s.SE = OpeningSE(groups)
	if s.TimedGames > 0 {
		s.Time, s.OppTime = t/time.Duration(s.TimedGames), ot/time.Duration(s.TimedGames)
	}
	if s.ClockedGames > 0 {
		s.Clock, s.ClockUsed = clocks/time.Duration(s.ClockedGames), spent.Seconds()/clocks.Seconds()
	}
	return s
}

// PairedDiff is run b's score minus run a's, paired by opening: over the openings that both
// runs played with both colours, the mean of b's minus a's mean score on the opening, and the
// standard error of that mean (NaN below two openings).
type PairedDiff struct {
	Openings int
	Diff, SE float64 // score fractions
}

// Paired compares two runs opening by opening (see PairedDiff). An opening played more than
// once with a colour in a run counts by its mean there.
func Paired(a, b RunSummary) PairedDiff {
	var d []float64
	for _, k := range slices.Sorted(maps.Keys(a.byOpening)) {
		oa, ob := a.byOpening[k], b.byOpening[k]
		if ob == nil || len(oa[0]) == 0 || len(oa[1]) == 0 || len(ob[0]) == 0 || len(ob[1]) == 0 {
			continue
		}
		x := (mean(ob[0]) + mean(ob[1]) - mean(oa[0]) - mean(oa[1])) / 2
		d = append(d, x)
	}
	p := PairedDiff{Openings: len(d), Diff: math.NaN(), SE: math.NaN()}
	if len(d) == 0 {
		return p
	}
	p.Diff = mean(d)
	if len(d) > 1 {
		v := 0.0
		for _, x := range d {
			v += (x - p.Diff) * (x - p.Diff)
		}
		p.SE = math.Sqrt(v / float64(len(d)-1) / float64(len(d)))
	}
	return p
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// WriteComparison prints each run's summary, then each later run's paired difference
// against the first. names label the runs (their files).
func WriteComparison(w io.Writer, names []string, runs []RunSummary) {
	for i, r := range runs {
		st := r.Stats
		fmt.Fprintf(w, "run %d (%s): %q, %d games, %d-%d-%d, score %.1f%%", i+1, names[i], r.Player,
			st.Games(), st.Wins, st.Draws, st.Losses, 100*st.Score())
		if !math.IsNaN(r.SE) {
			fmt.Fprintf(w, " (SE %.1f by opening, %d openings)", 100*r.SE, r.Openings)
		}
		fmt.Fprintf(w, ", discs %+.2f\n", st.MeanDiscDiff())
		if len(r.Opponents) > 0 {
			fmt.Fprintf(w, "  against %s\n", quoteAll(r.Opponents))
		}
		if r.TimedGames > 0 {
			fmt.Fprintf(w, "  thinking time a game: %s, its opponent %s", gameTime(r.Time), gameTime(r.OppTime))
			if r.OppTime > 0 {
				fmt.Fprintf(w, " (%.2f times the opponent's)", r.Time.Seconds()/r.OppTime.Seconds())
			}
			fmt.Fprintln(w)
		}
		if r.ClockedGames > 0 {
			fmt.Fprintf(w, "  its clock: %s a game on average over %d games, %.1f%% of it used\n", gameTime(r.Clock), r.ClockedGames, 100*r.ClockUsed)
		}
		if r.Skipped > 0 {
			fmt.Fprintf(w, "  %d games left out: no result, or not exactly one player named so\n", r.Skipped)
		}
	}
	for i := 1; i < len(runs); i++ {
		p := Paired(runs[0], runs[i])
		switch {
		case p.Openings == 0:
			fmt.Fprintf(w, "run %d - run 1: no opening played with both colours in both runs\n", i+1)
		case math.IsNaN(p.SE):
			fmt.Fprintf(w, "run %d - run 1: %+.1f points paired by opening (1 opening, no standard error)\n", i+1, 100*p.Diff)
		default:
			fmt.Fprintf(w, "run %d - run 1: %+.1f points paired by opening (SE %.1f, %d openings with both colours in both runs)\n",
				i+1, 100*p.Diff, 100*p.SE, p.Openings)
		}
	}
}

// gameTime prints a time a game in seconds, or in milliseconds below a tenth of a second.
func gameTime(d time.Duration) string {
	if d < 100*time.Millisecond {
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.2f s", d.Seconds())
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = strconv.Quote(x)
	}
	return strings.Join(q, ", ")
}
