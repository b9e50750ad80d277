package patterns_test

import (
	"math/rand/v2"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/internal/cputime"
	"github.com/othellogo/othello/internal/evalref"
	"github.com/othellogo/othello/patterns"
)

// randomGames plays random games from the start and returns every position met.
func randomGames(games int, seed uint64) []board.Board {
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

func randomWeights(seed uint64) *[patterns.TableSize]int16 {
	r := rand.New(rand.NewPCG(seed, 5))
	w := new([patterns.TableSize]int16)
	for i := range w {
		w[i] = int16(r.IntN(65536) - 32768)
	}
	return w
}

// TestSumMatchesReference replays random games and compares Sum with the earlier
// implementation at every position, on weights spanning all of int16.
func TestSumMatchesReference(t *testing.T) {
	w := randomWeights(1)
	for _, b := range randomGames(300, 11) {
		if got, want := patterns.Sum(w, &b), evalref.Sum(w, &b); got != want {
			t.Fatalf("%s: Sum %d, the reference %d", b.OBF(), got, want)
		}
	}
}

// TestTableSumMatchesReference: the vector sum (where the processor has it) and the Go Sum
// agree with the reference at every position of random games, on weights spanning all of
// int16, the table's largest indices included (a board full of one colour).
func TestTableSumMatchesReference(t *testing.T) {
	t.Logf("sum: %s", patterns.SumKind())
	tab := new(patterns.Table)
	tab.W = *randomWeights(3)
	pos := randomGames(300, 12)
	for _, full := range []uint64{0, ^uint64(0)} {
		b := board.FromColors(full, ^full, true)
		pos = append(pos, b)
		b.Pass()
		pos = append(pos, b)
	}
	for _, b := range pos {
		want := evalref.Sum(&tab.W, &b)
		if got := tab.Sum(&b); got != want {
			t.Fatalf("%s: Table.Sum %d, the reference %d", b.OBF(), got, want)
		}
		if got := patterns.Sum(&tab.W, &b); got != want {
			t.Fatalf("%s: Sum %d, the reference %d", b.OBF(), got, want)
		}
	}
}

func benchSumOf(b *testing.B, sum func(*[patterns.TableSize]int16, *board.Board) int) {
	w := randomWeights(2)
	pos := randomGames(20, 3)
	b.ReportAllocs()
	s := 0
	start := cputime.Process()
	for i := 0; b.Loop(); i++ {
		s += sum(w, &pos[i%len(pos)])
	}
	// The process's CPU time besides the wall clock: on a loaded machine it is the steadier.
	b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
	_ = s
}

// BenchmarkSumNew and BenchmarkSumOld time Sum and the reference in one binary, on the same
// positions and weights.
func BenchmarkSumNew(b *testing.B) { benchSumOf(b, patterns.Sum) }
func BenchmarkSumOld(b *testing.B) { benchSumOf(b, evalref.Sum) }

// BenchmarkTableSum is Table.Sum, the vector sum where the processor has it.
func BenchmarkTableSum(b *testing.B) {
	tab := new(patterns.Table)
	tab.W = *randomWeights(2)
	benchSumOf(b, func(_ *[patterns.TableSize]int16, x *board.Board) int { return tab.Sum(x) })
}
