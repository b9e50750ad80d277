package search

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/weights"
)

// The deviation values of a sibling set have mean 50 and standard deviation 10, keep the
// order of the values, and are all 50 when the values are all equal.
func TestDeviationValues(t *testing.T) {
	for _, vals := range [][]float64{
		{1, 2, 3, 4, 5},
		{-300, 12, 12, 45, 800, -7, 0},
		{0.5, -0.5},
	} {
		d := make([]float64, len(vals))
		DeviationValues(vals, d)
		var mean, ss float64
		for _, x := range d {
			mean += x
		}
		mean /= float64(len(d))
		for _, x := range d {
			ss += (x - mean) * (x - mean)
		}
		if sd := math.Sqrt(ss / float64(len(d))); math.Abs(mean-50) > 1e-9 || math.Abs(sd-10) > 1e-9 {
			t.Errorf("%v: deviation values %v have mean %v and sd %v", vals, d, mean, sd)
		}
		for i := range vals {
			for j := range vals {
				if vals[i] < vals[j] && !(d[i] < d[j]) {
					t.Errorf("%v: order lost in %v", vals, d)
				}
			}
		}
	}
	d := []float64{0, 0, 0}
	DeviationValues([]float64{7, 7, 7}, d)
	DeviationValues(nil, nil)
	if d[0] != 50 || d[1] != 50 || d[2] != 50 {
		t.Errorf("equal values: %v, want all 50", d)
	}
	// Two values: one standard deviation either side.
	DeviationValues([]float64{-3, 9}, d)
	if d[0] != 40 || d[1] != 60 {
		t.Errorf("two values: %v, want 40 and 60", d[:2])
	}
}

// The cost is the table's value at its points, linear between them and the end value outside.
func TestDevCostInterpolation(t *testing.T) {
	c := &DevCost{Cost: [DevPoints]float64{2, 1.5, 1, 1, 0.5, 1, 3}}
	for _, tc := range []struct{ d, want float64 }{
		{35, 2}, {40, 1.5}, {50, 1}, {55, 0.5}, {65, 3},
		{37.5, 1.75}, {42.5, 1.25}, {46, 1}, {52.5, 0.75}, {57.5, 0.75}, {64, 2.6},
		{0, 2}, {-100, 2}, {34.99, 2}, {65.01, 3}, {200, 3}, {math.NaN(), 2}, {math.Inf(1), 3}, {math.Inf(-1), 2},
	} {
		if got := c.At(tc.d); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("At(%v) = %v, want %v", tc.d, got, tc.want)
		}
	}
	if got := FlatDevCost(1.25).At(51); got != 1.25 {
		t.Errorf("flat 1.25: %v", got)
	}
}

