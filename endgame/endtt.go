package endgame

import (
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/othellogo/othello/internal/bigmem"
)

// endTT is the endgame solver's transposition table. Its entries are keyed by the exact pair
// of bitboards, so a hit is never a different position, and they hold bounds on the exact
// final score, which stay true forever: entries are reused across solves and only replaced.
// A bucket holds two entries; a new position replaces the entry that cost least to compute
// (fewest empties), preferring entries from earlier solves.
//
// The threads of a parallel solve share one table without locks: each slot is three words
// written and read with atomic operations, the two key words stored XORed with the data word,
// so that a slot read while another thread rewrites it (a mix of two writes) fails the key
// check and reads as a miss instead of lending one position's bounds to another. A lost
// update loses a bound, never makes one false: every stored bound is true.
type endTT struct {
	buckets []endBucket
	mask    uint64
	gen     uint8
}

// endSlot is one position's bounds: 24 bytes (asserted by a test). data packs an endEntry;
// kp and ko are the position's bitboards XORed with data.
type endSlot struct {
	kp, ko, data uint64
}

// endEntry is the decoded data of a slot.
type endEntry struct {
	lower, upper int8 // bounds on the exact score: lower <= score <= upper
	move         uint8
	empties      uint8 // number of empty squares, a measure of the work behind the bounds
	gen          uint8 // the solve that last wrote the entry
	sel          uint8 // selectivity level of the bounds: 0 exact, higher from a probable solve
}

func (e endEntry) pack() uint64 {
	return uint64(uint8(e.lower)) | uint64(uint8(e.upper))<<8 | uint64(e.move)<<16 |
		uint64(e.empties)<<24 | uint64(e.gen)<<32 | uint64(e.sel)<<40
}

func unpack(d uint64) endEntry {
	return endEntry{lower: int8(d), upper: int8(d >> 8), move: uint8(d >> 16), empties: uint8(d >> 24), gen: uint8(d >> 32), sel: uint8(d >> 40)}
}

// endBucket is two slots padded to 64 bytes, one cache line: unpadded, half the buckets
// straddled two lines, so that a probe could miss twice (docs/endgame.md).
type endBucket struct {
	s [2]endSlot
	_ [16]byte
}

// NoMove marks the absence of a move in the table and in a move hint (SetMoveHint).
const NoMove = 64

const noMove = NoMove

// newEndTT returns a table of about mib MiB (a power of two number of buckets, at least one).
func newEndTT(mib int) *endTT {
	n := uint64(mib) << 20 / uint64(unsafe.Sizeof(endBucket{}))
	if n < 1 {
		n = 1
	}
	n = 1 << uint(63-bits.LeadingZeros64(n))
	return &endTT{buckets: bigmem.Slice[endBucket](int(n)), mask: n - 1}
}

func endHash(p, o uint64) uint64 {
	h := p*0x9E3779B97F4A7C15 ^ (o+0x632BE59BD9B4E019)*0xC2B2AE3D27D4EB4F
	return h ^ h>>31
}

// read returns the slot's data when it holds (p, o). An empty slot (all zero) never does: no
// position has p = o = 0.
func (s *endSlot) read(p, o uint64) (uint64, bool) {
	d := atomic.LoadUint64(&s.data)
	return d, atomic.LoadUint64(&s.kp)^d == p && atomic.LoadUint64(&s.ko)^d == o
}

func (s *endSlot) write(p, o uint64, e endEntry) {
	d := e.pack()
	atomic.StoreUint64(&s.data, d)
	atomic.StoreUint64(&s.kp, p^d)
	atomic.StoreUint64(&s.ko, o^d)
}

// probe returns the entry of (p, o) and whether there is one.
func (t *endTT) probe(p, o uint64) (endEntry, bool) {
	b := &t.buckets[endHash(p, o)&t.mask]
	if d, ok := b.s[0].read(p, o); ok {
		return unpack(d), true
	}
	if d, ok := b.s[1].read(p, o); ok {
		return unpack(d), true
	}
	return endEntry{}, false
}

// prefetch starts loading the bucket of each child of (p, o) in l. The prefetch instruction
// does not hold up the processor's retirement while the lines come, as plain loads did:
// 3-3.5% less time (docs/endgame.md).
func (t *endTT) prefetch(l *moveList, p, o uint64) {
	for i := 0; i < l.n; i++ {
		m := &l.m[i]
		bigmem.Prefetch(uintptr(unsafe.Pointer(&t.buckets[endHash(o^m.flips, p|m.flips|1<<uint(m.sq&63))&t.mask])))
	}
}

// store records that the search of (p, o) with the window (alpha, beta) returned score with
// best move move.
// level is the selectivity of the search: bounds of another level are dropped (the move stays).
func (t *endTT) store(p, o uint64, empties, alpha, beta, score, move, level int) {
	b := &t.buckets[endHash(p, o)&t.mask]
	var slot *endSlot
	var e endEntry
	if d, ok := b.s[0].read(p, o); ok {
		slot, e = &b.s[0], unpack(d)
	} else if d, ok := b.s[1].read(p, o); ok {
		slot, e = &b.s[1], unpack(d)
	} else {
		// Replace the cheaper entry, entries of earlier solves before this one's.
		e0, e1 := unpack(atomic.LoadUint64(&b.s[0].data)), unpack(atomic.LoadUint64(&b.s[1].data))
		c0, c1 := int(e0.empties), int(e1.empties)
		if e0.gen == t.gen {
			c0 += 64
		}
		if e1.gen == t.gen {
			c1 += 64
		}
		slot = &b.s[0]
		if c1 < c0 {
			slot = &b.s[1]
		}
		e = endEntry{lower: -64, upper: 64, move: noMove, sel: uint8(level)}
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
	slot.write(p, o, e)
}

// clear empties the table.
func (t *endTT) clear() {
	clear(t.buckets)
	t.gen = 0
}
