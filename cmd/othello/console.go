package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"

	"github.com/othellogo/othello/internal/progress"
	"github.com/othellogo/othello/protocol"
)

func cmdConsole(env *cmdEnv, args []string) error {
	return runConsole(env, "console", args)
}

func cmdPlay(env *cmdEnv, args []string) error {
	return runConsole(env, "play", args)
}

// runConsole is the console ("console": the engine plays only when asked) and the game
// against a person ("play": the engine answers each move).
func runConsole(env *cmdEnv, name string, args []string) error {
	fs := newFlagSet(env, name)
	ef := addEngineFlags(fs, name)
	var colour *string
	if name == "play" {
		colour = fs.String("color", "black", "the colour you play: black or white (black moves first)")
		setUsage(env, fs, "usage: othello play [options]\n\nA game against the engine on the console: type your moves (e.g. f5), \"hint\",\n\"undo\", \"help\" for the rest. Options:\n")
	} else {
		setUsage(env, fs, "usage: othello console [options]\n\nAn Othello board on the console, scriptable from a pipe: type moves, \"go\" for the\nengine's move, \"hint\", \"solve\", \"help\" for the rest. Options:\n")
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	eng, opt, err := ef.engine(env)
	if err != nil {
		return err
	}
	if colour != nil {
		switch strings.ToLower(*colour) {
		case "black", "b":
			opt.EngineWhite = true
		case "white", "w":
			opt.EngineBlack = true
		default:
			return exitError{2, fmt.Errorf("color %q: want black or white", *colour)}
		}
	}
	opt.Prompt = progress.IsTerminal(env.stdin)
	// Ctrl-C stops a running search (the engine plays its best move so far); quit or the end
	// of the input end the session.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	intr := make(chan struct{}, 1)
	go func() {
		for range sig {
			select {
			case intr <- struct{}{}:
			default:
			}
		}
	}()
	defer func() {
		signal.Stop(sig)
		close(sig)
	}()
	opt.Interrupt = intr
	return protocol.RunConsole(context.Background(), eng, env.stdin, env.stdout, opt)
}
