package main

import (
	"fmt"

	"github.com/othellogo/othello/search"
)

const evalFlagHelp = "evaluation: default (the trained weights when built in, else mobility) or mobility (the plain mobility/corner baseline)"

// evaluator is an evaluation chosen on the command line.
type evaluator struct {
	name string
}

func loadEvaluator(name string) (evaluator, error) {
	switch name {
	case "default", "mobility":
		return evaluator{name: "mobility"}, nil
	}
	return evaluator{}, fmt.Errorf("eval %q: want default or mobility", name)
}

// configure sets the engine configuration to use the evaluator.
func (ev evaluator) configure(cfg *search.Config) {}
