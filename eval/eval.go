// Package eval is the static evaluation: Buro's staged pattern evaluation (Logistello, 1997).
// A position's score is the sum, over the 46 pattern instances of package patterns, of the
// weight of the instance's configuration in the table of the position's stage, in fixed-point
// units (Scale per disc) from the side to move's view. There are 15 stages of 4 moves each,
// by number of empties; each was fitted by gradient descent on game records (package train).
//
// Weights come from a file of package weights (the embedded default, or one given by the
// user), stored packed (one weight per class of symmetric configurations) and expanded here
// into full tables, so that an evaluation is 46 table lookups read off the board's line
// indices, with no per-square work and no allocation.
package eval

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/patterns"
	"github.com/othellogo/othello/weights"
)

// Scale is the number of evaluation units per disc.
const Scale = 256

// NumStages is the number of stages; stage s covers 60 - 4s .. 57 - 4s empties (the last stage
// also 0 empties).
const NumStages = 15

// MaxScore bounds every evaluation: a position is never worth more than 64 discs.
const MaxScore = 64 * Scale

// Stage returns the stage of a position with the given number of empties.
func Stage(empties int) int {
	s := (60 - empties) / 4
	if s < 0 {
		return 0
	}
	if s >= NumStages {
		return NumStages - 1
	}
	return s
}

// Evaluator holds the expanded weight tables. It is read-only once built and may be shared by
// any number of goroutines.
type Evaluator struct {
	// w holds the expanded pattern tables: one per stage, or one per number of empties when
	// the file asks for interpolation (InterpSection); tab maps a number of empties to its
	// table, and to its row of mob.
	w        []patterns.Table
	tab      [61]uint8
	sections []weights.Section
	// Optional mobility features (weight files with a MobilitySection): per stage, a weight
	// for each count of the side to move's legal moves (counts from MobilitySlots-1 on share
	// one), then one for each count of the opponent's.
	mobility bool
	mob      [][2 * MobilitySlots]int16
	// Optional potential mobility features (files with a PotMobilitySection, read only with
	// the mobility features): per stage, a weight for each count of the empty squares next
	// to an opponent's disc (where the side to move may later play), then one for the count
	// of those next to the side to move's discs.
	potMobility bool
	pot         [NumStages][2 * PotMobilitySlots]int16
	// bias is added by number of empties (EmptiesBiasSection; zero without one).
	bias [61]int16
}

// EmptiesBiasSection is the tag of the weight-file section that holds a correction added by
// number of empties: 61 little-endian int16 (0 to 60 empties), in the file's scale. The
// stages span 4 empties, so the patterns alone cannot tell whether the side to move will
// have the last move (odd empties, an advantage near the end) or not; measured on the
// WTH_2023 games (actual results as labels), the evaluation of the side to move is 1.3-2.3
// discs too high at even empties and 0.3-1 too low at odd ones from 22 empties down.
const EmptiesBiasSection = "EMP1"

// EncodeEmptiesBias is the section data for a correction of bias[e] discs at e empties.
func EncodeEmptiesBias(bias [61]float64) []byte {
	raw := make([]byte, 0, 2*61)
	for _, x := range bias {
		v := int(math.Round(x * Scale))
		v = max(-32768, min(32767, v))
		raw = binary.LittleEndian.AppendUint16(raw, uint16(int16(v)))
	}
	return raw
}

// EmptiesBias returns the correction added at each number of empties, in discs.
func (e *Evaluator) EmptiesBias() [61]float64 {
	var out [61]float64
	for i, x := range e.bias {
		out[i] = float64(x) / Scale
	}
	return out
}

// MobilitySection is the tag of the weight file section that holds the mobility weights:
// NumStages x 2 x MobilitySlots little-endian int16, in the file's scale.
const MobilitySection = "MOB1"

// MobilitySlots is the number of mobility weights per side and stage: counts 0..MobilitySlots-1,
// larger counts share the last one.
const MobilitySlots = 32

// MobilityIndex is the slot of a move count.
func MobilityIndex(moves int) int { return min(moves, MobilitySlots-1) }

