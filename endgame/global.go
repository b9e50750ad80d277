package endgame

// The hook for a global table: a table of bounds shared with solvers in other processes or
// on other machines (package cluster keeps one in Redis), after Sato, Shindo, Noshita and
// Nakayama's distributed shared hashing. The solver's own table stays the first place it
// looks; at nodes of at least GlobalEmpties empties a miss there asks the global table,
// whose answer is copied into the own table, and every result of such a node is offered to
// the global table too. A probe costs a network round trip, so it is asked only where the
// subtree under the node costs far more than that; Store must not wait on the network
// (batch, pipeline, or drop).

// GlobalTable is a table of bounds on exact scores shared by many solvers. Both methods are
// called by every thread of a solve at once. Probe reports a miss when it cannot answer
// (no entry, a slow or lost server): the search then proves the node itself, so the scores
// never depend on the table, only the work does.
type GlobalTable interface {
	Probe(p, o uint64) (GlobalEntry, bool)
	Store(p, o uint64, e GlobalEntry)
}

// GlobalEntry is what the global table knows of a position: Lower <= exact score <= Upper,
// the best move found (NoMove: none) and the number of empties, a measure of the work behind
// the bounds.
type GlobalEntry struct {
	Lower, Upper int8
	Move         uint8
	Empties      uint8
}

// defaultGlobalEmpties: below this many empties a subtree costs less than a round trip to a
// table on another machine (see docs/distributed.md).
const defaultGlobalEmpties = 18

// globalMin is the fewest empties at which the global table is asked.
func (s *Solver) globalMin() int {
	if s.opt.GlobalEmpties > 0 {
		return s.opt.GlobalEmpties
	}
	return defaultGlobalEmpties
}

// probe looks (p, o) up in the solver's table and, on a miss at a node high enough in the
// tree, in the global table. Only exact solves use the global table.
func (s *Solver) probe(p, o uint64, empties int) (endEntry, bool) {
	e, ok := s.tt.probe(p, o)
	if ok || s.opt.Global == nil {
		return e, ok
	}
	return s.probeGlobal(p, o, empties)
}

func (s *Solver) probeGlobal(p, o uint64, empties int) (endEntry, bool) {
	if s.level != 0 || empties < s.globalMin() {
		return endEntry{}, false
	}
	g, ok := s.opt.Global.Probe(p, o)
	if !ok {
		return endEntry{}, false
	}
	s.putBounds(p, o, empties, int(g.Lower), int(g.Upper), int(g.Move))
	return endEntry{lower: g.Lower, upper: g.Upper, move: g.Move, empties: uint8(empties), gen: s.tt.gen}, true
}

// putBounds merges lower <= score <= upper and the move into the solver's table.
func (s *Solver) putBounds(p, o uint64, empties, lower, upper, move int) {
	if lower > -64 || move != noMove {
		// A score at the window's top (beta = lower) proves only the lower bound.
		s.tt.store(p, o, empties, lower-1, lower, lower, move, 0)
	}
	if upper < 64 {
		s.tt.store(p, o, empties, upper, upper+1, upper, noMove, 0)
	}
}

// store records the result of deep's search of (p, o) with the window (alpha, beta) in the
// solver's table and offers it to the global one, merged with what the own table knew.
func (s *Solver) store(p, o uint64, empties, alpha, beta, score, move int) {
	s.tt.store(p, o, empties, alpha, beta, score, move, s.level)
	if s.opt.Global != nil {
		s.storeGlobal(p, o, empties, alpha, beta, score, move)
	}
}

func (s *Solver) storeGlobal(p, o uint64, empties, alpha, beta, score, move int) {
	if s.level != 0 || empties < s.globalMin() {
		return
	}
	g := GlobalEntry{Lower: -64, Upper: 64, Move: uint8(move), Empties: uint8(empties)}
	if score > alpha {
		g.Lower = int8(score)
	}
	if score < beta {
		g.Upper = int8(score)
	}
	if e, ok := s.tt.probe(p, o); ok && e.sel == 0 {
		g.Lower, g.Upper = max(g.Lower, e.lower), min(g.Upper, e.upper)
		if move == noMove {
			g.Move = e.move
		}
	}
	s.opt.Global.Store(p, o, g)
}