// The text form round-trips, refuses tables outside the bounds, and the DEV1 section of a
// weight file round-trips to the engine: an evaluator of that file gets the stored table, one
// without it the committed default.
func TestDevCostRoundTripAndSection(t *testing.T) {
	c := &DevCost{Eval: "test", Cost: [DevPoints]float64{2.5, 1.75, 1.25, 1, 0.875, 1, 1.5}}
	var buf bytes.Buffer
	if err := WriteDevCost(&buf, c); err != nil {
		t.Fatal(err)
	}
	got, err := ParseDevCost(bytes.NewReader(buf.Bytes()))
	if err != nil || *got != *c {
		t.Fatalf("round trip: %+v, %v; want %+v\n%s", got, err, c, buf.String())
	}
	for _, bad := range []string{
		"", "eval x\n", "cost 1 1 1\n", "cost 1 1 1 1 1 1 x\n", "cost 1 1 1 1 1 1 0.1\n",
		"cost 1 1 1 1 1 1 9\n", "cost 1 1 1 1 1 1 NaN\n", "height 3\ncost 1 1 1 1 1 1 1\n", "eval\ncost 1 1 1 1 1 1 1\n",
	} {
		if _, err := ParseDevCost(strings.NewReader(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "w.gtw")
	if err := os.WriteFile(path, weights.Embedded(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := StoreDevCost(path, buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := StoreDevCost(filepath.Join(dir, "absent.gtw"), buf.Bytes()); err == nil {
		t.Error("stored into a missing weight file")
	}
	f, err := weights.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if data, ok := f.Section(DevSection); !ok || !bytes.Equal(data, buf.Bytes()) {
		t.Fatalf("section %s: %q, %v", DevSection, data, ok)
	}
	if _, ok := f.Section(MPCSection); !ok {
		t.Errorf("storing %s lost the %s section", DevSection, MPCSection)
	}
	ev, err := eval.ByName(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := DevCostFor(ev); *got != *c {
		t.Errorf("DevCostFor(stored) = %+v, want %+v", got, c)
	}
	e := NewEngine(Config{Eval: ev, TTMiB: 1, SolverMiB: 1, DepthByDeviation: true})
	if e.dev == nil || e.dev.Cost != c.Cost {
		t.Errorf("engine on the stored weights: %+v", e.dev)
	}
	def, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := def.Section(DevSection); !ok {
		if got := DevCostFor(def); *got != *DefaultDevCost() {
			t.Errorf("DevCostFor(default weights without %s) = %+v, want the committed table", DevSection, got)
		}
	}
	if got := DevCostFor(nil); got.Cost != DefaultDevCost().Cost {
		t.Errorf("DevCostFor(mobility) = %+v", got)
	}
	if err := DefaultDevCost().valid(); err != nil {
		t.Errorf("committed table: %v", err)
	}
	if e := NewEngine(Config{TTMiB: 1, SolverMiB: 1}); e.dev != nil {
		t.Error("depth by deviation on without the option")
	}
}

func FuzzParseDevCost(f *testing.F) {
	var buf bytes.Buffer
	if err := WriteDevCost(&buf, DefaultDevCost()); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.String())
	f.Add("cost 1 2 3 4 1 2 3\n")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseDevCost(strings.NewReader(s))
		if err != nil {
			return
		}
		if err := c.valid(); err != nil {
			t.Fatalf("accepted %q: %v", s, err)
		}
		var out bytes.Buffer
		if err := WriteDevCost(&out, c); err != nil {
			t.Fatal(err)
		}
		if _, err := ParseDevCost(&out); err != nil {
			t.Fatalf("written form of %q: %v", s, err)
		}
	})
}

// devMinimax is the value of the tree that depth by deviation value defines, by plain
// negamax: at nodes of height devMinHeight or more (above the fastest-first band) each child
// gets the height the table gives its deviation value among the children's shallow values
// (orderKey's without a table: the negated search of the child to (height-5)/3), as a whole
// height and a fraction of a ply (rem, 1/devUnit); elsewhere one ply less.
func devMinimax(b *board.Board, h, rem int, c *DevCost) int {
	if h <= 0 {
		return midMinimax(b, 0)
	}
	moves := b.LegalMoves()
	if moves == 0 {
		if board.LegalMoves(b.O, b.P) == 0 {
			return board.DiscDiff(b.P, b.O) * mobilityScale
		}
		b.Pass()
		v := -devMinimax(b, h, rem, c)
		b.Pass()
		return v
	}
	var sqs []board.Square
	for m := moves; m != 0; m &= m - 1 {
		sqs = append(sqs, board.FirstSquare(m))
	}
	heights := make([]int, len(sqs))
	for i := range heights {
		heights[i] = (h - 1) << devShift
	}
	if h >= devMinHeight && b.NumEmpties() > fastestFirstAt {
		vals := make([]float64, len(sqs))
		for i, sq := range sqs {
			u := b.Make(sq)
			vals[i] = float64(-midMinimax(b, (h-defaultEvalOrderHeight)/3))
			b.Unmake(u)
		}
		d := make([]float64, len(sqs))
		DeviationValues(vals, d)
		for i := range heights {
			x := h<<devShift + rem - int(math.Round(c.At(d[i])*devUnit))
			if x>>devShift < devMinHeight || b.NumEmpties()-1 <= fastestFirstAt {
				x = (x + devUnit/2) &^ devMask
			}
			heights[i] = x
		}
	}
	best := -scoreInf
	for i, sq := range sqs {
		u := b.Make(sq)
		v := -devMinimax(b, heights[i]>>devShift, heights[i]&devMask, c)
		b.Unmake(u)
		best = max(best, v)
	}
	return best
}

// Without the tables and Multi-ProbCut the search's value is the value of the tree the cost
// table defines (devMinimax), for tables that reduce, extend (with fractions of a ply carried
// down) or do neither; with the table of one ply everywhere it is the plain minimax value.
func TestDepthByDeviationValue(t *testing.T) {
	positions := randomPositions(51, 4, 40)
	depth := 7
	if testing.Short() {
		positions, depth = positions[:2], 6
	}
	tables := []*DevCost{
		FlatDevCost(1),
		{Cost: [DevPoints]float64{2, 1.75, 1.5, 1.25, 1, 1, 1.5}},
		{Cost: [DevPoints]float64{1.5, 1.25, 1, 1, 0.75, 0.625, 0.75}},
		FlatDevCost(1.3),
	}
	for ti, c := range tables {
		e := NewEngine(Config{TTMiB: 1, SolverMiB: 1, NoMPC: true, NoTable: true, DepthByDeviation: true, DevCost: c})
		for i, b := range positions {
			r := e.Search(context.Background(), b, Limits{Depth: depth}, nil)
			bb := b
			want := 0
			best := -scoreInf
			for m := b.LegalMoves(); m != 0; m &= m - 1 {
				u := bb.Make(board.FirstSquare(m))
				best = max(best, -devMinimax(&bb, depth-1, 0, c))
				bb.Unmake(u)
			}
			want = best
			if ti == 0 {
				bb := b
				if plain := midMinimax(&bb, depth); plain != want {
					t.Fatalf("flat table: %d, plain minimax %d", want, plain)
				}
			}
			if got := int(math.Round(r.Score * mobilityScale)); got != want || !b.IsLegal(r.Move) {
				t.Fatalf("table %d (%s), position %d (%s): score %v move %v, want %d", ti, c, i, b.OBF(), r.Score*mobilityScale, r.Move, want)
			}
			checkPVLegal(t, b, r.PV)
		}
	}
}

// The option searches as many nodes as the plain search with the table of one ply everywhere,
// with and without Multi-ProbCut; without it, fewer with a table that reduces every child and
// more with one that extends every child; and it always returns a legal move, with one or two
// threads.
func TestDepthByDeviationNodes(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	positions := BenchPositions()[:6]
	depth := 10
	if testing.Short() {
		positions, depth = positions[:3], 9
	}
	nodes := func(cfg Config, sel int) uint64 {
		e := NewEngine(cfg)
		var n uint64
		for _, b := range positions {
			r := e.Search(context.Background(), b, Limits{Depth: depth, Selectivity: sel}, nil)
			if !b.IsLegal(r.Move) || r.Depth != depth {
				t.Fatalf("%s: %+v", b.OBF(), r.Info)
			}
			checkPVLegal(t, b, r.PV)
			n += r.Nodes
		}
		return n
	}
	for _, sel := range []int{0, 5} {
		// Depth by deviation needs every move's ordering value (ExactOrderKeys).
		plainCfg := Config{Eval: ev, TTMiB: 4, SolverMiB: 1, ExactOrderKeys: true}
		plain := nodes(plainCfg, sel)
		dev := plainCfg
		dev.DepthByDeviation = true
		dev.DevCost = FlatDevCost(1)
		if got := nodes(dev, sel); got != plain {
			t.Errorf("level %d: one ply a child: %d nodes, plain %d", sel, got, plain)
		}
		dev.DevCost = FlatDevCost(1.5)
		reduced := nodes(dev, sel)
		dev.DevCost = FlatDevCost(0.75)
		extended := nodes(dev, sel)
		// With Multi-ProbCut the cuts and the table's moves change with the heights, and a
		// reduced search can cost more nodes (docs/deviation.md); without it the table rules.
		if sel == 0 && !(reduced < plain && plain < extended) {
			t.Errorf("level %d: reduced %d, plain %d, extended %d nodes", sel, reduced, plain, extended)
		}
		t.Logf("level %d depth %d: reduced %d, plain %d, extended %d nodes", sel, depth, reduced, plain, extended)
	}
	// Any table, extreme ones too, on random positions with one and two threads: legal moves
	// and principal variations, and the search ends.
	for _, threads := range []int{1, 2} {
		for _, c := range []*DevCost{
			{Cost: [DevPoints]float64{4, 4, 0.25, 0.25, 0.25, 4, 4}},
			{Cost: [DevPoints]float64{0.25, 1, 2, 3, 4, 1, 0.25}},
		} {
			e := NewEngine(Config{Eval: ev, TTMiB: 1, SolverMiB: 1, Threads: threads, SplitHeight: 4, DepthByDeviation: true, DevCost: c})
			for i, b := range randomPositions(52, 6, 24+4*threads) {
				r := e.Search(context.Background(), b, Limits{Depth: 8, Selectivity: 3, Nodes: 400000}, nil)
				if !b.IsLegal(r.Move) {
					t.Fatalf("%d threads, table %s, position %d: move %v", threads, c, i, r.Move)
				}
				checkPVLegal(t, b, r.PV)
			}
		}
	}
}

// With depth by deviation value the parallel search finds the sequential one's value (without
// tables and cuts the tree, not the order, fixes it): the split points carry each move's
// height and fraction of a ply.
func TestParallelDepthByDeviation(t *testing.T) {
	positions := randomPositions(53, 6, 40)
	depth := 9
	if testing.Short() {
		positions, depth = positions[:3], 8
	}
	c := &DevCost{Cost: [DevPoints]float64{1.75, 1.5, 1.25, 1, 0.875, 0.75, 1}}
	cfg := Config{TTMiB: 1, SolverMiB: 1, NoMPC: true, NoTable: true, SplitHeight: 3, DepthByDeviation: true, DevCost: c}
	seq := NewEngine(cfg)
	cfg.Threads = 4
	par := NewEngine(cfg)
	for i, b := range positions {
		want := seq.Search(context.Background(), b, Limits{Depth: depth}, nil)
		got := par.Search(context.Background(), b, Limits{Depth: depth}, nil)
		if got.Score != want.Score || !b.IsLegal(got.Move) {
			t.Fatalf("position %d (%s): %v %v, sequential %v %v", i, b.OBF(), got.Move, got.Score, want.Move, want.Score)
		}
		checkPVLegal(t, b, got.PV)
	}
	if st := par.ParallelStats(); st.Splits == 0 {
		t.Fatal("no split point was opened")
	}
}

// Depth by deviation value allocates nothing per node, with two threads.
func TestDepthByDeviationAllocatesNothingPerNode(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	c := &DevCost{Cost: [DevPoints]float64{1.75, 1.5, 1.25, 1, 0.875, 0.75, 1}}
	e := NewEngine(Config{Eval: ev, TTMiB: 1, SolverMiB: 1, Threads: 2, SplitHeight: 3, DepthByDeviation: true, DevCost: c})
	b := randomPositions(44, 1, 40)[0]
	e.team.pool.Start()
	defer e.team.pool.Stop()
	e.begin(context.Background(), b, Limits{Selectivity: 3}, timePlan{})
	allocs := testing.AllocsPerRun(3, func() {
		e.nextGeneration()
		e.alphaBeta(-scoreInf, scoreInf, 9)
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per search", allocs)
	}
}
