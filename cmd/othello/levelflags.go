package main

import (
	"flag"
	"fmt"
	"strconv"
	"time"

	"github.com/othellogo/othello/protocol"
	"github.com/othellogo/othello/search"
)

// optionalInt is an int option that knows whether it was given; its usage shows no default.
type optionalInt struct {
	v   int
	set bool
}

func (o *optionalInt) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.v)
}

func (o *optionalInt) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil {
		return fmt.Errorf("%q is not a whole number", s)
	}
	o.v, o.set = v, true
	return nil
}

// levelFlags are the strength and time options every front end registers (nboard, gtp,
// console, play, analyze): -level, -depth, -sel, -time, and -clock where a game is played
// on the console.
type levelFlags struct {
	level, depth, sel optionalInt
	moveTime          time.Duration
	clock             string
}

// addLevelFlags adds them to fs; selDefault is what -sel is without a level (the level's
// selectivity when empty).
func addLevelFlags(fs *flag.FlagSet, withClock bool, selDefault string) *levelFlags {
	f := &levelFlags{}
	fs.Var(&f.level, "level", fmt.Sprintf("level `N`, 0-%d: midgame depth, selectivity and the empties from which the endgame is solved (docs/protocols.md; default %d, or the -depth's level)", search.MaxLevel, search.DefaultLevel))
	fs.Var(&f.depth, "depth", "midgame search depth `N`, 1-60, overriding the level's")
	sel := fmt.Sprintf("Multi-ProbCut selectivity `N`, 0 (none, exact depths) to %d, overriding the level's", search.MaxSelectivity)
	if selDefault != "" {
		sel += " (default " + selDefault + ")"
	}
	fs.Var(&f.sel, "sel", sel)
	fs.DurationVar(&f.moveTime, "time", 0, "time per move, e.g. 5s (0: none; a game clock also applies)")
	if withClock {
		fs.StringVar(&f.clock, "clock", "", "game clock of each side, main time and optional increment per move, e.g. 5m or 10m/5s (default none)")
	}
	return f
}

// row is the level's row of the level table, the zero Level when no -level was given (the
// depth's level then applies, protocol.EngineSettings).
func (f *levelFlags) row() (search.Level, error) {
	if !f.level.set {
		return search.Level{}, nil
	}
	l, err := search.LevelFor(f.level.v)
	if err != nil {
		return l, exitError{2, fmt.Errorf("-level: %v", err)}
	}
	return l, nil
}

// settings puts the options into s: the level, the overrides, the time and the clock.
func (f *levelFlags) settings(s *protocol.EngineSettings) error {
	lv, err := f.row()
	if err != nil {
		return err
	}
	s.Level, s.MoveTime = lv, f.moveTime
	if f.depth.set {
		if f.depth.v < 1 || f.depth.v > protocol.MaxDepth {
			return exitError{2, fmt.Errorf("-depth %d: want a depth of 1-%d", f.depth.v, protocol.MaxDepth)}
		}
		s.Depth = f.depth.v
	}
	s.Selectivity, s.SetSelectivity = f.sel.v, f.sel.set
	if f.clock != "" {
		c, err := protocol.ParseGameClock(f.clock)
		if err != nil {
			return exitError{2, fmt.Errorf("-clock: %v", err)}
		}
		s.Clock = c
	}
	return nil
}
