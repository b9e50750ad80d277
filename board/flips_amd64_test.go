package board

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestFlipsAVX512 checks the vector flips against flipsGo for every empty square of random
// boards of every density (legal moves or not: the rays must stop at the board's edges
// whatever lies there) and for every legal move of the positions of random games.
func TestFlipsAVX512(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512 on this processor")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	check := func(p, o uint64) {
		t.Helper()
		for e := ^(p | o); e != 0; e &= e - 1 {
			sq := Square(bits.TrailingZeros64(e))
			if got, want := flipsAVX512(p, o, sq), flipsGo(p, o, sq); got != want {
				t.Fatalf("p %016x o %016x %v: AVX-512 flips %016x, Go flips %016x", p, o, sq, got, want)
			}
		}
	}
	check(0, 0)
	check(0, ^uint64(0)&^1)
	check(^uint64(0)&^(1<<27), 0)
	for i := 0; i < 100000; i++ {
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

func TestGodebugOffAVX512(t *testing.T) {
	for _, c := range []struct {
		godebug string
		off     bool
	}{
		{"", false},
		{"cpu.avx512f=off", true},
		{"cpu.all=off", true},
		{"cpu.avx512f=off,cpu.avx512f=on", false},
		{"cpu.avx2=off", false},
	} {
		if got := godebugOff(c.godebug, "avx512f"); got != c.off {
			t.Errorf("GODEBUG %q: off %v, want %v", c.godebug, got, c.off)
		}
	}
}

// BenchmarkFlipsGo is BenchmarkFlipsBitboard with the Go flips, for comparison.
func BenchmarkFlipsGo(b *testing.B) {
	pos := benchPositions(b)
	var sink uint64
	moves := 0
	for i := 0; b.Loop(); i++ {
		p := &pos[i&3]
		for m := LegalMoves(p.P, p.O); m != 0; m &= m - 1 {
			sink += flipsGo(p.P, p.O, Square(bits.TrailingZeros64(m)))
			moves++
		}
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds()/1e6, "Mflips/s")
	_ = sink
}
