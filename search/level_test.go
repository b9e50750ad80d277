package search

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// TestLevelTable checks the rows of the level table: depths and solve empties never fall as
// the level rises, the proof is never below the exact solve, the default level solves exactly
// from 20 empties, level 60 is perfect play, and out-of-range levels are refused.
func TestLevelTable(t *testing.T) {
	rows := LevelTable()
	if len(rows) != MaxLevel+1 {
		t.Fatalf("%d rows, want %d", len(rows), MaxLevel+1)
	}
	for i, l := range rows {
		if l.N != i || l.Depth < 1 || l.ExactEmpties < 2 || l.WLDEmpties < l.ExactEmpties || l.WLDEmpties > 60 {
			t.Errorf("row %d: %+v", i, l)
		}
		if i > 0 {
			p := rows[i-1]
			if l.Depth < p.Depth || l.ExactEmpties < p.ExactEmpties || l.WLDEmpties < p.WLDEmpties || l.Selectivity > p.Selectivity {
				t.Errorf("level %d (%v) searches less than level %d (%v)", i, l, i-1, p)
			}
		}
	}
	for _, c := range []struct {
		n                      int
		depth, sel, wld, exact int
	}{
		{0, 1, 5, 4, 2},
		{4, 4, 5, 10, 8},
		{8, 8, 5, 18, 16},
		{DefaultLevel, 12, 5, 22, 20},
		{16, 16, 5, 26, 24},
		{20, 20, 5, 28, 26},
		{30, 30, 3, 33, 31},
		{59, 59, 1, 47, 45},
		{MaxLevel, 60, 0, 60, 60},
	} {
		l, err := LevelFor(c.n)
		if err != nil || l.Depth != c.depth || l.Selectivity != c.sel || l.WLDEmpties != c.wld || l.ExactEmpties != c.exact {
			t.Errorf("LevelFor(%d) = %+v, %v; want depth %d sel %d wld %d exact %d", c.n, l, err, c.depth, c.sel, c.wld, c.exact)
		}
	}
	for _, n := range []int{-1, MaxLevel + 1} {
		if _, err := LevelFor(n); err == nil {
			t.Errorf("LevelFor(%d) accepted", n)
		}
	}
	if s := rows[DefaultLevel].String(); s != "level 12: depth 12@73%, win/loss/draw from 22 empties, exact from 20" {
		t.Errorf("String: %q", s)
	}
}

// TestLevelPlan checks what a level's limits plan: the default level solves 20 empties
// exactly and proves 21-22 for win/loss/draw without a clock; under a short time per move the
// exact solve is capped at what the time plan affords; a depth level asked for without
// selectivity proves its band rather than guessing it at 73%.
func TestLevelPlan(t *testing.T) {
	l, _ := LevelFor(DefaultLevel)
	lim := l.Limits()
	for _, c := range []struct {
		empties    int
		solve, wld bool
	}{{20, true, false}, {21, false, true}, {22, false, true}, {23, false, false}} {
		p := planSearch(lim, timePlan{}, c.empties, defaultProbableBand)
		if p.solve != c.solve || p.wldOnly != c.wld || p.probable || p.wldLevel != 0 {
			t.Errorf("level 12 at %d empties: plan %+v, want solve %v, win/loss/draw %v, no probable result", c.empties, p, c.solve, c.wld)
		}
	}
	short := lim
	short.MoveTime = 25 * time.Millisecond
	if p := planSearch(short, planTime(short, 20), 20, defaultProbableBand); p.solve {
		t.Errorf("level 12 with 25 ms a move at 20 empties plans an exact solve: %+v", p)
	}
	if p := planSearch(short, planTime(short, 14), 14, defaultProbableBand); !p.solve {
		t.Errorf("level 12 with 25 ms a move at 14 empties plans no exact solve: %+v", p)
	}
	if p := planSearch(Limits{Depth: 12}, timePlan{}, 20, 0); !p.wldOnly || p.wldLevel != 0 {
		t.Errorf("depth 12 without selectivity at 20 empties: plan %+v, want a win/loss/draw proof", p)
	}
}

// The level table of docs/protocols.md is the table of LevelFor.
func TestLevelTableDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/protocols.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`(?m)^\| (\d+) \| (\d+) \| (none|(\d) \((\d+)%\)) \| (\d+) \| (\d+) \|$`)
	rows := row.FindAllStringSubmatch(string(data), -1)
	if len(rows) < 10 {
		t.Fatalf("%d rows of the level table in docs/protocols.md", len(rows))
	}
	for _, r := range rows {
		n, _ := strconv.Atoi(r[1])
		l, err := LevelFor(n)
		sel := "none"
		if l.Selectivity > 0 {
			sel = fmt.Sprintf("%d (%d%%)", l.Selectivity, SelectivityPercent(l.Selectivity))
		}
		if want := fmt.Sprintf("| %d | %d | %s | %d | %d |", n, l.Depth, sel, l.WLDEmpties, l.ExactEmpties); err != nil || r[0] != want {
			t.Errorf("docs/protocols.md has %q, the table %q", r[0], want)
		}
	}
}

// TestWithoutTimeBand: under a time per move the plan puts a position a few empties above its
// exact solve into the probable band with a shallow midgame search; without the band
// (Config.NoTimeBand) the position keeps the whole midgame search and no band solve, and the
// positions outside the band, and plans without a clock, are unchanged.
func TestWithoutTimeBand(t *testing.T) {
	lim := Limits{MoveTime: 30 * time.Millisecond, Selectivity: 5}
	inBand := 0
	for empties := 12; empties <= 24; empties++ {
		tp := planTime(lim, empties)
		p := planSearch(lim, tp, empties, defaultProbableBand)
		q := withoutTimeBand(p, lim, tp, empties)
		if !p.probable && !p.wldOnly {
			if q != p {
				t.Errorf("%d empties outside the band: plan %+v changed to %+v", empties, p, q)
			}
			continue
		}
		inBand++
		if p.maxDepth >= empties {
			t.Errorf("%d empties in the band: its midgame search already goes to depth %d", empties, p.maxDepth)
		}
		if q.probable || q.wldOnly || q.solve || q.maxDepth != empties {
			t.Errorf("%d empties without the band: plan %+v, want the midgame search to the end alone", empties, q)
		}
	}
	if inBand == 0 {
		t.Fatal("no position in the probable band at 30 ms a move")
	}
	for _, c := range []struct {
		cfg     Config
		empties int
		off     bool
	}{
		{Config{}, 24, false},
		{Config{NoTimeBand: true}, 17, true},
		{Config{TimeBandTop: 22}, 22, false},
		{Config{TimeBandTop: 22}, 23, true},
		{Config{TimeBandTop: 22, NoTimeBand: true}, 21, true},
	} {
		if got := c.cfg.bandOff(c.empties); got != c.off {
			t.Errorf("%+v at %d empties: band off %v, want %v", c.cfg, c.empties, got, c.off)
		}
	}
	level := Limits{Depth: 12, Selectivity: 5}
	p := planSearch(level, timePlan{}, 21, defaultProbableBand)
	if q := withoutTimeBand(p, level, timePlan{}, 21); q != p {
		t.Errorf("a level without a clock: plan %+v changed to %+v", p, q)
	}
}
