package endgame

import (
	"math/bits"

	"github.com/othellogo/othello/internal/bigmem"
)

// endTT is the endgame solver's transposition table. Its entries are keyed by the exact pair
// of bitboards, so a hit is never a different position, and they hold bounds on the exact
// final score, which stay true forever: entries are reused across solves and only replaced.
// A bucket holds two entries; a new position replaces the entry that cost least to compute
// (fewest empties), preferring entries from earlier solves. One Solver owns its table: there
// is no sharing and no locking.
type endTT struct {
	buckets []endBucket
	mask    uint64
	gen     uint8
}

// endEntry is one position's bounds: 24 bytes (asserted by a test).
type endEntry struct {
	p, o         uint64 // the exact key; p = o = 0 marks an empty slot (no real position)
	lower, upper int8   // bounds on the exact score: lower <= score <= upper
	move         uint8  // best or refuting move found, noMove when none
	empties      uint8  // number of empty squares, a measure of the work behind the bounds
	gen          uint8  // the solve that last wrote the entry
	sel          uint8  // selectivity level of the bounds: 0 exact, higher from a probable solve
	_            [2]uint8
}

// endBucket is two entries, 48 bytes.
type endBucket [2]endEntry

// NoMove marks the absence of a move in the table and in a move hint (SetMoveHint).
const NoMove = 64

const noMove = NoMove

// newEndTT returns a table of about mib MiB (a power of two number of buckets, at least one).
func newEndTT(mib int) endTT {
	n := uint64(mib) << 20 / 48
	if n < 1 {
		n = 1
	}
	n = 1 << uint(63-bits.LeadingZeros64(n))
	return endTT{buckets: bigmem.Slice[endBucket](int(n)), mask: n - 1}
}

func endHash(p, o uint64) uint64 {
	h := p*0x9E3779B97F4A7C15 ^ (o+0x632BE59BD9B4E019)*0xC2B2AE3D27D4EB4F
	return h ^ h>>31
}

// probe returns the entry of (p, o), or nil.
func (t *endTT) probe(p, o uint64) *endEntry {
	b := &t.buckets[endHash(p, o)&t.mask]
	if b[0].p == p && b[0].o == o {
		return &b[0]
	}
	if b[1].p == p && b[1].o == o {
		return &b[1]
	}
	return nil
}

// store records that the search of (p, o) with the window (alpha, beta) returned score with
// best move move.
// level is the selectivity of the search: bounds of another level are dropped (the move stays).
func (t *endTT) store(p, o uint64, empties, alpha, beta, score, move, level int) {
	b := &t.buckets[endHash(p, o)&t.mask]
	var e *endEntry
	switch {
	case b[0].p == p && b[0].o == o:
		e = &b[0]
	case b[1].p == p && b[1].o == o:
		e = &b[1]
	default:
		// Replace the cheaper entry, entries of earlier solves before this one's.
		e = &b[0]
		c0 := int(b[0].empties)
		c1 := int(b[1].empties)
		if b[0].gen == t.gen {
			c0 += 64
		}
		if b[1].gen == t.gen {
			c1 += 64
		}
		if c1 < c0 {
			e = &b[1]
		}
		*e = endEntry{p: p, o: o, lower: -64, upper: 64, move: noMove, sel: uint8(level)}
	}
	if int(e.sel) != level {
		e.lower, e.upper, e.sel = -64, 64, uint8(level)
	}
	e.empties = uint8(empties)
	e.gen = t.gen
	if score < beta && int(e.upper) > score {
		e.upper = int8(score)
	}
	if score > alpha && int(e.lower) < score {
		e.lower = int8(score)
	}
	if move != noMove {
		e.move = uint8(move)
	}
}

// clear empties the table.
func (t *endTT) clear() {
	clear(t.buckets)
	t.gen = 0
}
