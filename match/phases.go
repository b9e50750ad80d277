package match

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/search"
)

// Phase analysis: where a match's games are won and lost. Every position of every game from
// ExactFrom empties down is solved exactly, and, when Depth is set, every earlier one is
// valued by a search of that depth; each move's loss is the drop of its mover's value over
// the move. The losses, the thinking times and the result errors are summed per player and
// per phase (ranges of empties), and each player's expected score is read off the values at
// a few numbers of empties, so that the share of the final score already decided by then
// shows.

// Valuer values a position for the side to move, in discs: exact is true when the value is
// the exact final disc difference under best play. It is called only on positions with a
// move to play or a pass to make (a finished game is valued by its discs).
type Valuer func(ctx context.Context, b board.Board) (value float64, exact bool, err error)

// SearchValuer values positions with e: a search of lim's depth and selectivity, or, from
// lim.ExactEmpties empties down, an exact solve alone.
func SearchValuer(e *search.Engine, lim search.Limits) Valuer {
	return func(ctx context.Context, b board.Board) (float64, bool, error) {
		l := lim
		if b.NumEmpties() <= l.ExactEmpties {
			l.Depth = 0 // the solve, however deep the midgame search is set
		}
		res := e.Search(ctx, b, l, nil)
		if err := ctx.Err(); err != nil {
			return 0, false, err
		}
		return res.Score, res.Exact, nil
	}
}

// PhaseOptions configure AnalyzePhases.
type PhaseOptions struct {
	// ExactFrom: positions with at most this many empties are valued (exactly, by the
	// Valuer); the others only when Midgame is true.
	ExactFrom int
	// Midgame: value the positions above ExactFrom too (by the Valuer's search).
	Midgame bool
	// Bounds split the moves into phases by the empties before the move: with bounds 36, 24
	// and 18 the phases are 60-37, 36-25, 24-19 and 18-0. Descending, each 1-59.
	Bounds []int
	// Checkpoints are the empties at which each player's expected score is read off the
	// values (at the first position with at most that many empties, when it was valued),
	// descending.
	Checkpoints []int
	// Workers is the number of games analysed at once, each with its own Valuer (at least 1).
	Workers int
}

// Check refuses an empties count outside 0-60 and unordered bounds or checkpoints.
func (o PhaseOptions) Check() error {
	if o.ExactFrom < 0 || o.ExactFrom > 60 {
		return fmt.Errorf("exact solves from %d empties: want 0-60", o.ExactFrom)
	}
	for name, list := range map[string][]int{"phase bounds": o.Bounds, "checkpoints": o.Checkpoints} {
		for i, e := range list {
			if e < 0 || e > 60 || i > 0 && e >= list[i-1] {
				return fmt.Errorf("%s %v: want descending empties counts in 0-60", name, list)
			}
		}
	}
	return nil
}

// PhaseStats are one player's moves in one phase, summed over the games.
type PhaseStats struct {
	From, To int // the empties before the move, From >= To
	Moves    int // moves played (passes not counted)
	Valued   int // moves whose loss is known (both positions valued)
	Loss     float64
	// Exact counts the valued moves whose values were both exact; ResultErrors those of them
	// that turned a win into a draw or a loss, or a draw into a loss.
	Exact, ResultErrors int
	Time                time.Duration // thinking time of the moves with a recorded time
}

// MeanLoss is the loss per valued move, in discs (NaN when none was valued).
func (s PhaseStats) MeanLoss() float64 {
	if s.Valued == 0 {
		return math.NaN()
	}
	return s.Loss / float64(s.Valued)
}

// PlayerPhases is one player's analysis over all its games.
type PlayerPhases struct {
	Name   string
	Games  int
	Phases []PhaseStats
	// Expected is the player's score (1 a win, 0.5 a draw) summed over its games as the
	// values say at each of PhaseOptions.Checkpoints; ExpectedGames counts the games valued
	// there. Final is the score the games ended with.
	Expected      []float64
	ExpectedGames []int
	Final         float64
	// PerfectFrom sums, over the games, the most empties from which every move of the player
	// kept the exact value (its moves at or below that many empties all lost nothing):
	// from outside, the empties at which it solved. PerfectGames counts the games in it.
	PerfectFrom, PerfectGames int
}

// PhaseReport is the analysis of a set of games: one entry per player name, in the order met.
// In a game whose two players have the same name (self-play of one engine) they are kept
// apart as "NAME (black)" and "NAME (white)", so that neither side's moves and score are
// summed into the other's.
type PhaseReport struct {
	Options PhaseOptions
	Games   int
	Players []PlayerPhases
	// Errors lists the result errors (PhaseStats.ResultErrors) move by move, in the order of
	// the games and their moves.
	Errors []ResultError
}

