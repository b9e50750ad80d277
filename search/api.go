package search

import (
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
)

// The types below are the contract between the search and its front ends (protocols, console,
// match runner, book builder). Front ends fill Limits, receive Info during a search and a
// Result at its end.

// Limits bound a search. Zero fields mean "no limit of this kind"; a search with no limit at all
// searches to the end of the game. The search stops at whichever limit comes first.
type Limits struct {
	Depth    int           // maximum midgame depth in plies (0: none)
	MoveTime time.Duration // time for this move (0: none)
	// Game clock of the side to move: time left for the rest of the game and the increment
	// added after each move (0 Remaining: no clock).
	Remaining time.Duration
	Increment time.Duration
	// Selectivity is the Multi-ProbCut level: 0 none (exact), higher cuts more. Without
	// ExactEmpties a depth level's win/loss/draw band is probable (73%) only when it is set.
	Selectivity int
	// Nodes stops the search after about this many nodes (0: none). Used by tests and bench.
	Nodes uint64
	// ExactEmpties, when positive, is the number of empties from which the search solves the
	// endgame exactly, in place of the choice made from the depth (a GUI's "endgame level",
	// a row of the level table: LevelFor). Under a clock or a time per move it is capped at
	// what the time plan would solve: a solve that runs out of time is thrown away for the
	// midgame result.
	ExactEmpties int
	// WLDEmpties, with ExactEmpties, is the most empties at which the search proves
	// win/loss/draw after its midgame iterations (0: none above ExactEmpties).
	WLDEmpties int
}

// Info reports progress: one per completed iteration, and when the best move changes.
type Info struct {
	Depth       int     // midgame depth reached, or the number of empties for an endgame solve
	Selectivity int     // percent confidence of the cuts: 100 means no selective cut was used
	Exact       bool    // an exact endgame solve: Score is the final disc difference
	WLD         bool    // win/loss/draw: only Score's sign counts (a proof at Selectivity 100)
	Score       float64 // in discs, from the side to move's view
	// MonteCarlo: Score is a Monte-Carlo tree search's estimate (package uct): there is no
	// search depth (Depth 0), Nodes counts playouts.
	MonteCarlo bool
	Nodes      uint64
	Elapsed    time.Duration
	PV         []board.Square // principal variation, passes as board.NoSquare
	// Lower: Score is only a lower bound, the move is at least this good. A search stopped
	// while re-searching a root move whose null window had proven it better than the best
	// move before it plays that move at the bound it proved (rootMove.salvage).
	Lower bool
}

// Result is the outcome of a search: the move to play (board.NoSquare for a pass) and the
// last Info.
type Result struct {
	Move board.Square
	Info
}

// MoveScore is one move with its searched value, for hints and analysis.
type MoveScore struct {
	Move board.Square
	Info
	// Bound: Score is only an upper bound, the move is no better (a move searched with a null
	// window at the n-th best value when n best moves were asked for, which failed low). Its
	// Info still describes the search (Exact for a solve), not this value.
	Bound bool
}

// MaxSolveEmpties is the most empties a front end solves exactly on request without being
// forced (endgame.MaxSolveEmpties); TooManyEmpties is its refusal, naming the option force
// that forces the solve.
const MaxSolveEmpties = endgame.MaxSolveEmpties

// TooManyEmpties is endgame.TooManyEmpties.
func TooManyEmpties(empties int, force string) error { return endgame.TooManyEmpties(empties, force) }

// ForcedSolveLimits are the limits of a forced exact solve of a position of empties empties
// (more than MaxSolveEmpties): iterations at full width, each reported, that deepen to the
// end of the game, where the last one is the exact solve. An exact solve straight away
// would say nothing until it ends, which at these empties may be never; this way the depth
// reached shows, and a stop keeps the deepest iteration's move.
func ForcedSolveLimits(empties int) Limits { return Limits{Depth: empties, ExactEmpties: 1} }
