package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"
	"sync"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/train"
	"github.com/schollz/progressbar/v3"
)

func cmdMatch(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "match")
	specA := fs.String("a", "depth=6", "player A: this engine's options, key=value,... (depth, time, end (solve exactly from N empties), sel, eval, tt, book=default|none|FILE; measurement switches: mpc, pvs, prev, solvebudget=on|off, wldrefine=on|off, solverhint=on|off, handover=N, leafsolve=N, probable=N, screen=W|off (Multi-ProbCut screen width), wld=N (with end: prove win/loss/draw from N empties), wldsel=L (that band's solver selectivity))")
	specB := fs.String("b", "depth=6,eval=mobility", "player B: this engine's options (ignored with -b-nboard)")
	nboardB := fs.String("b-nboard", "", "player B is an external engine speaking NBoard: its command line, quoted")
	nboardDepth := fs.Int("b-depth", 0, "depth sent to the external engine with 'set depth' (0: none)")
	openings := fs.String("openings", "", "file of opening transcripts, one per line (XOT style)")
	nOpen := fs.Int("n", 0, "use at most N openings from the file (0: all)")
	skip := fs.Int("skip", 0, "skip the first K openings of the file")
	random := fs.Int("random", 0, "add N built-in random openings (8 random plies from a fixed seed; 10 when there is no file)")
	seed := fs.Uint64("seed", 1, "seed of the random openings")
	concurrency := fs.Int("concurrency", 1, "games played at the same time")
	clock := fs.Duration("clock", 0, "game clock of each side, e.g. 60s (0: none; the players' time/depth options apply)")
	inc := fs.Duration("inc", 0, "increment added to a side's clock after each of its moves")
	clockA := fs.Duration("a-clock", 0, "A's game clock alone (0: -clock); with no -clock, B plays by its own limits (an external engine's depth)")
	clockB := fs.Duration("b-clock", 0, "B's game clock alone (0: -clock)")
	ggfPath := fs.String("ggf", "", "write the games to this GGF file")
	noBar := fs.Bool("no-progress", false, "no progress bar")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello match [options]\n\nPlays A against B from each opening twice, colours swapped, and prints wins/draws/losses,\nscore, Elo difference with its 95%% interval and mean disc difference, from A's view.\nOptions:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitError{2, fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	if *concurrency < 1 || *nOpen < 0 || *skip < 0 || *random < 0 || *clock < 0 || *inc < 0 || *clockA < 0 || *clockB < 0 {
		return exitError{2, fmt.Errorf("concurrency must be at least 1; counts and times non-negative")}
	}
	a, err := parseEngineSpec(*specA)
	if err != nil {
		return exitError{2, err}
	}
	b := playerSpec{text: *nboardB, external: *nboardB}
	if *nboardB == "" {
		if b, err = parseEngineSpec(*specB); err != nil {
			return exitError{2, err}
		}
	}
	var opens [][]board.Square
	if *openings != "" {
		f, err := os.Open(*openings)
		if err != nil {
			return exitError{2, err}
		}
		opens, err = readOpenings(f, *skip, *nOpen)
		f.Close()
		if err != nil {
			return exitError{2, fmt.Errorf("%s: %v", *openings, err)}
		}
	}
	nRandom := *random
	if *openings == "" && nRandom == 0 {
		nRandom = 10
	}
	opens = append(opens, randomOpenings(*seed, nRandom, 8)...)
	if len(opens) == 0 {
		return exitError{2, fmt.Errorf("no openings")}
	}

	var ggfOut io.Writer
	if *ggfPath != "" {
		f, err := os.Create(*ggfPath)
		if err != nil {
			return err
		}
		defer f.Close()
		bw := bufio.NewWriter(f)
		defer bw.Flush()
		ggfOut = bw
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	nGames := 2 * len(opens)
	fmt.Fprintf(env.stdout, "match: A = %q vs B = %q, %d games (%d openings x 2 colours), concurrency %d", a.text, b.text, nGames, len(opens), *concurrency)
	clocks := [2]time.Duration{*clock, *clock} // A's and B's
	if *clockA > 0 {
		clocks[0] = *clockA
	}
	if *clockB > 0 {
		clocks[1] = *clockB
	}
	switch {
	case clocks[0] == clocks[1] && clocks[0] > 0:
		fmt.Fprintf(env.stdout, ", clock %v + %v", clocks[0], *inc)
	case clocks[0] > 0 || clocks[1] > 0:
		fmt.Fprintf(env.stdout, ", clock A %v, B %v, + %v", clocks[0], clocks[1], *inc)
	}
	fmt.Fprintln(env.stdout)
	var bar *progressbar.ProgressBar
	if !*noBar {
		bar = newBar(env, nGames, "match")
	}

	var (
		mu        sync.Mutex
		stats     train.MatchStats
		asBlack   train.MatchStats
		forfeits  [2]int       // games lost by A, B on time or by an error
		leastLeft = clocks     // least clock left at a game's end, A and B
		thought   [2]moveTimes // A's and B's thinking times
		firstErr  error
		jobs      = make(chan int)
		wg        sync.WaitGroup
		gameStart = time.Now()
	)
	for w := 0; w < *concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pa, err := a.newPlayer(0)
			if err != nil {
				mu.Lock()
				firstErr = err
				mu.Unlock()
				stop()
				return
			}
			defer pa.close()
			pb, err := b.newPlayer(*nboardDepth)
			if err != nil {
				mu.Lock()
				firstErr = err
				mu.Unlock()
				stop()
				return
			}
			defer pb.close()
			for g := range jobs {
				aBlack := g%2 == 0
				black, white, bn, wn := pa, pb, "A", "B"
				if !aBlack {
					black, white, bn, wn = pb, pa, "B", "A"
				}
				cl := clockSpec{total: clocks, inc: *inc}
				if !aBlack {
					cl.total[0], cl.total[1] = clocks[1], clocks[0]
				}
				res := playGame(ctx, black, white, opens[g/2], cl)
				if ctx.Err() != nil {
					return
				}
				diffA := res.blackScore
				if !aBlack {
					diffA = -diffA
				}
				mu.Lock()
				for i := len(opens[g/2]); i < len(res.moves); i++ {
					if res.moves[i] == board.NoSquare {
						continue // passes take no thought
					}
					if res.movers[i] == aBlack {
						thought[0].add(res.times[i])
					} else {
						thought[1].add(res.times[i])
					}
				}
				stats.Add(diffA)
				if aBlack {
					asBlack.Add(diffA)
				}
				if res.forfeit < 0 {
					ia, ib := 0, 1
					if !aBlack {
						ia, ib = 1, 0
					}
					leastLeft[0] = min(leastLeft[0], res.clockLeft[ia])
					leastLeft[1] = min(leastLeft[1], res.clockLeft[ib])
				}
				if res.forfeit >= 0 {
					loserIsA := (res.forfeit == 0) == aBlack
					if loserIsA {
						forfeits[0]++
					} else {
						forfeits[1]++
					}
					env.log.Warn().Int("game", g+1).Str("loser", map[bool]string{true: "A", false: "B"}[loserIsA]).Msg(res.comment)
				}
				if ggfOut != nil {
					gg := gameRecord(res.moves, res.times)
					gg.Place, gg.Date = "GoThello match", time.Now().UTC().Format("2006.01.02_15:04:05.UTC")
					gg.Black, gg.White = bn+" "+nameOf(a, b, bn), wn+" "+nameOf(a, b, wn)
					gg.Result = fmt.Sprintf("%+d.000", res.blackScore)
					if res.comment != "" {
						gg.Other = append(gg.Other, ggf.Prop{Key: "C", Value: res.comment})
					}
					fmt.Fprintln(ggfOut, gg.String())
				}
				if bar != nil {
					bar.Add(1)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for g := 0; g < nGames; g++ {
		select {
		case jobs <- g:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if bar != nil {
		bar.Finish()
	}
	if firstErr != nil {
		return firstErr
	}
	if ctx.Err() != nil {
		fmt.Fprintf(env.stdout, "interrupted: results of the %d finished games\n", stats.Games())
	}
	elo, lo, hi := stats.Elo()
	fmt.Fprintf(env.stdout, "A: %d wins, %d draws, %d losses in %d games: score %.1f%%, Elo %s [%s, %s] (95%%), mean disc difference %+.2f\n",
		stats.Wins, stats.Draws, stats.Losses, stats.Games(), 100*stats.Score(), eloText(elo), eloText(lo), eloText(hi), stats.MeanDiscDiff())
	fmt.Fprintf(env.stdout, "A as black: %d-%d-%d; games lost on time or by error: A %d, B %d; %.1f s\n",
		asBlack.Wins, asBlack.Draws, asBlack.Losses, forfeits[0], forfeits[1], time.Since(gameStart).Seconds())
	fmt.Fprintf(env.stdout, "thinking time per move: A %s; B %s\n", thought[0], thought[1])
	if clocks[0] > 0 || clocks[1] > 0 {
		fmt.Fprintf(env.stdout, "least clock left at the end of a game: A %v, B %v\n", leastText(leastLeft[0], clocks[0]), leastText(leastLeft[1], clocks[1]))
	}
	return nil
}

func nameOf(a, b playerSpec, which string) string {
	if which == "A" {
		return a.text
	}
	return b.text
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

// clockSpec is a game's clocks: black's and white's (0: none) and the increment.
type clockSpec struct {
	total [2]time.Duration
	inc   time.Duration
}

// leastText shows the least clock left, or that the side played without a clock.
func leastText(left, clock time.Duration) string {
	if clock == 0 {
		return "no clock"
	}
	return left.Round(time.Millisecond).String()
}

// moveTimes sums the thinking times of one player's moves.
type moveTimes struct {
	n          int
	total, max time.Duration
}

func (m *moveTimes) add(t time.Duration) {
	m.n++
	m.total += t
	m.max = max(m.max, t)
}

func (m moveTimes) String() string {
	if m.n == 0 {
		return "no moves"
	}
	return fmt.Sprintf("mean %v, max %v over %d moves", (m.total / time.Duration(m.n)).Round(10*time.Microsecond),
		m.max.Round(10*time.Microsecond), m.n)
}

type gameResult struct {
	moves      []board.Square
	movers     []bool          // for each move, whether black played it
	times      []time.Duration // time each move took (0 for the opening and passes)
	blackScore int             // final disc difference from black's view (+-64 for a forfeit)
	forfeit    int             // -1 none; 0 black, 1 white lost on time or by an error
	comment    string
	clockLeft  [2]time.Duration // black's and white's clocks at the end (with a clock)
}

// playGame plays the opening, then the players, until the game ends. A player that runs out of
// clock, errs, or plays an illegal move loses the game by 64 discs.
func playGame(ctx context.Context, black, white player, opening []board.Square, cl clockSpec) gameResult {
	b := board.Start()
	res := gameResult{forfeit: -1}
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
		switch {
		case err != nil:
			res.comment = fmt.Sprintf("%s: %v", b.SideName(), err)
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

// readOpenings reads transcripts, one per line; blank lines and lines starting with # are
// skipped. It keeps n openings (0: all) after skipping the first skip.
func readOpenings(r io.Reader, skip, n int) ([][]board.Square, error) {
	var out [][]board.Square
	sc := bufio.NewScanner(r)
	line, seen := 0, 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		seen++
		if seen <= skip {
			continue
		}
		moves, b, err := board.ParseTranscript(text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		if b.GameOver() {
			return nil, fmt.Errorf("line %d: the game is already over", line)
		}
		out = append(out, moves)
		if n > 0 && len(out) >= n {
			break
		}
	}
	return out, sc.Err()
}

// randomOpenings makes n openings of plies random legal moves from a fixed seed.
func randomOpenings(seed uint64, n, plies int) [][]board.Square {
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
