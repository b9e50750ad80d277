package train

import (
	"math"

	"github.com/othellogo/othello/eval"
)

// The joint fit (Config.Interpolate): the evaluation with eval.InterpSection values a
// position at n empties with the blend (1-t)*stage s0 + t*stage s0+1 of eval.StageBlend(n),
// so the stages are fitted together, each position's residual shared by its two stages in
// that proportion.

// jointBlend is where a number of empties reads its two stages in the joint weight vector
// (all stages one after the other) and with what weights.
type jointBlend struct {
	b0, b1 uint32  // offsets of the two stages' weights
	c0, c1 float32 // their weights in the prediction, c0 + c1 = 1 (c1 = 0: one stage)
}

func jointBlends(nw int) (bl [61]jointBlend) {
	for n := range bl {
		s0, t := eval.StageBlend(n)
		s1 := min(s0+1, eval.NumStages-1)
		bl[n] = jointBlend{b0: uint32(s0 * nw), b1: uint32(s1 * nw), c0: float32(1 - t), c1: float32(t)}
	}
	return bl
}

// fitJoint is Fit for Config.Interpolate: gradient descent (descend) on all stages at once,
// each weight's count its summed share of the positions (a position counted by its blend
// weight) and its gradient its share of their residuals. The log has one entry per epoch,
// over all stages.
func fitJoint(games, valGames []Game, cfg Config, progress Progress) *Result {
	parts := collect(games, 0, 60, cfg.Workers, cfg)
	vcfg := cfg
	vcfg.Positions = nil
	val := collect(valGames, 0, 60, 1, vcfg)[0]
	nw := numWeights(cfg)
	n := eval.NumStages * nw
	blends := jointBlends(nw)

	res := &Result{Interpolated: true}
	w := make([]float32, n)
	share := make([]float64, n) // summed blend weights of the positions showing each weight
	seen := make([]uint32, n)   // positions showing each weight with a blend weight above 0
	total := 0
	for _, p := range parts {
		total += p.len()
		for j := 0; j < p.len(); j++ {
			e := p.empties[j]
			res.TrainPositions[eval.Stage(int(e))]++
			bl := blends[e]
			for k, x := range p.idx[j*p.k : (j+1)*p.k] {
				i := p.off[k] + uint32(x)
				share[bl.b0+i] += float64(bl.c0)
				seen[bl.b0+i]++
				if bl.c1 > 0 {
					share[bl.b1+i] += float64(bl.c1)
					seen[bl.b1+i]++
				}
			}
		}
	}
	for _, e := range val.empties {
		res.ValPositions[eval.Stage(int(e))]++
	}

	count := make([]float32, n)
	for x, c := range share {
		count[x] = float32(c)
	}
	descend(cfg, w, seen, count, len(parts), func(i int, g []float32) [2]float64 {
		return jointGradient(&parts[i], w, g, &blends)
	}, func(epoch int, abs, sq float64) {
		st := EpochStats{Stage: -1, Epoch: epoch, ValMAE: math.NaN()}
		if total > 0 {
			// The errors are those of the weights before this epoch's step.
			st.TrainMAE, st.TrainRMSE = abs/float64(total), math.Sqrt(sq/float64(total))
		}
		if val.len() > 0 {
			var a float64
			for j := 0; j < val.len(); j++ {
				a += math.Abs(float64(val.y[j] - jointPredict(&val, j, w, &blends)))
			}
			st.ValMAE = a / float64(val.len())
		}
		res.Log = append(res.Log, st)
		if progress != nil {
			progress(st)
		}
	})
	for s := range eval.NumStages {
		res.Weights = append(res.Weights, w[s*nw:(s+1)*nw:(s+1)*nw])
		res.Seen = append(res.Seen, seen[s*nw:(s+1)*nw:(s+1)*nw])
	}
	if cfg.Backoff {
		backoff(res.Weights, res.Seen)
	}
	return res
}

// jointPredict is the blended prediction of position j of s.
func jointPredict(s *sampleSet, j int, w []float32, blends *[61]jointBlend) float32 {
	bl := &blends[s.empties[j]]
	w0, w1 := w[bl.b0:], w[bl.b1:]
	var p0, p1 float32
	for i, x := range s.idx[j*s.k : (j+1)*s.k] {
		o := s.off[i] + uint32(x)
		p0 += w0[o]
		p1 += w1[o]
	}
	return bl.c0*p0 + bl.c1*p1
}

// jointGradient sets g to each weight's summed share of the residuals (label - blended
// prediction) and returns the sums of absolute and squared residuals.
func jointGradient(s *sampleSet, w, g []float32, blends *[61]jointBlend) [2]float64 {
	clear(g)
	var abs, sq float64
	for j := 0; j < s.len(); j++ {
		r := s.y[j] - jointPredict(s, j, w, blends)
		bl := &blends[s.empties[j]]
		g0, g1 := g[bl.b0:], g[bl.b1:]
		r0, r1 := bl.c0*r, bl.c1*r
		for i, x := range s.idx[j*s.k : (j+1)*s.k] {
			o := s.off[i] + uint32(x)
			g0[o] += r0
			g1[o] += r1
		}
		abs += math.Abs(float64(r))
		sq += float64(r) * float64(r)
	}
	return [2]float64{abs, sq}
}
