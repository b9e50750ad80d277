package search

import (
	"math/bits"
	"sync/atomic"
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
// The threads of a parallel search share both tables without locks: a slot is two words,
// the key stored XORed with the data word and both written and read atomically, so a slot
// read while another thread rewrites it fails the key check (a miss) instead of pairing one
// position's key with another's bounds.

// boundsEntry is one slot's decoded content. The slot itself (boundsSlot) is 16 bytes: the
// key XOR the data, and the data (lower 2, upper 2, height 1, move 1, selectivity 1,
// generation 1). TestBoundsEntrySize holds it to that.
type boundsEntry struct {
	key          uint64 // full position hash; 0 never matches a live entry (see boundsHash)
	lower, upper int16  // bounds on the value searched to height, in eval units
	height       uint8  // remaining depth of the search that produced the bounds
	move         int8   // best (or refuting) move, -1 for none
	sel          uint8  // selectivity level the bounds were found with (0: exact)
	gen          uint8  // generation (iteration counter) that wrote the entry
}

type boundsSlot struct {
	kx, data uint64 // kx = key ^ data
}

func packBounds(e *boundsEntry) uint64 {
	return uint64(uint16(e.lower)) | uint64(uint16(e.upper))<<16 | uint64(e.height)<<32 |
		uint64(uint8(e.move))<<40 | uint64(e.sel)<<48 | uint64(e.gen)<<56
}

// load returns the slot's key and decoded entry (a slot being rewritten may give a key that
// matches nothing, never a wrong pairing of a key and bounds that both match).
func (s *boundsSlot) load() boundsEntry {
	d := atomic.LoadUint64(&s.data)
	k := atomic.LoadUint64(&s.kx) ^ d
	return boundsEntry{key: k, lower: int16(d), upper: int16(d >> 16), height: uint8(d >> 32), move: int8(d >> 40), sel: uint8(d >> 48), gen: uint8(d >> 56)}
}

func (s *boundsSlot) put(e *boundsEntry) {
	d := packBounds(e)
	atomic.StoreUint64(&s.data, d)
	atomic.StoreUint64(&s.kx, e.key^d)
}

// boundsTable is a power-of-two array of slots probed in buckets of two.
type boundsTable struct {
	entries []boundsSlot
	mask    uint64 // bucket index mask (number of buckets - 1), in entries units, even
}

func newBoundsTable(bytes int) boundsTable {
	n := uint64(bytes) / 16
	if n < 4 {
		n = 4
	}
	n = uint64(1) << (63 - bits.LeadingZeros64(n)) // round down to a power of two
	return boundsTable{entries: bigmem.Slice[boundsSlot](int(n)), mask: (n - 1) &^ 1}
}

// boundsHash is the position's 64-bit key (board.Hash), never 0 so that an all-zero slot never
// matches. Two positions share a key with probability about 2^-64 per probe.
func boundsHash(p, o uint64) uint64 { return board.Hash(p, o) | 1 }

// probe returns the entry of key written in generation gen, and whether there is one.
func (t *boundsTable) probe(key uint64, gen uint8) (boundsEntry, bool) {
	i := key & t.mask
	e := t.entries[i].load()
	if e.key == key && e.gen == gen {
		return e, true
	}
	e = t.entries[i|1].load()
	if e.key == key && e.gen == gen {
		return e, true
	}
	return boundsEntry{}, false
}

// prefetch starts loading the bucket of key into the cache (see orderMoves).
func (t *boundsTable) prefetch(key uint64) {
	bigmem.Prefetch(uintptr(unsafe.Pointer(&t.entries[key&t.mask])))
}

// store writes the bounds of key, replacing its own slot, else a slot of an older generation,
// else the shallower of the two.
func (t *boundsTable) store(key uint64, gen uint8, height, lower, upper, move, sel int) {
	i := key & t.mask
	sa, sb := &t.entries[i], &t.entries[i|1]
	a, b := sa.load(), sb.load()
	var s *boundsSlot
	var e *boundsEntry
	switch {
	case a.key == key:
		s, e = sa, &a
	case b.key == key:
		s, e = sb, &b
	case a.gen != gen:
		s, e = sa, &a
	case b.gen != gen:
		s, e = sb, &b
	case a.height <= b.height:
		s, e = sa, &a
	default:
		s, e = sb, &b
	}
	if e.key == key && e.gen == gen && int(e.height) > height {
		return // keep the deeper result of this iteration
	}
	s.put(&boundsEntry{key: key, lower: int16(lower), upper: int16(upper), height: uint8(height), move: int8(move), sel: uint8(sel), gen: gen})
}
