package search

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
)

// Multi-ProbCut (Buro, "Experiments with Multi-ProbCut and a new high-quality evaluation
// function for Othello", 1997). A search to height h is predicted by a shallow search to
// height s: v_h ~ a*v_s + b with residual deviation sigma, one regression per game stage and
// height. Before searching a node to height h, the engine checks with null windows whether the
// shallow value makes v_h >= beta (or <= alpha) likely beyond t standard deviations; if so it
// cuts. The selectivity level picks t. The regressions are fitted by FitMPC (`othello mpcfit`)
// for one evaluation and stored as text next to this file, one file per evaluation.

const (
	mpcMinHeight = 3
	// staticCutMin is the lowest height with a test: heights staticCutMin to mpcMinHeight-1
	// are tested against the static evaluation alone (probCut), where any shallow search
	// would cost nearly what it could save.
	staticCutMin = 1
	mpcMaxHeight = 30
	mpcStages    = 6 // by empties: 0-9, 10-19, ..., 50-60
)

// MaxSelectivity is the most selective Multi-ProbCut level (Limits.Selectivity); the levels
// are the solver's, shared by both searches.
const MaxSelectivity = endgame.MaxSelectivity

// SelectivityPercent is the confidence of a selectivity level, 100 for level 0.
func SelectivityPercent(level int) int { return endgame.SelectivityPercent(level) }

func mpcStageOf(empties int) int { return min(empties/10, mpcStages-1) }

// mpcShallow is the height of the shallow search that predicts height h: about 40% of it,
// with the same parity (Othello values swing with the side that moved last).
func mpcShallow(h int) int {
	s := h * 2 / 5
	if (h-s)&1 != 0 {
		s++
	}
	if s >= h {
		s = h - 2
	}
	return max(s, 1)
}

// mpcPair is one regression, in discs as stored and in eval units once scaled.
type mpcPair struct {
	ok       bool
	derived  bool // not fitted: carried up from a lower height (withDeepHeights); never written
	shallow  int
	a, b     float64
	sigma    float64
	nSamples int
}

// MPCParams is a full set of regressions for one evaluation.
type MPCParams struct {
	Eval  string
	pairs [mpcStages][mpcMaxHeight + 1]mpcPair
	// pre predicts the same heights from the static evaluation (shallow height 0); the
	// probCut screen uses it to skip the shallow search of a test that is unlikely to cut,
	// and at the heights below mpcMinHeight it is the test.
	pre [mpcStages][mpcMaxHeight + 1]mpcPair
}

// defaultMPCScreen is the width of the probCut screen, in deviations of the static
// evaluation's prediction of the deep value (MPCParams.pre). A test runs its shallow search only
// when that prediction comes within the width of the value the test needs; with regressions
// without those predictions (fits older than the screen) every test runs. Measured on 300
// real-game positions at 28-44 empties, depth 10, level 5, against every move valued at full
// width: without the screen 16.5 M nodes and a mean loss of 0.152 discs a move (39 moves
// worse than the best); widths 1.5, 1, 0.5, 0.25 and 0.01: 15.9, 15.2, 15.4, 16.0 and 17.3 M
// nodes, 0.125, 0.110, 0.085, 0.079 and 0.084 discs (35, 31, 26, 23, 22 worse). In games at
// level 12 against NTest depth 12 (800 games on each of two opening sets) widths 1 and 0.5
// scored the same (50.9% and 51.2%, 50.1% and 50.0%), width 1 in 4-5% less time.
const defaultMPCScreen = 1.0

