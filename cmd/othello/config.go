package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/othellogo/othello/internal/flagconfig"
	"github.com/othellogo/othello/internal/progress"
	"github.com/othellogo/othello/search"
	"github.com/rs/zerolog"
	"github.com/schollz/progressbar/v3"
)

// newFlagSet makes a subcommand's flag set writing its messages to stderr.
func newFlagSet(env *cmdEnv, name string) *flag.FlagSet {
	fs := flag.NewFlagSet("othello "+name, flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	return fs
}

// setUsage makes the subcommand's usage the text (a format with its args) and its options.
func setUsage(env *cmdEnv, fs *flag.FlagSet, format string, args ...any) {
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, format, args...)
		fs.PrintDefaults()
	}
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

// parseArgs parses the flags (parseFlags) and wants min to max arguments (max < 0: any
// number from min). Another count prints the usage and is a usage error saying want, or
// without want naming the first argument too many.
func parseArgs(env *cmdEnv, fs *flag.FlagSet, args []string, min, max int, want string) error {
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if n := fs.NArg(); n >= min && (max < 0 || n <= max) {
		return nil
	}
	if want == "" {
		want = fmt.Sprintf("unexpected argument %q", fs.Arg(max))
	}
	return usageError(fs, errors.New(want))
}

// usageError prints the subcommand's usage and makes err a usage error.
func usageError(fs *flag.FlagSet, err error) error {
	fs.Usage()
	return exitError{2, err}
}

// checkOptions makes an options Check's error a usage error, printing the usage first when
// the package marks it so (search.UsageError).
func checkOptions(fs *flag.FlagSet, err error) error {
	if errors.As(err, &search.UsageError{}) {
		return usageError(fs, err)
	} else if err != nil {
		return exitError{2, err}
	}
	return nil
}

// newBar makes a progress bar on stderr, silent with -q.
func newBar(env *cmdEnv, n int, what string) *progressbar.ProgressBar {
	w := env.stderr
	if env.log.GetLevel() > zerolog.InfoLevel {
		w = io.Discard
	}
	return progress.New(w, n, what)
}
