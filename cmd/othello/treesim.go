package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"time"

	"github.com/othellogo/othello/treesim"
)

func cmdTreesim(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "treesim")
	b := fs.Int("b", 5, "branching factor of the artificial trees (2-30)")
	d := fs.Int("d", 10, "depth of the trees")
	trees := fs.Int("trees", 100, "number of trees; the tables give the mean and deviation over them")
	procs := fs.String("procs", "1,256,1024,4096,16384", "comma-separated numbers of processes")
	orders := fs.String("orders", "method,nodist,depthfirst,ybwc", "comma-separated orders: method, nodist, depthfirst, ybwc, exact (exact is slow)")
	seed := fs.Uint64("seed", 1, "seed of the trees")
	idStep := fs.Int("idstep", 2, "a node's shallow search is this much shallower (0: no shallow searches)")
	freeLeaves := fs.Bool("freeleaves", false, "a search's leaves are evaluated by their parent's task instead of being tasks of their own")
	workers := fs.Int("workers", 0, "trees simulated at once (0: one per CPU); the results do not depend on it")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello treesim [options]\n\nSimulates parallel alpha-beta search of P processes on artificial trees, as in section 4.3\nof Ura, Tsuruoka and Chikayama (seed paper 000), and prints the steps each order of tasks\ntakes (their tables 4 and 5) and the nodes it searches. See docs/treesim.md. Options:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitError{2, fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	cfg := treesim.Config{B: *b, Depth: *d, Trees: *trees, Seed: *seed, IDStep: *idStep, FreeLeaves: *freeLeaves, Workers: *workers}
	for _, f := range strings.Split(*procs, ",") {
		p, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || p < 1 {
			return exitError{2, fmt.Errorf("-procs: %q is not a number of processes", f)}
		}
		cfg.Procs = append(cfg.Procs, p)
	}
	for _, f := range strings.Split(*orders, ",") {
		o, err := treesim.ParseOrder(strings.TrimSpace(f))
		if err != nil {
			return exitError{2, fmt.Errorf("-orders: %v", err)}
		}
		cfg.Orders = append(cfg.Orders, o)
	}
	if *b < 2 || *b > 30 || *d < 1 || *trees < 1 || *idStep < 0 {
		return exitError{2, fmt.Errorf("want -b 2-30, -d and -trees at least 1, -idstep at least 0")}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bar := newBar(env, cfg.Trees, "trees")
	rep, err := treesim.Run(ctx, cfg, func(done, _ int) { _ = bar.Set(done) })
	_ = bar.Finish()
	if err != nil {
		return err
	}
	printTreesim(env.stdout, rep)
	return nil
}

func printTreesim(w io.Writer, rep *treesim.Report) {
	paper, hasPaper := treesim.PaperTable(rep.B, rep.Depth)
	leaves := "a leaf is a task"
	if rep.FreeLeaves {
		leaves = "leaves are evaluated by their parent's task"
	}
	shallow := fmt.Sprintf("shallow searches %d plies shallower", rep.IDStep)
	if rep.IDStep == 0 {
		shallow = "no shallow searches"
	}
	fmt.Fprintf(w, "treesim: branching %d, depth %d, %d trees from seed %d; %s; %s\n",
		rep.B, rep.Depth, rep.Trees, rep.Seed, shallow, leaves)
	m := rep.Model
	fmt.Fprintf(w, "prediction (f^(%d) of the convergence procedure): epsilon %.1f (even depth) %.1f (odd), sigma^r %.1f",
		treesim.ConvergeDepth, m.Eps[0], m.Eps[1], m.SigmaR)
	if hasPaper {
		fmt.Fprintf(w, "; paper: %.1f %.1f, %.1f", paper.Eps[0], paper.Eps[1], paper.SigmaR)
	}
	fmt.Fprintln(w)
	what := "nodes"
	if rep.FreeLeaves {
		what = "searches of depth 1 or more"
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
	header("overhead  P =")
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