// PotMobilitySection is the tag of the weight file section that holds the potential mobility
// weights: NumStages x 2 x PotMobilitySlots little-endian int16, in the file's scale.
const PotMobilitySection = "PMB1"

// PotMobilitySlots is the number of potential mobility weights per side and stage (counts
// 0..60, each its own).
const PotMobilitySlots = 64

// PotMobility returns the potential mobility counts of b: the empty squares next to a disc of
// the opponent (for the side to move), and those next to a disc of the side to move.
func PotMobility(b *board.Board) (p, o int) {
	empty := ^(b.P | b.O)
	return board.Count(empty & board.Neighbours(b.O)), board.Count(empty & board.Neighbours(b.P))
}

// HasPotMobility says whether the evaluation reads the potential mobility features.
func (e *Evaluator) HasPotMobility() bool { return e.potMobility }

// HasMobility says whether the evaluation reads the mobility features.
func (e *Evaluator) HasMobility() bool { return e.mobility }

// Section returns the extra section of the weight file with the given tag (e.g. the search's
// Multi-ProbCut parameters, or "TRN1", the training summary).
func (e *Evaluator) Section(tag string) ([]byte, bool) {
	f := weights.File{Sections: e.sections}
	return f.Section(tag)
}

// Eval returns the static evaluation of b in units of 1/Scale disc from the side to move's
// view, within [-MaxScore, MaxScore]. It ignores whether the game is over: callers score
// finished games with board.DiscDiff.
func (e *Evaluator) Eval(b *board.Board) int {
	empties := board.Count(^(b.P | b.O))
	ti := e.tab[empties]
	s := e.w[ti].Sum(b) + int(e.bias[empties])
	if e.mobility {
		m := &e.mob[ti]
		pm, om := board.LegalMovesBoth(b.P, b.O)
		s += int(m[MobilityIndex(board.Count(pm))]) + int(m[MobilitySlots+MobilityIndex(board.Count(om))])
		if e.potMobility {
			pp, po := PotMobility(b)
			q := &e.pot[Stage(empties)]
			s += int(q[pp]) + int(q[PotMobilitySlots+po])
		}
	}
	if s > MaxScore {
		return MaxScore
	}
	if s < -MaxScore {
		return -MaxScore
	}
	return s
}

// FilePatterns describes the pattern set as a weight file records it.
func FilePatterns() []weights.Pattern {
	out := make([]weights.Pattern, patterns.NumPatterns)
	for p := range patterns.Patterns {
		sq := make([]uint8, len(patterns.Patterns[p].Squares))
		for i, s := range patterns.Patterns[p].Squares {
			sq[i] = uint8(s)
		}
		out[p] = weights.Pattern{
			Name:    patterns.Patterns[p].Name,
			Squares: sq,
			Packed:  patterns.PackedOffset[p+1] - patterns.PackedOffset[p],
		}
	}
	return out
}

