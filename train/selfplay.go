package train

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/atomicfile"
	"github.com/othellogo/othello/search"
)

// Self-play games. Human game records cover the openings and lines good players choose; the
// engine's own games, each begun with a number of uniformly random plies, reach positions the
// records never show, played out by the engine's search, and their results (relabelled
// exactly near the end by the trainer) label every position on the way. SelfPlay plays them;
// SelfPlayFile writes them as transcript lines (ReadTranscripts), so that `train` reads them
// like any other game file.

// SelfPlayConfig sets up SelfPlay.
type SelfPlayConfig struct {
	Games int // how many games
	// Each game begins with MinRandom..MaxRandom (uniform) uniformly random legal plies from
	// the start position; the engine plays the rest.
	MinRandom, MaxRandom int
	// The engine's search for each move: depth, selectivity level, and the empties from which
	// it solves exactly (search.Limits).
	Depth, Selectivity, ExactEmpties int
	Eval                             *eval.Evaluator // nil: the mobility evaluation
	TTMiB                            int             // tables of each worker's engine
	Workers                          int
	Seed                             uint64
	// First is the index of the first game in the seed's sequence: game i of a seed is always
	// the same game, so a run with First k plays exactly the games k, k+1, ... of a run from 0.
	First int
}

// Check reports a configuration SelfPlay refuses, as an InputError.
func (c SelfPlayConfig) Check() error {
	var err error
	switch {
	case c.Games < 1:
		err = fmt.Errorf("games %d: want at least 1", c.Games)
	case c.MinRandom < 0 || c.MinRandom > 59:
		err = fmt.Errorf("random plies %d: want 0 to 59", c.MinRandom)
	case c.MaxRandom < c.MinRandom || c.MaxRandom > 59:
		err = fmt.Errorf("random plies %d..%d: want a range within 0 to 59", c.MinRandom, c.MaxRandom)
	case c.Depth < 1 || c.Depth > 40:
		err = fmt.Errorf("depth %d: want 1 to 40", c.Depth)
	case c.Selectivity < 0 || c.Selectivity > search.MaxSelectivity:
		err = fmt.Errorf("selectivity %d: want 0 to %d", c.Selectivity, search.MaxSelectivity)
	case c.ExactEmpties < 0 || c.ExactEmpties > search.MaxSolveEmpties:
		err = fmt.Errorf("exact %d: want 0 to %d empties", c.ExactEmpties, search.MaxSolveEmpties)
	case c.TTMiB < 1 || c.TTMiB > 4096:
		err = fmt.Errorf("tables %d MiB: want 1 to 4096", c.TTMiB)
	case c.Workers < 1 || c.Workers > 256:
		err = fmt.Errorf("workers %d: want 1 to 256", c.Workers)
	case c.First < 0:
		err = fmt.Errorf("first game %d: want 0 or more", c.First)
	}
	if err != nil {
		return InputError{err}
	}
	return nil
}

// TableBytes is the memory of the workers' engines' tables.
func (c SelfPlayConfig) TableBytes() uint64 {
	return uint64(max(c.Workers, 1)) * 2 * uint64(c.TTMiB) << 20
}

// Header is the comment line SelfPlayFile puts first in its file: the settings that make the
// games (not their number, the workers or the tables, which do not change them). evalName
// names the evaluation.
func (c SelfPlayConfig) Header(evalName string) string {
	return fmt.Sprintf("# othello selfplay: seed %d, random plies %d-%d, depth %d, selectivity %d, exact from %d empties, evaluation %s",
		c.Seed, c.MinRandom, c.MaxRandom, c.Depth, c.Selectivity, c.ExactEmpties, evalName)
}

// SelfPlayGame is one finished game: its moves (passes not written) and the final disc
// difference for black.
type SelfPlayGame struct {
	Moves     []board.Square
	BlackDiff int
}

// Line is the game as a transcript line (ReadTranscripts), with its newline.
func (g SelfPlayGame) Line() string {
	var sb strings.Builder
	for _, m := range g.Moves {
		sb.WriteString(m.String())
	}
	fmt.Fprintf(&sb, " %d\n", sign(g.BlackDiff))
	return sb.String()
}

