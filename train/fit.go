package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/patterns"
)

// Config sets up a training run. The zero value is not useful; start from DefaultConfig.
type Config struct {
	Epochs   int     // full passes of gradient descent per stage
	Rate     float64 // step size, a fraction of the diagonal-Newton step
	Momentum float64 // heavy-ball momentum
	// Ridge is the weight of the L2 penalty, in positions: a configuration seen n times
	// moves to n/(n+Ridge) of the value the data alone would give it. It is the prior that
	// an unseen or rare configuration is worth nothing, and keeps rare weights from fitting
	// noise.
	Ridge float64
	// Smooth adds the positions Smooth moves before and after a stage to its training set
	// (stage smoothing: 4 + 2*Smooth moves per stage).
	Smooth int
	// Backoff gives a configuration never seen in a stage's training positions the weight
	// of the nearest stage that saw it, instead of zero.
	Backoff bool
	Workers int    // goroutines
	Seed    uint64 // shuffles the games between workers; a run is reproducible from it
	// Mobility adds two features, the number of legal moves of each side (a table of
	// eval.MobilitySlots weights per side and stage, after the pattern weights), which the
	// evaluation reads from the weight file's eval.MobilitySection.
	Mobility bool
	// PotMobility (with Mobility) adds two more, the potential mobility of each side
	// (eval.PotMobility: empty squares next to the other side's discs; eval.PotMobilitySlots
	// weights per side and stage, after the mobility weights), read from the weight file's
	// eval.PotMobilitySection.
	PotMobility bool
	// Extra is an experimental extra pattern (its squares, at most 10), placed on the board
	// by the 8 symmetries, with one table of 3^n weights per stage after the others (mirror
	// configurations are not merged). The evaluation does not read it either.
	Extra []board.Square
	// Interpolate fits all stages at once for the evaluation interpolated between stages
	// (eval.InterpSection): each position is predicted by the blend of the two stages the
	// evaluation blends at its number of empties (eval.StageBlend), and its residual is
	// shared between them in that proportion. Smooth is not used (the blend itself spreads a
	// stage over 8 empties), and the weight file gets the section.
	Interpolate bool
	// Positions are labelled positions (SearchLabels) trained on along with the games' own,
	// each counted PositionWeight times (0 counts as 1).
	Positions      []Position
	PositionWeight int
}

// DefaultConfig is the configuration of the shipped weights.
func DefaultConfig() Config {
	return Config{Epochs: 80, Rate: 0.06, Momentum: 0.9, Ridge: 10, Smooth: 1, Backoff: true, Workers: 2, Seed: 1}
}

// Validate says in words what is wrong with a configuration, one line per setting out of its
// range (the settings named as othello train's flags name them), or nil.
func (cfg Config) Validate() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	if cfg.Epochs < 1 {
		bad("epochs %d: want at least 1 pass of gradient descent per stage", cfg.Epochs)
	}
	if !finite(cfg.Rate) || cfg.Rate <= 0 {
		bad("rate %v: want a step size above 0 (a fraction of the diagonal-Newton step; %v by default)", cfg.Rate, DefaultConfig().Rate)
	}
	if !(cfg.Momentum >= 0 && cfg.Momentum < 1) {
		bad("momentum %v: want a value from 0 up to, but not including, 1", cfg.Momentum)
	}
	if !finite(cfg.Ridge) || cfg.Ridge < 0 {
		bad("ridge %v: want a penalty of 0 or more (in positions)", cfg.Ridge)
	}
	if cfg.Smooth < 0 || cfg.Smooth > 60 {
		bad("smooth %d: want 0 to 60 moves before and after a stage", cfg.Smooth)
	}
	if cfg.Workers < 0 {
		bad("workers %d: want at least 1 (0 counts as 1)", cfg.Workers)
	}
	if cfg.Interpolate && cfg.PotMobility {
		bad("interpolate with potmobility: the interpolated evaluation keeps the potential mobility weights by stage")
	}
	if cfg.PotMobility && !cfg.Mobility {
		bad("potmobility needs mobility: the potential mobility features come after the mobility ones")
	}
	if cfg.PositionWeight < 0 {
		bad("positions-weight %d: want 1 or more (0 counts as 1)", cfg.PositionWeight)
	}
	if len(cfg.Extra) > 10 {
		bad("extra pattern of %d squares: want at most 10", len(cfg.Extra))
	}
	var seen uint64
	for _, sq := range cfg.Extra {
		if sq < 0 || sq > 63 || seen&sq.Bit() != 0 {
			bad("extra pattern: square %d is off the board or repeated", sq)
			break
		}
		seen |= sq.Bit()
	}
	return errors.Join(errs...)
}

