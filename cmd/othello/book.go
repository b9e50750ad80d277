package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/book"
	"github.com/othellogo/othello/search"
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
		names := make([]string, 0, len(cmds))
		for n := range cmds {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(env.stdout, "usage: othello book <command> [options]\n\ncommands:\n")
		for _, n := range names {
			fmt.Fprintf(env.stdout, "  %-8s %s\n", n, cmds[n].summary)
		}
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
	depth, sel, tt, threads *int
	eval                    *string
}

func addBookSearchFlags(fs *flag.FlagSet) bookSearchFlags {
	return bookSearchFlags{
		depth:   fs.Int("depth", 10, "midgame search depth of each move leaving the book"),
		sel:     fs.Int("sel", 0, "Multi-ProbCut selectivity of those searches (0: none)"),
		tt:      fs.Int("tt", 64, "search tables size in MiB, per thread"),
		threads: fs.Int("threads", 1, "searches run at the same time, each with its own engine"),
		eval:    fs.String("eval", "default", evalFlagHelp),
	}
}

func (f bookSearchFlags) check() error {
	if *f.depth < 1 || *f.depth > 60 || *f.sel < 0 || *f.tt < 1 || *f.threads < 1 || *f.threads > 256 {
		return exitError{2, fmt.Errorf("want depth 1-60, a non-negative selectivity, tables of at least 1 MiB and 1-256 threads")}
	}
	if _, err := loadEvaluator(*f.eval); err != nil {
		return exitError{2, err}
	}
	return nil
}

// run searches with a fresh engine, logging progress; Ctrl-C or SIGTERM stops between two
// searches, and what was searched is kept.
func (f bookSearchFlags) run(env *cmdEnv, what string, do func(ctx context.Context, s book.Searcher, opt book.Options) error) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ev, err := loadEvaluator(*f.eval)
	if err != nil {
		return exitError{2, err}
	}
	cfg := search.Config{TTMiB: *f.tt}
	ev.configure(&cfg)
	engine := search.NewEngine(cfg)
	start := time.Now()
	last := start
	opt := book.Options{Depth: *f.depth, Selectivity: *f.sel, Progress: func(done, total int) {
		if now := time.Now(); now.Sub(last) >= 10*time.Second || done == total {
			last = now
			el := now.Sub(start)
			env.log.Info().Int("done", done).Int("total", total).
				Str("per_1000", (el*1000/time.Duration(done)).Round(time.Millisecond).String()).
				Str("eta", (el * time.Duration(total-done) / time.Duration(done)).Round(time.Second).String()).
				Msg(what)
		}
	}}
	for i := 1; i < *f.threads; i++ {
		opt.Helpers = append(opt.Helpers, search.NewEngine(cfg))
	}
	env.log.Info().Str("eval", ev.name).Int("depth", *f.depth).Int("threads", *f.threads).Msg("searching with")
	err = do(ctx, engine, opt)
	if errors.Is(err, context.Canceled) {
		env.log.Warn().Msg("interrupted: the leaves searched so far are kept; run the command again to go on")
		return nil
	}
	return err
}

// openForReading returns the book at path, or the embedded default when path is empty.
func openForReading(path string) (*book.Book, error) {
	if path == "" {
		return book.Default()
	}
	return book.Load(path)
}

// parseBookFlags parses a book subcommand's flags and checks that it names the book file and,
// when it searches (sf not nil), sane search options.
func parseBookFlags(env *cmdEnv, fs *flag.FlagSet, args []string, path *string, sf *bookSearchFlags) error {
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if err := needBook(*path); err != nil {
		return err
	}
	// The book is replaced by a rename: its directory must take new files.
	if err := checkWritable("--book", *path); err != nil {
		return err
	}
	if sf != nil {
		return sf.check()
	}
	return nil
}

func needBook(path string) error {
	if path == "" {
		return exitError{2, fmt.Errorf("want --book FILE (the book to create or change)")}
	}
	return nil
}

