package match

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/search"
)

// negamax is the tests' own exact value of a position for the side to move (plain
// alpha-beta over board.Make, no tables, no ordering).
func negamax(b board.Board, alpha, beta int) int {
	moves := b.LegalMoves()
	if moves == 0 {
		if b.GameOver() {
			return b.FinalScore()
		}
		u := b.Pass()
		v := -negamax(b, -beta, -alpha)
		b.Unmake(u)
		return v
	}
	best := -65
	for moves != 0 {
		sq := board.FirstSquare(moves)
		moves &= moves - 1
		u := b.Make(sq)
		v := -negamax(b, -beta, -alpha)
		b.Unmake(u)
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

func exactValuer() Valuer {
	return func(ctx context.Context, b board.Board) (float64, bool, error) {
		return float64(negamax(b, -65, 65)), true, nil
	}
}

// childValue is the value of playing sq for the side to move, from its view.
func childValue(b board.Board, sq board.Square) int {
	b.Make(sq)
	if b.MustPass() && !b.GameOver() {
		b.Pass()
		return negamax(b, -65, 65)
	}
	return -negamax(b, -65, 65)
}

// midgameStart plays random moves from the start until empties are left.
func midgameStart(r *rand.Rand, empties int) board.Board {
	for {
		b := board.Start()
		for b.NumEmpties() > empties && !b.GameOver() {
			moves := b.LegalMoves()
			if moves == 0 {
				b.Pass()
				continue
			}
			n := r.IntN(board.Count(moves))
			for ; n > 0; n-- {
				moves &= moves - 1
			}
			b.Make(board.FirstSquare(moves))
		}
		if !b.GameOver() && b.LegalMoves() != 0 {
			return b
		}
	}
}

// playOut plays a game from start: blunder picks, at the given move number, the worst move
// for its mover; every other move is a best one. It returns the game and the loss of the
// blunder (0 when there was no choice).
func playOut(t *testing.T, start board.Board, blunderAt int) (*ggf.Game, int) {
	t.Helper()
	g := ggf.New(start)
	g.Black, g.White = "first", "second"
	lost := 0
	for n := 0; ; n++ {
		b := g.Final()
		if b.GameOver() {
			return g, lost
		}
		moves := b.LegalMoves()
		if moves == 0 {
			if err := g.Play(ggf.Move{Square: board.NoSquare, Black: b.BlackToMove}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		best, worst := -65, 65
		var bestSq, worstSq board.Square
		for m := moves; m != 0; m &= m - 1 {
			sq := board.FirstSquare(m)
			v := childValue(b, sq)
			if v > best {
				best, bestSq = v, sq
			}
			if v < worst {
				worst, worstSq = v, sq
			}
		}
		sq := bestSq
		if n == blunderAt {
			sq, lost = worstSq, best-worst
		}
		if err := g.Play(ggf.Move{Square: sq, Black: b.BlackToMove, Time: time.Duration(b.NumEmpties()) * time.Millisecond, HasTime: true}); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAnalyzePhasesBestPlayLosesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var games []*ggf.Game
	for range 6 {
		g, _ := playOut(t, midgameStart(r, 10), -1)
		games = append(games, g)
	}
	opt := PhaseOptions{ExactFrom: 20, Bounds: []int{6}, Checkpoints: []int{10, 4}, Workers: 2}
	// Solved from 8 empties only: nothing is valued at the checkpoint of 10, and the run of
	// perfect moves starts at 8.
	part, err := AnalyzePhases(context.Background(), games, exactValuer, PhaseOptions{ExactFrom: 8, Checkpoints: []int{10, 8}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range part.Players {
		if p.ExpectedGames[0] != 0 || p.ExpectedGames[1] != 6 || p.PerfectFrom != 6*8 || p.Phases[0].Valued == p.Phases[0].Moves {
			t.Errorf("solved from 8 empties: %+v", p)
		}
	}
	rep, err := AnalyzePhases(context.Background(), games, exactValuer, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != 6 || len(rep.Players) != 2 {
		t.Fatalf("report of %d games, %d players", rep.Games, len(rep.Players))
	}
	for _, p := range rep.Players {
		for _, s := range p.Phases {
			if s.Loss != 0 || s.ResultErrors != 0 || s.Valued != s.Moves || s.Exact != s.Moves {
				t.Errorf("%s %d-%d: %+v, want every move valued, exact and without loss", p.Name, s.From, s.To, s)
			}
		}
		// Best play from the first position: the expected score there is the final one.
		for c := range opt.Checkpoints {
			if p.Expected[c] != p.Final || p.ExpectedGames[c] != 6 {
				t.Errorf("%s: expected %v at %d empties over %d games, final %v", p.Name, p.Expected[c], opt.Checkpoints[c], p.ExpectedGames[c], p.Final)
			}
		}
		if p.PerfectFrom != 6*10 {
			t.Errorf("%s: perfect from %d empties summed over 6 games, want 60", p.Name, p.PerfectFrom)
		}
	}
	if rep.Players[0].Final+rep.Players[1].Final != 6 {
		t.Errorf("final scores %v and %v do not sum to the games", rep.Players[0].Final, rep.Players[1].Final)
	}
}

func TestAnalyzePhasesFindsTheBlunder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	found := 0
	for found < 4 {
		start := midgameStart(r, 10)
		g, lost := playOut(t, start, 2)
		if lost == 0 {
			continue
		}
		found++
		m := g.Moves[2]
		before := g.Position(2)
		wantErr := 0
		best := negamax(before, -65, 65)
		if points(float64(best-lost)) < points(float64(best)) {
			wantErr = 1
		}
		opt := PhaseOptions{ExactFrom: 60, Bounds: []int{before.NumEmpties()}, Checkpoints: []int{before.NumEmpties(), before.NumEmpties() - 1}}
		rep, err := AnalyzePhases(context.Background(), []*ggf.Game{g}, exactValuer, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		var loss float64
		var errs, moves int
		var thought time.Duration
		for _, p := range rep.Players {
			name := "second"
			if m.Black {
				name = "first"
			}
			for _, s := range p.Phases {
				loss += s.Loss
				errs += s.ResultErrors
				moves += s.Moves
				thought += s.Time
				if p.Name != name && s.Loss != 0 {
					t.Errorf("%s lost %v discs but played best moves", p.Name, s.Loss)
				}
			}
			// The blunder opens the second phase (a bound is the first empties of the next phase).
			if p.Name == name && p.Phases[1].Loss != float64(lost) {
				t.Errorf("blunder of %d discs at %d empties counted as %v in phase %d-%d", lost, before.NumEmpties(), p.Phases[1].Loss, p.Phases[1].From, p.Phases[1].To)
			}
			if p.Name == name && p.PerfectFrom != before.NumEmpties()-1 {
				t.Errorf("%s played perfectly from %d empties, want %d", name, p.PerfectFrom, before.NumEmpties()-1)
			}
		}
		if loss != float64(lost) || errs != wantErr {
			t.Errorf("losses %v (want %d), result errors %d (want %d)", loss, lost, errs, wantErr)
		}
		var wantMoves int
		var wantTime time.Duration
		for _, mv := range g.Moves {
			if mv.Square != board.NoSquare {
				wantMoves++
				wantTime += mv.Time
			}
		}
		if moves != wantMoves || thought != wantTime {
			t.Errorf("%d moves and %v counted, want %d and %v", moves, thought, wantMoves, wantTime)
		}
		var sb strings.Builder
		WritePhases(&sb, rep)
		if !strings.Contains(sb.String(), "first (1 games)") || !strings.Contains(sb.String(), "expected score:") {
			t.Errorf("report:\n%s", sb.String())
		}
	}
}

// The result errors are listed with their positions and moves, and the written list reads back
// as an .obf file of those positions.
func TestAnalyzePhasesListsResultErrors(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var games []*ggf.Game
	var want []ResultError
	for len(want) < 3 {
		start := midgameStart(r, 10)
		g, lost := playOut(t, start, 1)
		before := g.Position(1)
		best := negamax(before, -65, 65)
		if lost == 0 || points(float64(best-lost)) == points(float64(best)) {
			continue
		}
		games = append(games, g)
		m := g.Moves[1]
		name := "second"
		if m.Black {
			name = "first"
		}
		want = append(want, ResultError{Player: name, Game: len(games), Board: before, Move: m.Square, Before: float64(best), After: float64(best - lost)})
	}
	opt := PhaseOptions{ExactFrom: 60, Bounds: []int{5}}
	rep, err := AnalyzePhases(context.Background(), games, exactValuer, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Errors) != len(want) {
		t.Fatalf("%d result errors listed, want %d: %+v", len(rep.Errors), len(want), rep.Errors)
	}
	for i, e := range rep.Errors {
		if e != want[i] {
			t.Errorf("error %d: %+v, want %+v", i, e, want[i])
		}
	}
	var sb strings.Builder
	if err := WriteResultErrors(&sb, rep.Errors); err != nil {
		t.Fatal(err)
	}
	ps, err := endgame.ParseProblems(strings.NewReader(sb.String()))
	if err != nil {
		t.Fatalf("%v in\n%s", err, sb.String())
	}
	if len(ps) != len(want) {
		t.Fatalf("%d positions read back, want %d:\n%s", len(ps), len(want), sb.String())
	}
	for i, p := range ps {
		if p.Board.OBF() != want[i].Board.OBF() {
			t.Errorf("position %d read back as %s, want %s", i, p.Board.OBF(), want[i].Board.OBF())
		}
	}
	if !strings.Contains(sb.String(), "% "+want[0].Player+", game 1, ") {
		t.Errorf("no comment naming the player and game:\n%s", sb.String())
	}
}

func TestAnalyzePhasesErrors(t *testing.T) {
	start := midgameStart(rand.New(rand.NewPCG(5, 6)), 10)
	g, _ := playOut(t, start, -1)
	bad := *g
	bad.Moves = append([]ggf.Move(nil), g.Moves...)
	bad.Moves[1].Square = bad.Moves[0].Square // occupied now
	if _, err := AnalyzePhases(context.Background(), []*ggf.Game{g, &bad}, exactValuer, PhaseOptions{ExactFrom: 20}, nil); err == nil || !strings.Contains(err.Error(), "game 2") {
		t.Errorf("illegal move in game 2: error %v", err)
	}
	for _, opt := range []PhaseOptions{{ExactFrom: 61}, {Bounds: []int{20, 30}}, {Checkpoints: []int{70}}} {
		if _, err := AnalyzePhases(context.Background(), []*ggf.Game{g}, exactValuer, opt, nil); err == nil {
			t.Errorf("options %+v accepted", opt)
		}
	}
	failing := func() Valuer {
		return func(context.Context, board.Board) (float64, bool, error) { return 0, false, errors.New("no value") }
	}
	if _, err := AnalyzePhases(context.Background(), []*ggf.Game{g}, failing, PhaseOptions{ExactFrom: 20}, nil); err == nil {
		t.Error("a failing valuer's error was dropped")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := AnalyzePhases(ctx, []*ggf.Game{g}, exactValuer, PhaseOptions{ExactFrom: 20}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v", err)
	}
}

// The engine's valuer agrees with the tests' own negamax on solved positions, and its
// midgame values are not called exact.
func TestSearchValuer(t *testing.T) {
	value := SearchValuer(search.NewEngine(search.Config{TTMiB: 1, SolverMiB: 1}), search.Limits{Depth: 4, ExactEmpties: 12})
	r := rand.New(rand.NewPCG(7, 8))
	for range 20 {
		b := midgameStart(r, 11)
		v, exact, err := value(context.Background(), b)
		if err != nil || !exact || v != float64(negamax(b, -65, 65)) {
			t.Fatalf("%s: valued %v (exact %v, %v), negamax %d", b.OBF(), v, exact, err, negamax(b, -65, 65))
		}
	}
	if _, exact, err := value(context.Background(), midgameStart(r, 30)); exact || err != nil {
		t.Errorf("a depth-4 value at 30 empties called exact (%v)", err)
	}
}

// Self-play of one engine: both sides carry the same name, and the report must still keep the
// blunderer's loss and score apart from its opponent's.
func TestAnalyzePhasesSameNameBothSides(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for {
		g, lost := playOut(t, midgameStart(r, 10), 1)
		if lost == 0 {
			continue
		}
		blunderBlack := g.Moves[1].Black
		g.Black, g.White = "engine", "engine"
		rep, err := AnalyzePhases(context.Background(), []*ggf.Game{g}, exactValuer, PhaseOptions{ExactFrom: 60, Checkpoints: []int{0}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Players) != 2 || rep.Players[0].Name != "engine (black)" || rep.Players[1].Name != "engine (white)" {
			t.Fatalf("players %+v, want engine (black) and engine (white)", rep.Players)
		}
		for i, p := range rep.Players {
			var loss float64
			for _, s := range p.Phases {
				loss += s.Loss
			}
			want := 0.0
			if (i == 0) == blunderBlack {
				want = float64(lost)
			}
			if p.Games != 1 || p.PerfectGames != 1 || loss != want {
				t.Errorf("%s: %d games, %d perfect-run games, loss %v; want 1, 1, %v", p.Name, p.Games, p.PerfectGames, loss, want)
			}
		}
		if f := rep.Players[0].Final + rep.Players[1].Final; f != 1 {
			t.Errorf("final scores sum to %v over one game", f)
		}
		return
	}
}
