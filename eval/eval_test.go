package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/patterns"
	"github.com/othellogo/othello/weights"
)

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
	}
	return out
}

func randomFile(t testing.TB, seed uint64) *weights.File {
	r := rand.New(rand.NewPCG(seed, 2))
	st := make([][]int16, NumStages)
	for s := range st {
		st[s] = make([]int16, patterns.PackedSize)
		for i := range st[s] {
			st[s][i] = int16(r.IntN(801) - 400)
		}
	}
	f, err := NewFile(st)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// reference evaluates square by square from the instance square lists and the packed
// weights: an implementation independent of the line-index tables and the unpacking.
func reference(f *weights.File, b *board.Board) int {
	return max(-MaxScore, min(MaxScore, referenceAt(f, b, Stage(b.NumEmpties()))))
}

// referenceAt is reference's pattern sum with the weights of the given stage, unclamped.
func referenceAt(f *weights.File, b *board.Board, stage int) int {
	s := 0
	for i, sqs := range patterns.InstanceSquares {
		p := patterns.InstancePattern[i]
		x, pw := 0, 1
		for _, sq := range sqs {
			code := 1
			if b.P&sq.Bit() != 0 {
				code = 2
			} else if b.O&sq.Bit() != 0 {
				code = 0
			}
			x += code * pw
			pw *= 3
		}
		s += int(f.Weights[stage][patterns.Packed(uint32(patterns.Offset[p]+patterns.Canonical(p, x)))])
	}
	return s
}

func TestEvalMatchesReference(t *testing.T) {
	f := randomFile(t, 1)
	e, err := FromFile("random", f)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range randomPositions(40, 5) {
		if got, want := e.Eval(&b), reference(f, &b); got != want {
			t.Fatalf("%s: Eval %d, reference %d", b.OBF(), got, want)
		}
	}
}

func TestSymmetriesEvaluateIdentically(t *testing.T) {
	e, err := FromFile("random", randomFile(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range randomPositions(60, 4) {
		want := e.Eval(&b)
		for k := 1; k < 8; k++ {
			tb := b.Transformed(k)
			if got := e.Eval(&tb); got != want {
				t.Fatalf("%s: symmetry %d evaluates %d, identity %d", b.OBF(), k, got, want)
			}
		}
	}
}

// Exchanging the colours and the side to move gives the same position from the side to
// move's view, so the same score.
func TestColourExchange(t *testing.T) {
	e, err := FromFile("random", randomFile(t, 5))
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range randomPositions(30, 6) {
		sw := board.FromColors(b.White(), b.Black(), !b.BlackToMove)
		if got, want := e.Eval(&sw), e.Eval(&b); got != want {
			t.Fatalf("%s: colours exchanged %d, original %d", b.OBF(), got, want)
		}
	}
}

func TestStage(t *testing.T) {
	for _, c := range []struct{ empties, stage int }{{60, 0}, {57, 0}, {56, 1}, {24, 9}, {4, 14}, {1, 14}, {0, 14}, {61, 0}} {
		if got := Stage(c.empties); got != c.stage {
			t.Errorf("Stage(%d) = %d, want %d", c.empties, got, c.stage)
		}
	}
}

func TestDefaultLoads(t *testing.T) {
	e, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	b := board.Start()
	t.Logf("start position: %d (%.2f discs)", e.Eval(&b), float64(e.Eval(&b))/Scale)
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	f := randomFile(t, 9)
	f.Stages, f.Weights = 14, f.Weights[:14]
	path := filepath.Join(dir, "fourteen.gtw")
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "fourteen.gtw") || !strings.Contains(err.Error(), "stages") {
		t.Errorf("14 stages: error %v", err)
	}
	g := randomFile(t, 9)
	g.Patterns[3].Name = "other"
	path = filepath.Join(dir, "other.gtw")
	if err := g.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "other.gtw") {
		t.Errorf("foreign pattern set: error %v", err)
	}
	if _, err := Load(filepath.Join(dir, "absent.gtw")); err == nil || !strings.Contains(err.Error(), "absent.gtw") {
		t.Errorf("absent file: error %v", err)
	}
}

// ByName reads the names a command line gives: the embedded weights, the mobility baseline (no
// evaluator), or a weight file, whose failure names the file.
func TestByName(t *testing.T) {
	def, _ := Default()
	for _, name := range []string{"default", ""} {
		if e, err := ByName(name); err != nil || e != def {
			t.Errorf("ByName(%q) = %p, %v; want the embedded weights", name, e, err)
		}
	}
	if e, err := ByName("mobility"); err != nil || e != nil {
		t.Errorf("ByName(mobility) = %p, %v; want nil", e, err)
	}
	path := filepath.Join(t.TempDir(), "w.gtw")
	if err := randomFile(t, 3).WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if e, err := ByName(path); err != nil || e == nil {
		t.Errorf("ByName(a weight file): %v", err)
	}
	if _, err := ByName(path + ".absent"); err == nil || !strings.Contains(err.Error(), "want default, mobility or a weights file") {
		t.Errorf("ByName(an absent file): %v", err)
	}
}

func TestScaleConversion(t *testing.T) {
	f := randomFile(t, 11)
	e1, err := FromFile("a", f)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range f.Weights {
		for i := range w {
			w[i] /= 2
			w[i] *= 2
		}
	}
	e1, _ = FromFile("a", f)
	for _, w := range f.Weights {
		for i := range w {
			w[i] /= 2
		}
	}
	f.Scale = Scale / 2
	e2, err := FromFile("b", f)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range randomPositions(5, 12) {
		if e1.Eval(&b) != e2.Eval(&b) {
			t.Fatalf("%s: scale %d gives %d, scale %d gives %d", b.OBF(), Scale, e1.Eval(&b), Scale/2, e2.Eval(&b))
		}
	}
}

// benchEval times e.Eval over the positions of 20 random games, so all stage tables are used.
func benchEval(b *testing.B, e *Evaluator) {
	pos := randomPositions(20, 3)
	b.ReportAllocs()
	sum := 0
	for i := 0; b.Loop(); i++ {
		sum += e.Eval(&pos[i%len(pos)])
	}
	_ = sum
}

func BenchmarkEval(b *testing.B) {
	e, err := FromFile("random", randomFile(b, 1))
	if err != nil {
		b.Fatal(err)
	}
	benchEval(b, e)
}

// BenchmarkEvalViaIndices is the baseline for BenchmarkEval: indices written to an array by
// patterns.Indices, then summed.
func BenchmarkEvalViaIndices(b *testing.B) {
	e, err := FromFile("random", randomFile(b, 1))
	if err != nil {
		b.Fatal(err)
	}
	pos := randomPositions(20, 3)
	b.ReportAllocs()
	sum := 0
	for i := 0; b.Loop(); i++ {
		p := &pos[i%len(pos)]
		var idx [patterns.NumInstances]uint32
		patterns.Indices(p, &idx)
		w := &e.w[Stage(p.NumEmpties())].W
		for _, x := range idx {
			sum += int(w[x])
		}
	}
	_ = sum
}

func TestSections(t *testing.T) {
	f := randomFile(t, 13)
	f.SetSection("MPC1", []byte{1, 2, 3})
	data, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	g, err := weights.Decode("mem", data)
	if err != nil {
		t.Fatal(err)
	}
	e, err := FromFile("mem", g)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := e.Section("MPC1"); !ok || len(d) != 3 {
		t.Errorf("section MPC1: %v %v", d, ok)
	}
	if _, ok := e.Section("NONE"); ok {
		t.Error("found an absent section")
	}
}

// The shipped weights must know something about Othello: on the 79 FFO endgame positions
// (20 to 36 empties, exact scores known) the static evaluation must mostly agree in sign with
// the best score and be far closer to it than a blind guess of 0.
func TestDefaultOnFFO(t *testing.T) {
	e, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "fforum-1-79.obf"))
	if err != nil {
		t.Fatal(err)
	}
	var n, agree int
	var absErr, absZero float64
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		b, rest, err := board.ParseOBF(line)
		if err != nil {
			t.Fatal(err)
		}
		// The best move's score comes first: "; G8:+18; ..."
		fields := strings.FieldsFunc(rest, func(r rune) bool { return r == ';' || r == ' ' })
		var best int
		if _, err := fmt.Sscanf(fields[0][strings.IndexByte(fields[0], ':')+1:], "%d", &best); err != nil {
			t.Fatalf("%q: %v", fields[0], err)
		}
		v := float64(e.Eval(&b)) / Scale
		n++
		if v > 0 && best > 0 || v < 0 && best < 0 || best == 0 && math.Abs(v) < 4 {
			agree++
		}
		absErr += math.Abs(v - float64(best))
		absZero += math.Abs(float64(best))
	}
	t.Logf("FFO 1-79: sign agrees in %d of %d, MAE %.2f discs (guessing 0: %.2f)", agree, n, absErr/float64(n), absZero/float64(n))
	if agree*100 < n*65 || absErr > 0.7*absZero {
		t.Errorf("shipped weights: sign agrees in %d of %d, MAE %.2f (guessing 0: %.2f)", agree, n, absErr/float64(n), absZero/float64(n))
	}
}