func cmdBookBuild(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book build")
	path := fs.String("book", "", "book file to create or extend (written atomically)")
	moves := fs.Int("moves", 20, "add each game's positions up to this many moves")
	maxGames := fs.Int("games", 0, "use at most this many games (0: all), taken in file order")
	minGames := fs.Int("min-games", 1, "keep only positions played in at least this many of the games")
	sf := addBookSearchFlags(fs)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello book build --book FILE [options] GAMES...\n\nAdds the positions of the games (.wtb WTHOR files, .ggf GGF files, or text files with one\ntranscript per line) up to --moves moves, searches every move leaving the book at --depth\nand propagates values by negamax. Ctrl-C keeps what was searched; running the command\nagain goes on from there. Options:\n")
		fs.PrintDefaults()
	}
	if err := parseBookFlags(env, fs, args, path, &sf); err != nil {
		return err
	}
	if fs.NArg() == 0 || *moves < 0 || *moves > 60 || *maxGames < 0 || *minGames < 1 {
		fs.Usage()
		return exitError{2, fmt.Errorf("want game files, --moves 0-60, a non-negative --games and --min-games of at least 1")}
	}
	games, err := readBookGames(env, fs.Args())
	if err != nil {
		return err
	}
	if *maxGames > 0 && len(games) > *maxGames {
		games = games[:*maxGames]
	}
	job, err := startJob(env, *path, book.BuildWork(games, *moves, *minGames))
	if err != nil {
		return err
	}
	return sf.run(env, "book build", func(ctx context.Context, s book.Searcher, opt book.Options) error {
		start := time.Now()
		added, n, err := job.Run(ctx, s, opt)
		env.log.Info().Int("games", len(games)).Int("new_positions", added).Int("positions", job.Book.Len()).Msg("lines added")
		return saveReport(env, job, n, time.Since(start), err)
	})
}

// startJob starts the work on the book file, saying when it goes on with an interrupted run
// of the same work, or forgets another one.
func startJob(env *cmdEnv, path string, w book.Work) (*book.Job, error) {
	job, err := book.StartJob(path, w)
	if err != nil {
		return nil, err
	}
	if job.Replaced != "" {
		env.log.Warn().Msgf("%s: an unfinished %s is recorded; it is not resumed by this other work (what it added stays in the book; run again, it would add it twice)", path, job.Replaced)
	}
	if job.Resumed > 0 {
		env.log.Info().Int("steps_done", job.Resumed).Msgf("going on with the interrupted %s", w)
	}
	return job, nil
}

// readBookGames reads the games of the files; a game the book cannot take (a start position
// with fewer than 4 discs) is skipped with a warning naming it.
func readBookGames(env *cmdEnv, paths []string) ([]book.Game, error) {
	games, err := book.ReadGameFiles(paths)
	if err != nil {
		return nil, err
	}
	games, skipped := book.ValidGames(games)
	for _, e := range skipped {
		env.log.Warn().Msgf("%v: game skipped", e)
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("no game the book can take in %s", strings.Join(paths, ", "))
	}
	return games, nil
}

// saveReport saves the book of a job (also after an interruption: the book is consistent, and
// the job's record says what is done) and prints what was done.
func saveReport(env *cmdEnv, job *book.Job, leaves int, el time.Duration, searchErr error) error {
	save := job.Finish
	if searchErr != nil {
		save = job.Save
	}
	if err := save(); err != nil {
		return err
	}
	st := job.Book.Stats()
	per := "-"
	if leaves > 0 {
		per = fmt.Sprintf("%.2f s", el.Seconds()*1000/float64(leaves))
	}
	fmt.Fprintf(env.stdout, "%s: %d positions, %d bytes; %d leaves searched in %.1f s (%s per 1000 leaves)\n",
		job.Path(), st.Positions, st.FileBytes, leaves, el.Seconds(), per)
	return searchErr
}

func cmdBookDeviate(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book deviate")
	path := fs.String("book", "", "book file to change")
	margin := fs.Float64("margin", 2, "add moves whose value is within this many discs of the best")
	moves := fs.Int("moves", 20, "only from positions before this many moves")
	limit := fs.Int("limit", 0, "add at most this many positions (0: no limit), closest to the best first")
	sf := addBookSearchFlags(fs)
	if err := parseBookFlags(env, fs, args, path, &sf); err != nil {
		return err
	}
	job, err := startJob(env, *path, book.DeviateWork(*margin, *moves, *limit))
	if err != nil {
		return err
	}
	return sf.run(env, "book deviate", func(ctx context.Context, s book.Searcher, opt book.Options) error {
		start := time.Now()
		added, n, err := job.Run(ctx, s, opt)
		fmt.Fprintf(env.stdout, "%d positions added\n", added)
		return saveReport(env, job, n, time.Since(start), err)
	})
}

