package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"time"

	"github.com/othellogo/othello/protocol"
	"github.com/othellogo/othello/search"
)

// engineFlags are the options every protocol front end shares: how the engine is built and
// how deep it searches by default.
type engineFlags struct {
	threads    *int
	engineName *string
	uct        *string
	depth      *int
	moveTime   *time.Duration
	ttMiB      *int
	sel        *int
	eval       *string
	name       *string

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
		depth:      fs.Int("depth", protocol.DefaultDepth, "default midgame search depth (1-60)"),
		ttMiB:      fs.Int("tt", 64, "bounds tables size in MiB"),
		threads:    fs.Int("threads", runtime.NumCPU(), "threads that search each position (default: the cores)"),
		engineName: fs.String("engine", "alphabeta", "the engine: alphabeta, or uct (Monte-Carlo tree search; see -uct)"),
		uct:        fs.String("uct", "", "with -engine uct, its options key=value,...: playouts, time, prune (off, visits, paper), playout (random, greedy, softmax, cutoff), c, threads, ..."),
		sel:        fs.Int("sel", protocol.DefaultSelectivity, fmt.Sprintf("Multi-ProbCut selectivity level of game play and hints, 0 (none) to %d", search.MaxSelectivity)),
		eval:       fs.String("eval", "default", evalFlagHelp),
		name:       fs.String("name", EngineName, "engine name given to the GUI (one word)"),

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

// engine builds the search engine and the front end's options (protocol.NewEngine).
func (f *engineFlags) engine(env *cmdEnv) (protocol.Engine, protocol.Options, error) {
	s := protocol.EngineSettings{Depth: *f.depth, TTMiB: *f.ttMiB, Threads: *f.threads, Selectivity: *f.sel, Eval: *f.eval, Name: *f.name, Version: Version,
		Engine: *f.engineName, UCT: *f.uct,
		BookPath: *f.book, NoBook: *f.noBook, Book: protocol.BookOptions{Margin: *f.bookMargin, Random: *f.bookRandom, Seed: *f.bookSeed}}
	if f.moveTime != nil {
		s.MoveTime = *f.moveTime
	}
	if f.learnDepth != nil {
		s.Learn, s.Book.LearnDepth, s.Book.LearnMoves = true, *f.learnDepth, *f.learnMoves
	}
	eng, opt, err := protocol.NewEngine(s, env.log)
	if err != nil {
		return nil, opt, exitError{2, err}
	}
	return eng, opt, nil
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