// BenchmarkEvalDefault evaluates with the shipped weights.
func BenchmarkEvalDefault(b *testing.B) {
	e, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	benchEval(b, e)
}

// TestMobilityFeatures checks the optional mobility weights: a file whose stage vectors carry
// them stores them in MobilitySection, and the evaluation adds, to the pattern sum, the weight
// of each side's number of legal moves counted square by square.
func TestMobilityFeatures(t *testing.T) {
	plain, st, f := randomMobilityFile(t, 3, 4)
	if _, ok := f.Section(MobilitySection); !ok {
		t.Fatal("no mobility section")
	}
	// Through the file format, as a user's weights would come.
	e := throughFile(t, f, "mob.gtw")
	ep, err := FromFile("plain", plain)
	if err != nil {
		t.Fatal(err)
	}
	if !e.HasMobility() || ep.HasMobility() {
		t.Fatalf("HasMobility: %v with the section, %v without", e.HasMobility(), ep.HasMobility())
	}
	count := countMoves
	for _, b := range randomPositions(30, 6) {
		s := Stage(b.NumEmpties())
		want := reference(plain, &b) + int(st[s][patterns.PackedSize+MobilityIndex(count(b.P, b.O))]) +
			int(st[s][patterns.PackedSize+MobilitySlots+MobilityIndex(count(b.O, b.P))])
		want = max(-MaxScore, min(MaxScore, want))
		if got := e.Eval(&b); got != want {
			t.Fatalf("%s: Eval %d, want %d", b.OBF(), got, want)
		}
	}
	// A section of the wrong size is refused.
	if err := f.SetSection(MobilitySection, []byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	if _, err := FromFile("short", f); err == nil || !strings.Contains(err.Error(), "mobility section") {
		t.Fatalf("short mobility section: %v", err)
	}
}

// randomMobilityFile returns a random pattern file (randomFile of seed) and the same
// weights with random mobility weights (from mobSeed) after each stage's patterns: the
// stage vectors and the file NewFile makes of them.
func randomMobilityFile(t *testing.T, seed, mobSeed uint64) (plain *weights.File, st [][]int16, f *weights.File) {
	plain = randomFile(t, seed)
	r := rand.New(rand.NewPCG(mobSeed, 5))
	st = make([][]int16, NumStages)
	for s := range st {
		st[s] = append(append([]int16(nil), plain.Weights[s]...), make([]int16, 2*MobilitySlots)...)
		for i := patterns.PackedSize; i < len(st[s]); i++ {
			st[s][i] = int16(r.IntN(2001) - 1000)
		}
	}
	f, err := NewFile(st)
	if err != nil {
		t.Fatal(err)
	}
	return plain, st, f
}

// countMoves counts the legal moves of p by walking the 8 directions from each empty square.
func countMoves(p, o uint64) int {
	n := 0
	for sq := 0; sq < 64; sq++ {
		if (p|o)>>sq&1 != 0 {
			continue
		}
		legal := false
		for _, d := range [][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
			r, c, seen := sq/8+d[0], sq%8+d[1], 0
			for r >= 0 && r < 8 && c >= 0 && c < 8 && o>>(r*8+c)&1 != 0 {
				r, c, seen = r+d[0], c+d[1], seen+1
			}
			if seen > 0 && r >= 0 && r < 8 && c >= 0 && c < 8 && p>>(r*8+c)&1 != 0 {
				legal = true
			}
		}
		if legal {
			n++
		}
	}
	return n
}

// countNextTo counts the empty squares with a disc of x among their (up to 8) neighbours.
func countNextTo(x, occupied uint64) int {
	n := 0
	for sq := 0; sq < 64; sq++ {
		if occupied>>sq&1 != 0 {
			continue
		}
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				r, c := sq/8+dr, sq%8+dc
				if (dr != 0 || dc != 0) && r >= 0 && r < 8 && c >= 0 && c < 8 && x>>(r*8+c)&1 != 0 {
					n++
					dr, dc = 2, 2
				}
			}
		}
	}
	return n
}