// FromFile builds an evaluator from a decoded weight file, which must have been trained for
// this pattern set; name identifies the file in errors.
func FromFile(name string, f *weights.File) (*Evaluator, error) {
	if f.Stages != NumStages {
		return nil, fmt.Errorf("weights %s: %d stages, the evaluation has %d", name, f.Stages, NumStages)
	}
	want := FilePatterns()
	if len(f.Patterns) != len(want) {
		return nil, fmt.Errorf("weights %s: %d patterns, the evaluation has %d", name, len(f.Patterns), len(want))
	}
	for i, p := range want {
		got := f.Patterns[i]
		if got.Name != p.Name || string(got.Squares) != string(p.Squares) || got.Packed != p.Packed {
			return nil, fmt.Errorf("weights %s: pattern %d is %q (%d squares, %d weights), the evaluation wants %q (%d squares, %d weights)",
				name, i, got.Name, len(got.Squares), got.Packed, p.Name, len(p.Squares), p.Packed)
		}
	}
	e := &Evaluator{sections: f.Sections, w: make([]patterns.Table, NumStages), mob: make([][2 * MobilitySlots]int16, NumStages)}
	for s := 0; s < NumStages; s++ {
		src := f.Weights[s]
		if f.Scale != Scale {
			src = make([]int16, len(f.Weights[s]))
			for i, x := range f.Weights[s] {
				v := int(x) * Scale / f.Scale
				if v > 32767 || v < -32768 {
					return nil, fmt.Errorf("weights %s: weight %d of stage %d overflows at scale %d", name, i, s, Scale)
				}
				src[i] = int16(v)
			}
		}
		patterns.Unpack(e.w[s].W[:], src)
	}
	if raw, ok := f.Section(MobilitySection); ok {
		e.mobility = true
		if err := decodeStageSection(name, "mobility", raw, 2*MobilitySlots, f.Scale, func(s, i int, v int16) { e.mob[s][i] = v }); err != nil {
			return nil, err
		}
	}
	if raw, ok := f.Section(PotMobilitySection); ok {
		if !e.mobility {
			return nil, fmt.Errorf("weights %s: potential mobility section without a mobility section", name)
		}
		e.potMobility = true
		if err := decodeStageSection(name, "potential mobility", raw, 2*PotMobilitySlots, f.Scale, func(s, i int, v int16) { e.pot[s][i] = v }); err != nil {
			return nil, err
		}
	}
	for n := range e.tab {
		e.tab[n] = uint8(Stage(n))
	}
	if raw, ok := f.Section(InterpSection); ok {
		if len(raw) != 0 {
			return nil, fmt.Errorf("weights %s: interpolation section of %d bytes, want none", name, len(raw))
		}
		e.interpolate()
	}
	if raw, ok := f.Section(EmptiesBiasSection); ok {
		if len(raw) != 2*61 {
			return nil, fmt.Errorf("weights %s: empties bias section of %d bytes, want %d", name, len(raw), 2*61)
		}
		for i := range 61 {
			x := int(int16(binary.LittleEndian.Uint16(raw[2*i:])))
			e.bias[i] = int16(max(-32768, min(32767, x*Scale/f.Scale)))
		}
	}
	return e, nil
}

// decodeStageSection reads a section of NumStages x width little-endian int16 weights at the
// file's scale, rescales them to Scale and hands each to set; what names the features in
// errors.
func decodeStageSection(name, what string, raw []byte, width, fileScale int, set func(s, i int, v int16)) error {
	if len(raw) != NumStages*width*2 {
		return fmt.Errorf("weights %s: %s section of %d bytes, want %d", name, what, len(raw), NumStages*width*2)
	}
	for s := range NumStages {
		for i := range width {
			x := int(int16(binary.LittleEndian.Uint16(raw[2*(s*width+i):])))
			v := x * Scale / fileScale
			if v > 32767 || v < -32768 {
				return fmt.Errorf("weights %s: %s weight %d of stage %d overflows at scale %d", name, what, i, s, Scale)
			}
			set(s, i, int16(v))
		}
	}
	return nil
}

// InterpSection is the tag of an empty weight-file section that makes the evaluation
// interpolate between stages: a stage's weights are fitted on the positions of its 4 empties
// (and one more on each side), so they fit best at its middle, 58.5 - 4*stage empties. With
// the section, the tables used at n empties are the linear blend of the two stages whose
// middles enclose n (a quarter and three quarters, or an eighth and seven eighths), computed
// once when the file is read, so an evaluation still reads one table per instance. The
// mobility weights are blended the same way; potential mobility weights stay by stage.
const InterpSection = "ITP1"

// interpolate replaces the per-stage tables (and mobility rows) by one per number of empties.
func (e *Evaluator) interpolate() {
	w := make([]patterns.Table, 61)
	mob := make([][2 * MobilitySlots]int16, 61)
	for n := range 61 {
		s0, t := StageBlend(n)
		s1 := min(s0+1, NumStages-1)
		for i := range w[n].W {
			w[n].W[i] = blend(e.w[s0].W[i], e.w[s1].W[i], t)
		}
		for i := range mob[n] {
			mob[n][i] = blend(e.mob[s0][i], e.mob[s1][i], t)
		}
		e.tab[n] = uint8(n)
	}
	e.w, e.mob = w, mob
}

