// Package search is the midgame search: Engine, its Config, and the front ends' contract
// (Limits, Info, Result, MoveScore). Near the end of the game it hands positions to the exact
// solver of package endgame, which it imports (never the reverse).
//
// The search (midgame*.go, tt.go, engine.go, mpc*.go, timectl.go) is iterative
// deepening over fail-soft negamax with principal variation search far from the leaves and
// plain alpha-beta near them. It keeps the two-generation transposition table of the classic
// design: two tables of minimax-value bounds, the previous iteration's ordering the moves
// (positions found there are searched first) and the current one taking this iteration's
// bounds; they swap roles each iteration. Buro's Multi-ProbCut ("Experiments with Multi-ProbCut
// and a new high-quality evaluation function for Othello", 1997) cuts nodes whose deep value a
// shallow search predicts with confidence, from per-stage, per-height linear regressions fitted
// on real positions and stored with the weights. Near the end the Engine hands over to the
// endgame.Solver, proving win/loss/draw first when time is short. Config.DepthByDeviation
// (off by default, deviation.go, devfit.go, docs/deviation.md) sets each child's depth by its
// deviation value among its siblings (Hondoh and Kotani, 2000), with a cost table fitted by a
// genetic algorithm. Time control (fixed depth, time per move, game clock with increment) sets
// a soft limit for starting iterations and a hard one polled every few thousand nodes.
//
// With Config.Threads above one, an Engine leads helper Engines, one per thread of its solver's
// pool, that share its tables (lock-free, XOR-verified slots) and take the moves of nodes of
// height 4 or more, and of the root, after their first move (Young Brothers Wait,
// internal/ybwc; parallel.go, docs/parallel.md). With Config.Parallel speculative, threads
// with no split point to join search younger brothers of the first thread's path ahead of it,
// best first by the probability from the Multi-ProbCut fit that they will be searched (seed
// paper 000, Ura, Tsuruoka and Chikayama; speculative.go). The bench command's positions,
// feature table and loss measurements are in bench.go. Presearch (presearch.go) is the
// midgame search an exact solve of many empties starts with: its moves order the solver's top
// plies and its score centres the solver's first window (docs/endgame.md).
//
// All per-search state lives in an Engine; there is no package-level mutable state. The tables
// read by the hot paths are built once at init.
package search
