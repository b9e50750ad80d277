// Package search owns the engine's searches: the midgame search and the exact endgame solver.
//
// The endgame solver (Solver, endgame*.go, endtt.go) proves the exact final disc difference, or
// only win/loss/draw, of positions with up to about 30 empty squares. It follows the classic
// design of the strong bitboard solvers (Edax, Egaroucid, and before them Buro's Logistello and
// Gunnar Andersson's Zebra):
//
//   - negascout (principal variation search) with fail-soft bounds, so that every null-window
//     probe still returns a usable bound;
//   - move ordering by fewest opponent replies ("fastest first", Buro's mobility heuristic) with
//     bonuses for corners and for moves into regions (quadrants) with an odd number of empty
//     squares ("parity"); far from the leaves by shallow searches with the pattern evaluation
//     when the Solver has one (SolverOptions.Eval), else with a mobility evaluation; near the
//     leaves only the cheap parity order;
//   - a transposition table keyed by the exact pair of bitboards (no false hits), used only
//     far enough from the leaves for a probe to pay for itself, with enhanced transposition
//     cutoffs (children looked up before any is searched) higher up;
//   - stability cutoffs: discs of the opponent that can never flip bound the score from above,
//     which proves fail-lows without searching;
//   - hand-written code for the last four empty squares, and for the very last one a flip count
//     read from per-line tables without making the move;
//   - aspiration at the root: a wide solve starts with a win/loss/draw window and then moves a
//     window of two discs towards the score, so that every search is close to a null-window
//     proof (iterative widening, as in MTD(f)).
//
// The midgame search (Engine, midgame*.go, tt.go, engine.go, mpc*.go, timectl.go) is iterative
// deepening over fail-soft negamax with principal variation search far from the leaves and
// plain alpha-beta near them. It keeps the two-generation transposition table of the classic
// design: two tables of minimax-value bounds, the previous iteration's ordering the moves
// (positions found there are searched first) and the current one taking this iteration's
// bounds; they swap roles each iteration. Buro's Multi-ProbCut ("Experiments with Multi-ProbCut
// and a new high-quality evaluation function for Othello", 1997) cuts nodes whose deep value a
// shallow search predicts with confidence, from per-stage, per-height linear regressions fitted
// on real positions and stored with the weights. Near the end the Engine hands over to the
// Solver, proving win/loss/draw first when time is short. Time control (fixed depth, time per
// move, game clock with increment) sets a soft limit for starting iterations and a hard one
// polled every few thousand nodes.
//
// All per-search state lives in a Solver or an Engine; there is no package-level mutable state. The tables
// read by the hot paths are built once at init.
package search
