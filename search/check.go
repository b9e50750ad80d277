package search

import (
	"fmt"

	"github.com/othellogo/othello/endgame"
)

// The checks of the settings a command line gives the midgame search, made before any
// search; their messages name the settings as the othello command's flags do.

// MaxThreads is the most threads that search one position.
const MaxThreads = endgame.MaxThreads

// CheckThreads refuses a thread count outside 1-MaxThreads; flag names the setting.
func CheckThreads(flag string, n int) error {
	if n < 1 || n > MaxThreads {
		return fmt.Errorf("%s %d: want 1 to %d", flag, n, MaxThreads)
	}
	return nil
}

// Check refuses limits an analysis cannot run with: a depth outside 0-60, a selectivity
// level outside 0-MaxSelectivity or a negative time.
func (l Limits) Check() error {
	if l.Selectivity < 0 || l.Selectivity > MaxSelectivity || l.Depth < 0 || l.Depth > 60 || l.MoveTime < 0 {
		return fmt.Errorf("want depth 0-60, selectivity 0-%d and a non-negative time", MaxSelectivity)
	}
	return nil
}

// BenchOptions are the bench command's counts: the depth of every search, how many of the
// BenchPositions are searched, at most how many positions of a file, and the selectivity.
type BenchOptions struct {
	Depth, Positions, FileLimit, Selectivity int
}

// Check refuses a depth outside 1-30, a number of positions outside 1-len(BenchPositions()),
// a file limit below 1 and a selectivity level outside 0-MaxSelectivity.
func (o BenchOptions) Check() error {
	if n := len(BenchPositions()); o.Depth < 1 || o.Depth > 30 || o.Positions < 1 || o.Positions > n {
		return fmt.Errorf("want depth 1-30 and positions 1-%d", n)
	}
	if o.FileLimit < 1 {
		return fmt.Errorf("-n %d: want at least 1 position", o.FileLimit)
	}
	if o.Selectivity < 0 || o.Selectivity > MaxSelectivity {
		return fmt.Errorf("selectivity %d: want 0-%d", o.Selectivity, MaxSelectivity)
	}
	return nil
}