// probCut tries the Multi-ProbCut test at the current node; it reports a cut and the bound to
// return. The screen (mpcScreen) first predicts the deep value from the static evaluation
// (Edax screens its tests the same way, with a wider, fixed margin): the shallow search of a
// test whose needed value lies more than the screen's width beyond that prediction is skipped,
// since it would rarely cut. A screened test either runs as it would without the screen or
// not at all, so the screen removes cuts (the search is a little more exact) and saves the
// shallow searches that would have failed.
func (e *Engine) probCut(alpha, beta, height int) (int, bool) {
	if height > mpcMaxHeight {
		return 0, false
	}
	if height < mpcMinHeight {
		return e.staticCut(alpha, beta, height)
	}
	pr := &e.mpc.pairs[mpcStageOf(e.b.NumEmpties())][height]
	if !pr.ok {
		return 0, false
	}
	sc := float64(e.scale)
	margin := e.mpcT * pr.sigma * sc
	limit := 64 * e.scale
	tryUp, tryDown := true, true
	if pre := &e.mpc.pre[mpcStageOf(e.b.NumEmpties())][height]; pre.ok && e.mpcScreen > 0 {
		pred := pre.a*float64(e.evaluate()) + pre.b*sc
		slack := e.mpcScreen * pre.sigma * sc
		tryUp = pred >= float64(beta)+margin-slack
		tryDown = pred <= float64(alpha)-margin+slack
	}
	if beta < limit && tryUp {
		bound := int(math.Ceil((float64(beta) + margin - pr.b*sc) / pr.a))
		if bound < limit {
			v := e.alphaBeta(bound-1, bound, pr.shallow)
			if e.stopped {
				return 0, false
			}
			if v >= bound {
				return beta, true
			}
		}
	}
	if alpha > -limit && tryDown {
		bound := int(math.Floor((float64(alpha) - margin - pr.b*sc) / pr.a))
		if bound > -limit {
			v := e.alphaBeta(bound, bound+1, pr.shallow)
			if e.stopped {
				return 0, false
			}
			if v <= bound {
				return alpha, true
			}
		}
	}
	return 0, false
}

// staticCut is the test of the heights below mpcMinHeight: the static evaluation's
// prediction of the node's value at this height (MPCParams.pre) against the window, with the
// margin of the selectivity level. No search: the test costs one evaluation, where the
// node's own search costs one per child at height 1 and some per grandchild at height 2.
//
// Bench depth 16 level 5 (12 positions): 11,737,230 nodes -> 5,494,957 and 1.03 -> 0.61 s
// with both heights (height 2 alone: 7,701,585, 0.72 s); depth 15 with the cuts costs what
// depth 14 cost without them. In games against NTest depth 12 they trade points for time at
// a given depth (depth 12: 45.8% at 0.82 times NTest's time against 49.8% at 0.97 without)
// and buy a ply: depth 13 with them 52.8% at 0.95 times over 5,600 games (docs/midgame.md,
// commit 3e10a05).
func (e *Engine) staticCut(alpha, beta, height int) (int, bool) {
	if e.cfg.NoStaticCut {
		return 0, false
	}
	pr := &e.mpc.pre[mpcStageOf(e.b.NumEmpties())][height]
	if !pr.ok {
		return 0, false
	}
	sc := float64(e.scale)
	margin := e.mpcT * pr.sigma * sc
	pred := pr.a*float64(e.evaluate()) + pr.b*sc
	if pred >= float64(beta)+margin {
		return beta, true
	}
	if pred <= float64(alpha)-margin {
		return alpha, true
	}
	return 0, false
}

// DefaultMPCTop is the highest height with Multi-ProbCut tests. The shipped regressions are
// fitted up to height 12 (mpcfit -depth 12: full-width samples, each two plies deeper several
// times dearer), and a search of depth 18-20, what a game clock of a few seconds reaches in
// the midgame, has heights above that in its top plies, which without tests are searched at
// full width. Heights above the fitted ones carry the regression of the highest fitted height
// of the same parity up, the check search at the usual 40% of the height, the deviation grown
// by the square root of the ratio of the gaps between check search and height. That is
// conservative: a full-width fit to height 14 on 200 positions (mpcfit -depth 14, 11 minutes)
// gave deviations at heights 13-14 no larger than at 11-12. Bench level 5: depth 16 5,494,955
// -> 4,685,151 nodes, depth 18 18,821,266 -> 15,233,239, depth 20 59,920,350 -> 36,279,496.
// Against NTest depth 18 on an 8.2 s clock (200 games each, openings 141-240 of xot-large,
// the same run): 47.8% against 47.5% with tests up to height 12 (paired +0.2, SE 3.5), in
// 6.55 s a game against 6.75 s (docs/matches.md).
const DefaultMPCTop = 24

