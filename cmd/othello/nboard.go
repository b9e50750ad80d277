package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/othellogo/othello/protocol"
	"github.com/othellogo/othello/search"
)

// engineFlags are the options every protocol front end shares: how the engine is built and
// how deep it searches by default.
type engineFlags struct {
	threads  *int
	depth    *int
	moveTime *time.Duration
	ttMiB    *int
	sel      *int
	eval     *string
	name     *string

	book       *string
	noBook     *bool
	bookMargin *float64
	bookRandom *bool
	bookSeed   *uint64
	// learning (NBoard only; nil elsewhere)
	learnDepth, learnMoves *int
}

func addEngineFlags(fs *flag.FlagSet, withTime bool) *engineFlags {
	f := &engineFlags{
		depth:   fs.Int("depth", protocol.DefaultDepth, "default midgame search depth (1-60)"),
		ttMiB:   fs.Int("tt", 64, "bounds tables size in MiB"),
		threads: fs.Int("threads", runtime.NumCPU(), "threads that search each position (default: the cores)"),
		sel:     fs.Int("sel", protocol.DefaultSelectivity, fmt.Sprintf("Multi-ProbCut selectivity level of game play and hints, 0 (none) to %d", search.MaxSelectivity)),
		eval:    fs.String("eval", "default", evalFlagHelp),
		name:    fs.String("name", EngineName, "engine name given to the GUI (one word)"),

		book:       fs.String("book", "default", "opening book file, or \"default\" (the embedded book) or \"none\"; NBoard's learn writes to a file"),
		noBook:     fs.Bool("no-book", false, "play without an opening book"),
		bookMargin: fs.Float64("book-margin", 1, "with -book-random: book moves within this many discs of the best are candidates"),
		bookRandom: fs.Bool("book-random", false, "pick at random among the book moves within -book-margin of the best (else the best)"),
		bookSeed:   fs.Uint64("book-seed", 1, "seed of -book-random's picks"),
	}
	if withTime {
		f.moveTime = fs.Duration("time", 0, "time per move, e.g. 5s (0: none; a game clock also applies)")
	}
	return f
}

// addLearnFlags adds the options of NBoard's "learn".
func (f *engineFlags) addLearnFlags(fs *flag.FlagSet) {
	f.learnDepth = fs.Int("book-learn-depth", protocol.DefaultLearnDepth, "learn: search depth of the moves leaving the book")
	f.learnMoves = fs.Int("book-learn-moves", 60, "learn: how many moves of a game go into the book")
}

// openBook checks the book flags and opens the book they name (protocol.OpenBook).
func (f *engineFlags) openBook(env *cmdEnv) (protocol.BookOptions, error) {
	opt := protocol.BookOptions{Margin: *f.bookMargin, Random: *f.bookRandom, Seed: *f.bookSeed}
	if *f.bookMargin < 0 || math.IsNaN(*f.bookMargin) || math.IsInf(*f.bookMargin, 0) {
		return opt, exitError{2, fmt.Errorf("book margin must be a non-negative number of discs")}
	}
	if f.learnDepth != nil {
		if *f.learnDepth < 1 || *f.learnDepth > protocol.MaxDepth || *f.learnMoves < 1 || *f.learnMoves > 60 {
			return opt, exitError{2, fmt.Errorf("want a book learn depth of 1-%d and 1-60 book learn moves", protocol.MaxDepth)}
		}
		opt.LearnDepth, opt.LearnMoves = *f.learnDepth, *f.learnMoves
	}
	path := *f.book
	if *f.noBook {
		path = "none"
	}
	return protocol.OpenBook(path, opt, env.log), nil
}

// engine builds the search engine and the front end's options.
func (f *engineFlags) engine(env *cmdEnv) (protocol.Engine, protocol.Options, error) {
	if *f.depth < 1 || *f.depth > protocol.MaxDepth || *f.ttMiB < 1 {
		return nil, protocol.Options{}, exitError{2, fmt.Errorf("want a depth of 1-%d and a table of at least 1 MiB", protocol.MaxDepth)}
	}
	if err := checkThreads(*f.threads); err != nil {
		return nil, protocol.Options{}, err
	}
	ev, err := loadEvaluator(*f.eval)
	if err != nil {
		return nil, protocol.Options{}, exitError{2, err}
	}
	cfg := search.Config{TTMiB: *f.ttMiB, Threads: *f.threads}
	ev.configure(&cfg)
	if err := checkTableMemory(fmt.Sprintf("-tt %d", *f.ttMiB), search.TableBytes(cfg)); err != nil {
		return nil, protocol.Options{}, err
	}
	if *f.sel < 0 || *f.sel > search.MaxSelectivity {
		return nil, protocol.Options{}, exitError{2, fmt.Errorf("selectivity %d: want 0-%d", *f.sel, search.MaxSelectivity)}
	}
	opt := protocol.Options{Name: *f.name, Version: Version, Log: env.log, Depth: *f.depth, Selectivity: *f.sel}
	if f.moveTime != nil {
		if *f.moveTime < 0 {
			return nil, opt, exitError{2, fmt.Errorf("time per move must not be negative")}
		}
		opt.MoveTime = *f.moveTime
	}
	if opt.Book, err = f.openBook(env); err != nil {
		return nil, opt, err
	}
	env.log.Debug().Str("eval", ev.name).Int("depth", opt.Depth).Int("threads", *f.threads).Msg("engine ready")
	return search.NewEngine(cfg), opt, nil
}

func cmdNBoard(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "nboard")
	ef := addEngineFlags(fs, false)
	ef.addLearnFlags(fs)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello nboard [options]\n\nSpeaks the NBoard protocol (version 2) on stdin/stdout, for the NBoard GUI:\nregister the command \"othello nboard\" as an engine. The GUI sets the depth.\nLogs go to stderr. Options:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	eng, opt, err := ef.engine(env)
	if err != nil {
		return err
	}
	return protocol.RunNBoard(context.Background(), eng, env.stdin, env.stdout, opt)
}
