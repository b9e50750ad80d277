package main

import (
	"fmt"
	"math"

	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/bigmem"
	"github.com/othellogo/othello/search"
)

const evalFlagHelp = "evaluation: default (the built-in trained weights), mobility (the plain mobility/corner baseline), or a weights file"

// evaluator is an evaluation chosen on the command line (eval.ByName) with the name the
// commands print: "pattern" or "mobility".
type evaluator struct {
	name string
	ev   *eval.Evaluator // nil for mobility
}

// loadEvaluator loads the named evaluation: "default", "mobility", or a weights file path.
func loadEvaluator(name string) (evaluator, error) {
	ev, err := eval.ByName(name)
	switch {
	case err != nil:
		return evaluator{}, err
	case ev == nil:
		return evaluator{name: "mobility"}, nil
	}
	return evaluator{name: "pattern", ev: ev}, nil
}

// configure sets the engine configuration to use the evaluator.
func (ev evaluator) configure(cfg *search.Config) {
	cfg.Eval = ev.ev
}

// checkThreads refuses a thread count outside 1-256 (a usage error).
func checkThreads(n int) error {
	if n < 1 || n > 256 {
		return exitError{2, fmt.Errorf("-threads %d: want 1 to 256", n)}
	}
	return nil
}

// mibBytes is count tables of mib MiB each, in bytes; it saturates instead of overflowing, so
// an absurd request is refused rather than wrapped round to a small one.
func mibBytes(mib, count int) uint64 {
	if mib <= 0 || count <= 0 {
		return 0
	}
	b := uint64(mib) << 20
	if uint64(mib) > math.MaxUint64>>20 || b > math.MaxUint64/uint64(count) {
		return math.MaxUint64
	}
	return b * uint64(count)
}

// engineTableBytes is the memory of the tables search.NewEngine allocates for cfg: the two
// bounds tables together TTMiB, the solver's SolverMiB, 16 MiB each when not set.
func engineTableBytes(cfg search.Config) uint64 {
	tt, solver := cfg.TTMiB, cfg.SolverMiB
	if tt <= 0 {
		tt = 16
	}
	if solver <= 0 {
		solver = 16
	}
	return mibBytes(tt, 1) + mibBytes(solver, 1)
}

// checkTableMemory refuses, as a usage error naming the flag, tables larger than the memory
// available: they are allocated and touched at start-up, where too large a request ends in
// "runtime: out of memory" and a dump of every goroutine, or in the kernel's OOM killer.
func checkTableMemory(flag string, bytes uint64) error {
	if err := bigmem.CheckAvailable(bytes); err != nil {
		return exitError{2, fmt.Errorf("%s: %v", flag, err)}
	}
	return nil
}