// StageBlend returns, for n empties, the stage s0 and the weight t of stage s0+1 in the
// interpolated evaluation (t is 0 where only s0 counts): the stages' middles are at
// 58.5 - 4*s empties. The evaluation blends the tables with it, and a joint training fit
// (train.Config.Interpolate) blends its predictions with it.
func StageBlend(n int) (s0 int, t float64) {
	x := (58.5 - float64(n)) / 4
	s0 = int(math.Floor(x))
	t = x - float64(s0)
	if s0 < 0 {
		return 0, 0
	}
	if s0 >= NumStages-1 {
		return NumStages - 1, 0
	}
	return s0, t
}

// blend is (1-t)*a + t*b, rounded to the nearest.
func blend(a, b int16, t float64) int16 {
	return int16(math.Round((1-t)*float64(a) + t*float64(b)))
}

// Load reads a weight file.
func Load(path string) (*Evaluator, error) {
	f, err := weights.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return FromFile(path, f)
}

var defaultOnce struct {
	sync.Once
	e   *Evaluator
	err error
}

// Default returns the evaluator of the embedded weights. It is built once and shared.
func Default() (*Evaluator, error) {
	defaultOnce.Do(func() {
		f, err := weights.Decode(weights.EmbeddedName, weights.Embedded())
		if err != nil {
			defaultOnce.err = err
			return
		}
		defaultOnce.e, defaultOnce.err = FromFile(weights.EmbeddedName, f)
	})
	return defaultOnce.e, defaultOnce.err
}

// ByName returns the evaluation a command line names: "default" (or "") the embedded weights,
// "mobility" nil (the search then uses its plain mobility/corner evaluation), anything else a
// weight file.
func ByName(name string) (*Evaluator, error) {
	switch name {
	case "mobility":
		return nil, nil
	case "default", "":
		e, err := Default()
		if err != nil {
			return nil, fmt.Errorf("eval: the built-in weights: %v", err)
		}
		return e, nil
	}
	e, err := Load(name)
	if err != nil {
		return nil, fmt.Errorf("eval %q: want default, mobility or a weights file: %v", name, err)
	}
	return e, nil
}

// NewFile wraps one packed weight vector per stage (patterns.PackedSize entries each, in units
// of 1/Scale disc) into a weight file for this pattern set. A vector may carry, after the
// pattern weights, the 2 x MobilitySlots mobility weights, or those and then the
// 2 x PotMobilitySlots potential mobility weights (the same for all stages): they go to the
// file's MobilitySection and PotMobilitySection.
func NewFile(stages [][]int16) (*weights.File, error) {
	if len(stages) != NumStages {
		return nil, fmt.Errorf("eval: %d stages of weights, want %d", len(stages), NumStages)
	}
	want := patterns.PackedSize
	withMob, withPot := false, false
	switch len(stages[0]) {
	case patterns.PackedSize + 2*MobilitySlots:
		withMob = true
	case patterns.PackedSize + 2*MobilitySlots + 2*PotMobilitySlots:
		withMob, withPot = true, true
	}
	if withMob {
		want += 2 * MobilitySlots
	}
	if withPot {
		want += 2 * PotMobilitySlots
	}
	for s, w := range stages {
		if len(w) != want {
			return nil, fmt.Errorf("eval: stage %d has %d weights, want %d", s, len(w), want)
		}
	}
	f := &weights.File{Stages: NumStages, Scale: Scale, Patterns: FilePatterns(), Weights: stages}
	if withMob {
		var mob, pot []byte
		f.Weights = make([][]int16, NumStages)
		for s, w := range stages {
			f.Weights[s] = w[:patterns.PackedSize]
			for _, x := range w[patterns.PackedSize : patterns.PackedSize+2*MobilitySlots] {
				mob = binary.LittleEndian.AppendUint16(mob, uint16(x))
			}
			for _, x := range w[patterns.PackedSize+2*MobilitySlots:] {
				pot = binary.LittleEndian.AppendUint16(pot, uint16(x))
			}
		}
		if err := f.SetSection(MobilitySection, mob); err != nil {
			return nil, err
		}
		if withPot {
			if err := f.SetSection(PotMobilitySection, pot); err != nil {
				return nil, err
			}
		}
	}
	return f, nil
}
