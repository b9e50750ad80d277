package board

import (
	"math/rand/v2"
	"testing"
)

// TestLegalMovesAVX2 checks the vector fill against the Go one on the boards of randomBoards.
func TestLegalMovesAVX2(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2 on this processor")
	}
	randomBoards(rand.New(rand.NewPCG(3, 4)), 200000, func(p, o uint64) {
		t.Helper()
		if got, want := legalMovesAVX2(p, o), legalMovesGo(p, o); got != want {
			t.Fatalf("p %016x o %016x: AVX2 moves %016x, Go moves %016x", p, o, got, want)
		}
	})
}

func BenchmarkLegalMovesGo(b *testing.B) { benchMoveGen(b, legalMovesGo) }

// TestLegalMovesBothAVX2 checks the two-sided vector fill against the Go one.
func TestLegalMovesBothAVX2(t *testing.T) {
	if !hasAVX2 {
		t.Skip("no AVX2 on this processor")
	}
	randomBoards(rand.New(rand.NewPCG(5, 6)), 200000, func(p, o uint64) {
		t.Helper()
		gp, gO := legalMovesBothAVX2(p, o)
		if wp, wo := legalMovesGo(p, o), legalMovesGo(o, p); gp != wp || gO != wo {
			t.Fatalf("p %016x o %016x: AVX2 moves %016x %016x, Go moves %016x %016x", p, o, gp, gO, wp, wo)
		}
	})
}

// BenchmarkLegalMovesBoth times both sides' moves in one call, against BenchmarkLegalMovesTwice.
func BenchmarkLegalMovesBoth(b *testing.B) {
	pos := benchPositions(b)
	b.ReportAllocs()
	var s uint64
	for i := 0; b.Loop(); i++ {
		x := &pos[i&3]
		pm, om := LegalMovesBoth(x.P, x.O)
		s += pm ^ om
	}
	_ = s
}

func BenchmarkLegalMovesTwice(b *testing.B) {
	pos := benchPositions(b)
	b.ReportAllocs()
	var s uint64
	for i := 0; b.Loop(); i++ {
		x := &pos[i&3]
		s += LegalMoves(x.P, x.O) ^ LegalMoves(x.O, x.P)
	}
	_ = s
}

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
