package search

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
)

func TestMPCRoundTrip(t *testing.T) {
	var samples []MPCSample
	// Synthetic samples: value(h) = 1.1*value(shallow) + 0.5 +- 1, in stage 3; below
	// mpcMinHeight value(h) = 0.9*static - 0.3 +- 0.1 (set after the deeper heights, which
	// are built on the static value there).
	for i := 0; i < 40; i++ {
		v := make([]float64, 9)
		for h := range v {
			v[h] = float64(i%13 - 6)
		}
		for h := mpcMinHeight; h < len(v); h++ {
			noise := float64(i%2*2 - 1)
			v[h] = 1.1*v[mpcShallow(h)] + 0.5 + noise
		}
		for h := staticCutMin; h < mpcMinHeight; h++ {
			v[h] = 0.9*v[0] - 0.3 + 0.1*float64(i/2%2*2-1)
		}
		samples = append(samples, MPCSample{Empties: 35, Values: v})
	}
	p := FitMPC("test", samples, 30)
	pr := p.pairs[3][8]
	if !pr.ok || absf(pr.a-1.1) > 0.05 || absf(pr.b-0.5) > 0.1 || absf(pr.sigma-1) > 0.1 {
		t.Fatalf("fit %+v, want a 1.1 b 0.5 sigma about 1", pr)
	}
	if p.pairs[2][8].ok {
		t.Fatal("a stage without samples got a regression")
	}
	for h := staticCutMin; h < mpcMinHeight; h++ {
		if pr := p.pre[3][h]; !pr.ok || pr.shallow != 0 || absf(pr.a-0.9) > 0.05 || absf(pr.b+0.3) > 0.1 || absf(pr.sigma-0.1) > 0.01 || p.pairs[3][h].ok {
			t.Fatalf("height %d: static fit %+v (pair %v), want a 0.9 b -0.3 sigma about 0.1 and no pair", h, pr, p.pairs[3][h].ok)
		}
	}
	var buf bytes.Buffer
	if err := WriteMPC(&buf, p); err != nil {
		t.Fatal(err)
	}
	q, err := ParseMPC(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if q.Eval != "test" || absf(q.pairs[3][8].a-pr.a) > 1e-3 || q.pairs[3][8].shallow != pr.shallow {
		t.Fatalf("round trip: %+v vs %+v", q.pairs[3][8], pr)
	}
	if !q.pre[3][staticCutMin].ok || absf(q.pre[3][staticCutMin].sigma-p.pre[3][staticCutMin].sigma) > 1e-3 {
		t.Fatalf("round trip of the static fit: %+v vs %+v", q.pre[3][staticCutMin], p.pre[3][staticCutMin])
	}
}

func absf(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestParseMPCErrors(t *testing.T) {
	for _, text := range []string{
		"",                            // no eval line
		"eval x\n1 2 3\n",             // short line
		"eval x\n9 5 3 1 0 1 10\n",    // stage out of range
		"eval x\n1 5 7 1 0 1 10\n",    // shallow >= height
		"eval x\n1 2 1 1 0 1 10\n",    // a shallow search below mpcMinHeight
		"eval x\n1 0 0 1 0 1 10\n",    // height 0
		"eval x\n1 5 3 -1 0 1 10\n",   // negative slope
		"eval x\n1 5 3 1 0 NaN 10\n",  // NaN
		"eval x\n1 5 3 1 zero 1 10\n", // not a number
		"eval x y\n",                  // bad eval line
	} {
		if _, err := ParseMPC(strings.NewReader(text)); err == nil {
			t.Errorf("ParseMPC(%q) accepted", text)
		}
	}
}

func FuzzParseMPC(f *testing.F) {
	f.Add(mpcMobilityText)
	f.Add("eval x\n1 5 3 1 0 1 10\n")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParseMPC(strings.NewReader(text))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteMPC(&buf, p); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseMPC(&buf); err != nil && !strings.ContainsAny(p.Eval, "#") {
			t.Fatalf("written params do not parse again: %v", err)
		}
	})
}

