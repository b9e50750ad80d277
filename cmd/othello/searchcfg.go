package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/atomicfile"
	"github.com/othellogo/othello/internal/bigmem"
	"github.com/othellogo/othello/search"
	"github.com/othellogo/othello/train"
)

const evalFlagHelp = "evaluation: default (the built-in trained weights), mobility (the plain mobility/corner baseline), or a weights file"

// evaluator is an evaluation chosen on the command line (eval.ByName) with the name the
// commands print: "pattern" or "mobility".
type evaluator struct {
	name string
	ev   *eval.Evaluator // nil for mobility
}

// loadEvaluator loads the named evaluation: "default", "mobility", or a weights file path.
func loadEvaluator(name string) (evaluator, error) {
	ev, err := eval.ByName(name)
	switch {
	case err != nil:
		return evaluator{}, err
	case ev == nil:
		return evaluator{name: "mobility"}, nil
	}
	return evaluator{name: "pattern", ev: ev}, nil
}

// configure sets the engine configuration to use the evaluator.
func (ev evaluator) configure(cfg *search.Config) {
	cfg.Eval = ev.ev
}

// searchFlags are the -tt, -threads and -eval options of the commands that run one engine.
type searchFlags struct {
	tt, threads int
	eval        string
	parallel    string
}

// addSearchFlags adds them to fs, with the command's default thread count and its text.
func addSearchFlags(fs *flag.FlagSet, threads int, threadsHelp string) *searchFlags {
	f := &searchFlags{}
	fs.IntVar(&f.tt, "tt", 64, "bounds tables size in MiB")
	fs.IntVar(&f.threads, "threads", threads, threadsHelp)
	fs.StringVar(&f.eval, "eval", "default", evalFlagHelp)
	fs.StringVar(&f.parallel, "parallel", search.ParallelDefault.String(), "with -threads > 1, what a thread does with no split point to join: ybwc (waits) or speculative (searches moves ahead of the first thread)")
	return f
}

// configure sets the options in the engine's configuration and returns the evaluator; an
// unknown evaluation, a thread count out of range or tables beyond the memory are usage errors.
func (f *searchFlags) configure(cfg *search.Config) (evaluator, error) {
	ev, err := loadEvaluator(f.eval)
	if err != nil {
		return ev, exitError{2, err}
	}
	if err := checkThreads(f.threads); err != nil {
		return ev, err
	}
	mode, err := search.ParseParallel(f.parallel)
	if err != nil {
		return ev, exitError{2, fmt.Errorf("-parallel: %v", err)}
	}
	cfg.TTMiB, cfg.Threads, cfg.Parallel = f.tt, f.threads, mode
	ev.configure(cfg)
	return ev, checkTableMemory(fmt.Sprintf("-tt %d", f.tt), search.TableBytes(*cfg))
}

// checkThreads refuses a thread count outside 1-256 (search.CheckThreads) as a usage error.
func checkThreads(n int) error {
	if err := search.CheckThreads("-threads", n); err != nil {
		return exitError{2, err}
	}
	return nil
}

// checkTableMemory refuses, as a usage error naming the flag, tables larger than the memory
// available: they are allocated and touched at start-up, where too large a request ends in
// "runtime: out of memory" and a dump of every goroutine, or in the kernel's OOM killer.
func checkTableMemory(flag string, bytes uint64) error {
	if err := bigmem.CheckAvailable(bytes); err != nil {
		return exitError{2, fmt.Errorf("%s: %v", flag, err)}
	}
	return nil
}

// checkWritable refuses, before any work, an output path that could not be written when the
// work is done (atomicfile.CheckWritable). An empty path is no output.
func checkWritable(flag, path string) error {
	if path == "" {
		return nil
	}
	if err := atomicfile.CheckWritable(path); err != nil {
		return exitError{2, fmt.Errorf("%s %s: cannot write there: %v", flag, path, err)}
	}
	return nil
}

// usageIf makes a package's InputError a usage error.
func usageIf(err error) error {
	if errors.As(err, &train.InputError{}) || errors.As(err, &endgame.InputError{}) {
		return exitError{2, err}
	}
	return err
}

// readProblems reads an .obf file of positions with their optional move scores; errors are
// usage errors (exit status 2) naming the file.
func readProblems(path string) ([]endgame.Problem, error) {
	ps, err := endgame.ReadProblemFile(path)
	if err != nil {
		return nil, exitError{2, err}
	}
	return ps, nil
}

// checkOutput is checkWritable for an output that must not replace one of the command's
// inputs: an output path naming an input file (directly, by a link or another spelling) is a
// usage error, so that a typo cannot destroy the file the command reads.
func checkOutput(flag, path string, inputs ...string) error {
	if path == "" {
		return nil
	}
	for _, in := range inputs {
		if in != "" && atomicfile.SameFile(path, in) {
			return exitError{2, fmt.Errorf("%s %s: that is the input file %s; give another output file", flag, path, in)}
		}
	}
	return checkWritable(flag, path)
}

// startCPUProfile starts a CPU profile written to path (none when path is empty) and returns
// the function that stops it. The profile is kept in memory and written atomically when it
// stops, so a run killed before does not leave a half-written file in the place of an old one;
// path must not be one of the inputs (checkOutput).
func startCPUProfile(path string, inputs ...string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	if err := checkOutput("-cpuprofile", path, inputs...); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		return nil, exitError{2, err}
	}
	return func() {
		pprof.StopCPUProfile()
		if err := atomicfile.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "-cpuprofile %s: %v\n", path, err)
		}
	}, nil
}
