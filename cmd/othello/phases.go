package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/internal/atomicfile"
	"github.com/othellogo/othello/match"
	"github.com/othellogo/othello/search"
)

// cmdPhases analyses the games of GGF files (a match's -ggf output) phase by phase
// (match.AnalyzePhases): the positions from -exact empties down solved exactly, the earlier
// ones valued by a search when -depth is set.
func cmdPhases(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "phases")
	exact := fs.Int("exact", 22, "solve every position with at most this many empties exactly (0-30)")
	depth := fs.Int("depth", 0, "value the earlier positions by a search of this depth (0: only the solved positions are valued)")
	sel := fs.Int("sel", 0, "Multi-ProbCut selectivity level of that search (0: exact depth)")
	bounds := fs.String("phases", "36,24,18", "phase bounds in empties, descending: 36,24,18 makes the phases 60-37, 36-25, 24-19, 18-0")
	checks := fs.String("at", "40,30,22", "empties at which the expected score is read off the values, descending")
	workers := fs.Int("workers", 1, "games analysed at the same time")
	ttMiB := fs.Int("tt", 64, "tables of each worker's search and solver, MiB")
	evalName := fs.String("eval", "default", evalFlagHelp)
	errorsOut := fs.String("errors", "", "write the positions of the result errors to this .obf file, each after a comment naming the player, game, move and values (for solve -all-moves, then bench -file -movetime)")
	setUsage(env, fs, "usage: othello phases [options] GAMES.ggf...\n\nReplays the games of GGF files and values their positions: exact solves from -exact empties\ndown, a search of -depth before. Each move's loss is the drop in its mover's value; per player\nand phase it prints the moves, the loss a move, the exact moves and the result errors among\nthem (a win turned into a draw or a loss, a draw into a loss), and the thinking time a game;\nthen the expected score at the -at empties beside the final score, and the empties from which\neach player played perfectly, on average.\nOptions:\n")
	if err := parseArgs(env, fs, args, 1, -1, "want at least one GGF file"); err != nil {
		return err
	}
	opt := match.PhaseOptions{ExactFrom: *exact, Midgame: *depth > 0, Workers: *workers}
	var err error
	if opt.Bounds, err = emptiesList("-phases", *bounds); err != nil {
		return usageError(fs, err)
	}
	if opt.Checkpoints, err = emptiesList("-at", *checks); err != nil {
		return usageError(fs, err)
	}
	if *exact < 0 || *exact > 30 {
		return usageError(fs, fmt.Errorf("-exact %d: want 0-30 (solves above 30 empties may not end)", *exact))
	}
	lim := search.Limits{Depth: *depth, Selectivity: *sel, ExactEmpties: max(*exact, 1)}
	if err := lim.Check(); err != nil {
		return usageError(fs, err)
	}
	if err := opt.Check(); err != nil {
		return usageError(fs, err)
	}
	if *workers < 1 || *workers > 256 {
		return usageError(fs, fmt.Errorf("-workers %d: want 1-256", *workers))
	}
	if err := checkTableMemory(fmt.Sprintf("-tt %d with -workers %d", *ttMiB, *workers), 2*uint64(*ttMiB)<<20*uint64(*workers)); err != nil {
		return err
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	if err := checkOutput("-errors", *errorsOut, fs.Args()...); err != nil {
		return err
	}
	games, err := readGGFFiles(fs.Args())
	if err != nil {
		return err
	}
	if len(games) == 0 {
		return exitError{2, fmt.Errorf("no games in %s", strings.Join(fs.Args(), ", "))}
	}
	newValuer := func() match.Valuer {
		var cfg search.Config
		ev.configure(&cfg)
		cfg.TTMiB, cfg.SolverMiB = *ttMiB, *ttMiB
		return match.SearchValuer(search.NewEngine(cfg), lim)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bar := newBar(env, len(games), "games")
	rep, err := match.AnalyzePhases(ctx, games, newValuer, opt, func() { bar.Add(1) })
	bar.Finish()
	if rep.Games > 0 {
		match.WritePhases(env.stdout, rep)
	}
	if *errorsOut != "" && rep.Games > 0 {
		werr := atomicfile.Write(*errorsOut, 0o644, func(w io.Writer) error { return match.WriteResultErrors(w, rep.Errors) })
		if werr != nil {
			return exitError{1, fmt.Errorf("-errors %s: %v", *errorsOut, werr)}
		}
		fmt.Fprintf(env.stdout, "%d result errors written to %s\n", len(rep.Errors), *errorsOut)
	}
	if err != nil {
		return exitError{1, err}
	}
	return nil
}

// readGGFFiles reads the games of GGF files; an unreadable or malformed file is an error
// naming it (exit 2).
func readGGFFiles(paths []string) ([]*ggf.Game, error) {
	var games []*ggf.Game
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, exitError{2, err}
		}
		gs, err := ggf.ParseAll(string(data))
		if err != nil {
			return nil, exitError{2, fmt.Errorf("%s: %w", path, err)}
		}
		games = append(games, gs...)
	}
	return games, nil
}

// emptiesList parses a comma-separated list of empties counts ("" is the empty list).
func emptiesList(flag, s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%s %q: want empties counts separated by commas", flag, s)
		}
		out = append(out, n)
	}
	return out, nil
}
