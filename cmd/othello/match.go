package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/othellogo/othello/match"
	"github.com/schollz/progressbar/v3"
)

func cmdMatch(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "match")
	specA := fs.String("a", "depth=6", "player A: this engine's options, key=value,... (depth, time, end (solve exactly from N empties), sel, eval, tt, threads (per search, default 1), book=default|none|FILE; measurement switches: mpc, pvs, prev, solvebudget=on|off, wldrefine=on|off, solverhint=on|off, handover=N, leafsolve=N, probable=N, screen=W|off (Multi-ProbCut screen width), wld=N (with end: prove win/loss/draw from N empties), wldsel=L (that band's solver selectivity))")
	specB := fs.String("b", "depth=6,eval=mobility", "player B: this engine's options (ignored with -b-nboard)")
	nboardB := fs.String("b-nboard", "", "player B is an external engine speaking NBoard: its command line, quoted")
	nboardDepth := fs.Int("b-depth", 0, "depth sent to the external engine with 'set depth' (0: none)")
	openings := fs.String("openings", "", "file of opening transcripts, one per line (XOT style)")
	nOpen := fs.Int("n", 0, "use at most N openings from the file (0: all)")
	skip := fs.Int("skip", 0, "skip the first K openings of the file")
	random := fs.Int("random", 0, "add N built-in random openings (8 random plies from a fixed seed; 10 when there is no file)")
	seed := fs.Uint64("seed", 1, "seed of the random openings")
	concurrency := fs.Int("concurrency", 1, "games played at the same time")
	clock := fs.Duration("clock", 0, "game clock of each side, e.g. 60s (0: none; the players' time/depth options apply)")
	inc := fs.Duration("inc", 0, "increment added to a side's clock after each of its moves")
	clockA := fs.Duration("a-clock", 0, "A's game clock alone (0: -clock); with no -clock, B plays by its own limits (an external engine's depth)")
	clockB := fs.Duration("b-clock", 0, "B's game clock alone (0: -clock)")
	handshake := fs.Duration("handshake-timeout", match.DefaultHandshakeTimeout, "how long an external engine may take to answer a ping, at its start and before each move")
	ggfPath := fs.String("ggf", "", "write the games to this GGF file (not those ended by an engine error)")
	noBar := fs.Bool("no-progress", false, "no progress bar")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello match [options]\n\nPlays A against B from each opening twice, colours swapped, and prints wins/draws/losses,\nscore, Elo difference with its 95%% interval and mean disc difference, from A's view.\nA game an external engine fails in (it exits or stops answering) is listed apart, not\nscored, and makes the command exit 1; the engine is restarted for the next game, up to\n%d times. Options:\n", match.MaxRestarts)
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitError{2, fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	if *concurrency < 1 || *nOpen < 0 || *skip < 0 || *random < 0 || *clock < 0 || *inc < 0 || *clockA < 0 || *clockB < 0 || *handshake <= 0 {
		return exitError{2, fmt.Errorf("concurrency must be at least 1; counts and times non-negative, the handshake timeout positive")}
	}
	opt := match.Options{Concurrency: *concurrency, Clocks: [2]time.Duration{*clock, *clock}, Increment: *inc, HandshakeTimeout: *handshake}
	var err error
	if opt.A, err = match.ParseEngine(*specA); err != nil {
		return exitError{2, err}
	}
	opt.B = match.External(*nboardB, *nboardDepth)
	if *nboardB == "" {
		if opt.B, err = match.ParseEngine(*specB); err != nil {
			return exitError{2, err}
		}
	}
	if opt.Openings, err = match.Openings(*openings, *skip, *nOpen, *random, *seed); err != nil {
		return exitError{2, err}
	}
	if err := checkTableMemory(fmt.Sprintf("the players' tt= with -concurrency %d", *concurrency), opt.TableBytes()); err != nil {
		return err
	}
	if *clockA > 0 {
		opt.Clocks[0] = *clockA
	}
	if *clockB > 0 {
		opt.Clocks[1] = *clockB
	}
	if *ggfPath != "" {
		f, err := os.Create(*ggfPath)
		if err != nil {
			return err
		}
		defer f.Close()
		bw := bufio.NewWriter(f)
		defer bw.Flush()
		opt.GGF = bw
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintln(env.stdout, opt.Header())
	var bar *progressbar.ProgressBar
	if !*noBar {
		bar = newBar(env, 2*len(opt.Openings), "match")
	}
	opt.Progress = func(g match.Game) {
		if g.Forfeit || g.Error {
			env.log.Warn().Int("game", g.Number).Str("loser", map[bool]string{true: "A", false: "B"}[g.LoserIsA]).Msg(g.Comment)
		}
		if bar != nil {
			bar.Add(1)
		}
	}
	res, err := match.Run(ctx, opt)
	if bar != nil {
		bar.Finish()
	}
	if err != nil {
		return err
	}
	res.Write(env.stdout)
	if n := len(res.Errors); n > 0 {
		return fmt.Errorf("%d games ended by an engine error (listed above); they are not in the score", n)
	}
	return nil
}
