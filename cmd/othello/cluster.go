package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/cluster"
	"github.com/othellogo/othello/protocol"
	"github.com/othellogo/othello/search"
)

// The distributed solve (package cluster, docs/distributed.md): "othello worker" runs a
// Searcher; solve, analyze and book extend with --redis are the Controller.

func cmdWorker(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "worker")
	var r cluster.WorkerRun
	addRedisFlags(fs, &r.Access, "127.0.0.1:6379", "the Redis servers of the queue (the first) and of the global table (sharded over all)")
	fs.IntVar(&r.Threads, "threads", 1, "threads that search each task")
	fs.IntVar(&r.HashMiB, "hash", 256, "local transposition table, MiB")
	fs.IntVar(&r.SearchMiB, "tt", 64, "bounds tables of the midgame searches (analyze and book extend --redis), MiB")
	fs.BoolVar(&r.NoGlobal, "no-global", false, "measurement: no global table, only the local one")
	fs.BoolVar(&r.NoPrefetch, "no-prefetch", false, "measurement: a probe of the global table does not also fetch the children's entries")
	fs.IntVar(&r.GlobalEmpties, "global-empties", 20, "fewest empties at which the global table is asked (see docs/distributed.md)")
	fs.DurationVar(&r.Delay, "delay", 0, "measurement: added to every Redis round trip (simulated network latency, e.g. 0.5ms)")
	fs.DurationVar(&r.Visibility, "visibility", 10*time.Second, "a task not extended for this long goes to another worker (same on every process)")
	fs.DurationVar(&r.GiveUp, "give-up", 30*time.Second, "exit when Redis has failed for this long without a break")
	fs.StringVar(&r.Name, "name", "", "worker name in the queue (default host-pid)")
	fs.IntVar(&r.MaxEmpties, "max-empties", 40, "drop exact-solve tasks with more empties than this")
	fs.IntVar(&r.MaxDepth, "max-depth", 40, "drop midgame search tasks deeper than this")
	fs.DurationVar(&r.MaxTaskTime, "max-task-time", time.Hour, "stop a task that runs this long and report it failed to its controller")
	evalName := fs.String("eval", "default", "move ordering far from the leaves: "+evalFlagHelp)
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the worker to this file (go tool pprof)")
	setUsage(env, fs, "usage: othello worker [options]\n\nSolves the tasks that \"othello solve/analyze/book extend --redis\" put on the Redis queue until interrupted. Options:\n")
	if err := parseArgs(env, fs, args, 0, 0, ""); err != nil {
		return err
	}
	if err := r.Check(); err != nil {
		return exitError{2, err}
	}
	if err := checkTableMemory(fmt.Sprintf("-hash %d with -tt %d", r.HashMiB, r.SearchMiB), r.TableBytes()); err != nil {
		return err
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	r.Eval = ev.ev
	cluster.SilenceClientLog()
	r.Infof = func(format string, args ...any) { env.log.Info().Msgf(format, args...) }
	r.Logf = func(format string, args ...any) { env.log.Debug().Msgf(format, args...) }
	r.Warnf = func(format string, args ...any) { env.log.Warn().Msgf(format, args...) }
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return r.Run(ctx)
}

// cmdDsolve is "othello solve --redis" with the default server (the flags may name others).
func cmdDsolve(env *cmdEnv, args []string) error {
	return cmdSolve(env, append([]string{"--redis", "127.0.0.1:6379"}, args...))
}

// addRedisFlags adds --redis (what the servers are for: use) with its default, the TLS
// files and --cluster-key.
func addRedisFlags(fs *flag.FlagSet, a *cluster.Access, def, use string) {
	fs.StringVar(&a.Servers, "redis", def, use+": host:port, redis://[user:password@]host:port or rediss://... (TLS), comma-separated, the first carrying the task queue; a password not given here comes from $"+cluster.PasswordEnv+" or $"+cluster.RedisCLIAuth+" (docs/distributed.md)")
	fs.StringVar(&a.CAFile, "redis-ca", "", "with a rediss:// --redis: PEM file of the CA that signed the servers' certificates (default: the system's)")
	fs.StringVar(&a.CertFile, "redis-cert", "", "with a rediss:// --redis: PEM client certificate, for servers that ask for one (with --redis-key)")
	fs.StringVar(&a.CertKeyFile, "redis-key", "", "with a rediss:// --redis: PEM key of --redis-cert")
	fs.StringVar(&a.ClusterKeyFile, "cluster-key", "", "file holding the cluster's shared secret (the same on the controller and every worker; at least 16 bytes): tasks, results and global table entries are signed with it, and whatever is not is dropped. Without one, only loopback Redis addresses are accepted")
}