// sampleSet holds labelled positions: for each position its k feature indices (the
// NumInstances packed weight indices, then the experimental features), each relative to the
// start of its table (they fit in 16 bits), and its label in discs from the side to move's
// view.
type sampleSet struct {
	k        int
	off      []uint32 // off[i]: where feature i's table starts in a stage's weights
	idx      []uint16
	y        []float32
	empties  []uint8 // each position's number of empty squares (for the joint fit's blend)
	mobility bool
	pot      bool
	extra    [][]board.Square // instances of Config.Extra
}

func (s *sampleSet) len() int { return len(s.y) }

// slotOffset[k] is the offset of instance k's table in a stage's weights: the packed offset
// of its pattern.
var slotOffset = func() (o [patterns.NumInstances]uint32) {
	for k := range patterns.NumInstances {
		o[k] = uint32(patterns.PackedOffset[patterns.InstancePattern[k]])
	}
	return o
}()

// numWeights is the number of weights of a stage.
func numWeights(cfg Config) int {
	n := patterns.PackedSize
	if cfg.Mobility {
		n += 2 * eval.MobilitySlots
	}
	if cfg.PotMobility {
		n += 2 * eval.PotMobilitySlots
	}
	if len(cfg.Extra) > 0 {
		n += pow3(len(cfg.Extra))
	}
	return n
}

func pow3(n int) int {
	r := 1
	for ; n > 0; n-- {
		r *= 3
	}
	return r
}

// extraInstances places the squares of an extra pattern on the board by the 8 symmetries,
// keeping one instance per square set.
func extraInstances(base []board.Square) [][]board.Square {
	var out [][]board.Square
	seen := map[uint64]bool{}
	for k := 0; k < 8; k++ {
		inst := make([]board.Square, len(base))
		var set uint64
		for i, sq := range base {
			inst[i] = board.TransformSquare(sq, k)
			set |= inst[i].Bit()
		}
		if !seen[set] {
			seen[set] = true
			out = append(out, inst)
		}
	}
	return out
}

// newSampleSet lays out the features of cfg.
func newSampleSet(cfg Config) sampleSet {
	s := sampleSet{off: append([]uint32(nil), slotOffset[:]...), mobility: cfg.Mobility, pot: cfg.PotMobility}
	n := uint32(patterns.PackedSize)
	if cfg.Mobility {
		s.off = append(s.off, n, n+eval.MobilitySlots)
		n += 2 * eval.MobilitySlots
	}
	if cfg.PotMobility {
		s.off = append(s.off, n, n+eval.PotMobilitySlots)
		n += 2 * eval.PotMobilitySlots
	}
	if len(cfg.Extra) > 0 {
		s.extra = extraInstances(cfg.Extra)
		for range s.extra {
			s.off = append(s.off, n)
		}
	}
	s.k = len(s.off)
	return s
}

// Label returns the training label of the position b met in game g, in the side to move's
// view: its exact score when the solver relabelled it (ExactDepth); otherwise WTHOR's
// theoretical score while the game has at least TheoDepth empties; otherwise the game's
// result as perfect play from ExactDepth empties on would have ended it, or, without
// relabelling, black's final disc difference.
func Label(g *Game, b *board.Board) float32 {
	e := b.NumEmpties()
	var v int
	switch {
	case g.ExactDepth > 0 && e <= g.ExactDepth:
		v = int(g.Exact[e])
	case g.TheoDepth > 0 && e >= g.TheoDepth:
		v = g.Theoretical
	case g.ExactDepth > 0:
		v = int(g.Exact[g.ExactDepth])
	default:
		v = g.BlackDiff
	}
	if !b.BlackToMove {
		v = -v
	}
	return float32(v)
}

func (s *sampleSet) add(b *board.Board, y float32) {
	var idx [patterns.NumInstances]uint32
	patterns.Indices(b, &idx)
	for k, x := range idx {
		s.idx = append(s.idx, uint16(patterns.Packed(x)-slotOffset[k]))
	}
	if s.mobility {
		s.idx = append(s.idx, uint16(eval.MobilityIndex(board.Count(board.LegalMoves(b.P, b.O)))),
			uint16(eval.MobilityIndex(board.Count(board.LegalMoves(b.O, b.P)))))
	}
	if s.pot {
		pp, po := eval.PotMobility(b)
		s.idx = append(s.idx, uint16(pp), uint16(po))
	}
	for _, inst := range s.extra {
		x, pw := 0, 1
		for _, sq := range inst {
			switch {
			case b.P&sq.Bit() != 0:
				x += 2 * pw
			case b.O&sq.Bit() == 0:
				x += pw
			}
			pw *= 3
		}
		s.idx = append(s.idx, uint16(x))
	}
	s.y = append(s.y, y)
	s.empties = append(s.empties, uint8(b.NumEmpties()))
}

