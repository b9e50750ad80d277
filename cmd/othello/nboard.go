package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"

	"github.com/othellogo/othello/protocol"
	"github.com/othellogo/othello/search"
)

// engineFlags are the options every protocol front end shares (protocol.EngineSettings): how
// the engine is built, its level and clocks (levelFlags), and the opening book.
type engineFlags struct {
	settings protocol.EngineSettings
	search   *searchFlags
	level    *levelFlags
}

// addEngineFlags adds them to fs for the front end named ("nboard", "gtp", "console", "play"
// or "web"), whose name the help of -name and -book speaks of.
func addEngineFlags(fs *flag.FlagSet, frontEnd string) *engineFlags {
	f := &engineFlags{settings: protocol.EngineSettings{Version: Version}}
	s := &f.settings
	f.level = addLevelFlags(fs, frontEnd == "console" || frontEnd == "play", "")
	f.search = addSearchFlags(fs, runtime.NumCPU(), "threads that search each position, 1-256; the default is the number of cores")
	nameHelp := map[string]string{
		"nboard": "engine name given to the GUI (one word)",
		"gtp":    "engine name given to the controller (GTP \"name\")",
		"web":    "engine name shown in the page",
	}[frontEnd]
	if nameHelp == "" {
		nameHelp = "engine name shown on the console"
	}
	fs.StringVar(&s.Name, "name", EngineName, nameHelp)
	fs.StringVar(&s.Engine, "engine", "alphabeta", "the engine: alphabeta, or uct (Monte-Carlo tree search; see -uct)")
	fs.StringVar(&s.UCT, "uct", "", "with -engine uct, its options key=value,...: playouts, time, prune (off, on = paper, visits, halving), playout (random, greedy, softmax, cutoff), c, threads, ...")
	bookHelp := "opening book file, or \"default\" (the embedded book) or \"none\""
	if frontEnd == "nboard" {
		bookHelp += "; NBoard's learn writes to a file"
	}
	fs.StringVar(&s.BookPath, "book", "default", bookHelp)
	fs.BoolVar(&s.NoBook, "no-book", false, "play without an opening book")
	fs.Float64Var(&s.Book.Margin, "book-margin", 1, "with -book-random: book moves within this many discs of the best are candidates")
	fs.BoolVar(&s.Book.Random, "book-random", false, "pick at random among the book moves within -book-margin of the best (else the best)")
	fs.Uint64Var(&s.Book.Seed, "book-seed", 1, "seed of -book-random's picks")
	return f
}

// addLearnFlags adds the options of NBoard's "learn".
func (f *engineFlags) addLearnFlags(fs *flag.FlagSet) {
	f.settings.Learn = true
	fs.IntVar(&f.settings.Book.LearnDepth, "book-learn-depth", protocol.DefaultLearnDepth, "learn: search depth of the moves leaving the book")
	fs.IntVar(&f.settings.Book.LearnMoves, "book-learn-moves", 60, "learn: how many moves of a game go into the book")
}

// engine builds the search engine and the front end's options (protocol.NewEngine).
func (f *engineFlags) engine(env *cmdEnv) (protocol.Engine, protocol.Options, error) {
	s := f.settings
	if err := f.level.settings(&s); err != nil {
		return nil, protocol.Options{}, err
	}
	s.TTMiB, s.Threads, s.Eval = f.search.tt, f.search.threads, f.search.eval
	mode, err := search.ParseParallel(f.search.parallel)
	if err != nil {
		return nil, protocol.Options{}, exitError{2, fmt.Errorf("-parallel: %v", err)}
	}
	s.Parallel = mode
	eng, opt, err := protocol.NewEngine(s, env.log)
	if err != nil {
		return nil, opt, exitError{2, err}
	}
	return eng, opt, nil
}

func cmdNBoard(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "nboard")
	ef := addEngineFlags(fs, "nboard")
	ef.addLearnFlags(fs)
	setUsage(env, fs, "usage: othello nboard [options]\n\nSpeaks the NBoard protocol (version 2) on stdin/stdout, for the NBoard GUI:\nregister the command \"othello nboard\" as an engine. The GUI's level (set depth N)\npicks level N, the GUI's clock replaces -time. Logs go to stderr. Options:\n")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	eng, opt, err := ef.engine(env)
	if err != nil {
		return err
	}
	return protocol.RunNBoard(context.Background(), eng, env.stdin, env.stdout, opt)
}
