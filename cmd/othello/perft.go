package main

import (
	"fmt"
	"time"

	"github.com/othellogo/othello/board"
)

func cmdPerft(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "perft")
	position := fs.String("position", "", "start from this position: 64 board characters and the side to move (obf form), quoted")
	moves := fs.String("moves", "", "then play this transcript (e.g. f5d6c3)")
	setUsage(env, fs, "usage: othello perft [options] DEPTH\n\nCounts the leaves DEPTH plies below the position, a pass counted as a move;\nthe last ply is counted in bulk. Options:\n")
	if err := parseArgs(env, fs, args, 1, 1, "want one DEPTH argument"); err != nil {
		return err
	}
	var depth int
	if _, err := fmt.Sscan(fs.Arg(0), &depth); err != nil || depth < 0 || depth > 60 {
		return exitError{2, fmt.Errorf("depth %q: want a number from 0 to 60", fs.Arg(0))}
	}
	b, err := board.ParsePosition(*position, *moves)
	if err != nil {
		return exitError{2, err}
	}
	fmt.Fprint(env.stdout, b.Diagram())
	var total time.Duration
	for d := 1; d <= depth; d++ {
		start := time.Now()
		n := board.Perft(b.P, b.O, d)
		el := time.Since(start)
		total += el
		fmt.Fprintf(env.stdout, "perft %2d %14d leaves %9.3f s %8.1f M leaves/s\n", d, n, el.Seconds(), float64(n)/el.Seconds()/1e6)
	}
	env.log.Debug().Dur("total", total).Msg("perft done")
	return nil
}