// collect gathers the positions of games whose number of moves played (60 - empties) lies in
// [lo, hi], split in parts for the workers.
func collect(games []Game, lo, hi, parts int, cfg Config) []sampleSet {
	out := make([]sampleSet, parts)
	for i := range out {
		out[i] = newSampleSet(cfg)
	}
	var wg sync.WaitGroup
	for p := 0; p < parts; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			s := &out[p]
			for i := p; i < len(games); i += parts {
				g := &games[i]
				Replay(g.Moves, func(b *board.Board) {
					if m := 60 - b.NumEmpties(); m >= lo && m <= hi {
						s.add(b, Label(g, b))
					}
				})
			}
			for i := p; i < len(cfg.Positions); i += parts {
				b := &cfg.Positions[i].Board
				if m := 60 - b.NumEmpties(); m >= lo && m <= hi {
					for k := max(cfg.PositionWeight, 1); k > 0; k-- {
						s.add(b, cfg.Positions[i].Score)
					}
				}
			}
		}(p)
	}
	wg.Wait()
	return out
}

// EpochStats is one line of the training log.
type EpochStats struct {
	Stage, Epoch        int     // Stage -1: all stages at once (a joint fit)
	TrainMAE, TrainRMSE float64 // over the stage's (smoothed) training positions
	ValMAE              float64 // over the stage's own validation positions (NaN without)
}

// Result is a trained model.
type Result struct {
	Weights [][]float32 // per stage, patterns.PackedSize weights in discs
	Seen    [][]uint32  // per stage, how many training positions showed each configuration
	// Log has an entry per stage and epoch, stage after stage; after a joint fit
	// (Interpolated) one per epoch, over all stages, with Stage -1.
	Log []EpochStats
	// Interpolated: the weights were fitted for the interpolated evaluation
	// (Config.Interpolate); their file needs eval.InterpSection.
	Interpolated bool
	// Positions per stage in training (smoothed window; after a joint fit each position once,
	// in its own stage) and validation (own window).
	TrainPositions, ValPositions [eval.NumStages]int
}

// Progress is told after every epoch of every stage.
type Progress func(EpochStats)

// Fit trains all stages on the training games and reports validation error on the
// validation games (which may be empty). Stages are trained one after the other; the
// positions of one stage are spread over cfg.Workers goroutines.
func Fit(trainGames, valGames []Game, cfg Config, progress Progress) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	if cfg.Workers < 1 {
		cfg.Workers = 1
	}
	games := append([]Game(nil), trainGames...)
	r := rand.New(rand.NewPCG(cfg.Seed, 0x5eed))
	r.Shuffle(len(games), func(i, j int) { games[i], games[j] = games[j], games[i] })

	if cfg.Interpolate {
		return fitJoint(games, valGames, cfg, progress), nil
	}
	res := &Result{}
	for s := 0; s < eval.NumStages; s++ {
		lo, hi := 4*s, 4*s+3
		if s == eval.NumStages-1 {
			hi = 60
		}
		train := collect(games, lo-cfg.Smooth, hi+cfg.Smooth, cfg.Workers, cfg)
		vcfg := cfg
		vcfg.Positions = nil
		val := collect(valGames, lo, hi, 1, vcfg)[0]
		for _, t := range train {
			res.TrainPositions[s] += t.len()
		}
		res.ValPositions[s] = val.len()
		w, seen := fitStage(s, train, &val, cfg, func(st EpochStats) {
			res.Log = append(res.Log, st)
			if progress != nil {
				progress(st)
			}
		})
		res.Weights = append(res.Weights, w)
		res.Seen = append(res.Seen, seen)
	}
	if cfg.Backoff {
		backoff(res.Weights, res.Seen)
	}
	return res, nil
}

// fitStage runs gradient descent on one stage. The step of each weight is the diagonal
// Newton step of the penalised squared error, (sum of residuals - Ridge*w)/(count + Ridge),
// times Rate, with heavy-ball momentum: the weights of common and rare configurations
// converge at the same pace.
func fitStage(stage int, parts []sampleSet, val *sampleSet, cfg Config, log func(EpochStats)) ([]float32, []uint32) {
	n := numWeights(cfg)
	w := make([]float32, n)
	seen := make([]uint32, n)
	total := 0
	for _, p := range parts {
		total += p.len()
		for j := 0; j < p.len(); j++ {
			row := p.idx[j*p.k : (j+1)*p.k]
			for k, x := range row {
				seen[p.off[k]+uint32(x)]++
			}
		}
	}
	count := make([]float32, n)
	for x, c := range seen {
		count[x] = float32(c)
	}
	descend(cfg, w, seen, count, len(parts), func(i int, g []float32) [2]float64 {
		return gradient(&parts[i], w, g)
	}, func(epoch int, abs, sq float64) {
		st := EpochStats{Stage: stage, Epoch: epoch, ValMAE: math.NaN()}
		if total > 0 {
			// The errors are those of the weights before this epoch's step.
			st.TrainMAE, st.TrainRMSE = abs/float64(total), math.Sqrt(sq/float64(total))
		}
		if val.len() > 0 {
			st.ValMAE = mae(val, w)
		}
		log(st)
	})
	return w, seen
}

