package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/book"
	"github.com/othellogo/othello/cluster"
)

// bookCommands are the subcommands of "othello book".
func bookCommands() map[string]command {
	return map[string]command{
		"build":   {"add game lines (WTHOR .wtb, GGF, transcripts) and search the moves leaving the book", cmdBookBuild},
		"deviate": {"add the best unexplored moves within a margin of the best, and search them", cmdBookDeviate},
		"extend":  {"lengthen every line by its best move, and search the new positions", cmdBookExtend},
		"fix":     {"re-propagate values by negamax (and drop positions no game reaches)", cmdBookFix},
		"stats":   {"positions, moves, depths, size", cmdBookStats},
		"show":    {"a position's book moves with values (position or transcript)", cmdBookShow},
		"export":  {"write the book as text: transcript, value, depth, games per line", cmdBookExport},
		"import":  {"read the text form into a book", cmdBookImport},
		"learn":   {"add played games (GGF or transcripts) and search their new positions", cmdBookLearn},
	}
}

func cmdBook(env *cmdEnv, args []string) error {
	cmds := bookCommands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprintf(env.stdout, "usage: othello book <command> [options]\n\ncommands:\n")
		listCommands(env.stdout, cmds, 8)
		fmt.Fprintf(env.stdout, "\nWithout --book, read-only commands use the embedded default book.\n")
		if len(args) == 0 {
			return exitError{2, fmt.Errorf("want a book command")}
		}
		return nil
	}
	c, ok := cmds[args[0]]
	if !ok {
		return exitError{2, fmt.Errorf("unknown book command %q; run 'othello book help'", args[0])}
	}
	return c.run(env, args[1:])
}

// bookSearchFlags are the options of the commands that search.
type bookSearchFlags struct {
	search book.SearchConfig
	eval   string
	redis  cluster.Access
	ev     evaluator
}

func addBookSearchFlags(fs *flag.FlagSet) *bookSearchFlags {
	f := &bookSearchFlags{}
	fs.IntVar(&f.search.Depth, "depth", 10, "midgame search depth of each move leaving the book")
	fs.IntVar(&f.search.Selectivity, "sel", 0, "Multi-ProbCut selectivity of those searches (0: none)")
	fs.IntVar(&f.search.TTMiB, "tt", 64, "search tables size in MiB, per thread")
	fs.IntVar(&f.search.Threads, "threads", 1, "searches run at the same time, each with its own engine")
	fs.StringVar(&f.eval, "eval", "default", evalFlagHelp)
	addRedisFlags(fs, &f.redis, "", "search on the workers (\"othello worker\") sharing these Redis servers, --threads searches at once")
	return f
}

// parse parses the flags (parseBookFlags), checks the search options and makes the book's
// runner of them.
func (f *bookSearchFlags) parse(env *cmdEnv, fs *flag.FlagSet, args []string, path *string) (book.Runner, error) {
	if err := parseBookFlags(env, fs, args, path); err != nil {
		return book.Runner{}, err
	}
	sc := f.search
	if err := sc.Check(); err != nil {
		return book.Runner{}, exitError{2, err}
	}
	ev, err := loadEvaluator(f.eval)
	if err != nil {
		return book.Runner{}, exitError{2, err}
	}
	sc.Eval, sc.EvalName = ev.ev, ev.name
	f.ev = ev
	if f.redis.Servers != "" {
		if err := f.redis.Check(); err != nil {
			return book.Runner{}, exitError{2, fmt.Errorf("--redis: %w", err)}
		}
		return book.Runner{Search: sc, Log: env.log, Out: env.stdout}, nil
	}
	if err := checkTableMemory(fmt.Sprintf("--tt %d with --threads %d", sc.TTMiB, sc.Threads), sc.TableBytes()); err != nil {
		return book.Runner{}, err
	}
	return book.Runner{Search: sc, Log: env.log, Out: env.stdout}, nil
}

// runWork runs the work on the book file; Ctrl-C or SIGTERM stops it between two searches.
// With --redis the workers search (cluster.Searcher), and a failure of Redis stops the run
// with the leaves searched so far kept.
func (f *bookSearchFlags) runWork(env *cmdEnv, r book.Runner, path, what string, w book.Work) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if f.redis.Servers == "" {
		return r.Run(ctx, path, what, w)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c, closeQueue, err := dialController(ctx, env, f.redis, f.ev)
	if err != nil {
		return err
	}
	defer closeQueue()
	s := &cluster.Searcher{C: c, Stop: cancel}
	r.NewSearcher = func() book.Searcher { return s }
	err = r.Run(ctx, path, what, w)
	if serr := s.Err(); serr != nil {
		return fmt.Errorf("%s: %w", what, serr)
	}
	return err
}

// parseBookFlags parses a book subcommand's flags and checks that it names a book file whose
// directory takes new files (the book is replaced by a rename).
func parseBookFlags(env *cmdEnv, fs *flag.FlagSet, args []string, path *string) error {
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if *path == "" {
		return exitError{2, fmt.Errorf("want --book FILE (the book to create or change)")}
	}
	return checkWritable("--book", *path)
}

