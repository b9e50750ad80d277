package search

import "testing"

// bigSlice gives zeroed, usable slices of the asked length for any element size, small or
// larger than a few huge pages.
func TestBigSlice(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 3 * hugePage / 48, 5*hugePage/16 + 7} {
		b := bigSlice[endBucket](n)
		e := bigSlice[boundsEntry](n)
		if len(b) != n || len(e) != n {
			t.Fatalf("n %d: lengths %d and %d", n, len(b), len(e))
		}
		for i := range b {
			if b[i] != (endBucket{}) || e[i] != (boundsEntry{}) {
				t.Fatalf("n %d: element %d not zero", n, i)
			}
			b[i][1].p = uint64(i)
			e[i].key = uint64(i)
		}
		for i := range b {
			if b[i][1].p != uint64(i) || e[i].key != uint64(i) {
				t.Fatalf("n %d: element %d lost its value", n, i)
			}
		}
	}
}
