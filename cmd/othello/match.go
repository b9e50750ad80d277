package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/othellogo/othello/internal/atomicfile"
	"github.com/othellogo/othello/match"
	"github.com/schollz/progressbar/v3"
)

func cmdMatch(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "match")
	var s match.Settings
	fs.StringVar(&s.A, "a", "depth=6", "player A: this engine's options, key=value,... (depth, time, end (solve exactly from N empties), sel, eval, tt (MiB), solvertt (the in-game solver's table, MiB; 16 by default), threads (per search, default 1), parallel=ybwc|speculative, book=default|none|FILE; measurement switches: mpc, pvs, prev, killer=on|off, staticcut=on|off, dev=on|off, mpct=T (the midgame Multi-ProbCut threshold in deviations), solvebudget=on|off, wldrefine=on|off, solverhint=on|off, handover=N, leafsolve=N, probable=N, screen=W|off (Multi-ProbCut screen width), mpctop=H (highest height with Multi-ProbCut tests), horizon=N (empties down to which a game clock is shared out), endhorizon=N|off (the same from N+6 empties on, a move taking up to half of the clock; 20 by default), endweight=K (those moves at 3-4 empties above it counted as K moves), endlast=P|off (the last own move before it may take P% of the usable clock), extend=on|off (a game clock's soft limit stretched after a change of the best move or a falling value), settle=on|off (shrunk when the best move is settled), endsolves=on|off (after a selective search to the end of the game with time left, surer solves; on by default), endwld=on|off (those solves prove the game result instead of the score; off by default), timeband=on|off (under a clock, the band of proofs or probable solves above the exact solve, whose midgame search stops at depth 10; off: the whole midgame search there; on by default), bandtop=N|off (that band only up to N empties), bandwld=on|off (that band's surer solves prove the game result instead of the score; off by default), sortalpha=on|off (the shallow searches that order the moves resolve only the moves near or above alpha; on by default), resulttime=on|off (from 26 empties a game clock's move gets twice its time when the engine's previous value was within 4 discs of a draw, half at 16 or more; on by default), clocksel=on|off (under a clock long enough, Multi-ProbCut level 4 at most), wld=N (with end: prove win/loss/draw from N empties), wldsel=L (that band's solver selectivity))")
	fs.StringVar(&s.B, "b", "depth=6,eval=mobility", "player B: this engine's options (ignored with -b-nboard)")
	fs.StringVar(&s.External, "b-nboard", "", "player B is an external engine speaking NBoard: its command line, quoted")
	fs.IntVar(&s.ExternalDepth, "b-depth", 0, "depth sent to the external engine with 'set depth' (0: none)")
	fs.StringVar(&s.OpeningFile, "openings", "", "file of opening transcripts, one per line (XOT style)")
	fs.IntVar(&s.OpeningEmpties, "openings-empties", 0, "with -openings a .ggf file of games: play on from each game's position at N empties (its moves down to there as the opening; games that start elsewhere or end earlier are passed over, repeats dropped)")
	fs.IntVar(&s.N, "n", 0, "use at most N openings from the file (0: all)")
	fs.IntVar(&s.Skip, "skip", 0, "skip the first K openings of the file")
	fs.IntVar(&s.Random, "random", 0, "add N built-in random openings (8 random plies from a fixed seed; 10 when there is no file)")
	fs.Uint64Var(&s.Seed, "seed", 1, "seed of the random openings")
	fs.IntVar(&s.Concurrency, "concurrency", 1, "games played at the same time")
	fs.DurationVar(&s.Clock, "clock", 0, "game clock of each side, e.g. 60s (0: none; the players' time/depth options apply)")
	fs.DurationVar(&s.Increment, "inc", 0, "increment added to a side's clock after each of its moves")
	fs.DurationVar(&s.ClockA, "a-clock", 0, "A's game clock alone (0: -clock); with no -clock, B plays by its own limits (an external engine's depth)")
	fs.DurationVar(&s.ClockB, "b-clock", 0, "B's game clock alone (0: -clock)")
	fs.Float64Var(&s.FollowB, "a-follow", 0, "A's clock for each game F times B's mean thinking time a game so far, -a-clock being the first game's (0: A's clock fixed): equal time with an opponent that plays by depth")
	fs.DurationVar(&s.HandshakeTimeout, "handshake-timeout", match.DefaultHandshakeTimeout, "how long an external engine may take to answer a ping, at its start and before each move")
	ggfPath := fs.String("ggf", "", "append the games to this GGF file, one record per game as it ends (not those ended by an engine error); games already in the file are kept")
	noBar := fs.Bool("no-progress", false, "no progress bar")
	setUsage(env, fs, "usage: othello match [options]\n\nPlays A against B from each opening twice, colours swapped, and prints wins/draws/losses,\nscore, Elo difference with its 95%% interval and mean disc difference, from A's view.\nA game an external engine fails in (it exits or stops answering) is listed apart, not\nscored, and makes the command exit 1; the engine is restarted for the next game, up to\n%d times. Options:\n", match.MaxRestarts)
	if err := parseArgs(env, fs, args, 0, 0, ""); err != nil {
		return err
	}
	opt, err := s.Options()
	if err != nil {
		return exitError{2, err}
	}
	if err := checkTableMemory(fmt.Sprintf("the players' tt= with -concurrency %d", s.Concurrency), opt.TableBytes()); err != nil {
		return err
	}
	if *ggfPath != "" {
		if err := checkOutput("-ggf", *ggfPath, s.OpeningFile); err != nil {
			return err
		}
		// Each game is appended as a whole record by an atomic replacement of the file: an
		// existing file keeps its games, and a kill cannot leave a record cut short.
		a, err := atomicfile.OpenAppender(*ggfPath, 0o644)
		if err != nil {
			return exitError{2, fmt.Errorf("-ggf %s: %v", *ggfPath, err)}
		}
		opt.GGF = a
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
