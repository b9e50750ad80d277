package protocol

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/internal/bigmem"
	"github.com/othellogo/othello/search"
	"github.com/rs/zerolog"
)

// NewEngine refuses every setting it cannot use with a message naming it, and builds the
// engine and the options from good ones.
func TestNewEngine(t *testing.T) {
	good := EngineSettings{Depth: 4, TTMiB: 1, Threads: 1, Selectivity: 2, SetSelectivity: true, Eval: "mobility", Name: "T", Version: "1", BookPath: "none"}
	eng, opt, err := NewEngine(good, zerolog.Nop())
	if err != nil || eng == nil || opt.Depth != 4 || opt.Selectivity != 2 || !opt.FixedSelectivity || opt.ExactEmpties != 8 || opt.WLDEmpties != 10 || opt.Name != "T" || opt.Book.Book != nil {
		t.Fatalf("good settings: %v, %+v", err, opt)
	}
	// The level table: a level's row, its depth and selectivity overridden by explicit ones;
	// no level and no depth is the default level.
	l20, _ := search.LevelFor(20)
	for _, c := range []struct {
		s                      EngineSettings
		depth, sel, exact, wld int
	}{
		{EngineSettings{Level: l20}, 20, 5, 26, 28},
		{EngineSettings{Level: l20, Depth: 14}, 14, 5, 26, 28},
		{EngineSettings{Level: l20, Selectivity: 0, SetSelectivity: true}, 20, 0, 26, 28},
		{EngineSettings{}, 12, 5, 20, 22},
		{EngineSettings{Depth: 16}, 16, 5, 24, 26},
	} {
		s := c.s
		s.TTMiB, s.Threads, s.Eval, s.BookPath = 1, 1, "mobility", "none"
		_, opt, err := NewEngine(s, zerolog.Nop())
		if err != nil || opt.Depth != c.depth || opt.Selectivity != c.sel || opt.ExactEmpties != c.exact || opt.WLDEmpties != c.wld {
			t.Errorf("%+v: %v, depth %d sel %d exact %d wld %d; want %d %d %d %d", c.s, err, opt.Depth, opt.Selectivity, opt.ExactEmpties, opt.WLDEmpties, c.depth, c.sel, c.exact, c.wld)
		}
	}
	mc := good
	mc.Engine, mc.UCT = "uct", "playouts=500"
	if eng, _, err := NewEngine(mc, zerolog.Nop()); err != nil {
		t.Fatalf("uct: %v", err)
	} else if b := board.Start(); !b.IsLegal(eng.Search(context.Background(), b, search.Limits{Depth: 4}, nil).Move) {
		t.Errorf("uct engine: an illegal move")
	}
	learn := good
	learn.Learn, learn.BookPath, learn.Book.LearnDepth, learn.Book.LearnMoves = true, filepath.Join(t.TempDir(), "new.book"), 3, 20
	if _, opt, err := NewEngine(learn, zerolog.Nop()); err != nil || opt.Book.File == "" || opt.Book.LearnDepth != 3 {
		t.Errorf("a book file to learn into: %v, %+v", err, opt.Book)
	}
	for _, c := range []struct {
		change func(*EngineSettings)
		want   string
	}{
		{func(s *EngineSettings) { s.Depth = -1 }, "depth of 1-60"},
		{func(s *EngineSettings) { s.Clock = ggf.Clock{Set: true} }, "positive main time"},
		{func(s *EngineSettings) { s.Depth = 61 }, "depth of 1-60"},
		{func(s *EngineSettings) { s.TTMiB = 0 }, "at least 1 MiB"},
		{func(s *EngineSettings) { s.Threads = 0 }, "-threads 0"},
		{func(s *EngineSettings) { s.Threads = 257 }, "-threads 257"},
		{func(s *EngineSettings) { s.Eval = "nonsense" }, "nonsense"},
		{func(s *EngineSettings) { s.Selectivity = 9 }, "selectivity 9"},
		{func(s *EngineSettings) { s.MoveTime = -1 }, "must not be negative"},
		{func(s *EngineSettings) { s.Book.Margin = math.NaN() }, "book margin"},
		{func(s *EngineSettings) { s.Book.Margin = -1 }, "book margin"},
		{func(s *EngineSettings) { s.Learn = true }, "book learn depth"},
		{func(s *EngineSettings) { s.Engine = "minimax" }, "want alphabeta or uct"},
		{func(s *EngineSettings) { s.Engine, s.UCT = "uct", "prune=sometimes" }, "-uct"},
		{func(s *EngineSettings) { s.Engine, s.UCT = "uct", "playouts=-1" }, "-uct"},
	} {
		s := good
		c.change(&s)
		if _, _, err := NewEngine(s, zerolog.Nop()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v; want %q", s, err, c.want)
		}
	}
	if _, _, ok := bigmem.Available(); ok {
		s := good
		s.TTMiB = 1 << 30
		if _, _, err := NewEngine(s, zerolog.Nop()); err == nil || !strings.Contains(err.Error(), "-tt 1073741824: ") || !strings.Contains(err.Error(), "available") {
			t.Errorf("tables beyond memory: %v", err)
		}
	}
}
