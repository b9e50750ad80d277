package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/othellogo/othello/protocol"
	"github.com/othellogo/othello/search"
)

// engineFlags are the options every protocol front end shares: how the engine is built and
// how deep it searches by default.
type engineFlags struct {
	depth    *int
	moveTime *time.Duration
	ttMiB    *int
	eval     *string
	name     *string
}

func addEngineFlags(fs *flag.FlagSet, withTime bool) *engineFlags {
	f := &engineFlags{
		depth: fs.Int("depth", protocol.DefaultDepth, "default midgame search depth (1-60)"),
		ttMiB: fs.Int("tt", 64, "bounds tables size in MiB"),
		eval:  fs.String("eval", "default", evalFlagHelp),
		name:  fs.String("name", EngineName, "engine name given to the GUI (one word)"),
	}
	if withTime {
		f.moveTime = fs.Duration("time", 0, "time per move, e.g. 5s (0: none; a game clock also applies)")
	}
	return f
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
	opt := protocol.Options{Name: *f.name, Version: Version, Log: env.log, Depth: *f.depth}
	if f.moveTime != nil {
		if *f.moveTime < 0 {
			return nil, opt, exitError{2, fmt.Errorf("time per move must not be negative")}
		}
		opt.MoveTime = *f.moveTime
	}
	env.log.Debug().Str("eval", ev.name).Int("depth", opt.Depth).Msg("engine ready")
	return search.NewEngine(cfg), opt, nil
}

func cmdNBoard(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "nboard")
	ef := addEngineFlags(fs, false)
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
