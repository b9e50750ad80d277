package treesim

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"github.com/othellogo/othello/board"
)

// Config is one experiment: which trees, how many processes, which orders.
type Config struct {
	B, Depth   int
	Trees      int
	Seed       uint64
	Procs      []int
	Orders     []Order
	IDStep     int  // see Options
	FreeLeaves bool // see Options
	LeafSteps  bool // see Options
	OnceNodes  bool // see Options
	// Workers is how many trees are simulated at once (0: one per CPU). The results do not
	// depend on it.
	Workers int
	// Positions, when not empty, replace the artificial trees (B, Seed) by the Othello trees
	// of these positions to Depth, one tree each; Source names them in the report.
	Positions []board.Board
	Source    string
}

// Stat is a mean and a sample standard deviation over the trees.
type Stat struct{ Mean, SD float64 }

func stat(xs []float64) Stat {
	if len(xs) == 0 {
		return Stat{}
	}
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	if len(xs) == 1 {
		return Stat{m, 0}
	}
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return Stat{m, math.Sqrt(v / float64(len(xs)-1))}
}

// Cell is what one order measured with one number of processes.
type Cell struct {
	Steps Stat // steps to finish the search
	Nodes Stat // tasks executed: the node searches done, wasted ones included
	// Speedup is the sequential search's node count (the steps of one process) over the
	// steps, tree by tree.
	Speedup Stat
	// Ratio is the steps over those of the first order with as many processes, tree by tree.
	Ratio Stat
}

// Report is an experiment's result.
type Report struct {
	Config
	Model *Model // nil for Othello trees
	// Sequential is the node count of the sequential alpha-beta search (Sequential.Nodes), or
	// with FreeLeaves its searches of depth 1 or more (Sequential.Interior), with LeafSteps its
	// searches of depth 0 (Nodes - Interior), with OnceNodes the distinct nodes it searched: what every order
	// must take with one process.
	Sequential Stat
	// Branching is, for Othello trees, the mean number of children of the nodes the
	// sequential search expanded.
	Branching Stat
	Cells     [][]Cell // [order][procs]
	Elapsed   time.Duration
}

// ResultBytes estimates the memory Run holds for cfg's results: every tree's counts for each
// order and number of processes, kept until the statistics over the trees are taken, and the
// vectors those statistics are taken over. A command checks it against the memory available
// before a run, so that a huge -trees is refused rather than ending out of memory.
func (cfg Config) ResultBytes() uint64 {
	trees := uint64(max(cfg.Trees, len(cfg.Positions), 0))
	orders, procs := uint64(len(cfg.Orders)), uint64(len(cfg.Procs))
	const sliceHeader = 24
	perTree := uint64(unsafe.Sizeof(treeResult{})) + 2*orders*(sliceHeader+8*procs) + 6*8
	return trees * perTree
}

// treeSeed is the seed of the i-th tree of an experiment.
func treeSeed(seed uint64, i int) uint64 { return splitmix(seed ^ splitmix(uint64(i))) }

// treeResult is what the runs on one tree measured.
type treeResult struct {
	seq    int
	branch float64 // Othello trees: the sequential search's mean number of children
	steps  [][]int // [order][procs]
	nodes  [][]int
}