// ResultError is one move that turned its mover's exact win into a draw or a loss, or a draw
// into a loss.
type ResultError struct {
	Player string
	Game   int         // the game's number in the order given, from 1
	Board  board.Board // the position before the move
	Move   board.Square
	// Before is the position's exact value for the mover, After the value the move left,
	// both in discs from the mover's view.
	Before, After float64
}

// AnalyzePhases values the positions of games (with a Valuer made by newValuer for each
// worker) and sums the moves per player and phase. done, when not nil, is called after each
// game. A cancelled ctx returns the report over the games finished so far and ctx's error.
func AnalyzePhases(ctx context.Context, games []*ggf.Game, newValuer func() Valuer, opt PhaseOptions, done func()) (PhaseReport, error) {
	if err := opt.Check(); err != nil {
		return PhaseReport{}, err
	}
	type valued struct {
		pos []position
		err error
	}
	results := make([]valued, len(games))
	finished := make([]bool, len(games))
	next := 0
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < max(opt.Workers, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			value := newValuer()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= len(games) || ctx.Err() != nil {
					return
				}
				r := &results[i]
				r.pos, r.err = valueGame(ctx, games[i], value, opt)
				if ctx.Err() != nil {
					return
				}
				mu.Lock()
				finished[i] = true
				mu.Unlock()
				if done != nil {
					done()
				}
			}
		}()
	}
	wg.Wait()
	rep := PhaseReport{Options: opt}
	for i, g := range games {
		if !finished[i] {
			continue
		}
		if err := results[i].err; err != nil {
			return rep, fmt.Errorf("game %d: %w", i+1, err)
		}
		rep.add(g, i+1, results[i].pos)
	}
	return rep, ctx.Err()
}

// position is one position of a game as AnalyzePhases sees it: its empties, the side to
// move, and its value from that side's view when it was valued (ok).
type position struct {
	b           board.Board
	empties     int
	blackToMove bool
	ok, exact   bool
	v           float64
}

// valueGame replays g, checking every move, and values the positions opt asks for (index n:
// before its n-th move; the last one is the final position).
func valueGame(ctx context.Context, g *ggf.Game, value Valuer, opt PhaseOptions) ([]position, error) {
	n := len(g.Moves)
	pos := make([]position, n+1)
	b := g.Start
	for i := 0; i <= n; i++ {
		p := &pos[i]
		p.b, p.empties, p.blackToMove = b, b.NumEmpties(), b.BlackToMove
		switch {
		case b.GameOver():
			p.v, p.exact, p.ok = float64(b.FinalScore()), true, true
		case p.empties <= opt.ExactFrom || opt.Midgame:
			var err error
			if p.v, p.exact, err = value(ctx, b); err != nil {
				return nil, err
			}
			p.ok = true
		}
		if i == n {
			break
		}
		m := g.Moves[i]
		switch {
		case m.Square == board.NoSquare:
			if !b.MustPass() {
				return nil, fmt.Errorf("move %d: a pass with moves to play", i+1)
			}
			b.Pass()
		case !b.IsLegal(m.Square):
			return nil, fmt.Errorf("move %d: %v is not legal", i+1, m.Square)
		default:
			b.Make(m.Square)
		}
	}
	return pos, nil
}

// add sums one valued game, the game-th of those given, into the report.
func (rep *PhaseReport) add(g *ggf.Game, game int, pos []position) {
	rep.Games++
	bname, wname := g.Black, g.White
	if bname == wname {
		bname, wname = bname+" (black)", wname+" (white)"
	}
	bi := rep.player(bname)
	wi := rep.player(wname) // may grow the slice: pointers only after both
	black, white := &rep.Players[bi], &rep.Players[wi]
	black.Games++
	white.Games++
	final := g.Final()
	blackFinal := float64(final.BlackScore()) // the record's end, finished or not
	black.Final += points(blackFinal)
	white.Final += points(-blackFinal)

	// Expected scores at the checkpoints, at the first position at or below each.
	for c, e := range rep.Options.Checkpoints {
		for _, p := range pos {
			if p.empties > e {
				continue
			}
			if !p.ok {
				break // the position at the checkpoint was not valued
			}
			bv := p.v
			if !p.blackToMove {
				bv = -bv
			}
			black.Expected[c] += points(bv)
			white.Expected[c] += points(-bv)
			black.ExpectedGames[c]++
			white.ExpectedGames[c]++
			break
		}
	}

	// Each move: its phase, time and loss.
	perfect := map[*PlayerPhases]int{black: -1, white: -1} // -1: still perfect
	var errs []ResultError                                 // last move first
	for i := len(g.Moves) - 1; i >= 0; i-- {
		m := g.Moves[i]
		if m.Square == board.NoSquare {
			continue
		}
		p := white
		if m.Black {
			p = black
		}
		before, after := pos[i], pos[i+1]
		s := &p.Phases[rep.phase(before.empties)]
		s.Moves++
		if m.HasTime {
			s.Time += m.Time
		}
		if !before.ok || !after.ok {
			if perfect[p] < 0 {
				perfect[p] = before.empties - 1
			}
			continue
		}
		va := after.v // the value after the move, from the mover's view
		if after.blackToMove != before.blackToMove {
			va = -va
		}
		loss := before.v - va
		s.Valued++
		s.Loss += loss
		exact := before.exact && after.exact
		if exact {
			s.Exact++
			if points(va) < points(before.v) {
				s.ResultErrors++
				errs = append(errs, ResultError{Player: p.Name, Game: game, Board: before.b, Move: m.Square, Before: before.v, After: va})
			}
		}
		if perfect[p] < 0 && (loss != 0 || !exact) {
			perfect[p] = before.empties - 1 // the moves below were all exact and lost nothing
		}
	}
	slices.Reverse(errs)
	rep.Errors = append(rep.Errors, errs...)
	for p, e := range perfect {
		if e < 0 {
			e = pos[0].empties
		}
		p.PerfectFrom += min(e, rep.Options.ExactFrom)
		p.PerfectGames++
	}
}

