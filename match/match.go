// Package match plays engine-vs-engine matches. Run plays two players (Spec: this engine with a
// configuration read by ParseEngine, or an external engine speaking NBoard, started by External)
// from each opening twice, colours swapped, on optional game clocks, several games at a time,
// and returns a Result: wins, draws and losses, the Elo difference with its 95% interval
// (Stats), the score's standard error by opening (OpeningSE), disc differences, thinking times
// and clock margins; it can write the games as GGF.
// Openings come from a transcript file (train.ReadOpenings) or are drawn at random
// (RandomOpenings); GenerateOpenings makes balanced sets of them with the engine's own search
// (XOT's idea: random lines whose searched value is near even). A player that runs out of time or plays an illegal move forfeits the game
// by 64 discs. A game that ends by a player's error (an external engine that exits or stops
// answering) is no result: it is listed apart and left out of the score, and the engine is
// restarted for the next game, at most MaxRestarts times a side.
// Played runs are read back from their GGF records to be compared: Summarize scores a run for
// one player by opening, and Paired gives the difference of two runs opening by opening.
package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/internal/bigmem"
	"github.com/othellogo/othello/train"
)

// Options is what a match plays.
type Options struct {
	A, B        Spec
	Openings    [][]board.Square // each is played twice, A black first
	Concurrency int              // games played at the same time (at least 1)
	// Clocks are A's and B's game clocks (0: none; the player plays by its own limits);
	// Increment is added to a side's clock after each of its moves.
	Clocks    [2]time.Duration
	Increment time.Duration
	// FollowB, when above 0, sets A's clock for each game to FollowB times B's mean thinking
	// time a game over the games finished when it starts (Clocks[0] until one is): equal
	// time against an opponent that plays by depth, whose time a game moves with the
	// openings and the machine's load.
	FollowB float64
	// HandshakeTimeout bounds the wait for an external engine's answer to a ping, at its
	// start and before each move (0: DefaultHandshakeTimeout).
	HandshakeTimeout time.Duration
	// GGF, when not nil, receives each finished game as a GGF record, one per line (a game
	// ended by an error is not one).
	GGF io.Writer
	// Progress, when not nil, is called after each finished game (one call at a time).
	Progress func(Game)
}

// TableBytes is the memory of the players' tables: each of the games played at once has an
// engine of A's and one of B's (an external engine's memory is its own).
func (o Options) TableBytes() uint64 {
	per := o.A.tableBytes()
	if b := o.B.tableBytes(); per+b >= per {
		per += b
	} else {
		per = ^uint64(0)
	}
	return bigmem.Times(per, max(o.Concurrency, 1))
}

// Game is what Progress learns of a finished game.
type Game struct {
	Number   int    // 1-based, in the order the games were handed out
	Forfeit  bool   // a player lost on time or by an illegal move
	Error    bool   // a player failed (an engine exited or stopped answering): no result
	LoserIsA bool   // with Forfeit or Error: the player at fault is A
	Comment  string // why the game was forfeited or ended
}

// MaxRestarts is how many times a side's external engine is restarted after failing in a
// game; one more failure stops the match.
const MaxRestarts = 3

// Result is a match's outcome, from A's view.
type Result struct {
	Stats       Stats            // all games
	AsBlack     Stats            // the games A played as black
	Forfeits    [2]int           // games lost by A, B on time or by an illegal move
	Errors      []Game           // games ended by a player's error, by number: not in the score
	LeastLeft   [2]time.Duration // least clock left at the end of a game not forfeited, A and B
	Thought     [2]MoveTimes     // A's and B's thinking times
	Elapsed     time.Duration
	Interrupted bool // the context ended the match; the finished games are counted
	clocks      [2]time.Duration
	clockSum    time.Duration     // A's clocks summed over the games counted (FollowB)
	byOpening   map[int][]float64 // A's scores (0, 0.5, 1) by opening number, for OpeningSE
}

