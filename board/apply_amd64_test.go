package board

import (
	"math/rand/v2"
	"testing"
)

// TestApplyAVX512 makes and unmakes every move of the positions of random games through the
// AVX-512 vector update and through applyGo and compares the boards.
func TestApplyAVX512(t *testing.T) {
	if !hasAVX512BW {
		t.Skip("no AVX-512 BW on this processor")
	}
	checkApply(t, applyAVX512)
}

// TestApplyAVX2 does the same for the AVX2 vector update.
func TestApplyAVX2(t *testing.T) {
	if !hasAVX2 || !cpuHasBMI1() {
		t.Skip("no AVX2 and BMI1 on this processor")
	}
	checkApply(t, applyAVX2)
}

// checkApply compares a vector index update with applyGo on every move, both signs, of the
// positions of 200 random games.
func checkApply(t *testing.T, apply func(lines *uint16, sq Square, f uint64, neg bool)) {
	r := rand.New(rand.NewPCG(9, 10))
	for g := 0; g < 200; g++ {
		b := Start()
		for !b.GameOver() {
			for m := b.LegalMoves(); m != 0; m &= m - 1 {
				sq := FirstSquare(m)
				f := Flips(b.P, b.O, sq)
				for _, sign := range []int{1, -1} {
					v, s := b, b
					apply(&v.Lines[0], sq, f, (sign < 0) == v.BlackToMove)
					s.applyGo(sq, f, sign)
					if v != s {
						t.Fatalf("%s: %s sign %d: vector indices %v %v, Go %v %v", b.OBF(), sq, sign, v.Lines, v.Ext, s.Lines, s.Ext)
					}
				}
			}
			moves := b.LegalMoves()
			if moves == 0 {
				b.Pass()
				continue
			}
			for n := r.IntN(Count(moves)); n > 0; n-- {
				moves &= moves - 1
			}
			b.Make(FirstSquare(moves))
		}
	}
}
