package board

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// checkFlips checks flips against flipsGo (the kindergarten flips) for every empty square of
// the boards of randomBoards.
func checkFlips(t *testing.T, name string, flips func(p, o uint64, sq Square) uint64) {
	t.Helper()
	randomBoards(rand.New(rand.NewPCG(5, 6)), 100000, func(p, o uint64) {
		t.Helper()
		for e := ^(p | o); e != 0; e &= e - 1 {
			sq := Square(bits.TrailingZeros64(e))
			if got, want := flips(p, o, sq), flipsGo(p, o, sq); got != want {
				t.Fatalf("p %016x o %016x %v: %s flips %016x, Go flips %016x", p, o, sq, name, got, want)
			}
		}
	})
}

// randomBoards calls check on boards of every density, 2n of them (not only reachable
// positions: a ray or a lane of a fill must stop at the board's edges whatever lies there),
// on a few extreme ones and on the positions of 300 random games.
func randomBoards(rng *rand.Rand, n int, check func(p, o uint64)) {
	check(0, 0)
	check(^uint64(0), 0)
	check(0, ^uint64(0))
	check(0, ^uint64(0)&^1)
	check(^uint64(0)&^(1<<27), 0)
	check(0, ^uint64(0)&^(1<<63))
	for i := 0; i < n; i++ {
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
			k := rng.IntN(Count(m))
			for ; k > 0; k-- {
				m &= m - 1
			}
			b.Make(FirstSquare(m))
		}
	}
}

// TestFlipsOneRay: Flips on a board where a single ray of the move is the opponent's up to the edge
// or up to a disc of the mover, the flips are that ray's discs or none, in every direction.
func TestFlipsOneRay(t *testing.T) {
	for sq := 0; sq < 64; sq++ {
		for d, ray := range flipRays[sq] {
			for n := 1; n < bits.OnesCount64(ray); n++ {
				// The n nearest squares of the ray are the opponent's, the next one the mover's.
				var o uint64
				r := ray
				for k := 0; k < n; k++ {
					var b uint64
					if d < 4 {
						b = r & -r
					} else {
						b = 1 << uint(63-bits.LeadingZeros64(r))
					}
					o |= b
					r &^= b
				}
				end := r & -r
				if d >= 4 {
					end = 1 << uint(63-bits.LeadingZeros64(r))
				}
				if got := Flips(end, o, Square(sq)); got != o {
					t.Fatalf("%v ray %d, %d discs then the mover's: flips %016x, want %016x", Square(sq), d, n, got, o)
				}
				if got := Flips(0, o|r, Square(sq)); got != 0 {
					t.Fatalf("%v ray %d all the opponent's to the edge: flips %016x, want none", Square(sq), d, got)
				}
			}
		}
	}
}

// BenchmarkFlipsGo is BenchmarkFlipsBitboard with the kindergarten flips, for comparison.
func BenchmarkFlipsGo(b *testing.B) { benchFlips(b, flipsGo) }

func benchFlips(b *testing.B, flips func(p, o uint64, sq Square) uint64) {
	pos := benchPositions(b)
	var sink uint64
	moves := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p := &pos[i&3]
		for m := LegalMoves(p.P, p.O); m != 0; m &= m - 1 {
			sink += flips(p.P, p.O, Square(bits.TrailingZeros64(m)))
			moves++
		}
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds()/1e6, "Mflips/s")
	_ = sink
}