// Run simulates every order with every number of processes on cfg.Trees trees. progress, if not
// nil, is called after each tree with the trees done so far, from the caller's goroutine.
func Run(ctx context.Context, cfg Config, progress func(done, total int)) (*Report, error) {
	if len(cfg.Positions) > 0 {
		cfg.Trees = len(cfg.Positions)
	}
	if cfg.Trees < 1 {
		return nil, fmt.Errorf("%d trees: want at least 1", cfg.Trees)
	}
	if len(cfg.Procs) == 0 || len(cfg.Orders) == 0 {
		return nil, fmt.Errorf("want at least one number of processes and one order")
	}
	for _, p := range cfg.Procs {
		if p < 1 {
			return nil, fmt.Errorf("%d processes: want at least 1", p)
		}
	}
	start := time.Now()
	var m *Model
	var oth *othelloSetup
	if len(cfg.Positions) > 0 {
		var err error
		if oth, err = newOthelloSetup(cfg); err != nil {
			return nil, err
		}
	} else {
		if err := checkShape(cfg.B, cfg.Depth); err != nil {
			return nil, err
		}
		var err error
		if m, err = NewModel(cfg.B); err != nil {
			return nil, err
		}
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, cfg.Trees)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type done struct {
		i   int
		r   treeResult
		err error
	}
	jobs := make(chan int)
	out := make(chan done)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := NewSim()
			for i := range jobs {
				var r treeResult
				var err error
				if oth != nil {
					r, err = oth.runTree(ctx, s, cfg, i)
				} else {
					r, err = runTree(ctx, s, m, cfg, i)
				}
				select {
				case out <- done{i, r, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := 0; i < cfg.Trees; i++ {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(out)
	}()
	results := make([]treeResult, cfg.Trees)
	n := 0
	var firstErr error
	for d := range out {
		if d.err != nil && firstErr == nil {
			firstErr = d.err
			cancel()
		}
		results[d.i] = d.r
		n++
		if progress != nil && firstErr == nil {
			progress(n, cfg.Trees)
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep := &Report{Config: cfg, Model: m, Elapsed: time.Since(start)}
	seq := make([]float64, cfg.Trees)
	for i, r := range results {
		seq[i] = float64(r.seq)
	}
	rep.Sequential = stat(seq)
	if len(cfg.Positions) > 0 {
		br := make([]float64, cfg.Trees)
		for i, r := range results {
			br[i] = r.branch
		}
		rep.Branching = stat(br)
	}
	rep.Cells = make([][]Cell, len(cfg.Orders))
	for o := range cfg.Orders {
		rep.Cells[o] = make([]Cell, len(cfg.Procs))
		for p := range cfg.Procs {
			steps := make([]float64, cfg.Trees)
			nodes := make([]float64, cfg.Trees)
			speedup := make([]float64, cfg.Trees)
			ratio := make([]float64, cfg.Trees)
			for i, r := range results {
				steps[i] = float64(r.steps[o][p])
				nodes[i] = float64(r.nodes[o][p])
				speedup[i] = float64(r.seq) / float64(r.steps[o][p])
				ratio[i] = float64(r.steps[o][p]) / float64(r.steps[0][p])
			}
			rep.Cells[o][p] = Cell{stat(steps), stat(nodes), stat(speedup), stat(ratio)}
		}
	}
	return rep, nil
}

// runTree runs the sequential search and every simulation on tree i, and checks that they all
// find the tree's value.
func runTree(ctx context.Context, s *Sim, m *Model, cfg Config, i int) (treeResult, error) {
	tree, err := NewTree(m, cfg.Depth, treeSeed(cfg.Seed, i))
	if err != nil {
		return treeResult{}, err
	}
	want := tree.Value(0, 0, 0)
	q := NewSequential(tree, cfg.IDStep)
	if v := q.Search(); v != want {
		return treeResult{}, fmt.Errorf("tree %d: sequential search found %d, the tree's value is %d", i, v, want)
	}
	r := treeResult{seq: q.Nodes}
	if cfg.FreeLeaves {
		r.seq = q.Interior
	}
	if cfg.LeafSteps {
		r.seq = q.Nodes - q.Interior
	}
	if cfg.OnceNodes {
		r.seq = q.Distinct
	}
	r.steps = make([][]int, len(cfg.Orders))
	r.nodes = make([][]int, len(cfg.Orders))
	for o, order := range cfg.Orders {
		r.steps[o] = make([]int, len(cfg.Procs))
		r.nodes[o] = make([]int, len(cfg.Procs))
		for p, procs := range cfg.Procs {
			if err := ctx.Err(); err != nil {
				return r, err
			}
			res, err := s.Run(tree, Options{order, procs, cfg.IDStep, cfg.FreeLeaves, cfg.LeafSteps, cfg.OnceNodes})
			if err != nil {
				return r, fmt.Errorf("tree %d, %v, %d processes: %w", i, order, procs, err)
			}
			if res.Value != want {
				return r, fmt.Errorf("tree %d, %v, %d processes: found %d, the tree's value is %d", i, order, procs, res.Value, want)
			}
			r.steps[o][p], r.nodes[o][p] = res.Steps, res.Nodes
		}
	}
	return r, nil
}

// Published is what the paper reports for its artificial trees (section 4.3, tables 4 and 5):
// for each order, the mean and standard deviation of the steps over 100 trees with 1, 256,
// 1024, 4096 and 16384 processes, and the prediction its convergence procedure gave.
type Published struct {
	Procs    []int
	Steps    map[Order][]Stat
	Eps      [2]float64 // even, odd depths
	SigmaR   float64
	Citation string
}

// PaperTable returns the paper's figures for b=5, d=10 (table 4) and b=20, d=6 (table 5), and
// false for other shapes. Its "no approximations" row is under Exact.
func PaperTable(b, depth int) (Published, bool) {
	procs := []int{1, 256, 1024, 4096, 16384}
	row := func(xs ...float64) []Stat {
		s := make([]Stat, len(xs)/2)
		for i := range s {
			s[i] = Stat{xs[2*i], xs[2*i+1]}
		}
		return s
	}
	switch {
	case b == 5 && depth == 10:
		return Published{
			Procs: procs,
			Steps: map[Order][]Stat{
				Exact:      row(23478, 5551, 145, 31, 62.4, 8.9, 39.5, 2.5, 30.6, 1.2),
				Method:     row(23478, 5551, 158, 38, 65.8, 9.9, 41.6, 3.4, 32.5, 1.7),
				NoDist:     row(23478, 5551, 153, 36, 75.2, 13.3, 50.9, 7.6, 36.3, 3.9),
				DepthFirst: row(23478, 5551, 237, 70, 121, 35, 65.7, 15.2, 39.8, 6.1),
			},
			Eps: [2]float64{26.2, 125.5}, SigmaR: 85.6,
			Citation: "Ura, Tsuruoka, Chikayama, table 4 (branching 5, depth 10)",
		}, true
	case b == 20 && depth == 6:
		return Published{
			Procs: procs,
			Steps: map[Order][]Stat{
				Exact:      row(35037, 7508, 154, 32, 48.4, 8.8, 20.4, 2.6, 14.2, 0.5),
				Method:     row(35037, 7508, 174, 41, 54.0, 12.7, 22.1, 3.5, 15.0, 1.4),
				NoDist:     row(35037, 7508, 166, 39, 53.1, 11.5, 23.0, 4.1, 16.4, 2.1),
				DepthFirst: row(35037, 7508, 174, 42, 59.7, 15.5, 31.5, 8.0, 22.7, 4.8),
			},
			Eps: [2]float64{22.6, 191.1}, SigmaR: 58.9,
			Citation: "Ura, Tsuruoka, Chikayama, table 5 (branching 20, depth 6)",
		}, true
	}
	return Published{}, false
}