// SelfPlay plays cfg.Games games (see SelfPlayConfig) and hands them to emit in order, game
// First first. A game depends only on cfg and its index: each starts with a new engine and
// draws its random plies from its own stream, so the games are the same whatever the number
// of workers. When ctx is cancelled it stops and returns ctx's error after emitting the games
// finished before the first unfinished one; an error from emit stops it too.
func SelfPlay(ctx context.Context, cfg SelfPlayConfig, emit func(i int, g SelfPlayGame) error) error {
	if err := cfg.Check(); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type done struct {
		i int
		g SelfPlayGame
	}
	results := make(chan done, cfg.Workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < cfg.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= cfg.Games || ctx.Err() != nil {
					return
				}
				g, ok := playSelfGame(ctx, cfg, cfg.First+i)
				if !ok {
					return
				}
				select {
				case results <- done{i, g}:
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()
	pending := map[int]SelfPlayGame{}
	want := 0
	var emitErr error
	for r := range results {
		if emitErr != nil {
			continue
		}
		pending[r.i] = r.g
		for {
			g, ok := pending[want]
			if !ok {
				break
			}
			delete(pending, want)
			if emitErr = emit(cfg.First+want, g); emitErr != nil {
				cancel()
				break
			}
			want++
		}
	}
	if emitErr != nil {
		return emitErr
	}
	return ctx.Err()
}

// playSelfGame plays game i of cfg's seed; ok is false when ctx stopped it.
func playSelfGame(ctx context.Context, cfg SelfPlayConfig, i int) (SelfPlayGame, bool) {
	r := rand.New(rand.NewPCG(cfg.Seed, uint64(i)))
	random := cfg.MinRandom + r.IntN(cfg.MaxRandom-cfg.MinRandom+1)
	eng := search.NewEngine(search.Config{TTMiB: cfg.TTMiB, SolverMiB: cfg.TTMiB, Eval: cfg.Eval})
	lim := search.Limits{Depth: cfg.Depth, Selectivity: cfg.Selectivity, ExactEmpties: cfg.ExactEmpties}
	b := board.Start()
	moves := make([]board.Square, 0, 60)
	for !b.GameOver() {
		legal := b.LegalMoves()
		if legal == 0 {
			b.Pass()
			continue
		}
		var m board.Square
		if len(moves) < random {
			n := r.IntN(board.Count(legal))
			for ; n > 0; n-- {
				legal &= legal - 1
			}
			m = board.FirstSquare(legal)
		} else {
			res := eng.Search(ctx, b, lim, nil)
			if ctx.Err() != nil {
				return SelfPlayGame{}, false
			}
			m = res.Move
		}
		b.Make(m)
		moves = append(moves, m)
	}
	return SelfPlayGame{Moves: moves, BlackDiff: b.BlackScore()}, true
}

// SelfPlayFile plays cfg's games into the transcript file at path, headed by
// cfg.Header(evalName). A new file is refused when path exists, unless resume: then the file
// must carry the same header, and the run plays the games after those it holds (cfg.First is
// set from them), up to cfg.Games in all. The file only ever grows by whole batches of games
// (atomicfile.Appender, a batch at most every flushEvery), so a kill leaves every game written
// before it whole; an interrupted run (ctx cancelled) writes the games it finished and says
// how to go on. bar, when not nil, counts the games of this run.
func SelfPlayFile(ctx context.Context, cfg SelfPlayConfig, evalName, path string, resume bool, flushEvery time.Duration, w io.Writer, bar Bar) error {
	header := cfg.Header(evalName)
	have := 0
	data, err := os.ReadFile(path)
	switch {
	case err == nil && !resume:
		return InputError{fmt.Errorf("%s exists: -resume continues it, or choose another file", path)}
	case err == nil:
		if have, err = countSelfPlayGames(path, data, header); err != nil {
			return err
		}
	case !os.IsNotExist(err):
		return err
	}
	if have >= cfg.Games {
		fmt.Fprintf(w, "%s already holds %d games\n", path, have)
		return nil
	}
	cfg.First = have
	total := cfg.Games
	cfg.Games -= have
	if err := cfg.Check(); err != nil {
		return err
	}
	app, err := atomicfile.OpenAppender(path, 0o644)
	if err != nil {
		return err
	}
	if have == 0 && app.Size() == 0 {
		if _, err := app.Write([]byte(header + "\n")); err != nil {
			return err
		}
	}
	if bar == nil {
		bar = noBar{}
	}
	start := time.Now()
	var batch bytes.Buffer
	written, inBatch := 0, 0
	lastFlush := time.Now()
	flush := func() error {
		if inBatch == 0 {
			return nil
		}
		if _, err := app.Write(batch.Bytes()); err != nil {
			return err
		}
		written += inBatch
		batch.Reset()
		inBatch = 0
		lastFlush = time.Now()
		return nil
	}
	err = SelfPlay(ctx, cfg, func(_ int, g SelfPlayGame) error {
		batch.WriteString(g.Line())
		inBatch++
		bar.Add(1)
		if time.Since(lastFlush) >= flushEvery {
			return flush()
		}
		return nil
	})
	interrupted := ctx.Err() != nil
	if e, ok := bar.(interface{ Exit() error }); ok && interrupted {
		e.Exit()
	} else {
		bar.Finish()
	}
	if ferr := flush(); ferr != nil {
		return ferr
	}
	if err != nil && !interrupted {
		return err
	}
	fmt.Fprintf(w, "wrote %d games to %s in %s (%d in the file)\n", written, path, time.Since(start).Round(time.Second), have+written)
	if interrupted {
		return fmt.Errorf("interrupted after %d of %d games: the same command with -resume plays the rest", have+written, total)
	}
	return nil
}

// countSelfPlayGames checks that data, the content of a self-play file at path, begins with
// header and holds only complete legal games, and counts them.
func countSelfPlayGames(path string, data []byte, header string) (int, error) {
	first, _, _ := bytes.Cut(data, []byte("\n"))
	if got := strings.TrimSpace(string(first)); got != header {
		return 0, InputError{fmt.Errorf("%s was made with other settings, so -resume cannot continue it:\n  file: %s\n  now:  %s", path, clipTo(got, 200), header)}
	}
	recs, err := ReadTranscripts(path, bytes.NewReader(data))
	if err != nil {
		return 0, InputError{err}
	}
	for _, r := range recs {
		var st LoadStats
		if _, ok := replayGame(r.Moves, &st); !ok {
			return 0, InputError{fmt.Errorf("%s:%d: not a complete legal game", path, r.Line)}
		}
	}
	return len(recs), nil
}