// TestSelectiveSearch checks that a selective search runs, reports its confidence and plays a
// legal move, and that it does not search more nodes than the exact one.
func TestSelectiveSearch(t *testing.T) {
	e := NewEngine(Config{TTMiB: 1})
	if e.mpc == nil {
		t.Skip("no embedded MPC regressions for the mobility evaluation")
	}
	var exactNodes, selNodes uint64
	for _, b := range randomPositions(13, 4, 36) {
		r0 := e.Search(context.Background(), b, Limits{Depth: 8}, nil)
		r := e.Search(context.Background(), b, Limits{Depth: 8, Selectivity: 3}, nil)
		if !b.IsLegal(r.Move) || r.Selectivity != SelectivityPercent(3) || r0.Selectivity != 100 {
			t.Fatalf("selective search: move %s selectivity %d (exact %d)", r.Move, r.Selectivity, r0.Selectivity)
		}
		exactNodes += r0.Nodes
		selNodes += r.Nodes
	}
	if selNodes > exactNodes {
		t.Errorf("MPC searched more nodes (%d) than the exact search (%d)", selNodes, exactNodes)
	}
	if NewEngine(Config{TTMiB: 1, NoMPC: true}).Search(context.Background(), randomPositions(13, 1, 36)[0], Limits{Depth: 4, Selectivity: 3}, nil).Selectivity != 100 {
		t.Error("NoMPC engine reports a selective search")
	}
}

// The shipped weight file carries its Multi-ProbCut regressions, and an engine on those weights
// uses them; a weight file without them falls back to the shipped ones.
func TestMPCStoredWithWeights(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	data, ok := ev.Section(MPCSection)
	if !ok {
		t.Fatalf("the embedded weights have no %s section", MPCSection)
	}
	p, err := ParseMPC(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("embedded %s section: %v", MPCSection, err)
	}
	if got := MPCFor(ev); got == nil || got.pairs != p.pairs {
		t.Fatalf("MPCFor(default) does not return the stored regressions")
	}
	if e := NewEngine(Config{Eval: ev}); e.mpc == nil {
		t.Errorf("engine on the default weights has no MPC regressions")
	}
	if MPCFor(nil) == nil {
		t.Errorf("no regressions for the mobility evaluation")
	}
}

// TestMPCScreen checks the probCut screen on the shipped weights, whose regressions carry the
// static evaluation's predictions: a screened test either runs exactly as the unscreened one
// (same nodes, same result) or is skipped (no nodes, no cut); a very wide screen changes
// nothing; and the fit and the text form keep the predictions (shallow height 0) apart from
// the pairs.
func TestMPCScreen(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	p := MPCFor(ev)
	if p == nil || !p.pre[3][8].ok || p.pre[3][8].shallow != 0 || p.pairs[3][8].shallow == 0 {
		t.Fatalf("the shipped regressions lack the static predictions: %+v", p.pre[3][8])
	}
	var buf bytes.Buffer
	if err := WriteMPC(&buf, p); err != nil {
		t.Fatal(err)
	}
	if q, err := ParseMPC(&buf); err != nil || q.pre != p.pre || q.pairs != p.pairs {
		t.Fatalf("round trip of the static predictions: %v", err)
	}
	probe := func(b board.Board, screen float64, alpha, beta, height int) (int, bool, uint64) {
		e := NewEngine(Config{TTMiB: 1, SolverMiB: 1, Eval: ev, MPCScreen: screen})
		e.begin(context.Background(), b, Limits{Selectivity: 5}, timePlan{})
		e.nextGeneration()
		v, cut := e.probCut(alpha, beta, height)
		return v, cut, e.nodes
	}
	cuts, screenedCuts, skipped, lostCuts, tests := 0, 0, 0, 0, 0
	for i, b := range randomPositions(21, 40, 34) {
		if b.LegalMoves() == 0 {
			continue
		}
		// Heights whose shallow search is too shallow for tests of its own (mpcShallow 1-2),
		// so that the screen acts at this node only.
		height := [...]int{3, 4, 6}[i%3]
		if mpcShallow(height) >= mpcMinHeight {
			t.Fatalf("height %d: shallow %d", height, mpcShallow(height))
		}
		static := NewEngine(Config{TTMiB: 1, Eval: ev})
		static.b = b
		limit := 64 * static.scale
		for _, d := range []int{-8, -3, 0, 3, 8} {
			bound := static.evaluate() + d*static.scale
			// One test at a time (the other side's bound at the score limit): the tables a
			// test's shallow search fills may change the other test's result.
			for _, w := range [][2]int{{-limit, bound}, {bound, limit}} {
				alpha, beta := w[0], w[1]
				v0, cut0, n0 := probe(b, -1, alpha, beta, height)
				tests++
				v1, cut1, n1 := probe(b, 0.5, alpha, beta, height)
				vw, cutw, nw := probe(b, 100, alpha, beta, height)
				if cut1 && (!cut0 || v1 != v0) {
					t.Fatalf("%s [%d,%d] h%d: the screened test cut (%d) where the full one gave %v %d", b.OBF(), alpha, beta, height, v1, cut0, v0)
				}
				if n1 > n0 || n1 != 0 && n1 != n0 {
					t.Fatalf("%s [%d,%d] h%d: screened %d nodes, unscreened %d", b.OBF(), alpha, beta, height, n1, n0)
				}
				if vw != v0 || cutw != cut0 || nw != n0 {
					t.Fatalf("%s [%d,%d] h%d: a wide screen gave %d %v %d nodes, none %d %v %d", b.OBF(), alpha, beta, height, vw, cutw, nw, v0, cut0, n0)
				}
				if cut0 {
					cuts++
				}
				if cut1 {
					screenedCuts++
				}
				if n1 < n0 {
					skipped++
					if cut0 {
						lostCuts++
					}
				}
			}
		}
	}
	if cuts == 0 || skipped == 0 {
		t.Fatalf("nothing tested: %d cuts, %d screened tests", cuts, skipped)
	}
	// The screen skips the tests unlikely to cut: of those it skips, at most half as many would
	// have cut as of those it lets run.
	if tried := tests - skipped; tried == 0 || float64(lostCuts)/float64(skipped) > 0.5*float64(screenedCuts)/float64(tried) {
		t.Errorf("%d of the %d skipped tests would have cut, %d of the %d run", lostCuts, skipped, screenedCuts, tests-skipped)
	}
	t.Logf("%d tests: %d cuts unscreened, %d screened; %d skipped a shallow search, %d of them would have cut", tests, cuts, screenedCuts, skipped, lostCuts)
}

