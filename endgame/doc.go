// Package endgame is the exact endgame solver: Solver proves the exact final disc difference, or
// only win/loss/draw, of positions with up to about 30 empty squares; with the pattern
// evaluation it also solves probably (endgame Multi-ProbCut at the selectivity levels it shares
// with the midgame search). Its other types are SolverOptions, SolveResult and Problem, a
// position of an .obf file with its known move scores (ParseProblems), the form of the FFO
// benchmark. It imports board and eval, nothing of the searches above it.
//
// The solver follows the classic design of the strong bitboard solvers (Edax, Egaroucid, and before them Buro's Logistello and
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
// With SolverOptions.Threads above one, a Solver leads a team of Solvers, one per thread, that
// share its table (lock-free, XOR-verified slots) and split nodes of 12 or more empties among
// themselves (Young Brothers Wait, internal/ybwc; parallel.go, docs/parallel.md). RunProblems
// solves the positions of an .obf file for the solve command (problems.go).
//
// All state of a solve lives in a Solver; the tables read by the hot paths are built once at
// init.
package endgame
