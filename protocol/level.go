package protocol

import (
	"fmt"
	"strings"
	"time"

	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/search"
)

// strength is what a session searches: a row of the level table (search.LevelFor) with the
// command line's overrides. NBoard's "set depth N" and the console's "level N" pick level N.
type strength struct {
	depth, sel int
	exact, wld int  // the empties of the exact solve and of the win/loss/draw proof
	fixedSel   bool // -sel was given: a level picked later keeps it
	moveTime   time.Duration
	levelN     int // the level the row comes from (String names it when the row is its own)
}

// newStrength is the session's strength from the options: their depth and selectivity, and
// the solve empties of the options or else of the depth's level.
func newStrength(o *Options) strength {
	s := strength{depth: o.depth(), sel: o.Selectivity, exact: o.ExactEmpties, wld: o.WLDEmpties,
		fixedSel: o.FixedSelectivity, moveTime: o.MoveTime, levelN: o.Level}
	if o.Level == 0 && o.ExactEmpties <= 0 {
		s.levelN = s.depth
	}
	if s.exact <= 0 {
		l, _ := search.LevelFor(s.depth)
		s.exact, s.wld = l.ExactEmpties, l.WLDEmpties
	}
	return s
}

// setLevel picks level n: its depth and solve empties, and its selectivity unless the command
// line fixed one. n must be within 0-search.MaxLevel.
func (s *strength) setLevel(n int) {
	l, err := search.LevelFor(n)
	if err != nil {
		return
	}
	s.depth, s.exact, s.wld, s.levelN = l.Depth, l.ExactEmpties, l.WLDEmpties, n
	if !s.fixedSel {
		s.sel = l.Selectivity
	}
}

// limits are the search limits without a clock.
func (s *strength) limits() search.Limits {
	return search.Limits{Depth: s.depth, Selectivity: s.sel, ExactEmpties: s.exact, WLDEmpties: s.wld, MoveTime: s.moveTime}
}

// String says what the session searches: "level 12: depth 12@73%, win/loss/draw from 22
// empties, exact from 20", without the level when overrides changed its row.
func (s *strength) String() string {
	l := search.Level{N: s.levelN, Depth: s.depth, Selectivity: s.sel, ExactEmpties: s.exact, WLDEmpties: s.wld}
	text := l.String()
	if row, err := search.LevelFor(s.levelN); err != nil || row != l {
		_, rest, _ := strings.Cut(text, ": ")
		text = "level: " + rest
	}
	if s.moveTime > 0 {
		text += fmt.Sprintf(", %v a move", s.moveTime)
	}
	return text
}

// ParseGameClock reads a game clock as the -clock option gives it: the main time and an
// optional increment per move, Go durations ("5m", "10m/5s", "90s/1s").
func ParseGameClock(s string) (ggf.Clock, error) {
	main, inc, hasInc := strings.Cut(strings.TrimSpace(s), "/")
	m, err := time.ParseDuration(strings.TrimSpace(main))
	if err != nil || m <= 0 {
		return ggf.Clock{}, fmt.Errorf("clock %q: want a main time and an optional increment, e.g. 5m or 10m/5s", printable(s))
	}
	c := ggf.Clock{Main: m, Set: true}
	if hasInc {
		i, err := time.ParseDuration(strings.TrimSpace(inc))
		if err != nil || i < 0 {
			return ggf.Clock{}, fmt.Errorf("clock %q: increment %q: want a duration, e.g. 5s", printable(s), printable(inc))
		}
		c.Increment = i
	}
	return c, nil
}

// clockText writes a clock reading for people: "4:58", "1:02:03", "-0:03" once overstepped.
func clockText(d time.Duration) string {
	sign := ""
	if d < 0 {
		sign, d = "-", -d
	}
	d = d.Round(time.Second)
	h, m, sec := int(d/time.Hour), int(d/time.Minute)%60, int(d/time.Second)%60
	if h > 0 {
		return fmt.Sprintf("%s%d:%02d:%02d", sign, h, m, sec)
	}
	return fmt.Sprintf("%s%d:%02d", sign, m, sec)
}