// TestStaticCut checks the Multi-ProbCut tests of heights 1-2 on the shipped weights: they
// search no node, cut exactly where the static prediction clears the window by the level's
// margin and return the bound they clear; at level 5 (73%) at most one cut in four is wrong
// against the full-width value at that height (a one-sided miss of 1.1 deviations is 14%);
// NoStaticCut never cuts there (full-width searches never test: the minimax tests).
func TestStaticCut(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	p := MPCFor(ev)
	for st := 1; st <= 4; st++ {
		for h := staticCutMin; h < mpcMinHeight; h++ {
			if !p.pre[st][h].ok {
				t.Fatalf("the shipped regressions lack the static test of height %d at stage %d", h, st)
			}
		}
	}
	ctx := context.Background()
	cuts, wrong, kept := 0, 0, 0
	var boards []board.Board
	for _, empties := range []int{20, 30, 40, 48} {
		boards = append(boards, randomPositions(uint64(33+empties), 15, empties)...)
	}
	for _, b := range boards {
		if b.LegalMoves() == 0 {
			continue
		}
		sel := NewEngine(Config{TTMiB: 1, SolverMiB: 1, Eval: ev})
		off := NewEngine(Config{TTMiB: 1, SolverMiB: 1, Eval: ev, NoStaticCut: true})
		full := NewEngine(Config{TTMiB: 1, SolverMiB: 1, Eval: ev})
		sel.begin(ctx, b, Limits{Selectivity: 5}, timePlan{})
		off.begin(ctx, b, Limits{Selectivity: 5}, timePlan{})
		full.begin(ctx, b, Limits{}, timePlan{})
		static := sel.evaluate()
		sc := float64(sel.scale)
		limit := 64 * sel.scale
		for h := staticCutMin; h < mpcMinHeight; h++ {
			full.nextGeneration()
			truth := full.alphaBeta(-scoreInf, scoreInf, h)
			pr := p.pre[mpcStageOf(b.NumEmpties())][h]
			pred := pr.a*float64(static) + pr.b*sc
			margin := endgame.SelectivityT(5) * pr.sigma * sc
			for d := -12; d <= 12; d += 3 {
				bound := static + d*sel.scale
				for _, w := range [][2]int{{-limit, bound}, {bound, limit}} {
					alpha, beta := w[0], w[1]
					sel.nodes = 0
					v, cut := sel.probCut(alpha, beta, h)
					wantUp := pred >= float64(beta)+margin
					wantDown := pred <= float64(alpha)-margin
					if cut != (wantUp || wantDown) || sel.nodes != 0 {
						t.Fatalf("%s h%d [%d,%d]: cut %v after %d nodes, prediction %.0f margin %.0f", b.OBF(), h, alpha, beta, cut, sel.nodes, pred, margin)
					}
					if _, c := off.probCut(alpha, beta, h); c {
						t.Fatalf("%s h%d: a cut with NoStaticCut", b.OBF(), h)
					}
					if !cut {
						kept++
						continue
					}
					cuts++
					switch {
					case wantUp && v != beta, wantDown && !wantUp && v != alpha:
						t.Fatalf("%s h%d [%d,%d]: cut returned %d", b.OBF(), h, alpha, beta, v)
					case v == beta && truth < beta, v == alpha && truth > alpha:
						wrong++
					}
				}
			}
		}
	}
	if cuts == 0 || kept == 0 {
		t.Fatalf("nothing tested: %d cuts, %d tests without", cuts, kept)
	}
	if 4*wrong > cuts {
		t.Errorf("%d of %d static cuts wrong against the full-width value", wrong, cuts)
	}
	t.Logf("%d cuts (%d wrong against the full-width value), %d tests without a cut", cuts, wrong, kept)
}

