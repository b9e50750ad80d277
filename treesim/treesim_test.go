package treesim

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"unsafe"
)

func model(t testing.TB, b int) *Model {
	t.Helper()
	m, err := NewModel(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func tree(t testing.TB, m *Model, depth int, seed uint64) *Tree {
	t.Helper()
	tr, err := NewTree(m, depth, seed)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// minimax is the plain negamax value of a node, every node visited.
func minimax(tr *Tree, sig uint64, h int32, depth int) int32 {
	if depth == tr.Depth {
		return tr.leafValue(sig, h)
	}
	kids := make([]kid, tr.M.B)
	tr.children(sig, h, kids)
	best := -inf
	for _, c := range kids {
		best = max(best, -minimax(tr, c.sig, c.h, depth+1))
	}
	return best
}

// The convergence procedure gives the paper's epsilon and sigma^r (section 4.3).
func TestModelMatchesPaper(t *testing.T) {
	for _, b := range []int{5, 20} {
		m := model(t, b)
		pub, ok := PaperTable(b, map[int]int{5: 10, 20: 6}[b])
		if !ok {
			t.Fatal("no paper table")
		}
		for r := range 2 {
			if math.Abs(m.Eps[r]-pub.Eps[r]) > 0.05 {
				t.Errorf("b=%d: epsilon[%d] = %.2f, paper %.1f", b, r, m.Eps[r], pub.Eps[r])
			}
		}
		if math.Abs(m.SigmaR-pub.SigmaR) > 0.05 {
			t.Errorf("b=%d: sigma^r = %.2f, paper %.1f", b, m.SigmaR, pub.SigmaR)
		}
		// The first step is the maximum of b normals: for b=5 its mean is 1.163 sigma.
		if b == 5 && math.Abs(m.Steps[1].Mean-116.3) > 0.2 {
			t.Errorf("b=5: f^(1) mean %.2f, want 116.3", m.Steps[1].Mean)
		}
	}
}

func TestSamplerFollowsItsDistribution(t *testing.T) {
	m := model(t, 5)
	for _, c := range []struct {
		name string
		s    *sampler
		d    dist
	}{{"edges", &m.edge, m.edgeValues}, {"leaves", &m.leaf, m.deep[0]}} {
		const n = 200000
		sum, sum2 := 0.0, 0.0
		for i := range n {
			x := float64(c.s.draw(splitmix(uint64(i))))
			sum += x
			sum2 += x * x
		}
		mean := sum / n
		sd := math.Sqrt(sum2/n - mean*mean)
		if math.Abs(mean-c.d.mean()) > 1 || math.Abs(sd-c.d.sd()) > 1 {
			t.Errorf("%s: drew mean %.2f sd %.2f, distribution %.2f %.2f", c.name, mean, sd, c.d.mean(), c.d.sd())
		}
	}
	// The extremes of the 64-bit range stay inside the distribution.
	for _, u := range []uint64{0, math.MaxUint64} {
		v := m.edge.draw(u)
		if v < int32(m.edgeValues.lo) || int(v) >= m.edgeValues.lo+len(m.edgeValues.p) {
			t.Errorf("draw(%#x) = %d outside the edge values", u, v)
		}
	}
}

func TestSlotSize(t *testing.T) {
	if s := unsafe.Sizeof(slot{}); s != 16 {
		t.Errorf("a table slot is %d bytes, want 16", s)
	}
}

// The oracle's alpha-beta and the sequential search find the plain minimax value, at the root
// and below it.
func TestValuesAreMinimax(t *testing.T) {
	for _, c := range []struct{ b, d int }{{2, 7}, {3, 5}, {4, 4}, {5, 4}} {
		m := model(t, c.b)
		for seed := range uint64(4) {
			tr := tree(t, m, c.d, seed)
			want := minimax(tr, 0, 0, 0)
			if v := tr.Value(0, 0, 0); v != want {
				t.Errorf("b=%d d=%d seed %d: Value %d, minimax %d", c.b, c.d, seed, v, want)
			}
			kids := make([]kid, c.b)
			tr.children(0, 0, kids)
			for _, k := range kids {
				if v, w := tr.Value(k.sig, k.h, 1), minimax(tr, k.sig, k.h, 1); v != w {
					t.Errorf("b=%d d=%d seed %d child %d: Value %d, minimax %d", c.b, c.d, seed, k.sig, v, w)
				}
			}
			for id := range 3 {
				q := NewSequential(tr, id)
				if v := q.Search(); v != want {
					t.Errorf("b=%d d=%d seed %d idstep %d: sequential %d, minimax %d", c.b, c.d, seed, id, v, want)
				}
			}
		}
	}
}

// With one process every order is the sequential search: the same nodes, one per step.
func TestOneProcessIsSequential(t *testing.T) {
	shapes := []struct{ b, d int }{{3, 6}, {5, 6}, {8, 4}}
	if !testing.Short() {
		shapes = append(shapes, struct{ b, d int }{5, 10}, struct{ b, d int }{20, 5})
	}
	s := NewSim()
	for _, c := range shapes {
		m := model(t, c.b)
		for seed := range uint64(3) {
			tr := tree(t, m, c.d, seed)
			for _, id := range []int{0, 1, 2} {
				q := NewSequential(tr, id)
				q.Search()
				for o := range numOrders {
					// The step counts: every search, searches of depth 1 or more (free
					// leaves), leaf evaluations (leaf steps), distinct nodes (once nodes).
					for mode := range 4 {
						res, err := s.Run(tr, Options{o, 1, id, mode == 1, mode == 2, mode == 3})
						if err != nil {
							t.Fatal(err)
						}
						want := [4]int{q.Nodes, q.Interior, q.Nodes - q.Interior, q.Distinct}[mode]
						if res.Steps != want || res.Nodes != want {
							t.Errorf("b=%d d=%d seed %d idstep %d %v step mode %d: %d steps, %d nodes; sequential %d",
								c.b, c.d, seed, id, o, mode, res.Steps, res.Nodes, want)
						}
					}
				}
			}
		}
	}
}

// Every order finds the tree's value with any number of processes, and more processes never
// take more steps than the tasks they execute.
func TestEveryOrderFindsTheValue(t *testing.T) {
	shapes := []struct{ b, d int }{{3, 6}, {5, 6}, {12, 4}}
	procs := []int{2, 64, 16384}
	if !testing.Short() {
		shapes = append(shapes, struct{ b, d int }{5, 10}, struct{ b, d int }{20, 6})
		procs = []int{2, 7, 64, 1024, 16384}
	}
	s := NewSim()
	for _, c := range shapes {
		m := model(t, c.b)
		for seed := range uint64(2) {
			tr := tree(t, m, c.d, seed)
			want := tr.Value(0, 0, 0)
			for o := range numOrders {
				for _, p := range procs {
					for _, id := range []int{0, 2} {
						// Seed 0: every search a step (idstep 0), once nodes (2); seed 1:
						// free leaves (0), leaf steps (2).
						res, err := s.Run(tr, Options{o, p, id, seed == 1 && id == 0, seed == 1 && id == 2, seed == 0 && id == 2})
						if err != nil {
							t.Fatalf("b=%d d=%d seed %d %v P=%d: %v", c.b, c.d, seed, o, p, err)
						}
						if res.Value != want {
							t.Errorf("b=%d d=%d seed %d %v P=%d idstep %d: value %d, tree %d", c.b, c.d, seed, o, p, id, res.Value, want)
						}
						if res.Nodes > p*res.Steps || res.Nodes < res.Steps {
							t.Errorf("b=%d d=%d %v P=%d: %d nodes in %d steps", c.b, c.d, o, p, res.Nodes, res.Steps)
						}
					}
				}
			}
		}
	}
}

func randomWindow(r *rand.Rand) Window {
	w := Window{
		Alpha: -inf, Beta: inf,
		MuA: r.NormFloat64() * 150, MuB: r.NormFloat64() * 150,
		SdA: 50 + 60*r.Float64(), SdB: 50 + 60*r.Float64(),
	}
	if r.IntN(3) > 0 {
		w.Alpha = int32(r.NormFloat64() * 150)
	}
	if r.IntN(3) > 0 {
		w.Beta = int32(r.NormFloat64() * 150)
	}
	switch r.IntN(6) {
	case 0:
		w.MuA = math.Inf(-1)
	case 1:
		w.MuB = math.Inf(1)
	}
	return w
}

func TestPInUnitInterval(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var tab Table
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for range n {
		w := randomWindow(r)
		for name, p := range map[string]float64{"direct": PDirect(w), "table": tab.P(w)} {
			if !(p >= 0 && p <= 1+1e-9) {
				t.Fatalf("%s P = %v for %+v", name, p, w)
			}
		}
	}
}

// Equations 7-9 at their limits: an empty sequential window prunes for sure; so, nearly, does
// an alpha predicted far above beta; a node of the predicted minimal tree is searched for sure.
func TestPSanity(t *testing.T) {
	var tab Table
	ninf, pinf := math.Inf(-1), math.Inf(1)
	for _, c := range []struct {
		name   string
		w      Window
		lo, hi float64
	}{
		{"empty sequential window", Window{100, 100, 0, 50, 80, 80}, 0, 0},
		{"reversed sequential window", Window{120, -40, 0, 50, 80, 80}, 0, 0},
		{"alpha surely far above beta", Window{-inf, inf, 600, -600, 80, 80}, 0, 1e-6},
		{"beta capped far below alpha's floor", Window{400, inf, 0, 0, 80, 80}, 0, 1e-3},
		{"alpha surely far below beta", Window{-inf, inf, -600, 600, 80, 80}, 1 - 1e-6, 1},
		{"minimal tree, alpha known", Window{-inf, inf, ninf, 37, 80, 80}, 1, 1},
		{"minimal tree, beta known", Window{-inf, inf, 37, pinf, 80, 80}, 1, 1},
		{"alpha and beta known", Window{-5, 12, ninf, pinf, 80, 80}, 1, 1},
		{"equal predictions", Window{-inf, inf, 0, 0, 80, 80}, 0.49, 0.51},
	} {
		for name, p := range map[string]float64{"direct": PDirect(c.w), "table": tab.P(c.w)} {
			tol := 0.0
			if name == "table" {
				tol = 0.04 // the table clamps its parameters at 2.5 deviations
			}
			if p < c.lo-tol || p > c.hi+tol {
				t.Errorf("%s: %s P = %.6f, want [%g, %g]", c.name, name, p, c.lo, c.hi)
			}
		}
		if c.lo == 1 && !c.w.NoDist() {
			t.Errorf("%s: equation 14 says pruned", c.name)
		}
	}
	// P grows with beta's mean and bound, and falls with alpha's.
	base := Window{-50, 150, 0, 40, 80, 80}
	p0 := PDirect(base)
	for _, c := range []struct {
		name string
		w    Window
		up   bool
	}{
		{"higher beta mean", Window{-50, 150, 0, 90, 80, 80}, true},
		{"higher beta bound", Window{-50, 250, 0, 40, 80, 80}, true},
		{"higher alpha mean", Window{-50, 150, 50, 40, 80, 80}, false},
		{"higher alpha bound", Window{20, 150, 0, 40, 80, 80}, false},
	} {
		if p := PDirect(c.w); (p > p0) != c.up {
			t.Errorf("%s: P %.4f, base %.4f", c.name, p, p0)
		}
	}
}

// integrate is P(max(alpha', X) < min(beta', Y)) for continuous normals X, Y, by Simpson's rule:
// P(X < beta') P(Y > beta') + the integral from alpha' to beta' of f_Y(y) P(X < y).
func integrate(w Window) float64 {
	if w.Alpha >= w.Beta {
		return 0
	}
	fa := func(x float64) float64 { // P(X < x)
		if math.IsInf(w.MuA, -1) {
			return 1
		}
		return normCDF((x - w.MuA) / w.SdA)
	}
	if math.IsInf(w.MuB, 1) {
		return fa(bound(w.Beta))
	}
	lo, hi := w.MuB-12*w.SdB, w.MuB+12*w.SdB
	if w.Alpha != -inf {
		lo = math.Max(lo, float64(w.Alpha))
	}
	if w.Beta != inf {
		hi = math.Min(hi, float64(w.Beta))
	}
	p := 0.0
	if w.Beta != inf {
		p = fa(float64(w.Beta)) * (1 - normCDF((float64(w.Beta)-w.MuB)/w.SdB))
	}
	if math.IsInf(w.MuA, -1) { // alpha is alpha' for sure: P(Y > alpha')
		return p + normCDF((hi-w.MuB)/w.SdB) - normCDF((lo-w.MuB)/w.SdB)
	}
	if hi <= lo {
		return p
	}
	const n = 4000
	h := (hi - lo) / n
	f := func(y float64) float64 { return normPDF((y-w.MuB)/w.SdB) / w.SdB * fa(y) }
	sum := f(lo) + f(hi)
	for i := 1; i < n; i++ {
		c := 2.0
		if i%2 == 1 {
			c = 4
		}
		sum += c * f(lo+float64(i)*h)
	}
	return p + sum*h/3
}

// The table of section 2.3 and the direct sum of equation 7 agree with numerical integration.
func TestTableAgreesWithIntegration(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var tab Table
	n := 3000
	if testing.Short() {
		n = 500
	}
	worstDirect, worstTable := 0.0, 0.0
	for range n {
		w := randomWindow(r)
		// Keep inside the table's range: |eta|, |dAlpha|, |dBeta| within 2.5 deviations of alpha.
		if math.Abs(w.MuB-w.MuA) > 2.4*w.SdA ||
			w.Alpha != -inf && math.Abs(float64(w.Alpha)-w.MuB) > 2.4*w.SdA ||
			w.Beta != inf && math.Abs(float64(w.Beta)-w.MuA) > 2.4*w.SdA {
			continue
		}
		want := integrate(w)
		worstDirect = math.Max(worstDirect, math.Abs(PDirect(w)-want))
		worstTable = math.Max(worstTable, math.Abs(tab.P(w)-want))
	}
	// The sums over the integers differ from the integral by about half a unit in 50-110.
	if worstDirect > 0.01 {
		t.Errorf("direct sum vs integration: worst difference %.4f", worstDirect)
	}
	// The table's cells are 5/100 of alpha's deviation apart in each of four parameters.
	if worstTable > 0.04 {
		t.Errorf("table vs integration: worst difference %.4f", worstTable)
	}
	t.Logf("worst differences from integration: direct %.4f, table %.4f", worstDirect, worstTable)
}

// histNormal is N(mu, sd) on the integers as a histogram.
func histNormal(mu, sd float64) hist {
	lo := int32(math.Floor(mu - 10*sd))
	h := hist{lo: lo}
	for v := lo; float64(v) <= mu+10*sd; v++ {
		h.c = append(h.c, float32(cdfBelow(v, mu, sd)))
	}
	h.c[len(h.c)-1] = 1
	return h
}

func TestHistograms(t *testing.T) {
	// Two normals compared by histogram and by equation 7.
	r := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		w := randomWindow(r)
		if math.IsInf(w.MuA, 0) || math.IsInf(w.MuB, 0) {
			continue
		}
		a := histNormal(w.MuA, w.SdA).cutBelow(w.Alpha, nil)
		b := histNormal(w.MuB, w.SdB).cutAbove(w.Beta, nil)
		if got, want := pLess(&a, &b, nil), PDirect(w); math.Abs(got-want) > 1e-3 {
			t.Errorf("%+v: histograms %.5f, equation 7 %.5f", w, got, want)
		}
	}
	// A child's P_n without its histograms is P_n with them.
	for range 200 {
		bn := histNormal(r.NormFloat64()*100, 60+40*r.Float64())
		m := histNormal(r.NormFloat64()*100, 60+40*r.Float64())
		if r.IntN(4) == 0 {
			m = pointHist(-inf)
		}
		w := randomWindow(r)
		a := bn.negate(nil)
		a = a.cutBelow(w.Alpha, nil)
		b := m.negate(nil)
		b = b.cutAbove(w.Beta, nil)
		if got, want := pChild(&bn, &m, w.Alpha, w.Beta), pLess(&a, &b, nil); math.Abs(got-want) > 1e-5 {
			t.Errorf("alpha' %d beta' %d: pChild %.6f, pLess %.6f", w.Alpha, w.Beta, got, want)
		}
	}
	// The maximum of small distributions, against enumeration.
	x := hist{lo: 0, c: []float32{0.2, 0.5, 1}, neg: 0.1}
	y := hist{lo: 1, c: []float32{0.3, 0.9}, pos: 0.1}
	m := maxOf(&x, &y, nil)
	for v := int32(-2); v < 5; v++ {
		if got, want := m.at(v), x.at(v)*y.at(v); math.Abs(float64(got-want)) > 1e-6 {
			t.Errorf("max F(%d) = %v, want %v", v, got, want)
		}
	}
	// Negation twice is the identity; cuts move the tails to the bound.
	nx := x.negate(nil)
	nnx := nx.negate(nil)
	for v := int32(-3); v < 5; v++ {
		if math.Abs(float64(nnx.at(v)-x.at(v))) > 1e-6 {
			t.Errorf("--X: F(%d) = %v, want %v", v, nnx.at(v), x.at(v))
		}
	}
	if c := x.cutBelow(1, nil); c.at(0) != 0 || math.Abs(float64(c.at(1))-0.5) > 1e-6 {
		t.Errorf("cut below 1: F(0) %v F(1) %v", c.at(0), c.at(1))
	}
	if c := x.cutBelow(-2, nil); c.at(-3) != 0 || math.Abs(float64(c.at(-2))-0.1) > 1e-6 || c.at(0) != x.at(0) {
		t.Errorf("cut below -2: F(-3) %v F(-2) %v F(0) %v", c.at(-3), c.at(-2), c.at(0))
	}
	if c := y.cutAbove(4, nil); c.at(3) != 0.9 || c.at(4) != 1 || c.pos != 0 {
		t.Errorf("cut above 4: F(3) %v F(4) %v", c.at(3), c.at(4))
	}
	if c := y.cutAbove(1, nil); c.at(0) != 0 || c.at(1) != 1 {
		t.Errorf("cut above 1: F(0) %v F(1) %v", c.at(0), c.at(1))
	}
	inf0, sup := pointHist(-inf), pointHist(inf)
	if p := pLess(&inf0, &sup, nil); p != 1 {
		t.Errorf("P(-inf < +inf) = %v", p)
	}
	if p := pLess(&sup, &inf0, nil); p != 0 {
		t.Errorf("P(+inf < -inf) = %v", p)
	}
}

// A report depends on the seed, not on the number of workers; with one process every order
// takes the sequential search's node count.
func TestReportIsDeterministic(t *testing.T) {
	cfg := Config{B: 4, Depth: 5, Trees: 4, Seed: 9, Procs: []int{1, 16, 256}, Orders: []Order{Method, NoDist, DepthFirst, YBWC, Exact}, IDStep: 2}
	cfg.Workers = 1
	a, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 3
	b, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Cells, b.Cells) || a.Sequential != b.Sequential {
		t.Errorf("1 and 3 workers differ:\n%+v\n%+v", a.Cells, b.Cells)
	}
	for o := range cfg.Orders {
		if a.Cells[o][0].Steps != a.Sequential {
			t.Errorf("%v with one process: %+v, sequential %+v", cfg.Orders[o], a.Cells[o][0].Steps, a.Sequential)
		}
	}
	cfg.Seed = 10
	c, err := Run(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a.Cells, c.Cells) {
		t.Error("seeds 9 and 10 gave the same report")
	}
}

func BenchmarkRunB5D10(b *testing.B) {
	m := model(b, 5)
	s := NewSim()
	tr := tree(b, m, 10, 1)
	for b.Loop() {
		for _, o := range []Order{Method, NoDist, DepthFirst, YBWC} {
			for _, p := range []int{1, 256, 1024, 4096, 16384} {
				if _, err := s.Run(tr, Options{o, p, 2, false, false, false}); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
}