// TestPotMobilityFeatures checks the optional potential mobility weights the same way: a file
// whose stage vectors carry mobility and potential mobility weights stores them in their two
// sections, and the evaluation adds the weights of each side's counts, counted square by
// square; a potential mobility section without a mobility section is refused.
func TestPotMobilityFeatures(t *testing.T) {
	plain := randomFile(t, 7)
	r := rand.New(rand.NewPCG(8, 9))
	st := make([][]int16, NumStages)
	for s := range st {
		st[s] = append(append([]int16(nil), plain.Weights[s]...), make([]int16, 2*MobilitySlots+2*PotMobilitySlots)...)
		for i := patterns.PackedSize; i < len(st[s]); i++ {
			st[s][i] = int16(r.IntN(2001) - 1000)
		}
	}
	f, err := NewFile(st)
	if err != nil {
		t.Fatal(err)
	}
	e := throughFile(t, f, "pot.gtw")
	if !e.HasMobility() || !e.HasPotMobility() {
		t.Fatalf("HasMobility %v, HasPotMobility %v", e.HasMobility(), e.HasPotMobility())
	}
	mob, pot := patterns.PackedSize, patterns.PackedSize+2*MobilitySlots
	for _, b := range randomPositions(30, 10) {
		s := Stage(b.NumEmpties())
		pp, po := countNextTo(b.O, b.P|b.O), countNextTo(b.P, b.P|b.O)
		if gp, gq := PotMobility(&b); gp != pp || gq != po {
			t.Fatalf("%s: PotMobility %d %d, want %d %d", b.OBF(), gp, gq, pp, po)
		}
		want := reference(plain, &b) + int(st[s][mob+MobilityIndex(countMoves(b.P, b.O))]) +
			int(st[s][mob+MobilitySlots+MobilityIndex(countMoves(b.O, b.P))]) +
			int(st[s][pot+pp]) + int(st[s][pot+PotMobilitySlots+po])
		want = max(-MaxScore, min(MaxScore, want))
		if got := e.Eval(&b); got != want {
			t.Fatalf("%s: Eval %d, want %d", b.OBF(), got, want)
		}
	}
	mobOnly, _ := NewFile(func() [][]int16 {
		out := make([][]int16, NumStages)
		for s := range out {
			out[s] = st[s][:pot]
		}
		return out
	}())
	if em, err := FromFile("mob", mobOnly); err != nil || em.HasPotMobility() {
		t.Fatalf("mobility only: %v, HasPotMobility %v", err, em != nil && em.HasPotMobility())
	}
	raw, _ := f.Section(PotMobilitySection)
	if err := plain.SetSection(PotMobilitySection, raw); err != nil {
		t.Fatal(err)
	}
	if _, err := FromFile("nomob", plain); err == nil || !strings.Contains(err.Error(), "without a mobility section") {
		t.Fatalf("potential mobility without mobility: %v", err)
	}
	if err := f.SetSection(PotMobilitySection, raw[:10]); err != nil {
		t.Fatal(err)
	}
	if _, err := FromFile("short", f); err == nil || !strings.Contains(err.Error(), "potential mobility section") {
		t.Fatalf("short potential mobility section: %v", err)
	}
}

