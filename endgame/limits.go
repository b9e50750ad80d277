package endgame

import (
	"fmt"
	"math"
)

// MaxSolveEmpties is the most empties the front ends solve exactly when asked to, without
// being forced: the most that Edax and NTest users solve with patience, and the most of any
// FFO position (#60-#79 go up to 36), so that the benchmark suites run as they are. A solve of
// more empties, such as one asked for in the opening or the midgame, is refused with the
// reason and the option that forces it (docs/endgame.md, "Solves of many empties").
const MaxSolveEmpties = 36

// solveSeconds is a rough time of an exact solve of a position of empties empties on one
// core: 30 s at 26 empties, twice as much per empty square more. FFO #40-#59 (20-34 empties)
// grew by x2-3 a square at 20-26 empties and about x2 at 26-30 (#49-#52 took 20-100 s, #53-#58
// 60-800 s, docs/endgame.md); a single position may take ten times more or less.
func solveSeconds(empties int) float64 {
	return 30 * math.Pow(2, float64(empties-26))
}

// SolveEstimate describes solveSeconds(empties) in words: "about 8 minutes on one core".
func SolveEstimate(empties int) string {
	s := solveSeconds(empties)
	const minute, hour, day, year = 60.0, 3600.0, 86400.0, 365.25 * 86400
	var t string
	switch {
	case s < 90:
		t = fmt.Sprintf("%.0f seconds", math.Max(s, 1))
	case s < 90*minute:
		t = fmt.Sprintf("%.0f minutes", s/minute)
	case s < 36*hour:
		t = fmt.Sprintf("%.0f hours", s/hour)
	case s < 2*year:
		t = fmt.Sprintf("%.0f days", s/day)
	default:
		t = fmt.Sprintf("%.0f years", roughly(s/year))
	}
	return "about " + t + " on one core"
}

// roughly is x to two significant digits (x >= 1): an estimate claims no more.
func roughly(x float64) float64 {
	if x < 100 {
		return math.Round(x)
	}
	p := math.Pow(10, math.Floor(math.Log10(x))-1)
	return math.Round(x/p) * p
}

// TooManyEmpties is the reason a front end gives for refusing to solve a position of empties
// empties (more than MaxSolveEmpties) unless forced with force (its option's name).
func TooManyEmpties(empties int, force string) error {
	return fmt.Errorf("%d empties: too many to solve exactly in reasonable time (%s; up to %d empties are solved without asking); %s starts it anyway, and Ctrl-C stops it",
		empties, SolveEstimate(empties), MaxSolveEmpties, force)
}
