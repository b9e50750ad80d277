package protocol

import (
	"fmt"
	"math"
	"time"

	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/internal/bigmem"
	"github.com/othellogo/othello/search"
	"github.com/othellogo/othello/uct"
	"github.com/rs/zerolog"
)

// EngineSettings are the options every front end shares, as a command line gives them: how
// the engine is built, how deep it searches by default, and the opening book.
type EngineSettings struct {
	// Level is the row of the level table the front end plays (search.LevelFor; the zero
	// row: Depth's row, or search.DefaultLevel's without a Depth). Depth, when positive, and
	// Selectivity, when SetSelectivity, override its depth and its selectivity.
	Level          search.Level
	Depth          int
	Selectivity    int
	SetSelectivity bool
	TTMiB, Threads int
	MoveTime       time.Duration
	// Clock is the console's game clock (not Set: none; ParseGameClock).
	Clock         ggf.Clock
	Eval          string // the evaluation: eval.ByName
	Name, Version string
	// BookPath is the book (OpenBook's path; NoBook: "none"); Book its options, Learn true
	// where NBoard's learn is offered (its depth and moves are then checked).
	BookPath string
	NoBook   bool
	Book     BookOptions
	Learn    bool
	// Engine is "alphabeta" (or empty: the search package's engine) or "uct" (the Monte-Carlo
	// engine of package uct, with the options UCT gives in uct.ParseConfig's form; Threads
	// applies unless UCT sets threads).
	Engine, UCT string
	// Parallel is what the alpha-beta engine's threads do with no split point to join.
	Parallel search.ParallelMode
}

// NewEngine checks the settings and builds the engine and the front end's options; an error
// is a setting that cannot be used (tables larger than the memory available among them).
func NewEngine(s EngineSettings, log zerolog.Logger) (Engine, Options, error) {
	lv := s.Level
	if lv == (search.Level{}) {
		// No level: the depth's, as NBoard's "set depth" picks it, else the default.
		lv, _ = search.LevelFor(search.DefaultLevel)
		if l, err := search.LevelFor(s.Depth); err == nil && s.Depth > 0 {
			lv = l
		}
	}
	if s.Depth != 0 {
		lv.Depth = s.Depth
	}
	if s.SetSelectivity {
		lv.Selectivity = s.Selectivity
	}
	if lv.Depth < 1 || lv.Depth > MaxDepth || s.TTMiB < 1 {
		return nil, Options{}, fmt.Errorf("want a depth of 1-%d and a table of at least 1 MiB", MaxDepth)
	}
	if lv.ExactEmpties < 1 || lv.ExactEmpties > 60 || lv.WLDEmpties < lv.ExactEmpties || lv.WLDEmpties > 60 {
		return nil, Options{}, fmt.Errorf("level %d: want solve empties of 1-60, the win/loss/draw proof from no fewer than the exact solve", lv.N)
	}
	if s.Threads < 1 || s.Threads > 256 {
		return nil, Options{}, fmt.Errorf("-threads %d: want 1 to 256", s.Threads)
	}
	ev, err := eval.ByName(s.Eval)
	if err != nil {
		return nil, Options{}, err
	}
	cfg := search.Config{TTMiB: s.TTMiB, Threads: s.Threads, Eval: ev, Parallel: s.Parallel}
	// The tables are allocated and touched now: too large a request would end the process.
	if err := bigmem.CheckAvailable(search.TableBytes(cfg)); err != nil {
		return nil, Options{}, fmt.Errorf("-tt %d: %v", s.TTMiB, err)
	}
	if lv.Selectivity < 0 || lv.Selectivity > search.MaxSelectivity {
		return nil, Options{}, fmt.Errorf("selectivity %d: want 0-%d", lv.Selectivity, search.MaxSelectivity)
	}
	opt := Options{Name: s.Name, Version: s.Version, Log: log, Depth: lv.Depth, Selectivity: lv.Selectivity,
		FixedSelectivity: s.SetSelectivity, ExactEmpties: lv.ExactEmpties, WLDEmpties: lv.WLDEmpties, Level: lv.N}
	if s.MoveTime < 0 {
		return nil, opt, fmt.Errorf("time per move must not be negative")
	}
	if s.Clock.Set && (s.Clock.Main <= 0 || s.Clock.Increment < 0) {
		return nil, opt, fmt.Errorf("clock %v: want a positive main time and an increment of at least 0", s.Clock)
	}
	opt.MoveTime, opt.Clock = s.MoveTime, s.Clock
	bo := s.Book
	if bo.Margin < 0 || math.IsNaN(bo.Margin) || math.IsInf(bo.Margin, 0) {
		return nil, opt, fmt.Errorf("book margin must be a non-negative number of discs")
	}
	if s.Learn && (bo.LearnDepth < 1 || bo.LearnDepth > MaxDepth || bo.LearnMoves < 1 || bo.LearnMoves > 60) {
		return nil, opt, fmt.Errorf("want a book learn depth of 1-%d and 1-60 book learn moves", MaxDepth)
	}
	path := s.BookPath
	if s.NoBook {
		path = "none"
	}
	opt.Book = OpenBook(path, bo, log)
	name := "pattern"
	if ev == nil {
		name = "mobility"
	}
	switch s.Engine {
	case "", "alphabeta":
	case "uct":
		uc, err := uct.ParseConfig(s.UCT)
		if err != nil {
			return nil, opt, fmt.Errorf("-uct %q: %v", s.UCT, err)
		}
		if uc.Threads == 0 {
			uc.Threads = s.Threads
		}
		e, err := uct.New(uc)
		if err != nil {
			return nil, opt, fmt.Errorf("-uct %q: %v", s.UCT, err)
		}
		log.Debug().Str("uct", s.UCT).Int("threads", uc.Threads).Msg("engine ready")
		return e, opt, nil
	default:
		return nil, opt, fmt.Errorf("-engine %q: want alphabeta or uct", s.Engine)
	}
	log.Debug().Str("eval", name).Int("depth", opt.Depth).Int("threads", s.Threads).Msg("engine ready")
	return search.NewEngine(cfg), opt, nil
}