// addControllerFlags adds the controller's flags of solve --redis (with the defaults of
// dsolve before it).
func addControllerFlags(fs *flag.FlagSet, o *cluster.DsolveOptions) {
	addRedisFlags(fs, &o.Access, "", "solve on the workers sharing these Redis servers")
	fs.StringVar(&o.SplitName, "split", "pvsplit", "with --redis: how the positions are split into tasks, pvsplit or tree")
	fs.IntVar(&o.Options.PVDepth, "pv-depth", 3, "with --redis: plies of the principal variation that are split (pvsplit)")
	fs.IntVar(&o.Options.OrderDepth, "order-depth", 6, "with --redis: depth of the evaluation's search that orders the moves of the nodes split")
	fs.IntVar(&o.Options.TaskEmpties, "task-empties", 16, "with --redis: a node is split only while its moves leave at least this many empties")
	fs.BoolVar(&o.Options.Speculate, "speculate", false, "with --redis, measurement: while the principal variation's end is solved first, test the other moves against the evaluation's guess of its value")
	fs.IntVar(&o.Options.HelpEmpties, "help-empties", 0, "with --redis, measurement: while the principal variation's end is solved first, the other workers solve its other moves if they keep this many empties (the workers' -global-empties; 0: they wait)")
	fs.BoolVar(&o.Options.Strict, "strict", false, "with --redis: pvsplit level by level, as in the paper (no early hand-out of the levels above)")
	fs.DurationVar(&o.Delay, "delay", 0, "with --redis, measurement: added to every Redis round trip of the controller (give the workers the same)")
	fs.BoolVar(&o.Flush, "flush", false, "with --redis, measurement: empty the global table before each position")
	fs.DurationVar(&o.Options.Stall, "stall", 5*time.Minute, "with --redis: fail when no result comes for this long (no worker running?)")
	fs.StringVar(&o.BasePath, "base", "", "with --redis, measurement: the output of \"othello solve -threads 1\" on the same file, for the paper's overheads against it")
	fs.IntVar(&o.Workers, "workers", 0, "with --redis, measurement: N of the overheads (0: the workers that answered)")
}

// distributedSolve is solve --redis: the controller of a distributed solve of the file.
func distributedSolve(env *cmdEnv, o cluster.DsolveOptions, file, evalName string) error {
	if err := o.Check(); err != nil {
		return exitError{2, err}
	}
	problems, err := readProblems(file)
	if err != nil {
		return err
	}
	if err := o.Select(file, problems); err != nil {
		return exitError{2, err}
	}
	ev, err := loadEvaluator(evalName)
	if err != nil {
		return exitError{2, err}
	}
	if err := o.ReadBase(); err != nil {
		return exitError{2, err}
	}
	o.Options.Eval = ev.ev
	cluster.SilenceClientLog()
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

// dialController connects a controller to the queue's server, the first of addrs; close
// closes the connection.
func dialController(ctx context.Context, env *cmdEnv, a cluster.Access, ev evaluator) (*cluster.Controller, func(), error) {
	cl, err := a.Resolve()
	if err != nil {
		return nil, nil, exitError{2, fmt.Errorf("--redis: %w", err)}
	}
	cluster.SilenceClientLog()
	logf := func(format string, args ...any) { env.log.Warn().Msgf(format, args...) }
	q, err := cluster.NewRedisQueue(ctx, cluster.QueueOptions{Server: cl.Servers[0], Key: cl.Key, Logf: logf})
	if err != nil {
		return nil, nil, fmt.Errorf("--redis: %w", err)
	}
	if cl.Key == nil {
		env.log.Info().Msg("no --cluster-key: Redis on loopback only, messages not signed")
	}
	c := cluster.NewController(q, cluster.ControllerOptions{Eval: ev.ev, Stall: 5 * time.Minute, Logf: logf})
	return c, func() { q.Close() }, nil
}

// distributedAnalyze is analyze --redis: the moves solved exactly by the workers up to
// solveEmpties empties (0: twice the depth), else searched by them to the depth.
func distributedAnalyze(env *cmdEnv, addrs cluster.Access, b board.Board, lim search.Limits, n, solveEmpties int, ev evaluator) error {
	if lim.MoveTime > 0 {
		return exitError{2, fmt.Errorf("--time: the workers search to a --depth, not for a time")}
	}
	if solveEmpties <= 0 {
		solveEmpties = 2 * lim.Depth
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, closeQueue, err := dialController(ctx, env, addrs, ev)
	if err != nil {
		return err
	}
	defer closeQueue()
	fmt.Fprint(env.stdout, b.Diagram())
	start := time.Now()
	var ms []search.MoveScore
	var st cluster.Stats
	if b.NumEmpties() <= solveEmpties {
		ms, st, err = c.AnalyzeExact(ctx, b, n)
	} else {
		ms, st, err = c.AnalyzeDepth(ctx, b, lim)
	}
	if err != nil {
		return err
	}
	protocol.WriteAnalysis(env.stdout, ms, n, ev.name, time.Since(start))
	fmt.Fprintf(env.stdout, "%d tasks on the workers\n", st.Tasks)
	return nil
}
