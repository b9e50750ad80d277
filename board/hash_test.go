package board

import (
	"math"
	"math/rand/v2"
	"testing"
)

// samplePositions collects distinct positions from random games.
func samplePositions(n int) []Board {
	r := rand.New(rand.NewPCG(7, 8))
	seen := make(map[[2]uint64]bool, n)
	out := make([]Board, 0, n)
	for len(out) < n {
		b := Start()
		for !b.GameOver() && len(out) < n {
			if b.MustPass() {
				b.Pass()
				continue
			}
			m := b.LegalMoves()
			for k := r.IntN(Count(m)); k > 0; k-- {
				m &= m - 1
			}
			b.Make(FirstSquare(m))
			key := [2]uint64{b.P, b.O}
			if !seen[key] {
				seen[key] = true
				out = append(out, b)
			}
		}
	}
	return out
}

// slotCollisions counts positions that land in an already used slot of a 2^bits table.
func slotCollisions(hashes []uint64, bits uint) int {
	used := make([]bool, 1<<bits)
	n := 0
	for _, h := range hashes {
		slot := h & (1<<bits - 1)
		if used[slot] {
			n++
		}
		used[slot] = true
	}
	return n
}

// TestHashCollisions measures slot collisions of Hash and of Thell's index hash on a table of
// 2^18 slots filled with 2^18 distinct positions (load 1). An ideal random hash leaves
// m*(1-1/e) slots used, i.e. n - m(1-1/e) collisions; Hash must be within a few standard
// deviations of that, and the test logs both figures.
func TestHashCollisions(t *testing.T) {
	const bits = 18
	n := 1 << bits
	if testing.Short() {
		n = 1 << 16
	}
	pos := samplePositions(n)
	ours := make([]uint64, n)
	thell := make([]uint64, n)
	for i := range pos {
		ours[i] = Hash(pos[i].P, pos[i].O)
		// Thell's hash reads absolute colours; add the side to move so both key the same thing.
		thell[i] = ThellHash(&pos[i].Lines)
		if !pos[i].BlackToMove {
			thell[i] ^= 1
		}
	}
	m := float64(uint64(1) << bits)
	expectUsed := m * (1 - math.Exp(-float64(n)/m))
	expect := float64(n) - expectUsed
	sd := math.Sqrt(m * math.Exp(-float64(n)/m) * (1 - (1+float64(n)/m)*math.Exp(-float64(n)/m)))
	got := slotCollisions(ours, bits)
	gotThell := slotCollisions(thell, bits)
	gotHigh := slotCollisions(highBits(ours, bits), bits)
	t.Logf("%d positions, 2^%d slots: ideal %.0f +- %.0f collisions; Hash low bits %d, high bits %d; Thell %d",
		n, bits, expect, sd, got, gotHigh, gotThell)
	for _, c := range []int{got, gotHigh} {
		if math.Abs(float64(c)-expect) > 6*sd+10 {
			t.Errorf("Hash collisions %d, ideal %.0f +- %.0f", c, expect, sd)
		}
	}
}

func highBits(h []uint64, bits uint) []uint64 {
	out := make([]uint64, len(h))
	for i, x := range h {
		out[i] = x >> (64 - bits)
	}
	return out
}

// Every input bit flips about half of the output bits (avalanche).
func TestHashAvalanche(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	var total, count float64
	worst := 64.0
	for i := 0; i < 200; i++ {
		p, o := r.Uint64(), r.Uint64()
		p, o = p&^o, o&^p
		h := Hash(p, o)
		for b := 0; b < 128; b++ {
			p2, o2 := p, o
			if b < 64 {
				p2 ^= 1 << uint(b)
			} else {
				o2 ^= 1 << uint(b-64)
			}
			d := float64(popcount(h ^ Hash(p2, o2)))
			total += d
			count++
			worst = math.Min(worst, d)
		}
	}
	if mean := total / count; mean < 30 || mean > 34 {
		t.Errorf("mean output bits changed per input bit = %.2f, want about 32", mean)
	}
	if Hash(1, 2) == Hash(2, 1) {
		t.Errorf("the side to move is not part of the hash")
	}
}

func popcount(x uint64) int { return Count(x) }
