package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/othellogo/othello/cluster"
	"github.com/othellogo/othello/endgame"
)

// The distributed solve (package cluster, docs/distributed.md): "othello worker" runs a
// Searcher, "othello dsolve" the Controller. solve, analyze and book extend do not take
// --redis yet; dsolve is the controller until they do.

func cmdWorker(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "worker")
	addrs := fs.String("redis", "127.0.0.1:6379", "Redis servers host:port[,host:port...]: the first carries the task queue, the global table is sharded over all")
	threads := fs.Int("threads", 1, "threads that search each task")
	hashMiB := fs.Int("hash", 256, "local transposition table, MiB")
	noGlobal := fs.Bool("no-global", false, "measurement: no global table, only the local one")
	globalEmpties := fs.Int("global-empties", 18, "fewest empties at which the global table is asked (20 or more over a network: see docs/distributed.md)")
	delay := fs.Duration("delay", 0, "measurement: added to every Redis round trip (simulated network latency, e.g. 0.5ms)")
	visibility := fs.Duration("visibility", 10*time.Second, "a task not extended for this long goes to another worker (same on every process)")
	giveUp := fs.Duration("give-up", 30*time.Second, "exit when Redis has failed for this long without a break")
	name := fs.String("name", "", "worker name in the queue (default host-pid)")
	evalName := fs.String("eval", "default", "move ordering far from the leaves: "+evalFlagHelp)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello worker [options]\n\nSolves the tasks that \"othello dsolve\" puts on the Redis queue until interrupted. Options:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitError{2, fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	list, err := cluster.ParseAddrs(*addrs)
	if err != nil {
		return exitError{2, err}
	}
	if *threads < 1 || *threads > 256 {
		return exitError{2, fmt.Errorf("--threads %d: want 1 to 256", *threads)}
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	q, err := cluster.NewRedisQueue(ctx, cluster.QueueOptions{Addr: list[0], Delay: *delay, Visibility: *visibility})
	if err != nil {
		return err
	}
	defer q.Close()
	opt := cluster.WorkerOptions{Name: *name, GiveUp: *giveUp}
	opt.Solver = endgame.DefaultSolverOptions(*hashMiB)
	opt.Solver.Threads = *threads
	opt.Solver.Eval = ev.ev
	opt.Solver.GlobalEmpties = *globalEmpties
	if !*noGlobal {
		tab, err := cluster.NewRedisTable(cluster.TableOptions{Addrs: list, Delay: *delay})
		if err != nil {
			return err
		}
		defer func() {
			st := tab.Stats()
			env.log.Info().Msgf("global table: %d probes, %d hits, %.3f s waiting; %d stores, %d dropped, %d batches", st.Probes, st.Hits, st.ProbeTime.Seconds(), st.Stores, st.Dropped, st.Batches)
			tab.Close()
		}()
		opt.Table = tab
	}
	opt.Logf = func(format string, args ...any) { env.log.Debug().Msgf(format, args...) }
	w := cluster.NewWorker(q, opt)
	table := "no global table"
	if !*noGlobal {
		table = fmt.Sprintf("global table on %d server(s)", len(list))
	}
	env.log.Info().Msgf("worker %s: queue on %s, %s, %d thread(s), local table %d MiB", w.Name(), list[0], table, *threads, *hashMiB)
	return w.Run(ctx)
}

func cmdDsolve(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "dsolve")
	addrs := fs.String("redis", "127.0.0.1:6379", "Redis servers host:port[,host:port...] (the first carries the task queue)")
	split := fs.String("split", "pvsplit", "how the positions are split into tasks: pvsplit or tree")
	pvDepth := fs.Int("pv-depth", 3, "plies of the principal variation that are split (pvsplit)")
	taskEmpties := fs.Int("task-empties", 16, "a node is split only while its moves leave at least this many empties")
	strict := fs.Bool("strict", false, "pvsplit level by level, as in the paper (no early hand-out of the levels above)")
	noAsp := fs.Bool("no-aspiration", false, "measurement: the full window at once instead of narrow windows first")
	first := fs.Int("first", 0, "number of the file's first position (0: from a name like fforum-40-59.obf, else 1)")
	only := fs.String("only", "", "solve only these positions, by number: e.g. 40-45,48")
	evalName := fs.String("eval", "default", "ordering of the moves the controller splits: "+evalFlagHelp)
	delay := fs.Duration("delay", 0, "measurement: added to every Redis round trip of the controller (give the workers the same)")
	flush := fs.Bool("flush", false, "measurement: empty the global table before each position")
	stall := fs.Duration("stall", 5*time.Minute, "fail when no result comes for this long (no worker running?)")
	base := fs.String("base", "", "measurement: the output of \"othello solve -threads 1\" on the same file, for the paper's overheads against it")
	nWorkers := fs.Int("workers", 0, "measurement: N of the overheads (0: the workers that answered)")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello dsolve [options] FILE.obf\n\nSolves every position of an .obf file exactly on the workers (\"othello worker\") that\nshare the Redis servers, and compares with the file's scores; exits with status 3 if any\ndisagrees. Options:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	var files []string
	for fs.NArg() > 0 {
		files = append(files, fs.Arg(0))
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return exitError{2, err}
		}
	}
	if len(files) != 1 {
		fs.Usage()
		return exitError{2, fmt.Errorf("want one FILE.obf argument")}
	}
	path := files[0]
	list, err := cluster.ParseAddrs(*addrs)
	if err != nil {
		return exitError{2, err}
	}
	sp, err := cluster.ParseSplit(*split)
	if err != nil {
		return exitError{2, err}
	}
	problems, err := readProblems(path)
	if err != nil {
		return err
	}
	if *first <= 0 {
		*first = endgame.FirstNumber(path)
	}
	selected, err := endgame.SelectProblems(*only, *first, len(problems))
	if err != nil {
		return exitError{2, err}
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	var baseline map[int]cluster.BaseRun
	if *base != "" {
		if baseline, err = cluster.ReadBase(*base); err != nil {
			return exitError{2, err}
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	wrong, err := cluster.SolveProblems(ctx, env.stdout, cluster.ProblemRun{
		Path: path, Problems: problems, Selected: selected, First: *first, Addrs: list, Delay: *delay, Flush: *flush,
		Base: baseline, BasePath: *base, Workers: *nWorkers,
		Options: cluster.ControllerOptions{
			Split: sp, PVDepth: *pvDepth, TaskEmpties: *taskEmpties, Strict: *strict, NoAspiration: *noAsp, Eval: ev.ev, Stall: *stall,
			Logf:   func(format string, args ...any) { env.log.Warn().Msgf(format, args...) },
			Debugf: func(format string, args ...any) { env.log.Debug().Msgf(format, args...) },
		}})
	if err != nil {
		return err
	}
	if wrong > 0 {
		return exitError{3, fmt.Errorf("%d score(s) disagree with the file", wrong)}
	}
	return nil
}