// BenchmarkEvalMobility is BenchmarkEval with the mobility features on (same positions and
// pattern weights): its extra cost is the two move generations.
func BenchmarkEvalMobility(b *testing.B) { benchEvalSections(b, false) }

// benchEvalSections times Eval on random pattern weights with filler mobility weights, and
// potential mobility weights as well when pot is set.
func benchEvalSections(b *testing.B, pot bool) { benchEval(b, sectionsEvaluator(b, pot)) }

// sectionsEvaluator is an evaluator of random pattern weights with filler mobility weights,
// and potential mobility weights as well when pot is set.
func sectionsEvaluator(b testing.TB, pot bool) *Evaluator {
	f := randomFile(b, 1)
	filler := func(n, mod int) []byte {
		x := make([]byte, n)
		for i := range x {
			x[i] = byte(i % mod)
		}
		return x
	}
	if err := f.SetSection(MobilitySection, filler(NumStages*2*MobilitySlots*2, 7)); err != nil {
		b.Fatal(err)
	}
	if pot {
		if err := f.SetSection(PotMobilitySection, filler(NumStages*2*PotMobilitySlots*2, 5)); err != nil {
			b.Fatal(err)
		}
	}
	e, err := FromFile("random", f)
	if err != nil {
		b.Fatal(err)
	}
	return e
}