// withDeepHeights returns a copy of p whose heights above the fitted ones, up to top, carry
// derived regressions (see DefaultMPCTop), and with no tests above top.
func (p *MPCParams) withDeepHeights(top int) *MPCParams {
	q := *p
	top = min(top, mpcMaxHeight)
	for st := 0; st < mpcStages; st++ {
		for h := staticCutMin; h <= mpcMaxHeight; h++ {
			if h > top {
				q.pairs[st][h], q.pre[st][h] = mpcPair{}, mpcPair{}
				continue
			}
			if h < mpcMinHeight || q.pairs[st][h].ok {
				continue
			}
			ref := 0
			for r := h - 2; r >= mpcMinHeight; r -= 2 {
				if p.pairs[st][r].ok {
					ref = r
					break
				}
			}
			if ref == 0 {
				continue
			}
			rp := p.pairs[st][ref]
			s := mpcShallow(h)
			grow := math.Sqrt(float64(h-s) / float64(ref-rp.shallow))
			q.pairs[st][h] = mpcPair{ok: true, derived: true, shallow: s, a: rp.a, b: rp.b, sigma: rp.sigma * max(grow, 1)}
			if pre := p.pre[st][ref]; pre.ok && !q.pre[st][h].ok {
				pre.derived = true
				pre.sigma *= math.Sqrt(float64(h) / float64(ref))
				q.pre[st][h] = pre
			}
		}
	}
	return &q
}

//go:embed mpc_mobility.txt
var mpcMobilityText string

// MPCSection is the tag of the weight-file section that holds the Multi-ProbCut regressions
// fitted for those weights (the text WriteMPC writes), so they travel with the weights.
const MPCSection = "MPC1"

var (
	mpcMobilityOnce sync.Once
	mpcMobility     *MPCParams
)

// MPCFor returns the Multi-ProbCut regressions for an evaluation: those stored in its weight
// file, or, for a weight file without them, those of the embedded default weights (a pattern
// evaluation trained on other data behaves alike closely enough for the cut thresholds); for
// the mobility evaluation (nil) the embedded mobility fit. Nil when none can be had.
func MPCFor(ev *eval.Evaluator) *MPCParams {
	if ev == nil {
		mpcMobilityOnce.Do(func() {
			if p, err := ParseMPC(strings.NewReader(mpcMobilityText)); err == nil {
				mpcMobility = p
			}
		})
		return mpcMobility
	}
	if data, ok := ev.Section(MPCSection); ok {
		if p, err := ParseMPC(bytes.NewReader(data)); err == nil {
			return p
		}
	}
	if def, err := eval.Default(); err == nil && def != ev {
		if data, ok := def.Section(MPCSection); ok {
			if p, err := ParseMPC(bytes.NewReader(data)); err == nil {
				return p
			}
		}
	}
	return nil
}

// ParseMPC reads regressions written by WriteMPC.
func ParseMPC(r io.Reader) (*MPCParams, error) {
	p := &MPCParams{}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if f[0] == "eval" {
			if len(f) != 2 {
				return nil, fmt.Errorf("mpc line %d: want \"eval NAME\"", line)
			}
			p.Eval = f[1]
			continue
		}
		if len(f) != 7 {
			return nil, fmt.Errorf("mpc line %d: want 7 fields (stage height shallow a b sigma n), got %d", line, len(f))
		}
		var iv [3]int
		for k := 0; k < 3; k++ {
			v, err := strconv.Atoi(f[k])
			if err != nil {
				return nil, fmt.Errorf("mpc line %d: %v", line, err)
			}
			iv[k] = v
		}
		var fv [3]float64
		for k := 0; k < 3; k++ {
			v, err := strconv.ParseFloat(f[3+k], 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("mpc line %d: bad number %q", line, f[3+k])
			}
			fv[k] = v
		}
		n, err := strconv.Atoi(f[6])
		if err != nil {
			return nil, fmt.Errorf("mpc line %d: %v", line, err)
		}
		st, h, s := iv[0], iv[1], iv[2]
		minH := mpcMinHeight
		if s == 0 {
			minH = staticCutMin // a static prediction, the test itself below mpcMinHeight
		}
		if st < 0 || st >= mpcStages || h < minH || h > mpcMaxHeight || s < 0 || s >= h {
			return nil, fmt.Errorf("mpc line %d: stage %d height %d shallow %d out of range", line, st, h, s)
		}
		if fv[0] <= 0.1 || fv[2] <= 0 {
			return nil, fmt.Errorf("mpc line %d: slope %v and sigma %v must be positive", line, fv[0], fv[2])
		}
		pr := mpcPair{ok: true, shallow: s, a: fv[0], b: fv[1], sigma: fv[2], nSamples: n}
		if s == 0 {
			p.pre[st][h] = pr
		} else {
			p.pairs[st][h] = pr
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if p.Eval == "" {
		return nil, fmt.Errorf("mpc: no \"eval NAME\" line")
	}
	return p, nil
}

// WriteMPC writes the regressions as text.
func WriteMPC(w io.Writer, p *MPCParams) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# Multi-ProbCut regressions, fitted by othello mpcfit: value(height) ~ a*value(shallow) + b,\n")
	fmt.Fprintf(bw, "# residual deviation sigma; values in discs, stage = empties/10.\n")
	fmt.Fprintf(bw, "eval %s\n# stage height shallow a b sigma samples\n", p.Eval)
	for st := 0; st < mpcStages; st++ {
		for h := staticCutMin; h <= mpcMaxHeight; h++ {
			for _, pr := range [2]mpcPair{p.pairs[st][h], p.pre[st][h]} {
				if pr.ok && !pr.derived {
					fmt.Fprintf(bw, "%d %d %d %.4f %.4f %.4f %d\n", st, h, pr.shallow, pr.a, pr.b, pr.sigma, pr.nSamples)
				}
			}
		}
	}
	return bw.Flush()
}