// The heights above the fitted ones get regressions carried up from the highest fitted
// height of the same parity, never written back, and none above the top.
func TestMPCDeepHeights(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	p := MPCFor(ev)
	if p == nil {
		t.Fatal("no shipped regressions")
	}
	q := p.withDeepHeights(DefaultMPCTop)
	for st := 1; st <= 4; st++ {
		top := 0
		for h := mpcMinHeight; h <= mpcMaxHeight; h++ {
			if p.pairs[st][h].ok {
				top = h
			}
		}
		if top < mpcMinHeight+1 || top >= DefaultMPCTop {
			t.Fatalf("stage %d: fitted up to height %d", st, top)
		}
		for h := top + 1; h <= mpcMaxHeight; h++ {
			d := q.pairs[st][h]
			if h > DefaultMPCTop {
				if d.ok || q.pre[st][h].ok {
					t.Fatalf("stage %d height %d above the top has a test", st, h)
				}
				continue
			}
			ref := p.pairs[st][top]
			if (top-h)%2 != 0 {
				ref = p.pairs[st][top-1]
			}
			if !d.ok || !d.derived || d.shallow != mpcShallow(h) || d.a != ref.a || d.b != ref.b || d.sigma < ref.sigma {
				t.Fatalf("stage %d height %d: %+v from %+v", st, h, d, ref)
			}
			if pre := q.pre[st][h]; !pre.ok || !pre.derived {
				t.Fatalf("stage %d height %d: no static prediction", st, h)
			}
		}
		for h := mpcMinHeight; h <= top; h++ {
			if q.pairs[st][h] != p.pairs[st][h] {
				t.Fatalf("stage %d height %d: a fitted regression changed", st, h)
			}
		}
	}
	if p.pairs[3][DefaultMPCTop].ok {
		t.Fatal("withDeepHeights changed its receiver")
	}
	var a, b bytes.Buffer
	if err := WriteMPC(&a, p); err != nil {
		t.Fatal(err)
	}
	if err := WriteMPC(&b, q); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Fatal("derived regressions were written")
	}
	low := p.withDeepHeights(8)
	if low.pairs[3][9].ok || low.pre[3][9].ok || !low.pairs[3][8].ok {
		t.Fatal("a top of 8 still tests above it")
	}
}

// Config.MPCT replaces the level's Multi-ProbCut threshold: a smaller one cuts more (fewer
// nodes to the same depth), a larger one less, and the level's own threshold gives the
// default search node for node.
func TestMPCTOverride(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	nodes := func(mpct float64) uint64 {
		var n uint64
		for _, b := range randomPositions(7, 6, 30) {
			e := NewEngine(Config{TTMiB: 1, SolverMiB: 1, Eval: ev, MPCT: mpct})
			e.Search(context.Background(), b, Limits{Depth: 9, Selectivity: 5}, nil)
			n += e.nodes
		}
		return n
	}
	def, own, loose, tight := nodes(0), nodes(endgame.SelectivityT(5)), nodes(0.5), nodes(3)
	t.Logf("nodes: default %d, t 0.5 %d, t 3 %d", def, loose, tight)
	if own != def || !(loose < def && def < tight) {
		t.Fatalf("nodes: default %d, level 5's own threshold %d, t 0.5 %d, t 3 %d", def, own, loose, tight)
	}
}