// TestEmptiesBias: the correction of EmptiesBiasSection is added by number of empties, goes
// through the file format (at another scale too), and a section of the wrong size is refused.
func TestEmptiesBias(t *testing.T) {
	f := randomFile(t, 6)
	var bias [61]float64
	for k := range bias {
		bias[k] = float64(k%7-3) * 0.75
	}
	if err := f.SetSection(EmptiesBiasSection, EncodeEmptiesBias(bias)); err != nil {
		t.Fatal(err)
	}
	e := throughFile(t, f, "bias.gtw")
	if got := e.EmptiesBias(); got != bias {
		t.Fatalf("EmptiesBias %v, want %v", got, bias)
	}
	for _, b := range randomPositions(20, 7) {
		want := reference(f, &b) + int(math.Round(bias[b.NumEmpties()]*Scale))
		want = max(-MaxScore, min(MaxScore, want))
		if got := e.Eval(&b); got != want {
			t.Fatalf("%s: Eval %d, want %d", b.OBF(), got, want)
		}
	}
	if err := f.SetSection(EmptiesBiasSection, []byte{1, 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := FromFile("short", f); err == nil || !strings.Contains(err.Error(), "empties bias") {
		t.Fatalf("short empties bias section: %v", err)
	}
}

// BenchmarkEvalPotMobility is BenchmarkEvalMobility with the potential mobility features on as
// well: their extra cost is two neighbourhood fills and two bit counts.
func BenchmarkEvalPotMobility(b *testing.B) { benchEvalSections(b, true) }

// throughFile writes f to a temporary file of the given name and loads it back, as a user's
// weights would come.
func throughFile(t *testing.T, f *weights.File, name string) *Evaluator {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	e, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestInterpolation checks the evaluation of a file with the interpolation section against
// the blend of two stages' evaluations computed square by square: at n empties the stages
// whose middles (58.5 - 4*stage empties) enclose n, weighted by distance. The tables are
// blended entry by entry and rounded, so the two may differ by half a unit per table read;
// beyond the first and last middles the nearest stage is used alone, exactly. A section
// with data is refused.
func TestInterpolation(t *testing.T) {
	plain, st, f := randomMobilityFile(t, 7, 8)
	if err := f.SetSection(InterpSection, nil); err != nil {
		t.Fatal(err)
	}
	e := throughFile(t, f, "itp.gtw")
	stageValue := func(b *board.Board, s int) float64 {
		return float64(referenceAt(plain, b, s) + int(st[s][patterns.PackedSize+MobilityIndex(countMoves(b.P, b.O))]) +
			int(st[s][patterns.PackedSize+MobilitySlots+MobilityIndex(countMoves(b.O, b.P))]))
	}
	tested := map[int]bool{}
	for _, b := range randomPositions(40, 10) {
		n := b.NumEmpties()
		x := (58.5 - float64(n)) / 4
		var want float64
		exact := false
		switch {
		case x <= 0:
			want, exact = stageValue(&b, 0), true
		case x >= NumStages-1:
			want, exact = stageValue(&b, NumStages-1), true
		default:
			s0 := int(x)
			t := x - float64(s0)
			want = (1-t)*stageValue(&b, s0) + t*stageValue(&b, s0+1)
		}
		want = max(-MaxScore, min(MaxScore, want))
		got := float64(e.Eval(&b))
		tol := 0.0
		if !exact {
			tol = float64(patterns.NumInstances+2) / 2
		}
		if math.Abs(got-want) > tol+0.5 {
			t.Fatalf("%s (%d empties): Eval %.0f, blend of the stages %.1f", b.OBF(), n, got, want)
		}
		tested[n] = true
	}
	if len(tested) < 55 {
		t.Fatalf("only %d numbers of empties tested", len(tested))
	}
	if err := f.SetSection(InterpSection, []byte{1}); err != nil {
		t.Fatal(err)
	}
	if _, err := FromFile("bad", f); err == nil || !strings.Contains(err.Error(), "interpolation section") {
		t.Fatalf("interpolation section with data: %v", err)
	}
}
