package treesim

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// RunOptions are the treesim command's settings: Config's numbers, with the processes and the
// orders as comma-separated lists.
type RunOptions struct {
	B, Depth, Trees, IDStep, Workers int
	Seed                             uint64
	FreeLeaves, LeafSteps, OnceNodes bool
	Procs, Orders                    string
	// Othello names the positions of Othello trees (LoadPositions) instead of artificial
	// trees; the caller loads them into Config.Positions.
	Othello string
}

// Check refuses a list of processes that are not positive numbers, an unknown order, a
// branching factor outside 2-30, a depth or a number of trees below 1 or a negative IDStep;
// its errors name the command's flags.
func (o RunOptions) Check() error {
	_, err := o.config()
	return err
}

// Config is the simulation's configuration of checked options.
func (o RunOptions) Config() Config {
	c, _ := o.config()
	return c
}

func (o RunOptions) config() (Config, error) {
	cfg := Config{B: o.B, Depth: o.Depth, Trees: o.Trees, Seed: o.Seed, IDStep: o.IDStep, FreeLeaves: o.FreeLeaves, LeafSteps: o.LeafSteps, OnceNodes: o.OnceNodes, Workers: o.Workers}
	for _, f := range strings.Split(o.Procs, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || p < 1 {
			return cfg, fmt.Errorf("-procs: %q is not a number of processes", f)
		}
		cfg.Procs = append(cfg.Procs, p)
	}
	for _, f := range strings.Split(o.Orders, ",") {
		ord, err := ParseOrder(strings.TrimSpace(f))
		if err != nil {
			return cfg, fmt.Errorf("-orders: %v", err)
		}
		cfg.Orders = append(cfg.Orders, ord)
	}
	if btoi(o.FreeLeaves)+btoi(o.LeafSteps)+btoi(o.OnceNodes) > 1 {
		return cfg, fmt.Errorf("-freeleaves, -leafsteps and -oncenodes exclude one another")
	}
	if o.B < 2 || o.B > 30 || o.Depth < 1 || o.Trees < 1 || o.IDStep < 0 {
		return cfg, fmt.Errorf("want -b 2-30, -d and -trees at least 1, -idstep at least 0")
	}
	if o.Othello != "" {
		cfg.Source = o.Othello
		if o.Depth > MaxOthelloDepth {
			return cfg, fmt.Errorf("-d %d: Othello trees want at most %d", o.Depth, MaxOthelloDepth)
		}
		if o.FreeLeaves || o.LeafSteps || o.OnceNodes {
			return cfg, fmt.Errorf("-freeleaves, -leafsteps and -oncenodes are for artificial trees")
		}
		for _, ord := range cfg.Orders {
			if ord == Exact {
				return cfg, fmt.Errorf("-orders: exact is for artificial trees")
			}
		}
	}
	return cfg, nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Write prints the report on w: the settings, the model's prediction, and the tables of steps
// (with the paper's, when it has the branching factor and depth), nodes and search overhead
// of every order at every number of processes.
func (rep *Report) Write(w io.Writer) {
	if rep.Model == nil {
		rep.writeOthello(w)
		return
	}
	paper, hasPaper := PaperTable(rep.B, rep.Depth)
	leaves := "a leaf is a task"
	if rep.FreeLeaves {
		leaves = "leaves are evaluated by their parent's task"
	}
	if rep.LeafSteps {
		leaves = "only leaf evaluations take steps"
	}
	if rep.OnceNodes {
		leaves = "a node takes a step only the first time it is searched"
	}
	shallow := fmt.Sprintf("shallow searches %d plies shallower", rep.IDStep)
	if rep.IDStep == 0 {
		shallow = "no shallow searches"
	}
	fmt.Fprintf(w, "treesim: branching %d, depth %d, %d trees from seed %d; %s; %s\n",
		rep.B, rep.Depth, rep.Trees, rep.Seed, shallow, leaves)
	m := rep.Model
	fmt.Fprintf(w, "prediction (f^(%d) of the convergence procedure): epsilon %.1f (even depth) %.1f (odd), sigma^r %.1f",
		ConvergeDepth, m.Eps[0], m.Eps[1], m.SigmaR)
	if hasPaper {
		fmt.Fprintf(w, "; paper: %.1f %.1f, %.1f", paper.Eps[0], paper.Eps[1], paper.SigmaR)
	}
	fmt.Fprintln(w)
	what := "nodes"
	if rep.FreeLeaves {
		what = "searches of depth 1 or more"
	}
	if rep.LeafSteps {
		what = "leaf evaluations"
	}
	if rep.OnceNodes {
		what = "distinct nodes"
	}
	fmt.Fprintf(w, "sequential alpha-beta: %s %s (sd %s), the steps of every order with one process\n\n", num(rep.Sequential.Mean), what, num(rep.Sequential.SD))

	header := func(title string) {
		fmt.Fprintf(w, "%-16s", title)
		for _, p := range rep.Procs {
			fmt.Fprintf(w, " %9d", p)
		}
		fmt.Fprintln(w)
	}
	row := func(label string, xs []float64) {
		fmt.Fprintf(w, "%-16s", label)
		for _, x := range xs {
			fmt.Fprintf(w, " %9s", num(x))
		}
		fmt.Fprintln(w)
	}
	header("steps  P =")
	for o, order := range rep.Orders {
		mean := make([]float64, len(rep.Procs))
		sd := make([]float64, len(rep.Procs))
		for p := range rep.Procs {
			mean[p], sd[p] = rep.Cells[o][p].Steps.Mean, rep.Cells[o][p].Steps.SD
		}
		row(order.String(), mean)
		row("  (sd)", sd)
		if pub, ok := paper.Steps[order]; ok && hasPaper {
			pm := make([]float64, len(rep.Procs))
			for p, procs := range rep.Procs {
				pm[p] = -1
				for k, pp := range paper.Procs {
					if pp == procs {
						pm[p] = pub[k].Mean
					}
				}
			}
			row("  paper", pm)
		}
	}
	if hasPaper {
		fmt.Fprintf(w, "(paper: %s; its \"no approximations\" row is exact)\n", paper.Citation)
	}
	fmt.Fprintln(w)
	header("nodes  P =")
	for o, order := range rep.Orders {
		mean := make([]float64, len(rep.Procs))
		for p := range rep.Procs {
			mean[p] = rep.Cells[o][p].Nodes.Mean
		}
		row(order.String(), mean)
	}
	fmt.Fprintf(w, "(nodes: tasks executed, the mean over the trees)\n\n")
	rep.writeOverhead(w)
}

func (rep *Report) header(w io.Writer, title string) {
	fmt.Fprintf(w, "%-16s", title)
	for _, p := range rep.Procs {
		fmt.Fprintf(w, " %9d", p)
	}
	fmt.Fprintln(w)
}

func (rep *Report) row(w io.Writer, label string, cell func(c Cell) float64, o int) {
	fmt.Fprintf(w, "%-16s", label)
	for p := range rep.Procs {
		fmt.Fprintf(w, " %9s", num(cell(rep.Cells[o][p])))
	}
	fmt.Fprintln(w)
}

// writeOverhead ends a report: the search overhead and the time taken.
func (rep *Report) writeOverhead(w io.Writer) {
	rep.header(w, "overhead  P =")
	for o, order := range rep.Orders {
		fmt.Fprintf(w, "%-16s", order.String())
		for p := range rep.Procs {
			fmt.Fprintf(w, " %8.0f%%", 100*(rep.Cells[o][p].Nodes.Mean/rep.Sequential.Mean-1))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "(search overhead: nodes searched beyond the sequential search's)\n")
	fmt.Fprintf(w, "\nsimulated in %v\n", rep.Elapsed.Round(time.Second/10))
}

// writeOthello is Write for Othello trees: steps with their deviation and the speedup over one
// process, nodes and overhead.
func (rep *Report) writeOthello(w io.Writer) {
	shallow := fmt.Sprintf("shallow searches %d plies shallower", rep.IDStep)
	if rep.IDStep == 0 {
		shallow = "no shallow searches"
	}
	fmt.Fprintf(w, "treesim: Othello trees of %d positions (%s), depth %d (a pass is a ply); %s; a leaf is a task\n",
		len(rep.Positions), rep.Source, rep.Depth, shallow)
	fmt.Fprintf(w, "the engine's move order without its tables and killers, the pattern evaluation at the leaves, predictions\n")
	fmt.Fprintf(w, "from its Multi-ProbCut fit of the value at a height on the static value\n")
	fmt.Fprintf(w, "sequential alpha-beta: %s nodes (sd %s), the steps of every order with one process; %.1f children a node\n\n",
		num(rep.Sequential.Mean), num(rep.Sequential.SD), rep.Branching.Mean)
	rep.header(w, "steps  P =")
	for o, order := range rep.Orders {
		rep.row(w, order.String(), func(c Cell) float64 { return c.Steps.Mean }, o)
		rep.row(w, "  (sd)", func(c Cell) float64 { return c.Steps.SD }, o)
		rep.row(w, "  speedup", func(c Cell) float64 { return c.Speedup.Mean }, o)
		rep.row(w, "  of the means", func(c Cell) float64 { return rep.Sequential.Mean / c.Steps.Mean }, o)
	}
	fmt.Fprintf(w, "(speedup: the sequential nodes over the steps, the mean over the trees; of the means: mean nodes over mean steps)\n\n")
	if len(rep.Orders) > 1 {
		rep.header(w, fmt.Sprintf("steps/%v  P =", rep.Orders[0]))
		se := 1 / math.Sqrt(float64(max(rep.Trees, 1)))
		for o, order := range rep.Orders[1:] {
			fmt.Fprintf(w, "%-16s", order.String())
			for p := range rep.Procs {
				c := rep.Cells[o+1][p].Ratio
				fmt.Fprintf(w, " %9s", fmt.Sprintf("%.3f", c.Mean))
			}
			fmt.Fprintln(w)
			fmt.Fprintf(w, "%-16s", "  (se)")
			for p := range rep.Procs {
				fmt.Fprintf(w, " %9s", fmt.Sprintf("%.3f", rep.Cells[o+1][p].Ratio.SD*se))
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "(each order's steps over the %v's on the same tree, the mean over the trees and its standard error)\n\n", rep.Orders[0])
	}
	rep.header(w, "nodes  P =")
	for o, order := range rep.Orders {
		rep.row(w, order.String(), func(c Cell) float64 { return c.Nodes.Mean }, o)
	}
	fmt.Fprintf(w, "(nodes: tasks executed, the mean over the trees)\n\n")
	rep.writeOverhead(w)
}

// num prints a figure with three significant digits, like the paper's tables; -1 is "-".
func num(x float64) string {
	switch {
	case x < 0:
		return "-"
	case x >= 100:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case x >= 10:
		return strconv.FormatFloat(x, 'f', 1, 64)
	}
	return strconv.FormatFloat(x, 'f', 2, 64)
}
