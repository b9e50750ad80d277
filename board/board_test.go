package board

import "testing"

var perftCounts = []uint64{1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800}

func TestPerft(t *testing.T) {
	b := Start()
	for d := 1; d < len(perftCounts); d++ {
		if d >= 10 && testing.Short() {
			break
		}
		if got := Perft(b.P, b.O, d); got != perftCounts[d] {
			t.Errorf("perft(%d) = %d, want %d", d, got, perftCounts[d])
		}
	}
}
