package main

import (
	"fmt"

	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/search"
)

const evalFlagHelp = "evaluation: default (the built-in trained weights), mobility (the plain mobility/corner baseline), or a weights file"

// evaluator is an evaluation chosen on the command line.
type evaluator struct {
	name string
	ev   *eval.Evaluator // nil for mobility
}

// loadEvaluator loads the named evaluation: "default", "mobility", or a weights file path.
func loadEvaluator(name string) (evaluator, error) {
	switch name {
	case "mobility":
		return evaluator{name: "mobility"}, nil
	case "default", "":
		ev, err := eval.Default()
		if err != nil {
			return evaluator{}, fmt.Errorf("eval: the built-in weights: %v", err)
		}
		return evaluator{name: "pattern", ev: ev}, nil
	}
	ev, err := eval.Load(name)
	if err != nil {
		return evaluator{}, fmt.Errorf("eval %q: want default, mobility or a weights file: %v", name, err)
	}
	return evaluator{name: "pattern", ev: ev}, nil
}

// configure sets the engine configuration to use the evaluator.
func (ev evaluator) configure(cfg *search.Config) {
	cfg.Eval = ev.ev
}
