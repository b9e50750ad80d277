package book

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/bigmem"
	"github.com/othellogo/othello/search"
	"github.com/rs/zerolog"
)

// The book's work as a program runs it: the engines that search, the progress and what is
// reported, the end of a run cut short, and the text forms of a book's statistics and entries.

// LoadOrDefault returns the book file at path, or the embedded default book when path is
// empty (unlike Open, "none" and "default" are file names here).
func LoadOrDefault(path string) (*Book, error) {
	if path == "" {
		return Default()
	}
	return Load(path)
}

// SearchConfig is how a book's work searches: each of Threads searches at a time has its own
// engine with tables of TTMiB.
type SearchConfig struct {
	Depth, Selectivity int
	TTMiB, Threads     int
	Eval               *eval.Evaluator // nil: the plain mobility evaluation
	EvalName           string          // named in the log
}

// Check refuses settings the searches cannot run with.
func (c SearchConfig) Check() error {
	if c.Depth < 1 || c.Depth > 60 || c.Selectivity < 0 || c.TTMiB < 1 || c.Threads < 1 || c.Threads > 256 {
		return fmt.Errorf("want depth 1-60, a non-negative selectivity, tables of at least 1 MiB and 1-256 threads")
	}
	return nil
}

// engine is the configuration of each of the engines.
func (c SearchConfig) engine() search.Config {
	return search.Config{TTMiB: c.TTMiB, Eval: c.Eval}
}

// TableBytes is the memory of the tables of all the engines, for a check at start-up.
func (c SearchConfig) TableBytes() uint64 {
	return bigmem.Times(search.TableBytes(c.engine()), max(c.Threads, 1))
}

// Runner runs work on a book file: it logs progress and the end of an interrupted run to Log
// and prints what was done to Out.
type Runner struct {
	Search SearchConfig
	Log    zerolog.Logger
	Out    io.Writer
	// NewSearcher, when set, makes the Threads searchers in place of local engines (e.g.
	// one that has other processes search, for a book built on several machines).
	NewSearcher func() Searcher
}

// Run does the work on the book file at path and saves it; a cancelled ctx (Ctrl-C) stops it
// between two searches, and the book is saved with what was searched, to go on from there
// when the same work is run again (Job). what names the work in the log.
func (r Runner) Run(ctx context.Context, path, what string, w Work) error {
	job, err := StartJob(path, w)
	if err != nil {
		return err
	}
	if job.Replaced != "" {
		r.Log.Warn().Msgf("%s: an unfinished %s is recorded; it is not resumed by this other work (what it added stays in the book; run again, it would add it twice)", path, job.Replaced)
	}
	if job.Resumed > 0 {
		r.Log.Info().Int("steps_done", job.Resumed).Msgf("going on with the interrupted %s", w)
	}
	cfg := r.Search.engine()
	newSearcher := func() Searcher { return search.NewEngine(cfg) }
	if r.NewSearcher != nil {
		newSearcher = r.NewSearcher
	}
	engine := newSearcher()
	start := time.Now()
	last := start
	opt := Options{Depth: r.Search.Depth, Selectivity: r.Search.Selectivity, Progress: func(done, total int) {
		if now := time.Now(); now.Sub(last) >= 10*time.Second || done == total {
			last = now
			el := now.Sub(start)
			r.Log.Info().Int("done", done).Int("total", total).
				Str("per_1000", (el*1000/time.Duration(done)).Round(time.Millisecond).String()).
				Str("eta", (el * time.Duration(total-done) / time.Duration(done)).Round(time.Second).String()).
				Msg(what)
		}
	}}
	for i := 1; i < r.Search.Threads; i++ {
		opt.Helpers = append(opt.Helpers, newSearcher())
	}
	r.Log.Info().Str("eval", r.Search.EvalName).Int("depth", r.Search.Depth).Int("threads", r.Search.Threads).Msg("searching with")
	err = r.run(ctx, job, engine, w, opt)
	if errors.Is(err, context.Canceled) {
		r.Log.Warn().Msg("interrupted: the leaves searched so far are kept; run the command again to go on")
		return nil
	}
	return err
}

// run runs the job, reports what it added and saves the book.
func (r Runner) run(ctx context.Context, job *Job, s Searcher, w Work, opt Options) error {
	start := time.Now()
	added, leaves, err := job.Run(ctx, s, opt)
	switch w.kind {
	case "build":
		r.Log.Info().Int("games", len(w.games)).Int("new_positions", added).Int("positions", job.Book.Len()).Msg("lines added")
	case "learn":
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
		if err == nil {
			fmt.Fprintf(r.Out, "%d games learned, %d positions added\n", len(w.games), added)
		}
	default:
		fmt.Fprintf(r.Out, "%d positions added\n", added)
	}
	save := job.Finish
	if err != nil {
		save = job.Save
	}
	if err := save(); err != nil {
		return err
	}
	st := job.Book.Stats()
	el := time.Since(start)
	per := "-"
	if leaves > 0 {
		per = fmt.Sprintf("%.2f s", el.Seconds()*1000/float64(leaves))
	}
	fmt.Fprintf(r.Out, "%s: %d positions, %d bytes; %d leaves searched in %.1f s (%s per 1000 leaves)\n",
		job.Path(), st.Positions, st.FileBytes, leaves, el.Seconds(), per)
	return err
}