// followClock is A's clock for a game that starts now: FollowB times B's mean thinking time
// a game over the games counted so far, or the given clock before any (call under the
// result's lock).
func (r *Result) followClock(follow float64, clock time.Duration) time.Duration {
	n := r.Stats.Games()
	if follow <= 0 || n == 0 || r.Thought[1].Total <= 0 {
		return clock
	}
	return max(time.Duration(follow*float64(r.Thought[1].Total)/float64(n)), time.Millisecond)
}

// meanClockA is A's mean clock over the games counted: its fixed clock, or the mean of the
// clocks it followed B's time with.
func (r *Result) meanClockA() time.Duration {
	if n := r.Stats.Games(); r.clockSum > 0 && n > 0 {
		return r.clockSum / time.Duration(n)
	}
	return r.clocks[0]
}

// ScoreSE is the standard error of A's score fraction, the two colours of an opening taken
// as one sample (OpeningSE); NaN with fewer than two openings scored.
func (r *Result) ScoreSE() float64 {
	groups := make([][]float64, 0, len(r.byOpening))
	for _, g := range r.byOpening {
		groups = append(groups, g)
	}
	return OpeningSE(groups)
}

// Header is the line that announces the match: players, games and clocks.
func (o *Options) Header() string {
	s := fmt.Sprintf("match: A = %q vs B = %q, %d games (%d openings x 2 colours), concurrency %d",
		o.A.Text, o.B.Text, 2*len(o.Openings), len(o.Openings), o.Concurrency)
	switch c := o.Clocks; {
	case o.FollowB > 0:
		s += fmt.Sprintf(", A's clock %.2f times B's mean time a game so far (%v before the first game), B %v, + %v", o.FollowB, c[0], c[1], o.Increment)
	case c[0] == c[1] && c[0] > 0:
		s += fmt.Sprintf(", clock %v + %v", c[0], o.Increment)
	case c[0] > 0 || c[1] > 0:
		s += fmt.Sprintf(", clock A %v, B %v, + %v", c[0], c[1], o.Increment)
	}
	return s
}

