package train

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
)

// exactNegamax is a plain full-width solve (passes cost nothing), from the side to move's
// view: the independent truth for the engine's exact play near the end.
func exactNegamax(b board.Board) int {
	moves := b.LegalMoves()
	if moves == 0 {
		if b.GameOver() {
			return b.FinalScore()
		}
		b.Pass()
		return -exactNegamax(b)
	}
	best := -65
	for ; moves != 0; moves &= moves - 1 {
		c := b
		c.Make(board.FirstSquare(moves))
		best = max(best, -exactNegamax(c))
	}
	return best
}

func selfPlayTestConfig(games, workers int) SelfPlayConfig {
	return SelfPlayConfig{Games: games, MinRandom: 4, MaxRandom: 12, Depth: 3, Selectivity: 0,
		ExactEmpties: 8, TTMiB: 1, Workers: workers, Seed: 5}
}

func collectSelfPlay(t *testing.T, cfg SelfPlayConfig) []SelfPlayGame {
	t.Helper()
	var games []SelfPlayGame
	err := SelfPlay(context.Background(), cfg, func(i int, g SelfPlayGame) error {
		if i != cfg.First+len(games) {
			t.Fatalf("game %d emitted as game %d", cfg.First+len(games), i)
		}
		games = append(games, g)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return games
}

func TestSelfPlay(t *testing.T) {
	one := collectSelfPlay(t, selfPlayTestConfig(8, 1))
	two := collectSelfPlay(t, selfPlayTestConfig(8, 3))
	if len(one) != 8 || len(two) != 8 {
		t.Fatalf("%d and %d games, want 8", len(one), len(two))
	}
	seen := map[string]bool{}
	solved := 0
	for i, g := range one {
		if g.Line() != two[i].Line() {
			t.Errorf("game %d differs with 3 workers:\n%s%s", i, g.Line(), two[i].Line())
		}
		seen[g.Line()] = true
		// A complete legal game whose result is its final position's; from its first
		// position with 8 empties or fewer (a move to play) both sides solve exactly, so the
		// result is that position's perfect-play value.
		checked := false
		final, over, err := Replay(g.Moves, func(b *board.Board) {
			if checked || b.NumEmpties() > 8 {
				return
			}
			checked = true
			v := exactNegamax(*b)
			if !b.BlackToMove {
				v = -v
			}
			if v != g.BlackDiff {
				t.Errorf("game %d: %d empties valued %+d for black, the game ended %+d", i, b.NumEmpties(), v, g.BlackDiff)
			}
		})
		if err != nil || !over || final.BlackScore() != g.BlackDiff {
			t.Errorf("game %d: over %v, err %v, final %+d, game says %+d", i, over, err, final.BlackScore(), g.BlackDiff)
		}
		if checked {
			solved++
		}
	}
	if solved < 6 {
		t.Errorf("only %d of 8 games reached 8 empties with a move to play", solved)
	}
	if len(seen) != len(one) {
		t.Errorf("only %d different games of %d", len(seen), len(one))
	}
	// Game i is the same whatever run plays it.
	later := selfPlayTestConfig(3, 2)
	later.First = 5
	for k, g := range collectSelfPlay(t, later) {
		if g.Line() != one[5+k].Line() {
			t.Errorf("game %d of a run from 5 differs from the full run's", 5+k)
		}
	}
}

func TestSelfPlayBadConfig(t *testing.T) {
	for _, f := range []func(*SelfPlayConfig){
		func(c *SelfPlayConfig) { c.Games = 0 },
		func(c *SelfPlayConfig) { c.MinRandom = -1 },
		func(c *SelfPlayConfig) { c.MaxRandom = 2 },
		func(c *SelfPlayConfig) { c.MaxRandom = 60 },
		func(c *SelfPlayConfig) { c.Depth = 0 },
		func(c *SelfPlayConfig) { c.Selectivity = 9 },
		func(c *SelfPlayConfig) { c.Workers = 0 },
		func(c *SelfPlayConfig) { c.TTMiB = 0 },
		func(c *SelfPlayConfig) { c.First = -2 },
	} {
		cfg := selfPlayTestConfig(2, 1)
		f(&cfg)
		err := SelfPlay(context.Background(), cfg, func(int, SelfPlayGame) error { return nil })
		if !errors.As(err, &InputError{}) {
			t.Errorf("%+v: got %v, want an InputError", cfg, err)
		}
	}
}

func TestSelfPlayFile(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	var out bytes.Buffer
	whole := filepath.Join(dir, "whole.txt")
	if err := SelfPlayFile(ctx, selfPlayTestConfig(6, 2), "test", whole, false, 0, &out, nil); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(whole)

	// The file is refused without -resume, and resumed with it to the same file a single
	// run makes.
	part := filepath.Join(dir, "part.txt")
	if err := SelfPlayFile(ctx, selfPlayTestConfig(2, 1), "test", part, false, time.Hour, &out, nil); err != nil {
		t.Fatal(err)
	}
	err := SelfPlayFile(ctx, selfPlayTestConfig(6, 1), "test", part, false, 0, &out, nil)
	if !errors.As(err, &InputError{}) || !strings.Contains(err.Error(), "-resume") {
		t.Fatalf("existing file without resume: got %v", err)
	}
	if err := SelfPlayFile(ctx, selfPlayTestConfig(6, 2), "test", part, true, 0, &out, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(part); !bytes.Equal(got, want) {
		t.Fatalf("resumed file:\n%s\nwant:\n%s", got, want)
	}
	out.Reset()
	if err := SelfPlayFile(ctx, selfPlayTestConfig(6, 2), "test", part, true, 0, &out, nil); err != nil || !strings.Contains(out.String(), "already holds 6") {
		t.Fatalf("complete file resumed: %v, %q", err, out.String())
	}

	// Other settings, or a file that is not whole games, are not continued.
	other := selfPlayTestConfig(8, 1)
	other.Seed = 6
	if err := SelfPlayFile(ctx, other, "test", part, true, 0, &out, nil); !errors.As(err, &InputError{}) || !strings.Contains(err.Error(), "other settings") {
		t.Errorf("other seed: got %v", err)
	}
	if err := SelfPlayFile(ctx, selfPlayTestConfig(8, 1), "other-eval", part, true, 0, &out, nil); err == nil {
		t.Errorf("other evaluation resumed")
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, append(append([]byte{}, want...), "f5d6 1\n"...), 0o644)
	if err := SelfPlayFile(ctx, selfPlayTestConfig(9, 1), "test", bad, true, 0, &out, nil); !errors.As(err, &InputError{}) || !strings.Contains(err.Error(), ":8: not a complete") {
		t.Errorf("unfinished game in the file: got %v", err)
	}
	os.WriteFile(bad, append(append([]byte{}, want...), "f5d6c3x"...), 0o644)
	if err := SelfPlayFile(ctx, selfPlayTestConfig(9, 1), "test", bad, true, 0, &out, nil); !errors.As(err, &InputError{}) {
		t.Errorf("cut line in the file: got %v", err)
	}

	// train reads the file as games.
	games, st, err := LoadFile(whole)
	if err != nil || len(games) != 6 || st.ScoreMismatch != 0 {
		t.Fatalf("LoadFile: %d games, %+v, %v", len(games), st, err)
	}
}

func TestSelfPlayFileInterrupted(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sp.txt")
	ctx, cancel := context.WithCancel(context.Background())
	cfg := selfPlayTestConfig(50, 1)
	n := 0
	bar := hookBar{add: func() {
		if n++; n == 3 {
			cancel()
		}
	}}
	var out bytes.Buffer
	err := SelfPlayFile(ctx, cfg, "test", path, false, time.Hour, &out, bar)
	if err == nil || !strings.Contains(err.Error(), "-resume") {
		t.Fatalf("interrupted run: got %v", err)
	}
	games, _, lerr := LoadFile(path)
	if lerr != nil || len(games) < 3 || len(games) >= 50 {
		t.Fatalf("interrupted file: %d games, %v", len(games), lerr)
	}
	whole := collectSelfPlay(t, selfPlayTestConfig(len(games), 1))
	for i := range games {
		if !slices.Equal(games[i].Moves, whole[i].Moves) {
			t.Errorf("game %d of the interrupted file differs from the run's", i)
		}
	}
}

type hookBar struct{ add func() }

func (b hookBar) Add(int) error { b.add(); return nil }
func (hookBar) Describe(string) {}
func (hookBar) Finish() error   { return nil }