// ReadValidGames reads the games of the files (ReadGameFiles); a game the book cannot take (a
// start position with fewer than 4 discs) is skipped with a warning in log naming it.
func ReadValidGames(paths []string, log zerolog.Logger) ([]Game, error) {
	games, err := ReadGameFiles(paths)
	if err != nil {
		return nil, err
	}
	games, skipped := ValidGames(games)
	for _, e := range skipped {
		log.Warn().Msgf("%v: game skipped", e)
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("no game the book can take in %s", strings.Join(paths, ", "))
	}
	return games, nil
}

// BuildOptions are book build's: the game files, each game's positions up to Moves moves,
// the first MaxGames games of the files (0: all) and the positions played in at least
// MinGames of them.
type BuildOptions struct {
	Files                     []string
	Moves, MaxGames, MinGames int
}

// Check refuses no game file, moves outside 0-60, a negative MaxGames and MinGames below 1.
func (o BuildOptions) Check() error {
	if len(o.Files) == 0 || o.Moves < 0 || o.Moves > 60 || o.MaxGames < 0 || o.MinGames < 1 {
		return fmt.Errorf("want game files, --moves 0-60, a non-negative --games and --min-games of at least 1")
	}
	return nil
}

// Work reads the games (ReadValidGames) and makes the work (BuildWork).
func (o BuildOptions) Work(log zerolog.Logger) (Work, error) {
	games, err := ReadValidGames(o.Files, log)
	if err != nil {
		return Work{}, err
	}
	if o.MaxGames > 0 && len(games) > o.MaxGames {
		games = games[:o.MaxGames]
	}
	return BuildWork(games, o.Moves, o.MinGames), nil
}

// LearnOptions are book learn's: the game files and each game's positions up to Moves moves.
type LearnOptions struct {
	Files []string
	Moves int
}

// Check refuses no game file and moves outside 0-60.
func (o LearnOptions) Check() error {
	if len(o.Files) == 0 || o.Moves < 0 || o.Moves > 60 {
		return fmt.Errorf("want game files and --moves 0-60")
	}
	return nil
}

// Work reads the games (ReadValidGames) and makes the work (LearnWork).
func (o LearnOptions) Work(log zerolog.Logger) (Work, error) {
	games, err := ReadValidGames(o.Files, log)
	if err != nil {
		return Work{}, err
	}
	return LearnWork(games, o.Moves), nil
}

// CheckExport refuses to export the book file at path to out when out is that file (also
// through links): the text would replace the book. An empty path or out is no file.
func CheckExport(path, out string) error {
	if path == "" || out == "" {
		return nil
	}
	fa, err := os.Stat(path)
	if err != nil {
		return nil
	}
	if fb, err := os.Stat(out); err == nil && os.SameFile(fa, fb) {
		return fmt.Errorf("-o %s is the book file itself: exporting there would replace the book with its text form; write the text to another file", out)
	}
	return nil
}

// FixFile re-propagates the values of the book file at path (Fix), leaving out positions no
// game reaches (LoadRepair) with a warning in log, prints how many values changed to out and
// saves the book.
func FixFile(path string, log zerolog.Logger, out io.Writer) error {
	bk, dropped, err := LoadRepair(path)
	if err != nil {
		return err
	}
	if dropped > 0 {
		log.Warn().Int("positions", dropped).Msg("left out positions no game reaches (fewer than 4 discs), written by an earlier version from a game with a bad start position")
	}
	changed := bk.Fix()
	fmt.Fprintf(out, "%d positions changed value\n", changed)
	return bk.Save(path)
}

// ImportFiles reads the text form (Import) of the files named (- for stdin) into the book
// file at path, created when there is none, and saves it. Nothing is saved when a file has an
// error.
func ImportFiles(path string, names []string, stdin io.Reader, log zerolog.Logger) (*Book, error) {
	bk, err := LoadOrNew(path)
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		r := stdin
		if name != "-" {
			f, err := os.Open(name)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			r = f
		}
		n, err := bk.Import(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w (nothing was saved)", name, err)
		}
		log.Info().Str("file", name).Int("lines", n).Msg("imported")
	}
	return bk, bk.Save(path)
}

// Write prints the statistics of the book called name.
func (st Stats) Write(w io.Writer, name string) {
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
		if d == DepthExact {
			label = "exact"
		}
		fmt.Fprintf(w, " %s:%d", label, st.LeafDepths[d])
	}
	fmt.Fprintln(w)
}

// Show prints the position's diagram and its book entry: value, game counts and every move
// with its value.
func (bk *Book) Show(w io.Writer, b board.Board) {
	fmt.Fprint(w, b.Diagram())
	e, ok := bk.Lookup(b)
	if !ok {
		fmt.Fprintln(w, "not in the book")
		return
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
}

func depthWord(d int) string {
	if d == DepthExact {
		return "exact"
	}
	return fmt.Sprintf("depth %d", d)
}
