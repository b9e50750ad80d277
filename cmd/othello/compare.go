package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/othellogo/othello/match"
)

// cmdCompare scores runs of match (their -ggf files) for one player and pairs each later run
// with the first by opening (match.Summarize, match.Paired).
func cmdCompare(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "compare")
	player := fs.String("player", "A ", "the player scored: the one whose GGF name (PB or PW) starts with this (match names this engine's side \"A ...\")")
	plies := fs.Int("plies", 0, "the opening is a game's first this many moves (0: its moves before the first one with a thinking time, as match writes them)")
	setUsage(env, fs, "usage: othello compare [options] RUN.ggf[,MORE.ggf...] [RUN2.ggf[,...]...]\n\nScores each run (one or more GGF files of match games, comma-separated) for -player: wins,\ndraws, losses, the score with its standard error by opening, the mean disc difference and\nthe thinking time a game of both sides. Each later run is then paired with the first by\nopening: over the openings both played with both colours, the mean of the differences of\nthe openings' scores, with its standard error. Example:\n\n  othello match -a sel=5 -b sel=4 -n 100 -ggf base.ggf\n  othello match -a sel=5,mpctop=12 -b sel=4 -n 100 -ggf try.ggf\n  othello compare base.ggf try.ggf\n\nOptions:\n")
	if err := parseArgs(env, fs, args, 1, -1, "want at least one run (GGF files)"); err != nil {
		return err
	}
	if *plies < 0 || *plies > 60 {
		return usageError(fs, fmt.Errorf("-plies %d: want 0-60", *plies))
	}
	if *player == "" {
		return usageError(fs, fmt.Errorf("-player: want a name or the start of one"))
	}
	var names []string
	var runs []match.RunSummary
	for _, arg := range fs.Args() {
		games, err := readGGFFiles(slices.DeleteFunc(strings.Split(arg, ","), func(p string) bool { return p == "" }))
		if err != nil {
			return err
		}
		s := match.Summarize(games, *player, *plies)
		if s.Stats.Games() == 0 {
			return exitError{2, fmt.Errorf("%s: no finished game with a player whose name starts with %q (%d games read)", arg, *player, len(games))}
		}
		names = append(names, arg)
		runs = append(runs, s)
	}
	match.WriteComparison(env.stdout, names, runs)
	return nil
}
