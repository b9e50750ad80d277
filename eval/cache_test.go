package eval

import (
	"testing"
	"unsafe"

	"github.com/othellogo/othello/board"
)

// TestCacheValues checks that a cached value is the evaluator's own: along 100 random games
// (about 6,000 positions against 8,192 slots, so that slots are overwritten by other
// positions), each position's value through the cache, asked twice, equals Eval on it, and
// after each call the position holds its slot and Lookup returns that value (Lookup finds
// nothing for a position whose slot another one holds). The cache keys on the side to move's
// and the opponent's discs, not their colours, so the same discs with the colours exchanged
// (the other side to move, as after a pass) must have the same value: checked on every
// position.
func TestCacheValues(t *testing.T) {
	ev, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	c := NewCache(ev)
	replaced := 0
	for _, b := range randomPositions(100, 41) {
		want := ev.Eval(&b)
		swapped := board.FromColors(b.O, b.P, false) // the side to move's discs white
		if !b.BlackToMove {
			swapped = board.FromColors(b.P, b.O, true)
		}
		if v := ev.Eval(&swapped); swapped.P != b.P || swapped.O != b.O || v != want {
			t.Fatalf("%s: %d, but %d with the colours exchanged", b.OBF(), want, v)
		}
		sl := c.slot(b.P, b.O)
		if sl.p|sl.o != 0 && (sl.p != b.P || sl.o != b.O) {
			replaced++
			if v, ok := c.Lookup(b.P, b.O); ok {
				t.Fatalf("%s: Lookup found %d in a slot holding another position", b.OBF(), v)
			}
		}
		for k := range 2 {
			if got := c.Eval(&b); got != want {
				t.Fatalf("%s: %d through the cache (call %d), %d from the evaluator", b.OBF(), got, k+1, want)
			}
			if sl.p != b.P || sl.o != b.O {
				t.Fatalf("%s: not kept in its slot after an evaluation", b.OBF())
			}
			if v, ok := c.Lookup(b.P, b.O); !ok || v != want {
				t.Fatalf("%s: Lookup gave %d, %v after an evaluation, want %d", b.OBF(), v, ok, want)
			}
		}
	}
	if replaced == 0 {
		t.Fatal("no slot was overwritten: the test did not exercise replacement")
	}
	t.Logf("%d positions replaced another in their slot", replaced)
}

// TestCacheSlotSize: a slot is the 24 bytes its comment and the cache's size promise.
func TestCacheSlotSize(t *testing.T) {
	if n := unsafe.Sizeof(cacheSlot{}); n != 24 {
		t.Fatalf("a cache slot takes %d bytes, want 24", n)
	}
}
