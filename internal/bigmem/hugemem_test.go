package bigmem

import (
	"testing"
	"unsafe"
)

type bucket struct {
	a, b uint64
	c    [3]uint8
}

// Slice gives zeroed, usable slices of the asked length for any element size, small or
// larger than a few huge pages.
func TestSlice(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 3 * hugePage / 48, 5*hugePage/16 + 7} {
		b := Slice[bucket](n)
		e := Slice[uint64](n)
		if len(b) != n || len(e) != n {
			t.Fatalf("n %d: lengths %d and %d", n, len(b), len(e))
		}
		for i := range b {
			if b[i] != (bucket{}) || e[i] != 0 {
				t.Fatalf("n %d: element %d not zero", n, i)
			}
			b[i].b = uint64(i)
			e[i] = uint64(i)
		}
		for i := range b {
			if b[i].b != uint64(i) || e[i] != uint64(i) {
				t.Fatalf("n %d: element %d lost its value", n, i)
			}
		}
	}
}

// Prefetch never faults, whatever the address.
func TestPrefetch(t *testing.T) {
	s := Slice[uint64](1024)
	for i := range s {
		Prefetch(uintptr(unsafe.Pointer(&s[i])))
	}
}
