package main

import (
	"context"

	"github.com/othellogo/othello/protocol"
)

func cmdGTP(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "gtp")
	ef := addEngineFlags(fs, "gtp")
	setUsage(env, fs, "usage: othello gtp [options]\n\nSpeaks GTP version 2 (the Go Text Protocol, with Othello squares a1-h8 as vertices)\non stdin/stdout, for GTP controllers. Logs go to stderr. Options:\n")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	eng, opt, err := ef.engine(env)
	if err != nil {
		return err
	}
	return protocol.RunGTP(context.Background(), eng, env.stdin, env.stdout, opt)
}
