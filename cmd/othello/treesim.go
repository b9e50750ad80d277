package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/othellogo/othello/treesim"
)

func cmdTreesim(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "treesim")
	var o treesim.RunOptions
	fs.IntVar(&o.B, "b", 5, "branching factor of the artificial trees (2-30)")
	fs.IntVar(&o.Depth, "d", 10, "depth of the trees")
	fs.IntVar(&o.Trees, "trees", 100, "number of trees; the tables give the mean and deviation over them")
	fs.StringVar(&o.Procs, "procs", "1,256,1024,4096,16384", "comma-separated numbers of processes")
	fs.StringVar(&o.Orders, "orders", "method,nodist,depthfirst,ybwc", "comma-separated orders: method, nodist, depthfirst, ybwc, exact (exact is slow)")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the trees")
	fs.IntVar(&o.IDStep, "idstep", 2, "a node's shallow search is this much shallower (0: no shallow searches)")
	fs.BoolVar(&o.FreeLeaves, "freeleaves", false, "a search's leaves are evaluated by their parent's task instead of being tasks of their own")
	fs.BoolVar(&o.LeafSteps, "leafsteps", false, "only leaf evaluations take steps; expanding a node is free (the paper's simulation step)")
	fs.BoolVar(&o.OnceNodes, "oncenodes", false, "a node takes a step only the first time it is searched (deeper re-searches of it are free)")
	fs.IntVar(&o.Workers, "workers", 0, "trees simulated at once (0: one per CPU); the results do not depend on it")
	fs.StringVar(&o.Othello, "othello", "", "Othello trees instead of artificial ones: a file of positions (.obf lines or transcripts), or \"bench\"; -d at most 12, the first -trees positions")
	setUsage(env, fs, "usage: othello treesim [options]\n\nSimulates parallel alpha-beta search of P processes on artificial trees, as in section 4.3\nof Ura, Tsuruoka and Chikayama (seed paper 000), and prints the steps each order of tasks\ntakes (their tables 4 and 5) and the nodes it searches; with -othello, on the search trees\nof real positions. See docs/treesim.md. Options:\n")
	if err := parseArgs(env, fs, args, 0, 0, ""); err != nil {
		return err
	}
	if err := o.Check(); err != nil {
		return exitError{2, err}
	}
	cfg := o.Config()
	if o.Othello != "" {
		ps, err := treesim.LoadPositions(o.Othello)
		if err != nil {
			return err
		}
		cfg.Positions = ps[:min(len(ps), cfg.Trees)]
		cfg.Trees = len(cfg.Positions)
	}
	if err := checkTableMemory(fmt.Sprintf("-trees %d", cfg.Trees), cfg.ResultBytes()); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bar := newBar(env, cfg.Trees, "trees")
	rep, err := treesim.Run(ctx, cfg, func(done, _ int) { _ = bar.Set(done) })
	_ = bar.Finish()
	if err != nil {
		return err
	}
	rep.Write(env.stdout)
	return nil
}
