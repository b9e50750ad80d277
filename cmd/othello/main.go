// Command othello is the engine's one binary. Each subcommand wires packages together and
// nothing more; options come from flags and, optionally, from a TOML file (--config) whose
// table named after the subcommand gives defaults for that subcommand's flags.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"

	"github.com/othellogo/othello/internal/progress"
	"github.com/rs/zerolog"
)

// command is one subcommand: run parses its own flags from args and does the work.
type command struct {
	summary string
	run     func(env *cmdEnv, args []string) error
}

// cmdEnv is what every subcommand gets: where to write and the logger.
type cmdEnv struct {
	stdout io.Writer
	stderr io.Writer
	stdin  io.Reader
	log    zerolog.Logger
	config string // path of the TOML config file, "" for none
}

func commands() map[string]command {
	return map[string]command{
		"analyze":  {"search a position or transcript: best moves with values and PVs", cmdAnalyze},
		"book":     {"opening book: build, deviate, extend, fix, stats, show, export, import, learn", cmdBook},
		"bench":    {"search fixed positions to a fixed depth: nodes, time, nodes/s", cmdBench},
		"label":    {"make search-labelled training positions from game files", cmdLabel},
		"selfplay": {"play the engine against itself from random openings: training games", cmdSelfplay},
		"match":    {"play two engine configurations (or an NBoard engine) from XOT openings", cmdMatch},
		"phases":   {"where a match's games are lost: every move scored by exact solves (and a search), per phase", cmdPhases},
		"compare":  {"score match runs (GGF files) and pair them by opening: which of two settings played better", cmdCompare},
		"openings": {"generate balanced openings (near-even lines of random plies) for match -openings", cmdOpenings},
		"mpcfit":   {"fit the Multi-ProbCut regressions of an evaluation", cmdMpcfit},
		"devfit":   {"fit and measure depth by deviation value (refs, fit, measure, store)", cmdDevfit},
		"perft":    {"count leaves of the game tree (pass counted as a move)", cmdPerft},
		"nboard":   {"speak the NBoard protocol (v2) on stdin/stdout, for the NBoard GUI", cmdNBoard},
		"gtp":      {"speak GTP v2 on stdin/stdout, for GTP controllers", cmdGTP},
		"console":  {"an Othello board on the console: moves, hint, solve, undo; scriptable", cmdConsole},
		"play":     {"play a game against the engine on the console", cmdPlay},
		"solve":    {"solve the positions of an .obf file exactly (FFO benchmark; with --redis on worker processes)", cmdSolve},
		"dsolve":   {"solve --redis 127.0.0.1:6379: an .obf file solved by worker processes (distributed)", cmdDsolve},
		"worker":   {"solve and search the tasks of solve/analyze/book extend --redis (a distributed search's searcher)", cmdWorker},
		"train":    {"fit the evaluation weights to game files", cmdTrain},
		"web":      {"serve a board in the browser: play, hints, game analysis (127.0.0.1:8080)", cmdWeb},
		"treesim":  {"simulate parallel alpha-beta task orders on artificial trees (seed paper 000)", cmdTreesim},
		"eval":     {"static evaluation of a position, or its error on game files", cmdEval},
		"version":  {"print the engine version", cmdVersion},
	}
}

// Version is the engine's version string.
const Version = "0.1.0"

// EngineName is the one-token name the engine gives to GUIs.
const EngineName = "GoThello"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	global := flag.NewFlagSet("othello", flag.ContinueOnError)
	global.SetOutput(stderr)
	config := global.String("config", "", "TOML file with defaults for subcommand flags ([subcommand] tables)")
	verbose := global.Bool("v", false, "verbose logging (debug level) on stderr")
	quiet := global.Bool("q", false, "log only errors")
	global.Usage = func() { usage(stderr, global) }
	if err := global.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	level := zerolog.InfoLevel
	if *verbose {
		level = zerolog.DebugLevel
	}
	if *quiet {
		level = zerolog.ErrorLevel
	}
	env := &cmdEnv{
		stdout: stdout,
		stderr: stderr,
		stdin:  stdin,
		log:    zerolog.New(zerolog.ConsoleWriter{Out: stderr, NoColor: true}).Level(level).With().Timestamp().Logger(),
		config: *config,
	}
	rest := global.Args()
	if len(rest) == 0 {
		if !progress.IsTerminal(stdin) {
			usage(stdout, global)
			return 0
		}
		rest = []string{"console"} // a person at a terminal gets the console
	}
	name := rest[0]
	if name == "help" || name == "-h" || name == "--help" {
		usage(stdout, global)
		return 0
	}
	cmd, ok := commands()[name]
	if !ok {
		fmt.Fprintf(stderr, "othello: unknown command %q; run 'othello help' for the list\n", name)
		return 2
	}
	err := cmd.run(env, rest[1:])
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	ee := exitError{1, err} // exit status 1 unless the error says otherwise
	errors.As(err, &ee)
	fmt.Fprintf(stderr, "othello %s: %v\n", name, ee.err)
	return ee.code
}

// exitError carries a specific exit status (e.g. 2 for a usage error, 3 for a wrong result).
type exitError struct {
	code int
	err  error
}

func (e exitError) Error() string { return e.err.Error() }

func usage(w io.Writer, global *flag.FlagSet) {
	fmt.Fprintf(w, "%s %s, an Othello engine\n\nusage: othello [-config FILE] [-v|-q] <command> [options]\n\ncommands:\n", EngineName, Version)
	listCommands(w, commands(), 10)
	fmt.Fprintf(w, "\n'othello <command> -h' lists a command's options. Global options:\n")
	global.SetOutput(w)
	global.PrintDefaults()
}

// listCommands prints the commands, by name, with their summaries in a column width wide.
func listCommands(w io.Writer, cmds map[string]command, width int) {
	for _, n := range slices.Sorted(maps.Keys(cmds)) {
		fmt.Fprintf(w, "  %-*s %s\n", width, n, cmds[n].summary)
	}
}

func cmdVersion(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "version")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "%s %s\n", EngineName, Version)
	return nil
}