func cmdBookBuild(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book build")
	path := fs.String("book", "", "book file to create or extend (written atomically)")
	var o book.BuildOptions
	fs.IntVar(&o.Moves, "moves", 20, "add each game's positions up to this many moves")
	fs.IntVar(&o.MaxGames, "games", 0, "use at most this many games (0: all), taken in file order")
	fs.IntVar(&o.MinGames, "min-games", 1, "keep only positions played in at least this many of the games")
	sf := addBookSearchFlags(fs)
	setUsage(env, fs, "usage: othello book build --book FILE [options] GAMES...\n\nAdds the positions of the games (.wtb WTHOR files, .ggf GGF files, or text files with one\ntranscript per line) up to --moves moves, searches every move leaving the book at --depth\nand propagates values by negamax. Ctrl-C keeps what was searched; running the command\nagain goes on from there. Options:\n")
	r, err := sf.parse(env, fs, args, path)
	if err != nil {
		return err
	}
	o.Files = fs.Args()
	if err := o.Check(); err != nil {
		return usageError(fs, err)
	}
	w, err := o.Work(env.log)
	if err != nil {
		return err
	}
	return sf.runWork(env, r, *path, "book build", w)
}

func cmdBookDeviate(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book deviate")
	path := fs.String("book", "", "book file to change")
	margin := fs.Float64("margin", 2, "add moves whose value is within this many discs of the best")
	moves := fs.Int("moves", 20, "only from positions before this many moves")
	limit := fs.Int("limit", 0, "add at most this many positions (0: no limit), closest to the best first")
	sf := addBookSearchFlags(fs)
	r, err := sf.parse(env, fs, args, path)
	if err != nil {
		return err
	}
	return sf.runWork(env, r, *path, "book deviate", book.DeviateWork(*margin, *moves, *limit))
}

func cmdBookExtend(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book extend")
	path := fs.String("book", "", "book file to change")
	moves := fs.Int("moves", 20, "only from positions before this many moves")
	rounds := fs.Int("rounds", 1, "repeat this many times (each adds one move to every line)")
	sf := addBookSearchFlags(fs)
	r, err := sf.parse(env, fs, args, path)
	if err != nil {
		return err
	}
	return sf.runWork(env, r, *path, "book extend", book.ExtendWork(*moves, *rounds))
}

func cmdBookLearn(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book learn")
	path := fs.String("book", "", "book file to create or change (written atomically)")
	var o book.LearnOptions
	fs.IntVar(&o.Moves, "moves", 60, "add each game's positions up to this many moves")
	sf := addBookSearchFlags(fs)
	setUsage(env, fs, "usage: othello book learn --book FILE [options] GAME...\n\nAdds played games (.ggf GGF files, or text files with one transcript per line) to the\nbook, searches the moves leaving it from their new positions and re-propagates values.\nOptions:\n")
	r, err := sf.parse(env, fs, args, path)
	if err != nil {
		return err
	}
	o.Files = fs.Args()
	if err := o.Check(); err != nil {
		return usageError(fs, err)
	}
	w, err := o.Work(env.log)
	if err != nil {
		return err
	}
	return sf.runWork(env, r, *path, "book learn", w)
}

func cmdBookFix(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book fix")
	path := fs.String("book", "", "book file to change")
	if err := parseBookFlags(env, fs, args, path); err != nil {
		return err
	}
	return book.FixFile(*path, env.log, env.stdout)
}

func cmdBookStats(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book stats")
	path := fs.String("book", "", "book file (default: the embedded book)")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	bk, err := book.LoadOrDefault(*path)
	if err != nil {
		return err
	}
	bk.Stats().Write(env.stdout, cmp.Or(*path, "embedded book"))
	return nil
}

func cmdBookShow(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book show")
	path := fs.String("book", "", "book file (default: the embedded book)")
	setUsage(env, fs, "usage: othello book show [--book FILE] [POSITION|TRANSCRIPT]\n\nPOSITION is 64 board characters and the side to move (obf form, quoted, after -- when it\nstarts with -); TRANSCRIPT a move list from the start (e.g. f5d6c3); nothing means\nthe start position. Options:\n")
	if err := parseArgs(env, fs, args, 0, 1, "want at most one position or transcript (quote an obf position)"); err != nil {
		return err
	}
	// 64 squares and more are a position, anything shorter a transcript.
	position, moves := "", strings.TrimSpace(fs.Arg(0))
	if len(moves) >= 64 {
		position, moves = moves, ""
	}
	b, err := board.ParsePosition(position, moves)
	if err != nil {
		return exitError{2, err}
	}
	bk, err := book.LoadOrDefault(*path)
	if err != nil {
		return err
	}
	bk.Show(env.stdout, b)
	return nil
}

func cmdBookExport(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book export")
	path := fs.String("book", "", "book file (default: the embedded book)")
	out := fs.String("o", "", "write to this file (default: standard output)")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if err := book.CheckExport(*path, *out); err != nil {
		return exitError{2, err}
	}
	if err := checkWritable("-o", *out); err != nil {
		return err
	}
	bk, err := book.LoadOrDefault(*path)
	if err != nil {
		return err
	}
	var lines, unreachable int
	if *out != "" {
		lines, unreachable, err = bk.ExportFile(*out)
	} else {
		lines, unreachable, err = bk.Export(env.stdout)
	}
	if err != nil {
		return err
	}
	env.log.Info().Int("lines", lines).Msg("exported")
	if unreachable > 0 {
		env.log.Warn().Int("positions", unreachable).Msg("positions not reachable from the start position were not exported")
	}
	return nil
}

func cmdBookImport(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book import")
	path := fs.String("book", "", "book file to create or add to (written atomically)")
	setUsage(env, fs, "usage: othello book import --book FILE TEXT...\n\nReads the text form written by 'othello book export' (- for standard input). Options:\n")
	if err := parseBookFlags(env, fs, args, path); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usageError(fs, fmt.Errorf("want at least one text file"))
	}
	bk, err := book.ImportFiles(*path, fs.Args(), env.stdin, env.log)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "%s: %d positions\n", *path, bk.Len())
	return nil
}