// MPCSample is the engine's root values of one position at heights 0..len-1, in discs.
type MPCSample struct {
	Empties int
	Values  []float64
}

// SampleMPC searches b by iterative deepening without selectivity up to maxHeight and returns
// the root value at each height (Values[0] is the static evaluation).
func (e *Engine) SampleMPC(ctx context.Context, b board.Board, maxHeight int) (MPCSample, bool) {
	s := MPCSample{Empties: b.NumEmpties()}
	e.begin(ctx, b, Limits{}, timePlan{})
	moves := b.LegalMoves()
	if moves == 0 || maxHeight >= s.Empties {
		return s, false
	}
	s.Values = append(s.Values, float64(e.evaluate())/float64(e.scale))
	rm := e.rootMoves(moves)
	for d := 1; d <= maxHeight; d++ {
		e.nextGeneration()
		if !e.searchRoot(rm, d, 1) || e.stopped {
			return s, false
		}
		s.Values = append(s.Values, float64(rm[0].score)/float64(e.scale))
	}
	return s, true
}

// FitMPC fits the regressions from samples; a (stage, height) pair needs minSamples samples.
// Below mpcMinHeight only the static predictions are fitted (they are the tests there).
func FitMPC(evalName string, samples []MPCSample, minSamples int) *MPCParams {
	p := &MPCParams{Eval: evalName}
	for st := 0; st < mpcStages; st++ {
		for h := staticCutMin; h <= mpcMaxHeight; h++ {
			s := 0
			if h >= mpcMinHeight {
				s = mpcShallow(h)
			}
			var xs, x0s, ys []float64
			for _, smp := range samples {
				if mpcStageOf(smp.Empties) != st || len(smp.Values) <= h {
					continue
				}
				xs = append(xs, smp.Values[s])
				x0s = append(x0s, smp.Values[0])
				ys = append(ys, smp.Values[h])
			}
			if len(xs) < minSamples {
				continue
			}
			if h >= mpcMinHeight {
				a, b, sigma := linearFit(xs, ys)
				if a <= 0.1 || sigma <= 0 {
					continue
				}
				p.pairs[st][h] = mpcPair{ok: true, shallow: s, a: a, b: b, sigma: sigma, nSamples: len(xs)}
			}
			if a, b, sigma := linearFit(x0s, ys); a > 0.1 && sigma > 0 {
				p.pre[st][h] = mpcPair{ok: true, shallow: 0, a: a, b: b, sigma: sigma, nSamples: len(xs)}
			}
		}
	}
	return p
}

// linearFit is least squares y ~ a*x + b with the residual standard deviation.
func linearFit(xs, ys []float64) (a, b, sigma float64) {
	n := float64(len(xs))
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx /= n
	my /= n
	var sxx, sxy float64
	for i := range xs {
		sxx += (xs[i] - mx) * (xs[i] - mx)
		sxy += (xs[i] - mx) * (ys[i] - my)
	}
	if sxx == 0 {
		return 0, 0, 0
	}
	a = sxy / sxx
	b = my - a*mx
	var ss float64
	for i := range xs {
		r := ys[i] - a*xs[i] - b
		ss += r * r
	}
	return a, b, math.Sqrt(ss / math.Max(n-2, 1))
}
