package search

import "github.com/othellogo/othello/internal/bigmem"

// TableBytes is the memory of the tables NewEngine allocates for cfg: the two bounds tables
// together TTMiB, the solver's SolverMiB, 16 MiB each when not set. Programs check it against
// the memory available (bigmem.CheckAvailable) before they make the engine.
func TableBytes(cfg Config) uint64 {
	tt, solver := cfg.TTMiB, cfg.SolverMiB
	if tt <= 0 {
		tt = 16
	}
	if solver <= 0 {
		solver = 16
	}
	a, b := bigmem.MiB(tt, 1), bigmem.MiB(solver, 1)
	if a+b < a {
		return ^uint64(0) // saturated, like bigmem.MiB
	}
	return a + b
}
