package board

import (
	"math/rand/v2"
	"testing"
)

// TestLegalMovesAVX2 checks the vector fill against the Go one on random boards of every
// density (not only reachable positions: each of the four lanes must stop at the board's
// edges whatever lies there) and on the positions of random games.
func TestLegalMovesAVX2(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2 on this processor")
	}
	rng := rand.New(rand.NewPCG(3, 4))
	check := func(p, o uint64) {
		t.Helper()
		if got, want := legalMovesAVX2(p, o), legalMovesGo(p, o); got != want {
			t.Fatalf("p %016x o %016x: AVX2 moves %016x, Go moves %016x", p, o, got, want)
		}
	}
	check(0, 0)
	check(^uint64(0), 0)
	check(0, ^uint64(0))
	for i := 0; i < 200000; i++ {
		// An and/or of random words gives boards from nearly empty to nearly full.
		a, b, c := rng.Uint64(), rng.Uint64(), rng.Uint64()
		var occ uint64
		switch i % 3 {
		case 0:
			occ = a & b
		case 1:
			occ = a
		default:
			occ = a | b
		}
		p := occ & c
		check(p, occ&^p)
		check(occ&^p, p)
	}
	for g := 0; g < 300; g++ {
		b := Start()
		for !b.GameOver() {
			check(b.P, b.O)
			m := b.LegalMoves()
			if m == 0 {
				b.Pass()
				continue
			}
			n := rng.IntN(Count(m))
			for ; n > 0; n-- {
				m &= m - 1
			}
			b.Make(FirstSquare(m))
		}
	}
}

func BenchmarkLegalMovesGo(b *testing.B) { benchMoveGen(b, legalMovesGo) }

func TestGodebugOff(t *testing.T) {
	for _, c := range []struct {
		godebug string
		off     bool
	}{
		{"", false},
		{"cpu.avx2=off", true},
		{"madvdontneed=1, cpu.all=off", true},
		{"cpu.avx2=off,cpu.avx2=on", false},
		{"cpu.avx=off", false},
	} {
		if got := godebugOff(c.godebug, "avx2"); got != c.off {
			t.Errorf("GODEBUG %q: off %v, want %v", c.godebug, got, c.off)
		}
	}
}
