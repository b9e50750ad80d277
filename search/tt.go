package search

import (
	"math/bits"
	"unsafe"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/internal/bigmem"
)

// The midgame keeps two tables of minimax-value bounds, the classic two-generation design:
// during iteration d the "previous" table holds what iteration d-1 learned and only orders
// moves (children found there are searched first, best first), while the "current" table
// receives iteration d's bounds and gives cutoffs on transpositions. The roles swap at the
// start of each iteration. Entries carry a generation tag instead of being cleared, so a swap
// costs nothing whatever the table size.
//
// The tables belong to one Engine and are used by one goroutine at a time (an Engine runs one
// search at a time), so they need no locking.

// boundsEntry is one slot: 16 bytes (key 8, lower 2, upper 2, height 1, move 1, selectivity
// 1, generation 1). TestBoundsEntrySize holds it to that.
type boundsEntry struct {
	key          uint64 // full position hash; 0 never matches a live entry (see boundsHash)
	lower, upper int16  // bounds on the value searched to height, in eval units
	height       uint8  // remaining depth of the search that produced the bounds
	move         int8   // best (or refuting) move, -1 for none
	sel          uint8  // selectivity level the bounds were found with (0: exact)
	gen          uint8  // generation (iteration counter) that wrote the entry
}

// boundsTable is a power-of-two array of entries probed in buckets of two.
type boundsTable struct {
	entries []boundsEntry
	mask    uint64 // bucket index mask (number of buckets - 1), in entries units, even
}

func newBoundsTable(bytes int) boundsTable {
	n := uint64(bytes) / 16
	if n < 4 {
		n = 4
	}
	n = uint64(1) << (63 - bits.LeadingZeros64(n)) // round down to a power of two
	return boundsTable{entries: bigmem.Slice[boundsEntry](int(n)), mask: (n - 1) &^ 1}
}

// boundsHash is the position's 64-bit key (board.Hash), never 0 so that an all-zero slot never
// matches. Two positions share a key with probability about 2^-64 per probe.
func boundsHash(p, o uint64) uint64 { return board.Hash(p, o) | 1 }

// probe returns the entry of key written in generation gen, or nil.
func (t *boundsTable) probe(key uint64, gen uint8) *boundsEntry {
	i := key & t.mask
	e := &t.entries[i]
	if e.key == key && e.gen == gen {
		return e
	}
	e = &t.entries[i|1]
	if e.key == key && e.gen == gen {
		return e
	}
	return nil
}

// prefetch starts loading the bucket of key into the cache (see orderMoves).
func (t *boundsTable) prefetch(key uint64) {
	bigmem.Prefetch(uintptr(unsafe.Pointer(&t.entries[key&t.mask])))
}

// store writes the bounds of key, replacing its own slot, else a slot of an older generation,
// else the shallower of the two.
func (t *boundsTable) store(key uint64, gen uint8, height, lower, upper, move, sel int) {
	i := key & t.mask
	a, b := &t.entries[i], &t.entries[i|1]
	var e *boundsEntry
	switch {
	case a.key == key:
		e = a
	case b.key == key:
		e = b
	case a.gen != gen:
		e = a
	case b.gen != gen:
		e = b
	case a.height <= b.height:
		e = a
	default:
		e = b
	}
	if e.key == key && e.gen == gen && int(e.height) > height {
		return // keep the deeper result of this iteration
	}
	*e = boundsEntry{key: key, lower: int16(lower), upper: int16(upper), height: uint8(height), move: int8(move), sel: uint8(sel), gen: gen}
}
