package main

import (
	"flag"

	"github.com/othellogo/othello/internal/flagconfig"
)

// newFlagSet makes a subcommand's flag set writing its messages to stderr.
func newFlagSet(env *cmdEnv, name string) *flag.FlagSet {
	fs := flag.NewFlagSet("othello "+name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	return fs
}

// parseFlags parses a subcommand's flags; flags not given take their value from the
// subcommand's table of the --config file, when there is one (internal/flagconfig).
func parseFlags(env *cmdEnv, fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return err
		}
		return exitError{2, err}
	}
	if env.config == "" {
		return nil
	}
	if err := flagconfig.Apply(fs, env.config); err != nil {
		return exitError{2, err}
	}
	return nil
}