// descend runs the epochs of gradient descent shared by the stage fit and the joint fit. An
// epoch has grad(i, g) set g to part i's summed residuals per weight (in parallel, one
// goroutine a part) and return its sums of absolute and squared residuals; then each weight
// seen in training takes the diagonal-Newton step of the penalised squared error, (summed
// residuals - Ridge*w)/(count + Ridge), times Rate, with heavy-ball momentum; then report
// gets the epoch's error sums (those of the weights before the step).
func descend(cfg Config, w []float32, seen []uint32, count []float32, parts int, grad func(i int, g []float32) [2]float64, report func(epoch int, abs, sq float64)) {
	n := len(w)
	v := make([]float32, n)
	grads := make([][]float32, parts)
	for i := range grads {
		grads[i] = make([]float32, n)
	}
	errs := make([][2]float64, parts)
	rate, ridge, mom := float32(cfg.Rate), float32(cfg.Ridge), float32(cfg.Momentum)
	for epoch := 1; epoch <= cfg.Epochs; epoch++ {
		var wg sync.WaitGroup
		for i := range parts {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				errs[i] = grad(i, grads[i])
			}(i)
		}
		wg.Wait()
		var abs, sq float64
		for i := range parts {
			abs += errs[i][0]
			sq += errs[i][1]
		}
		for x := 0; x < n; x++ {
			if seen[x] == 0 {
				continue
			}
			var g float32
			for i := range grads {
				g += grads[i][x]
			}
			step := (g - ridge*w[x]) / (count[x] + ridge)
			v[x] = mom*v[x] + rate*step
			w[x] += v[x]
		}
		report(epoch, abs, sq)
	}
}

// gradient sets g to the sum of residuals (label - prediction) of the positions showing each
// weight, and returns the sums of absolute and squared residuals.
func gradient(s *sampleSet, w, g []float32) [2]float64 {
	clear(g)
	var abs, sq float64
	k, off := s.k, s.off
	for j := 0; j < s.len(); j++ {
		row := s.idx[j*k : (j+1)*k]
		var p float32
		for i, x := range row {
			p += w[off[i]+uint32(x)]
		}
		r := s.y[j] - p
		for i, x := range row {
			g[off[i]+uint32(x)] += r
		}
		abs += math.Abs(float64(r))
		sq += float64(r) * float64(r)
	}
	return [2]float64{abs, sq}
}

// mae is the mean absolute error of weights w on s.
func mae(s *sampleSet, w []float32) float64 {
	k, off := s.k, s.off
	var abs float64
	for j := 0; j < s.len(); j++ {
		row := s.idx[j*k : (j+1)*k]
		var p float32
		for i, x := range row {
			p += w[off[i]+uint32(x)]
		}
		abs += math.Abs(float64(s.y[j] - p))
	}
	return abs / float64(s.len())
}

// backoff gives each configuration never seen in a stage the weight it has in the nearest
// stage that saw it (the mean of both when two are equally near).
func backoff(w [][]float32, seen [][]uint32) {
	orig := make([][]float32, len(w))
	for s := range w {
		orig[s] = append([]float32(nil), w[s]...)
	}
	for s := range w {
		for x := range w[s] {
			if seen[s][x] != 0 {
				continue
			}
			for d := 1; d < len(w); d++ {
				var sum float32
				n := 0
				for _, t := range [2]int{s - d, s + d} {
					if t >= 0 && t < len(w) && seen[t][x] != 0 {
						sum += orig[t][x]
						n++
					}
				}
				if n > 0 {
					w[s][x] = sum / float32(n)
					break
				}
			}
		}
	}
}

// Quantize converts weights in discs to the fixed-point int16 of a weight file, saturating.
func Quantize(w [][]float32) [][]int16 {
	out := make([][]int16, len(w))
	for s := range w {
		out[s] = make([]int16, len(w[s]))
		for i, x := range w[s] {
			q := math.Round(float64(x) * eval.Scale)
			out[s][i] = int16(max(-32768, min(32767, q)))
		}
	}
	return out
}
