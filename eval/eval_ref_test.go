package eval

import (
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/internal/cputime"
	"github.com/othellogo/othello/internal/evalref"
)

// evalOld is Eval as it was before the extra indices and the two-sided move generation: the
// reference of TestEvalMatchesOld and the baseline of BenchmarkEvalOld.
func (e *Evaluator) evalOld(b *board.Board) int {
	empties := board.Count(^(b.P | b.O))
	st := Stage(empties)
	s := evalref.Sum(&e.w[st].W, b) + int(e.bias[empties])
	if e.mobility {
		m := &e.mob[st]
		s += int(m[MobilityIndex(board.Count(board.LegalMoves(b.P, b.O)))]) +
			int(m[MobilitySlots+MobilityIndex(board.Count(board.LegalMoves(b.O, b.P)))])
		if e.potMobility {
			pp, po := PotMobility(b)
			q := &e.pot[st]
			s += int(q[pp]) + int(q[PotMobilitySlots+po])
		}
	}
	return max(-MaxScore, min(MaxScore, s))
}

// TestEvalMatchesOld replays random games, making and unmaking every move of every position,
// and compares Eval with evalOld everywhere: on the shipped weights and on random weights with
// and without the mobility sections.
func TestEvalMatchesOld(t *testing.T) {
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	games := 100
	if testing.Short() {
		games = 20
	}
	for _, e := range []*Evaluator{def, sectionsEvaluator(t, false), sectionsEvaluator(t, true)} {
		for _, b := range randomPositions(games, 21) {
			if got, want := e.Eval(&b), e.evalOld(&b); got != want {
				t.Fatalf("%s: Eval %d, the old evaluation %d", b.OBF(), got, want)
			}
			for m := b.LegalMoves(); m != 0; m &= m - 1 {
				u := b.Make(board.FirstSquare(m))
				if got, want := e.Eval(&b), e.evalOld(&b); got != want {
					t.Fatalf("%s: Eval %d, the old evaluation %d", b.OBF(), got, want)
				}
				b.Unmake(u)
			}
		}
	}
}

// benchEvalOf times one evaluation function over the positions of 20 random games, so that all
// stage tables are used, and reports the process's CPU time per evaluation besides the wall
// clock (steadier on a loaded machine).
func benchEvalOf(b *testing.B, eval func(*board.Board) int) {
	pos := randomPositions(20, 3)
	b.ReportAllocs()
	sum := 0
	start := cputime.Process()
	for i := 0; b.Loop(); i++ {
		sum += eval(&pos[i%len(pos)])
	}
	b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
	_ = sum
}

// BenchmarkEvalNew and BenchmarkEvalOld time Eval and evalOld in one binary on the same
// positions, with the mobility and potential mobility features on (as in the shipped
// weights); ...Default with the shipped weights.
func BenchmarkEvalNew(b *testing.B) { benchEvalOf(b, sectionsEvaluator(b, true).Eval) }
func BenchmarkEvalOld(b *testing.B) { benchEvalOf(b, sectionsEvaluator(b, true).evalOld) }

func BenchmarkEvalNewDefault(b *testing.B) {
	e, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	benchEvalOf(b, e.Eval)
}

func BenchmarkEvalOldDefault(b *testing.B) {
	e, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	benchEvalOf(b, e.evalOld)
}
