package patterns

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/othellogo/othello/board"
)

// randomPositions plays random games from the start and returns every position met.
func randomPositions(games int, seed uint64) []board.Board {
	r := rand.New(rand.NewPCG(seed, 1))
	var out []board.Board
	for g := 0; g < games; g++ {
		b := board.Start()
		for !b.GameOver() {
			out = append(out, b)
			moves := b.LegalMoves()
			if moves == 0 {
				b.Pass()
				continue
			}
			n := r.IntN(board.Count(moves))
			for ; n > 0; n-- {
				moves &= moves - 1
			}
			b.Make(board.FirstSquare(moves))
		}
		out = append(out, b)
	}
	return out
}

// referenceIndices computes every instance index square by square from InstanceSquares.
func referenceIndices(b *board.Board) [NumInstances]uint32 {
	var idx [NumInstances]uint32
	for i, sqs := range InstanceSquares {
		x := 0
		for j, s := range sqs {
			code := 1
			switch {
			case b.P&s.Bit() != 0:
				code = 2
			case b.O&s.Bit() != 0:
				code = 0
			}
			x += code * pow3(j)
		}
		idx[i] = uint32(Offset[InstancePattern[i]] + x)
	}
	return idx
}

func TestIndicesMatchSquares(t *testing.T) {
	for _, b := range randomPositions(200, 1) {
		var got [NumInstances]uint32
		Indices(&b, &got)
		if want := referenceIndices(&b); got != want {
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s: instance %d (%s %v): index %d, want %d", b.OBF(), i, Patterns[InstancePattern[i]].Name, InstanceSquares[i], got[i], want[i])
				}
			}
		}
	}
}

// Every instance must be an image of its pattern's squares under a board symmetry, in the
// same digit order, or sharing one weight table would be wrong.
func TestInstancesAreSymmetricImages(t *testing.T) {
	count := [NumPatterns]int{}
	for i, sqs := range InstanceSquares {
		p := InstancePattern[i]
		count[p]++
		base := Patterns[p].Squares
		found := false
		for k := 0; k < 8 && !found; k++ {
			img := make([]board.Square, len(base))
			for j, s := range base {
				img[j] = board.TransformSquare(s, k)
			}
			found = slices.Equal(img, sqs)
		}
		if !found {
			t.Errorf("instance %d of %s: squares %v are no symmetric image of %v", i, Patterns[p].Name, sqs, base)
		}
	}
	// The instances of a pattern must be distinct.
	for i := range InstanceSquares {
		for j := i + 1; j < NumInstances; j++ {
			a, b := slices.Clone(InstanceSquares[i]), slices.Clone(InstanceSquares[j])
			slices.Sort(a)
			slices.Sort(b)
			if InstancePattern[i] == InstancePattern[j] && slices.Equal(a, b) {
				t.Errorf("instances %d and %d cover the same squares", i, j)
			}
		}
	}
}

// Under any of the 8 board symmetries a position must produce the same multiset of packed
// indices, so that any weights evaluate all 8 images identically.
func TestPackedIndicesSymmetric(t *testing.T) {
	for _, b := range randomPositions(50, 2) {
		want := packedSorted(&b)
		for k := 1; k < 8; k++ {
			tb := b.Transformed(k)
			if got := packedSorted(&tb); got != want {
				t.Fatalf("%s under symmetry %d: packed indices %v, want %v", b.OBF(), k, got, want)
			}
		}
	}
}

func packedSorted(b *board.Board) [NumInstances]uint32 {
	var idx [NumInstances]uint32
	Indices(b, &idx)
	for i := range idx {
		idx[i] = Packed(idx[i])
	}
	slices.Sort(idx[:])
	return idx
}

func TestPackedSizes(t *testing.T) {
	// Lines of n squares reversed: (3^n + 3^(n/2 rounded up))/2 canonical configurations.
	want := map[int]int{
		HV2: (6561 + 81) / 2, Diag4: (81 + 9) / 2, Diag5: (243 + 27) / 2, Diag7: (2187 + 81) / 2,
		Corner2x5: 59049,
		Corner3x3: (19683 + 729) / 2, // the diagonal mirror fixes a1, b2, c3
	}
	for p, n := range want {
		if got := PackedOffset[p+1] - PackedOffset[p]; got != n {
			t.Errorf("%s: %d packed weights, want %d", Patterns[p].Name, got, n)
		}
	}
	t.Logf("packed weights per stage: %d (full table %d)", PackedSize, TableSize)
}

func BenchmarkIndices(b *testing.B) {
	pos := randomPositions(10, 3)
	var idx [NumInstances]uint32
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Indices(&pos[i%len(pos)], &idx)
	}
}

func randomTable() *[TableSize]int16 {
	r := rand.New(rand.NewPCG(5, 5))
	w := new([TableSize]int16)
	for i := range w {
		w[i] = int16(r.IntN(2001) - 1000)
	}
	return w
}

// Sum must equal the sum over Indices, and the baseline sumXor.
func TestSumMatchesIndices(t *testing.T) {
	w := randomTable()
	for _, b := range randomPositions(50, 9) {
		var idx [NumInstances]uint32
		Indices(&b, &idx)
		want := 0
		for _, x := range idx {
			want += int(w[x])
		}
		if got := Sum(w, &b); got != want {
			t.Fatalf("%s: Sum %d, indices give %d", b.OBF(), got, want)
		}
		if got := sumXor(w, &b); got != want {
			t.Fatalf("%s: sumXor %d, indices give %d", b.OBF(), got, want)
		}
	}
}

func benchSum(b *testing.B, sum func(*[TableSize]int16, *board.Board) int) {
	w := randomTable()
	pos := randomPositions(20, 3)
	b.ReportAllocs()
	s := 0
	for i := 0; b.Loop(); i++ {
		s += sum(w, &pos[i%len(pos)])
	}
	_ = s
}

func BenchmarkSum(b *testing.B)    { benchSum(b, Sum) }
func BenchmarkSumXor(b *testing.B) { benchSum(b, sumXor) }

// The board's extra indices must be instances 30-45 in their digit order: Indices and Sum read
// them as such.
func TestExtraIndicesAreInstances(t *testing.T) {
	for i := 0; i < board.NumExt; i++ {
		if got, want := board.ExtSquares(i), InstanceSquares[30+i]; !slices.Equal(got, want) {
			t.Errorf("extra index %d: squares %v, instance %d has %v", i, got, 30+i, want)
		}
	}
}