func cmdBookExtend(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book extend")
	path := fs.String("book", "", "book file to change")
	moves := fs.Int("moves", 20, "only from positions before this many moves")
	rounds := fs.Int("rounds", 1, "repeat this many times (each adds one move to every line)")
	sf := addBookSearchFlags(fs)
	if err := parseBookFlags(env, fs, args, path, &sf); err != nil {
		return err
	}
	job, err := startJob(env, *path, book.ExtendWork(*moves, *rounds))
	if err != nil {
		return err
	}
	return sf.run(env, "book extend", func(ctx context.Context, s book.Searcher, opt book.Options) error {
		start := time.Now()
		added, leaves, err := job.Run(ctx, s, opt)
		fmt.Fprintf(env.stdout, "%d positions added\n", added)
		return saveReport(env, job, leaves, time.Since(start), err)
	})
}

func cmdBookFix(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book fix")
	path := fs.String("book", "", "book file to change")
	if err := parseBookFlags(env, fs, args, path, nil); err != nil {
		return err
	}
	bk, dropped, err := book.LoadRepair(*path)
	if err != nil {
		return err
	}
	if dropped > 0 {
		env.log.Warn().Int("positions", dropped).Msg("left out positions no game reaches (fewer than 4 discs), written by an earlier version from a game with a bad start position")
	}
	changed := bk.Fix()
	fmt.Fprintf(env.stdout, "%d positions changed value\n", changed)
	return bk.Save(*path)
}

func cmdBookStats(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book stats")
	path := fs.String("book", "", "book file (default: the embedded book)")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	bk, err := openForReading(*path)
	if err != nil {
		return err
	}
	st := bk.Stats()
	name := *path
	if name == "" {
		name = "embedded book"
	}
	w := env.stdout
	fmt.Fprintf(w, "%s: %d positions (%d with a value), %d move values (%d lead to book positions), %d bytes\n",
		name, st.Positions, st.Known, st.Moves, st.BookMoves, st.FileBytes)
	fmt.Fprintf(w, "most games through one position: %d; deepest position: move %d\n", st.Games, st.MaxPly)
	if st.StartKnown {
		fmt.Fprintf(w, "start position: %+.2f for black, best move %s\n", st.StartScore, st.StartBestMove)
	}
	fmt.Fprintf(w, "positions by move number:")
	for p := 0; p <= st.MaxPly; p++ {
		if st.ByPly[p] > 0 {
			fmt.Fprintf(w, " %d:%d", p, st.ByPly[p])
		}
	}
	fmt.Fprintf(w, "\nsearched moves by depth:")
	depths := make([]int, 0, len(st.LeafDepths))
	for d := range st.LeafDepths {
		depths = append(depths, d)
	}
	sort.Ints(depths)
	for _, d := range depths {
		label := fmt.Sprint(d)
		if d == book.DepthExact {
			label = "exact"
		}
		fmt.Fprintf(w, " %s:%d", label, st.LeafDepths[d])
	}
	fmt.Fprintln(w)
	return nil
}

// parsePositionArg reads a position given as obf text (64 squares and the side to move) or
// as a transcript from the start position.
func parsePositionArg(text string) (board.Board, error) {
	t := strings.TrimSpace(text)
	if len(t) >= 64 {
		b, rest, err := board.ParseOBF(t)
		if err != nil {
			return board.Board{}, err
		}
		if r := strings.TrimSpace(rest); r != "" && r != ";" {
			return board.Board{}, fmt.Errorf("position: unexpected %q after the side to move", r)
		}
		return b, nil
	}
	_, b, err := board.ParseTranscript(t)
	return b, err
}

