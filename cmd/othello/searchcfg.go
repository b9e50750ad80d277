package main

import (
	"fmt"

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

// checkTableMemory refuses, as a usage error naming the flag, tables larger than the memory
// available: they are allocated and touched at start-up, where too large a request ends in
// "runtime: out of memory" and a dump of every goroutine, or in the kernel's OOM killer.
func checkTableMemory(flag string, bytes uint64) error {
	if err := bigmem.CheckAvailable(bytes); err != nil {
		return exitError{2, fmt.Errorf("%s: %v", flag, err)}
	}
	return nil
}
