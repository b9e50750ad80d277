package endgame

import (
	"fmt"

	"github.com/othellogo/othello/internal/bigmem"
)

// MaxThreads is the most threads that solve one position, and the most positions solved at
// once.
const MaxThreads = 256

// Check refuses options the solve command cannot run with, naming its flags: threads or jobs
// outside 1-MaxThreads, a table outside 0-65536 MiB, a selectivity level outside
// 0-MaxSelectivity, or a probable solve without the pattern evaluation (its cuts need it).
func (o ProblemOptions) Check() error {
	switch {
	case o.Solver.Threads < 1 || o.Solver.Threads > MaxThreads:
		return fmt.Errorf("--threads %d: want 1 to %d", o.Solver.Threads, MaxThreads)
	case o.Jobs < 1 || o.Jobs > MaxThreads:
		return fmt.Errorf("--jobs %d: want 1 to %d", o.Jobs, MaxThreads)
	case o.Solver.TableMiB < 0 || o.Solver.TableMiB > 1<<16:
		return fmt.Errorf("--hash %d: want 0 to 65536 MiB", o.Solver.TableMiB)
	case o.Selectivity < 0 || o.Selectivity > MaxSelectivity:
		return fmt.Errorf("--sel %d: want 0 to %d", o.Selectivity, MaxSelectivity)
	case o.Selectivity > 0 && o.Solver.Eval == nil:
		return fmt.Errorf("--sel needs the pattern evaluation (--eval default or a weights file)")
	}
	return nil
}

// TableBytes is the memory of the solvers' tables (one per job), for a check at start-up.
func (o ProblemOptions) TableBytes() uint64 {
	if !o.Solver.Table {
		return 0
	}
	return bigmem.MiB(o.Solver.TableMiB, max(o.Jobs, 1))
}