func cmdBookShow(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book show")
	path := fs.String("book", "", "book file (default: the embedded book)")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello book show [--book FILE] [POSITION|TRANSCRIPT]\n\nPOSITION is 64 board characters and the side to move (obf form, quoted, after -- when it\nstarts with -); TRANSCRIPT a move list from the start (e.g. f5d6c3); nothing means\nthe start position. Options:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return exitError{2, fmt.Errorf("want at most one position or transcript (quote an obf position)")}
	}
	b := board.Start()
	if fs.NArg() == 1 {
		var err error
		if b, err = parsePositionArg(fs.Arg(0)); err != nil {
			return exitError{2, err}
		}
	}
	bk, err := openForReading(*path)
	if err != nil {
		return err
	}
	w := env.stdout
	fmt.Fprint(w, b.Diagram())
	e, ok := bk.Lookup(b)
	if !ok {
		fmt.Fprintln(w, "not in the book")
		return nil
	}
	if e.Known {
		fmt.Fprintf(w, "book value %+.2f for %s (%s)", e.Score, b.SideName(), depthWord(e.Depth))
	} else {
		fmt.Fprintf(w, "in the book, value not known yet")
	}
	fmt.Fprintf(w, "; games %d: %d won, %d drawn, %d lost by %s\n", e.Wins+e.Draws+e.Losses, e.Wins, e.Draws, e.Losses, b.SideName())
	for _, m := range e.Moves {
		kind := "searched"
		if m.InBook {
			kind = "book"
		}
		fmt.Fprintf(w, "  %-3s %+7.2f  %-9s %s\n", m.Move, m.Score, depthWord(m.Depth), kind)
	}
	return nil
}

func depthWord(d int) string {
	if d == book.DepthExact {
		return "exact"
	}
	return fmt.Sprintf("depth %d", d)
}

func cmdBookExport(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book export")
	path := fs.String("book", "", "book file (default: the embedded book)")
	out := fs.String("o", "", "write to this file (default: standard output)")
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if *out != "" && *path != "" && sameFile(*out, *path) {
		return exitError{2, fmt.Errorf("-o %s is the book file itself: exporting there would replace the book with its text form; write the text to another file", *out)}
	}
	if err := checkWritable("-o", *out); err != nil {
		return err
	}
	bk, err := openForReading(*path)
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

// sameFile reports whether the paths name one existing file (also through links).
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

func cmdBookImport(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book import")
	path := fs.String("book", "", "book file to create or add to (written atomically)")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello book import --book FILE TEXT...\n\nReads the text form written by 'othello book export' (- for standard input). Options:\n")
		fs.PrintDefaults()
	}
	if err := parseBookFlags(env, fs, args, path, nil); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitError{2, fmt.Errorf("want at least one text file")}
	}
	bk, err := book.LoadOrNew(*path)
	if err != nil {
		return err
	}
	for _, name := range fs.Args() {
		var r io.Reader = env.stdin
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				return err
			}
			defer f.Close()
			r = f
		}
		n, err := bk.Import(r)
		if err != nil {
			return fmt.Errorf("%s: %w (nothing was saved)", name, err)
		}
		env.log.Info().Str("file", name).Int("lines", n).Msg("imported")
	}
	if err := bk.Save(*path); err != nil {
		return err
	}
	fmt.Fprintf(env.stdout, "%s: %d positions\n", *path, bk.Len())
	return nil
}

func cmdBookLearn(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "book learn")
	path := fs.String("book", "", "book file to create or change (written atomically)")
	moves := fs.Int("moves", 60, "add each game's positions up to this many moves")
	sf := addBookSearchFlags(fs)
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello book learn --book FILE [options] GAME...\n\nAdds played games (.ggf GGF files, or text files with one transcript per line) to the\nbook, searches the moves leaving it from their new positions and re-propagates values.\nOptions:\n")
		fs.PrintDefaults()
	}
	if err := parseBookFlags(env, fs, args, path, &sf); err != nil {
		return err
	}
	if fs.NArg() == 0 || *moves < 0 || *moves > 60 {
		fs.Usage()
		return exitError{2, fmt.Errorf("want game files and --moves 0-60")}
	}
	games, err := readBookGames(env, fs.Args())
	if err != nil {
		return err
	}
	job, err := startJob(env, *path, book.LearnWork(games, *moves))
	if err != nil {
		return err
	}
	return sf.run(env, "book learn", func(ctx context.Context, s book.Searcher, opt book.Options) error {
		start := time.Now()
		added, leaves, err := job.Run(ctx, s, opt)
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		if err == nil {
			fmt.Fprintf(env.stdout, "%d games learned, %d positions added\n", len(games), added)
		}
		return saveReport(env, job, leaves, time.Since(start), err)
	})
}