// Run plays the match. When ctx ends, the games under way are dropped and the result of the
// finished ones is returned, marked Interrupted. A player that cannot be started is an error.
func Run(ctx context.Context, opt Options) (*Result, error) {
	// The tables are allocated and touched when the players start: too large a request would
	// end the process ("out of memory", or the kernel's OOM killer) instead of failing here.
	if err := bigmem.CheckAvailable(opt.TableBytes()); err != nil {
		return nil, fmt.Errorf("the players' tables (tt= of A and B, %d games at once): %w", max(opt.Concurrency, 1), err)
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	opens, clocks := opt.Openings, opt.Clocks
	res := &Result{LeastLeft: clocks, clocks: clocks}
	if opt.FollowB > 0 {
		res.LeastLeft[0] = noGameLeft // A's clock changes from game to game
	}
	var (
		mu       sync.Mutex
		firstErr error
		jobs     = make(chan int)
		wg       sync.WaitGroup
		start    = time.Now()
	)
	fail := func(err error) {
		mu.Lock()
		firstErr = err
		mu.Unlock()
		stop()
	}
	restarts := [2]int{} // per side, A and B, under mu
	for w := 0; w < max(opt.Concurrency, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var pl [2]player // A's and B's
			defer func() {
				for _, p := range pl {
					if p != nil {
						p.close()
					}
				}
			}()
			specs := [2]Spec{opt.A, opt.B}
			for i := range pl {
				var err error
				if pl[i], err = specs[i].newPlayer(opt.HandshakeTimeout); err != nil {
					fail(fmt.Errorf("engine %s: %v", "AB"[i:i+1], err))
					return
				}
			}
			for g := range jobs {
				aBlack := g%2 == 0
				black, white, bn, wn := pl[0], pl[1], "A "+opt.A.Text, "B "+opt.B.Text
				if !aBlack {
					black, white, bn, wn = pl[1], pl[0], wn, bn
				}
				clocks := clocks
				if opt.FollowB > 0 {
					mu.Lock()
					clocks[0] = res.followClock(opt.FollowB, clocks[0])
					mu.Unlock()
				}
				cl := clockSpec{total: clocks, inc: opt.Increment}
				if !aBlack {
					cl.total[0], cl.total[1] = clocks[1], clocks[0]
				}
				gr := playGame(ctx, black, white, opens[g/2], cl)
				if ctx.Err() != nil {
					return
				}
				at := -1 // the side, 0 A or 1 B, whose player failed
				if gr.failed >= 0 {
					at = 1
					if (gr.failed == 0) == aBlack {
						at = 0
					}
					gr.comment = failureText("AB"[at:at+1], gr.err, g+1)
				}
				mu.Lock()
				res.add(g, aBlack, len(opens[g/2]), gr)
				if opt.FollowB > 0 && gr.failed < 0 {
					res.clockSum += clocks[0]
				}
				if opt.GGF != nil && at < 0 {
					rec := gameRecord(gr.moves, gr.times)
					if cl.total[0] > 0 {
						rec.BlackClock = ggf.Clock{Main: cl.total[0], Increment: cl.inc, Set: true}
					}
					if cl.total[1] > 0 {
						rec.WhiteClock = ggf.Clock{Main: cl.total[1], Increment: cl.inc, Set: true}
					}
					rec.Place, rec.Date = "GoThello match", time.Now().UTC().Format("2006.01.02_15:04:05.UTC")
					rec.Black, rec.White = bn, wn
					rec.Result = fmt.Sprintf("%+d.000", gr.blackScore)
					if gr.comment != "" {
						rec.Other = append(rec.Other, ggf.Prop{Key: "C", Value: gr.comment})
					}
					fmt.Fprintln(opt.GGF, rec.String())
				}
				if opt.Progress != nil {
					opt.Progress(res.game(g, aBlack, gr))
				}
				restarted := 0
				if at >= 0 {
					restarts[at]++
					restarted = restarts[at]
				}
				mu.Unlock()
				if at < 0 {
					continue
				}
				who := "AB"[at : at+1]
				if restarted > MaxRestarts {
					fail(fmt.Errorf("engine %s failed again (%s) after being restarted %d times; the match stops", who, gr.comment, MaxRestarts))
					return
				}
				pl[at].close()
				var err error
				if pl[at], err = specs[at].newPlayer(opt.HandshakeTimeout); err != nil {
					fail(fmt.Errorf("engine %s: restarting it after game %d: %v", who, g+1, err))
					return
				}
			}
		}()
	}
feed:
	for g := 0; g < 2*len(opens); g++ {
		select {
		case jobs <- g:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	res.Elapsed = time.Since(start)
	res.Interrupted = ctx.Err() != nil
	sort.Slice(res.Errors, func(i, j int) bool { return res.Errors[i].Number < res.Errors[j].Number })
	return res, nil
}

// failureText says which engine failed how in which game: "engine B exited (status 3)
// during game 3".
func failureText(who string, err error, game int) string {
	var ex *exitedError
	if errors.As(err, &ex) {
		return fmt.Sprintf("engine %s %v during game %d", who, ex, game)
	}
	return fmt.Sprintf("engine %s failed during game %d: %v", who, game, err)
}

// game is what Progress learns of game number g (0-based), played by A as black when aBlack.
func (r *Result) game(g int, aBlack bool, gr gameResult) Game {
	at := gr.forfeit
	if gr.failed >= 0 {
		at = gr.failed
	}
	return Game{Number: g + 1, Forfeit: gr.forfeit >= 0, Error: gr.failed >= 0, LoserIsA: (at == 0) == aBlack, Comment: gr.comment}
}

// add counts game number g, played by A as black when aBlack from an opening of openPlies; a
// game ended by an error is listed, not counted.
func (r *Result) add(g int, aBlack bool, openPlies int, gr gameResult) {
	if gr.failed >= 0 {
		r.Errors = append(r.Errors, r.game(g, aBlack, gr))
		return
	}
	for i := openPlies; i < len(gr.moves); i++ {
		if gr.moves[i] == board.NoSquare {
			continue // passes take no thought
		}
		if gr.movers[i] == aBlack {
			r.Thought[0].add(gr.times[i])
		} else {
			r.Thought[1].add(gr.times[i])
		}
	}
	diffA := gr.blackScore
	if !aBlack {
		diffA = -diffA
	}
	r.Stats.Add(diffA)
	if r.byOpening == nil {
		r.byOpening = map[int][]float64{}
	}
	r.byOpening[g/2] = append(r.byOpening[g/2], points(float64(diffA)))
	if aBlack {
		r.AsBlack.Add(diffA)
	}
	if gr.forfeit < 0 {
		ia, ib := 0, 1
		if !aBlack {
			ia, ib = 1, 0
		}
		r.LeastLeft[0] = min(r.LeastLeft[0], gr.clockLeft[ia])
		r.LeastLeft[1] = min(r.LeastLeft[1], gr.clockLeft[ib])
		return
	}
	if (gr.forfeit == 0) == aBlack {
		r.Forfeits[0]++
	} else {
		r.Forfeits[1]++
	}
}

// Write prints the result: A's wins, draws and losses, score, Elo difference with its 95%
// interval and mean disc difference; the score's standard error by opening; A's games as
// black, forfeits and time taken; thinking times, and A's per game as a multiple of B's;
// and, with clocks, the least clock left.
func (r *Result) Write(w io.Writer) {
	st := r.Stats
	if r.Interrupted {
		fmt.Fprintf(w, "interrupted: results of the %d finished games\n", st.Games())
	}
	elo, lo, hi := st.Elo()
	fmt.Fprintf(w, "A: %d wins, %d draws, %d losses in %d games: score %.1f%%, Elo %s [%s, %s] (95%%), mean disc difference %+.2f\n",
		st.Wins, st.Draws, st.Losses, st.Games(), 100*st.Score(), eloText(elo), eloText(lo), eloText(hi), st.MeanDiscDiff())
	if se := r.ScoreSE(); !math.IsNaN(se) {
		fmt.Fprintf(w, "standard error of the score: %.1f points, the two colours of an opening as one sample (%d openings)\n",
			100*se, len(r.byOpening))
	}
	fmt.Fprintf(w, "A as black: %d-%d-%d; games lost on time or by an illegal move: A %d, B %d; %.1f s\n",
		r.AsBlack.Wins, r.AsBlack.Draws, r.AsBlack.Losses, r.Forfeits[0], r.Forfeits[1], r.Elapsed.Seconds())
	fmt.Fprintf(w, "thinking time per move: A %s; B %s\n", r.Thought[0], r.Thought[1])
	if g := st.Games(); g > 0 {
		ratio := ""
		if r.Thought[1].Total > 0 {
			ratio = fmt.Sprintf("; A %.2f times B's", float64(r.Thought[0].Total)/float64(r.Thought[1].Total))
		}
		fmt.Fprintf(w, "thinking time per game: A %s; B %s%s\n", perGame(r.Thought[0], g, r.meanClockA()), perGame(r.Thought[1], g, r.clocks[1]), ratio)
	}
	if r.clocks[0] > 0 || r.clocks[1] > 0 {
		fmt.Fprintf(w, "least clock left at the end of a game: A %v, B %v\n", leastText(r.LeastLeft[0], r.clocks[0]), leastText(r.LeastLeft[1], r.clocks[1]))
	}
	if len(r.Errors) > 0 {
		fmt.Fprintf(w, "%d games ended by an engine error, not scored:\n", len(r.Errors))
		for _, g := range r.Errors {
			fmt.Fprintf(w, "  %s\n", g.Comment)
		}
	}
}

func eloText(e float64) string {
	if math.IsInf(e, 0) {
		if e > 0 {
			return "+inf"
		}
		return "-inf"
	}
	if e == 0 {
		e = 0 // print -0 as +0.0
	}
	return fmt.Sprintf("%+.1f", e)
}

// perGame is a player's mean thinking time per game and, with a clock, the part of the clock
// it is: how much of its clock a clock plan spends.
func perGame(m MoveTimes, games int, clock time.Duration) string {
	t := m.Total / time.Duration(games)
	if clock == 0 {
		return fmt.Sprintf("%.3f s", t.Seconds())
	}
	return fmt.Sprintf("%.3f s, %.1f%% of its clock", t.Seconds(), 100*float64(t)/float64(clock))
}

// noGameLeft is the least clock left before any game has set it.
const noGameLeft = time.Duration(math.MaxInt64)

// leastText shows the least clock left, or that the side played without a clock.
func leastText(left, clock time.Duration) string {
	switch {
	case clock == 0:
		return "no clock"
	case left == noGameLeft:
		return "no game counted"
	}
	return left.Round(time.Millisecond).String()
}

// MoveTimes sums the thinking times of one player's moves.
type MoveTimes struct {
	N          int
	Total, Max time.Duration
}

func (m *MoveTimes) add(t time.Duration) {
	m.N++
	m.Total += t
	m.Max = max(m.Max, t)
}

func (m MoveTimes) String() string {
	if m.N == 0 {
		return "no moves"
	}
	return fmt.Sprintf("mean %v, max %v over %d moves", (m.Total / time.Duration(m.N)).Round(10*time.Microsecond),
		m.Max.Round(10*time.Microsecond), m.N)
}

// clockSpec is a game's clocks: black's and white's (0: none) and the increment.
type clockSpec struct {
	total [2]time.Duration
	inc   time.Duration
}

type gameResult struct {
	moves      []board.Square
	movers     []bool          // for each move, whether black played it
	times      []time.Duration // time each move took (0 for the opening and passes)
	blackScore int             // final disc difference from black's view (+-64 for a forfeit)
	forfeit    int             // -1 none; 0 black, 1 white lost on time or by an illegal move
	failed     int             // -1 none; 0 black, 1 white failed (err): the game has no result
	err        error
	comment    string
	clockLeft  [2]time.Duration // black's and white's clocks at the end (with a clock)
}

// playGame plays the opening, then the players, until the game ends. A player that runs out of
// clock or plays an illegal move loses the game by 64 discs; one that fails ends it with no
// result (failed, err).
func playGame(ctx context.Context, black, white player, opening []board.Square, cl clockSpec) gameResult {
	b := board.Start()
	res := gameResult{forfeit: -1, failed: -1}
	for _, m := range opening {
		res.movers = append(res.movers, b.BlackToMove)
		if m == board.NoSquare {
			b.Pass()
		} else {
			b.Make(m)
		}
		res.moves = append(res.moves, m)
		res.times = append(res.times, 0)
	}
	clocks := cl.total
	for !b.GameOver() {
		if ctx.Err() != nil {
			return res
		}
		if b.LegalMoves() == 0 {
			res.movers = append(res.movers, b.BlackToMove)
			b.Pass()
			res.moves = append(res.moves, board.NoSquare)
			res.times = append(res.times, 0)
			continue
		}
		side, pl := 1, white
		if b.BlackToMove {
			side, pl = 0, black
		}
		start := time.Now()
		inc := cl.inc
		if cl.total[side] == 0 {
			inc = 0
		}
		sq, err := pl.move(ctx, b, res.moves, clocks[side], inc)
		used := time.Since(start)
		if ctx.Err() != nil {
			return res
		}
		if err != nil {
			res.failed, res.err = side, err
			return res
		}
		switch {
		case !b.IsLegal(sq):
			res.comment = fmt.Sprintf("%s played illegal %s", b.SideName(), sq)
		case cl.total[side] > 0 && used > clocks[side]:
			res.comment = fmt.Sprintf("%s lost on time (%v used, %v left)", b.SideName(), used.Round(time.Millisecond), clocks[side].Round(time.Millisecond))
		}
		if res.comment != "" {
			res.forfeit = side
			res.blackScore = 64
			if side == 0 {
				res.blackScore = -64
			}
			return res
		}
		if cl.total[side] > 0 {
			clocks[side] += cl.inc - used
		}
		res.movers = append(res.movers, b.BlackToMove)
		b.Make(sq)
		res.moves = append(res.moves, sq)
		res.times = append(res.times, used)
	}
	res.blackScore = b.BlackScore()
	res.clockLeft = clocks
	return res
}

// gameRecord makes the GGF record of a game played from the start position; times, when not
// nil, gives each move's time (0: none recorded).
func gameRecord(moves []board.Square, times []time.Duration) *ggf.Game {
	g := ggf.New(board.Start())
	b := board.Start()
	for i, m := range moves {
		mv := ggf.Move{Square: m, Black: b.BlackToMove}
		if i < len(times) && times[i] > 0 {
			mv.Time, mv.HasTime = times[i], true
		}
		g.Moves = append(g.Moves, mv)
		if m == board.NoSquare {
			b.Pass()
		} else {
			b.Make(m)
		}
	}
	return g
}

// Openings returns the openings of a match: up to n (0: all) of the transcript file path after
// its first skip (none when path is ""), then random built-in ones (RandomOpenings with 8
// plies from seed); with no file and random 0, 10 random openings. None at all is an error.
func Openings(path string, skip, n, random int, seed uint64) ([][]board.Square, error) {
	var opens [][]board.Square
	if path != "" {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		opens, err = train.ReadOpenings(f, skip, n)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	} else if random == 0 {
		random = 10
	}
	opens = append(opens, RandomOpenings(seed, random, 8)...)
	if len(opens) == 0 {
		return nil, fmt.Errorf("no openings")
	}
	return opens, nil
}

// GameOpenings returns openings cut from the games of a GGF file: each game's moves (passes
// included) down to its first position with at most empties empty squares, in file order, a
// repeat of an earlier one dropped, up to n (0: all) after the first skip. A match from them
// plays the rest of those games (an endgame measured apart from the midgame before it).
// Games that do not start from the standard position or end before that point are passed
// over; a file that cannot be read or parsed, or one that yields no opening, is an error
// naming it.
func GameOpenings(path string, empties, skip, n int) ([][]board.Square, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	games, err := ggf.ParseAll(string(text))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("%s: no GGF game records", path)
	}
	start := board.Start()
	seen := make(map[string]bool)
	var opens [][]board.Square
	for _, g := range games {
		if g.Start != start {
			continue
		}
		b := g.Start
		var moves []board.Square
		for _, m := range g.Moves {
			if b.NumEmpties() <= empties {
				break
			}
			if m.Square == board.NoSquare {
				b.Pass()
			} else {
				b.Make(m.Square)
			}
			moves = append(moves, m.Square)
		}
		if b.NumEmpties() > empties || b.GameOver() {
			continue
		}
		key := fmt.Sprint(moves)
		if seen[key] {
			continue
		}
		seen[key] = true
		if skip > 0 {
			skip--
			continue
		}
		opens = append(opens, moves)
		if n > 0 && len(opens) == n {
			break
		}
	}
	if len(opens) == 0 {
		return nil, fmt.Errorf("%s: no game reaches %d empties (after skipping)", path, empties)
	}
	return opens, nil
}

// RandomOpenings makes n openings of plies random legal moves from a fixed seed.
func RandomOpenings(seed uint64, n, plies int) [][]board.Square {
	rng := rand.New(rand.NewPCG(seed, 0x0e110))
	var out [][]board.Square
	for len(out) < n {
		b := board.Start()
		var moves []board.Square
		for len(moves) < plies && !b.GameOver() {
			m := b.LegalMoves()
			if m == 0 {
				b.Pass()
				moves = append(moves, board.NoSquare)
				continue
			}
			k := rng.IntN(board.Count(m))
			for ; k > 0; k-- {
				m &= m - 1
			}
			sq := board.FirstSquare(m)
			b.Make(sq)
			moves = append(moves, sq)
		}
		if !b.GameOver() {
			out = append(out, moves)
		}
	}
	return out
}
