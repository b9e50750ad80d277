package board

import (
	"math/rand/v2"
	"testing"
)

// transformSlow applies symmetry k square by square from its geometric definition.
func transformSlow(x uint64, k int) uint64 {
	var y uint64
	for sq := 0; sq < 64; sq++ {
		if x>>uint(sq)&1 == 0 {
			continue
		}
		c, r := sq&7, sq>>3
		if k&4 != 0 {
			c, r = r, c
		}
		if k&2 != 0 {
			c = 7 - c
		}
		if k&1 != 0 {
			r = 7 - r
		}
		y |= 1 << uint(r*8+c)
	}
	return y
}

func TestSymmetries(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		x := r.Uint64()
		for k := 0; k < 8; k++ {
			y := Transform(x, k)
			if want := transformSlow(x, k); y != want {
				t.Fatalf("Transform(%x, %d) = %x, want %x", x, k, y, want)
			}
			if back := Transform(y, InverseSymmetry(k)); back != x {
				t.Fatalf("InverseSymmetry(%d) = %d does not undo it", k, InverseSymmetry(k))
			}
		}
	}
	// The 8 images of an asymmetric square are distinct.
	seen := map[Square]bool{}
	for k := 0; k < 8; k++ {
		seen[TransformSquare(SquareAt(1, 0), k)] = true
	}
	if len(seen) != 8 {
		t.Errorf("b1 has %d images, want 8", len(seen))
	}
}

// Symmetric positions have symmetric moves, flips and perft counts, and one canonical form.
func TestSymmetryInvariance(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for g := 0; g < 50; g++ {
		b := Start()
		for ply := 0; ply < 20+g%30 && !b.GameOver(); ply++ {
			if b.MustPass() {
				b.Pass()
				continue
			}
			m := b.LegalMoves()
			for k := r.IntN(Count(m)); k > 0; k-- {
				m &= m - 1
			}
			b.Make(FirstSquare(m))
		}
		cp, co, _ := Canonical(b.P, b.O)
		n := Perft(b.P, b.O, 3)
		for k := 0; k < 8; k++ {
			tb := b.Transformed(k)
			if !tb.Consistent() {
				t.Fatalf("transformed board inconsistent")
			}
			if got := tb.LegalMoves(); got != Transform(b.LegalMoves(), k) {
				t.Fatalf("moves not symmetric under %d", k)
			}
			for m := b.LegalMoves(); m != 0; m &= m - 1 {
				sq := FirstSquare(m)
				if Flips(tb.P, tb.O, TransformSquare(sq, k)) != Transform(Flips(b.P, b.O, sq), k) {
					t.Fatalf("flips of %s not symmetric under %d", sq, k)
				}
			}
			if got := Perft(tb.P, tb.O, 3); got != n {
				t.Fatalf("perft 3 = %d under symmetry %d, want %d", got, k, n)
			}
			tp, to, sym := Canonical(tb.P, tb.O)
			if tp != cp || to != co {
				t.Fatalf("canonical form differs under symmetry %d", k)
			}
			if Transform(tb.P, sym) != tp {
				t.Fatalf("Canonical's symmetry does not produce its form")
			}
		}
	}
}
