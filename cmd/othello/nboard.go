package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"time"

	"github.com/othellogo/othello/book"
	"github.com/othellogo/othello/protocol"
	"github.com/othellogo/othello/search"
)

// defaultPlaySelectivity is the Multi-ProbCut level of the front ends: level 4 beat no MPC by
// about +220 Elo at 0.2 s per move (README, midgame matches), as Edax and Egaroucid also play
// selectively by default. Level 5 (cut at 1.1 sigma, Edax's 73%; NTest's 1.0 sigma cuts about
// as hard) beat level 4 against NTest at 25 ms and at 60 ms a move (33.6% vs 29.5%, 35.5% vs
// 31.5%) and in self-play at 25 ms (56.2%), level at 100 ms (52.2%, 48.5%). Analysis that
// wants exact depths passes -sel 0.
const defaultPlaySelectivity = 5

// engineFlags are the options every protocol front end shares: how the engine is built and
// how deep it searches by default.
type engineFlags struct {
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
		depth: fs.Int("depth", protocol.DefaultDepth, "default midgame search depth (1-60)"),
		ttMiB: fs.Int("tt", 64, "bounds tables size in MiB"),
		sel:   fs.Int("sel", defaultPlaySelectivity, fmt.Sprintf("Multi-ProbCut selectivity level of game play and hints, 0 (none) to %d", search.MaxSelectivity)),
		eval:  fs.String("eval", "default", evalFlagHelp),
		name:  fs.String("name", EngineName, "engine name given to the GUI (one word)"),

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

// openBook opens the opening book the flags name. A book that cannot be read is reported
// (stderr, and the front end's note) and the engine plays without one; a book file that does
// not exist yet starts empty, for "learn" to create it.
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
	if *f.noBook || path == "none" || path == "-" {
		env.log.Debug().Msg("no opening book")
		return opt, nil
	}
	bk, err := book.Open(path)
	file := path != "" && path != "default"
	switch {
	case err != nil && file && errors.Is(err, os.ErrNotExist):
		bk = book.New()
		env.log.Info().Str("book", path).Msg("the book file does not exist yet: starting an empty book (learn creates it)")
	case err != nil:
		env.log.Error().Err(err).Msg("cannot read the opening book; playing without a book")
		opt.Note = fmt.Sprintf("opening book not used: %v", err)
		return opt, nil
	}
	if bk == nil {
		return opt, nil
	}
	opt.Book = bk
	if file {
		opt.File = path
	}
	env.log.Debug().Str("book", path).Int("positions", bk.Len()).Msg("opening book")
	return opt, nil
}

// engine builds the search engine and the front end's options.
func (f *engineFlags) engine(env *cmdEnv) (protocol.Engine, protocol.Options, error) {
	if *f.depth < 1 || *f.depth > protocol.MaxDepth || *f.ttMiB < 1 {
		return nil, protocol.Options{}, exitError{2, fmt.Errorf("want a depth of 1-%d and a table of at least 1 MiB", protocol.MaxDepth)}
	}
	ev, err := loadEvaluator(*f.eval)
	if err != nil {
		return nil, protocol.Options{}, exitError{2, err}
	}
	cfg := search.Config{TTMiB: *f.ttMiB}
	ev.configure(&cfg)
	if err := checkTableMemory(fmt.Sprintf("-tt %d", *f.ttMiB), engineTableBytes(cfg)); err != nil {
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
	env.log.Debug().Str("eval", ev.name).Int("depth", opt.Depth).Msg("engine ready")
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