// player returns the index of the named player's entry, adding it when new.
func (rep *PhaseReport) player(name string) int {
	for i := range rep.Players {
		if rep.Players[i].Name == name {
			return i
		}
	}
	p := PlayerPhases{Name: name, Expected: make([]float64, len(rep.Options.Checkpoints)),
		ExpectedGames: make([]int, len(rep.Options.Checkpoints))}
	hi := 60
	for _, b := range rep.Options.Bounds {
		p.Phases = append(p.Phases, PhaseStats{From: hi, To: b + 1})
		hi = b
	}
	p.Phases = append(p.Phases, PhaseStats{From: hi, To: 0})
	rep.Players = append(rep.Players, p)
	return len(rep.Players) - 1
}

// phase returns the index of the phase of a move played at empties.
func (rep *PhaseReport) phase(empties int) int {
	i := 0
	for i < len(rep.Options.Bounds) && empties <= rep.Options.Bounds[i] {
		i++
	}
	return i
}

// points is a value's score for the side it is counted for: 1 a win, 0.5 a draw, 0 a loss.
func points(v float64) float64 {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return 0
	}
	return 0.5
}

// WritePhases prints a report: per player, a row per phase (moves, mean loss, exact moves
// and result errors among them, thinking time per game), the expected score at each
// checkpoint beside the final score, and the mean empties from which it played perfectly.
func WritePhases(w io.Writer, rep PhaseReport) {
	fmt.Fprintf(w, "%d games, positions solved exactly from %d empties", rep.Games, rep.Options.ExactFrom)
	if rep.Options.Midgame {
		fmt.Fprint(w, ", earlier ones valued by a search")
	}
	fmt.Fprintln(w)
	for _, p := range rep.Players {
		fmt.Fprintf(w, "\n%s (%d games)\n", p.Name, p.Games)
		fmt.Fprintf(w, "  %-8s %7s %7s %10s %7s %7s %10s\n", "empties", "moves", "valued", "loss/move", "exact", "errors", "time/game")
		for _, s := range p.Phases {
			loss := "-"
			if s.Valued > 0 {
				loss = fmt.Sprintf("%.3f", s.MeanLoss())
			}
			fmt.Fprintf(w, "  %-8s %7d %7d %10s %7d %7d %9.2fs\n", fmt.Sprintf("%d-%d", s.From, s.To), s.Moves, s.Valued,
				loss, s.Exact, s.ResultErrors, s.Time.Seconds()/float64(max(p.Games, 1)))
		}
		fmt.Fprint(w, "  expected score:")
		for c, e := range rep.Options.Checkpoints {
			if n := p.ExpectedGames[c]; n > 0 {
				fmt.Fprintf(w, " %d empties %.1f%% (%d games),", e, 100*p.Expected[c]/float64(n), n)
			}
		}
		fmt.Fprintf(w, " final %.1f%%\n", 100*p.Final/float64(max(p.Games, 1)))
		if p.PerfectGames > 0 {
			fmt.Fprintf(w, "  played perfectly from %.1f empties on average\n", float64(p.PerfectFrom)/float64(p.PerfectGames))
		}
	}
}

// WriteResultErrors writes the result errors as an .obf file of their positions, each after
// a comment line ("% ...") naming the player, the game, the move played and the values, so
// that othello solve -all-moves can score every move of them and othello bench -file
// -movetime can replay them under other times or settings.
func WriteResultErrors(w io.Writer, errs []ResultError) error {
	for _, e := range errs {
		if _, err := fmt.Fprintf(w, "%% %s, game %d, %d empties: played %v, %+.0f -> %+.0f\n%s;\n",
			e.Player, e.Game, e.Board.NumEmpties(), e.Move, e.Before, e.After, e.Board.OBF()); err != nil {
			return err
		}
	}
	return nil
}
