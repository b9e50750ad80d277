package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/othellogo/othello/cluster"
)

// The distributed solve (package cluster, docs/distributed.md): "othello worker" runs a
// Searcher, "othello dsolve" the Controller. solve, analyze and book extend do not take
// --redis yet; dsolve is the controller until they do.

func cmdWorker(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "worker")
	var r cluster.WorkerRun
	fs.StringVar(&r.Addrs, "redis", "127.0.0.1:6379", "Redis servers host:port[,host:port...]: the first carries the task queue, the global table is sharded over all")
	fs.IntVar(&r.Threads, "threads", 1, "threads that search each task")
	fs.IntVar(&r.HashMiB, "hash", 256, "local transposition table, MiB")
	fs.BoolVar(&r.NoGlobal, "no-global", false, "measurement: no global table, only the local one")
	fs.IntVar(&r.GlobalEmpties, "global-empties", 18, "fewest empties at which the global table is asked (20 or more over a network: see docs/distributed.md)")
	fs.DurationVar(&r.Delay, "delay", 0, "measurement: added to every Redis round trip (simulated network latency, e.g. 0.5ms)")
	fs.DurationVar(&r.Visibility, "visibility", 10*time.Second, "a task not extended for this long goes to another worker (same on every process)")
	fs.DurationVar(&r.GiveUp, "give-up", 30*time.Second, "exit when Redis has failed for this long without a break")
	fs.StringVar(&r.Name, "name", "", "worker name in the queue (default host-pid)")
	evalName := fs.String("eval", "default", "move ordering far from the leaves: "+evalFlagHelp)
	setUsage(env, fs, "usage: othello worker [options]\n\nSolves the tasks that \"othello dsolve\" puts on the Redis queue until interrupted. Options:\n")
	if err := parseArgs(env, fs, args, 0, 0, ""); err != nil {
		return err
	}
	if err := r.Check(); err != nil {
		return exitError{2, err}
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	r.Eval = ev.ev
	r.Infof = func(format string, args ...any) { env.log.Info().Msgf(format, args...) }
	r.Logf = func(format string, args ...any) { env.log.Debug().Msgf(format, args...) }
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return r.Run(ctx)
}

func cmdDsolve(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "dsolve")
	var o cluster.DsolveOptions
	fs.StringVar(&o.AddrList, "redis", "127.0.0.1:6379", "Redis servers host:port[,host:port...] (the first carries the task queue)")
	fs.StringVar(&o.SplitName, "split", "pvsplit", "how the positions are split into tasks: pvsplit or tree")
	fs.IntVar(&o.Options.PVDepth, "pv-depth", 3, "plies of the principal variation that are split (pvsplit)")
	fs.IntVar(&o.Options.TaskEmpties, "task-empties", 16, "a node is split only while its moves leave at least this many empties")
	fs.BoolVar(&o.Options.Strict, "strict", false, "pvsplit level by level, as in the paper (no early hand-out of the levels above)")
	fs.BoolVar(&o.Options.NoAspiration, "no-aspiration", false, "measurement: the full window at once instead of narrow windows first")
	fs.IntVar(&o.First, "first", 0, "number of the file's first position (0: from a name like fforum-40-59.obf, else 1)")
	fs.StringVar(&o.Only, "only", "", "solve only these positions, by number: e.g. 40-45,48")
	evalName := fs.String("eval", "default", "ordering of the moves the controller splits: "+evalFlagHelp)
	fs.DurationVar(&o.Delay, "delay", 0, "measurement: added to every Redis round trip of the controller (give the workers the same)")
	fs.BoolVar(&o.Flush, "flush", false, "measurement: empty the global table before each position")
	fs.DurationVar(&o.Options.Stall, "stall", 5*time.Minute, "fail when no result comes for this long (no worker running?)")
	fs.StringVar(&o.BasePath, "base", "", "measurement: the output of \"othello solve -threads 1\" on the same file, for the paper's overheads against it")
	fs.IntVar(&o.Workers, "workers", 0, "measurement: N of the overheads (0: the workers that answered)")
	setUsage(env, fs, "usage: othello dsolve [options] FILE.obf\n\nSolves every position of an .obf file exactly on the workers (\"othello worker\") that\nshare the Redis servers, and compares with the file's scores; exits with status 3 if any\ndisagrees. Options:\n")
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
		return usageError(fs, fmt.Errorf("want one FILE.obf argument"))
	}
	if err := o.Check(); err != nil {
		return exitError{2, err}
	}
	problems, err := readProblems(files[0])
	if err != nil {
		return err
	}
	if err := o.Select(files[0], problems); err != nil {
		return exitError{2, err}
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	if err := o.ReadBase(); err != nil {
		return exitError{2, err}
	}
	o.Options.Eval = ev.ev
	o.Options.Logf = func(format string, args ...any) { env.log.Warn().Msgf(format, args...) }
	o.Options.Debugf = func(format string, args ...any) { env.log.Debug().Msgf(format, args...) }
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	wrong, err := cluster.SolveProblems(ctx, env.stdout, o.ProblemRun)
	if err != nil {
		return err
	}
	if wrong > 0 {
		return exitError{3, fmt.Errorf("%d score(s) disagree with the file", wrong)}
	}
	return nil
}
