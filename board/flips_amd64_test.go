package board

import (
	"math/rand/v2"
	"testing"
)

// TestFlipsAVX512 checks the vector flips against flipsGo (checkFlips).
func TestFlipsAVX512(t *testing.T) {
	if !hasAVX512 {
		t.Skip("no AVX-512 on this processor")
	}
	checkFlips(t, "AVX-512", flipsAVX512)
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

// TestFlipsAVX2 checks the AVX2 flips against flipsGo (checkFlips).
func TestFlipsAVX2(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2 on this processor")
	}
	checkFlips(t, "AVX2", flipsAVX2)
}

func BenchmarkFlipsAVX2(b *testing.B) {
	if !hasAVX2 {
		b.Skip("no AVX2 on this processor")
	}
	benchFlips(b, flipsAVX2)
}

// TestDispatchFallback: with the vector flags off, the jumps of Flips and LegalMoves land on
// the Go versions, which checkFlips and a perft then check.
func TestDispatchFallback(t *testing.T) {
	avx2, avx512 := hasAVX2, hasAVX512
	defer func() { hasAVX2, hasAVX512 = avx2, avx512 }()
	for _, c := range []struct{ avx2, avx512 bool }{{false, false}, {avx2, false}, {avx2, avx512}} {
		hasAVX2, hasAVX512 = c.avx2, c.avx512
		checkFlips(t, "Flips", Flips)
		if s := Start(); Perft(s.P, s.O, 8) != 390216 {
			t.Fatalf("AVX2 %v, AVX-512 %v: perft 8 is not 390216", c.avx2, c.avx512)
		}
		randomBoards(rand.New(rand.NewPCG(11, 12)), 2000, func(p, o uint64) {
			t.Helper()
			if gp, gO := LegalMovesBoth(p, o); gp != legalMovesGo(p, o) || gO != legalMovesGo(o, p) {
				t.Fatalf("AVX2 %v: p %016x o %016x: LegalMovesBoth %016x %016x", c.avx2, p, o, gp, gO)
			}
		})
	}
}
