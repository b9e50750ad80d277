package search

import "fmt"

// Level is one row of the level table: what a front end searches at "-level N" (NBoard's
// "set depth N", the console's "level N"). Like Edax's levels, a level is a midgame depth with
// its Multi-ProbCut selectivity and the empties from which the endgame is proven for
// win/loss/draw and solved exactly, so that a user who picks a level gets exact disc scores
// in the endgame rather than a midgame estimate.
type Level struct {
	N           int // the level, 0 to MaxLevel
	Depth       int // midgame depth in plies
	Selectivity int // Multi-ProbCut level (0: exact depths)
	// WLDEmpties and ExactEmpties are the most empties at which the search proves
	// win/loss/draw and solves exactly, after its midgame iterations.
	WLDEmpties, ExactEmpties int
}

// MaxLevel is the highest level: perfect play from the start (every search is a solve).
const MaxLevel = 60

// DefaultLevel is the front ends' level when none is given: depth 12, exact from 20
// empties (a solve of 20 empties takes about 60 ms, the slowest tenth 250 ms; timectl.go).
const DefaultLevel = 12

// LevelFor returns the row of level n (0 to MaxLevel).
//
// Levels 1-8 solve exactly from twice their depth and prove win/loss/draw two empties above,
// as a depth-limited search always has (exactEmptiesForDepth, wldBand); from level 8 the exact
// solve starts at depth+8 empties (level 12: 20, level 16: 24; a 20-empty solve takes about
// 60 ms on one core, each two more empties 4-5 times as long, timectl.go), above level 16 one
// empty more every two levels (level 20: 26, level 40: 36), and the proof two empties above
// the exact solve. The selectivity is the front ends' measured default, level 5 (73%), up
// to level 24; deeper levels are for analysis and cut less: 95% to level 32, 99% to level 59.
// Level 0 is a one-ply search that still solves the last two empties; level 60 searches
// without cuts to the end of the game. Explicit depths and selectivities (-depth, -sel)
// override a row's.
func LevelFor(n int) (Level, error) {
	if n < 0 || n > MaxLevel {
		return Level{}, fmt.Errorf("level %d: want 0-%d", n, MaxLevel)
	}
	l := Level{N: n, Depth: max(n, 1)}
	switch {
	case n == MaxLevel:
		l.ExactEmpties = 60
	case n <= 8:
		l.ExactEmpties = max(2*n, 2)
	case n <= 16:
		l.ExactEmpties = n + 8
	default:
		l.ExactEmpties = 24 + (n-16)/2
	}
	l.WLDEmpties = min(l.ExactEmpties+2, 60)
	switch {
	case n <= 24:
		l.Selectivity = 5
	case n <= 32:
		l.Selectivity = 3
	case n < MaxLevel:
		l.Selectivity = 1
	}
	return l, nil
}

// Limits are the search limits of the level, without a clock.
func (l Level) Limits() Limits {
	return Limits{Depth: l.Depth, Selectivity: l.Selectivity, ExactEmpties: l.ExactEmpties, WLDEmpties: l.WLDEmpties}
}

// String describes the row: "level 12: depth 12@73%, win/loss/draw from 22 empties, exact
// from 20".
func (l Level) String() string {
	d := fmt.Sprint(l.Depth)
	if l.Selectivity > 0 {
		d += fmt.Sprintf("@%d%%", SelectivityPercent(l.Selectivity))
	}
	return fmt.Sprintf("level %d: depth %s, win/loss/draw from %d empties, exact from %d", l.N, d, l.WLDEmpties, l.ExactEmpties)
}

// LevelTable is the whole table, level 0 first (for documentation and "othello help").
func LevelTable() []Level {
	out := make([]Level, 0, MaxLevel+1)
	for n := 0; n <= MaxLevel; n++ {
		l, _ := LevelFor(n)
		out = append(out, l)
	}
	return out
}
