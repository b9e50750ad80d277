package protocol

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/search"
)

// NBoard protocol (v2). The GUI sends "nboard 2", "set depth", "set game <GGF>", "move",
// "hint n", "go", "ping n", "learn", "analyze"; the engine answers "set myname", "=== move",
// "search"/"book" hint lines, "nodestats", "status", "pong", "learned", "analysis".
//
// Ordering: commands are handled strictly in order on one goroutine while a second goroutine
// reads stdin. When that reader sees "ping" (or "quit", or the end of the input) it cancels
// the search of any earlier command at once, so the pong is prompt; the cancelled search
// writes nothing more (an aborted "go" gives no "===": the GUI has moved on, as the ping
// tells), and "pong n" is written after every reply to the commands before it.

// aborter lets the reader cancel the search of a command older than a ping.
type aborter struct {
	mu        sync.Mutex
	abortedTo uint64 // searches of commands numbered below this are cancelled
	seq       uint64 // command whose search is running
	cancel    context.CancelFunc
}

func (a *aborter) abortBefore(seq uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if seq > a.abortedTo {
		a.abortedTo = seq
	}
	if a.cancel != nil && a.seq < seq {
		a.cancel()
	}
}

// start returns the context for the search of command seq, already cancelled when a later
// ping has been read, and the function to call when the search is over.
func (a *aborter) start(parent context.Context, seq uint64) (context.Context, func()) {
	ctx, cancel := context.WithCancel(parent)
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.abortedTo > seq {
		cancel()
	}
	a.seq, a.cancel = seq, cancel
	return ctx, func() {
		a.mu.Lock()
		a.cancel = nil
		a.mu.Unlock()
		cancel()
	}
}

type nboard struct {
	eng      Engine
	opt      Options
	out      *syncWriter
	abort    aborter
	game     *ggf.Game
	st       strength
	contempt int
	book     *bookPlayer
	noted    bool            // the book note has been shown
	learnCtx context.Context // cancelled by quit and the end of the input
}

// RunNBoard speaks the NBoard protocol on in and out until "quit", the end of the input or
// the end of ctx. It returns an error only when writing to out fails.
func RunNBoard(ctx context.Context, eng Engine, in io.Reader, out io.Writer, opt Options) error {
	n := &nboard{eng: eng, opt: opt, out: &syncWriter{w: out}, game: ggf.New(board.Start()), st: newStrength(&opt),
		book: newBookPlayer(opt.Book)}
	// Learning is stopped by quit or the end of the input only (a ping waits for it, as with
	// Ntest).
	lctx, stopLearning := context.WithCancel(ctx)
	defer stopLearning()
	n.learnCtx = lctx
	q := newLineQueue()
	isQuit := func(text string) bool { cmd, _ := splitCommand(text); return cmd == "quit" }
	go readLines(in, q, isQuit, func(l inputLine) {
		if cmd, _ := splitCommand(l.text); cmd == "ping" || cmd == "quit" {
			n.abort.abortBefore(l.seq)
			if cmd == "quit" {
				stopLearning()
			}
		}
	}, func(seq uint64) {
		// The GUI is gone: as for quit, every search stops and learning saves what it has.
		n.abort.abortBefore(seq)
		stopLearning()
	})
	for {
		l, ok := q.pop(ctx)
		if !ok {
			return n.out.failed()
		}
		if l.err == errLineTooLong {
			n.fail("input line longer than %d bytes ignored", MaxLine)
			continue
		}
		if l.err != nil {
			if l.err != io.EOF {
				n.opt.Log.Error().Err(l.err).Msg("nboard: reading input")
			}
			return n.out.failed()
		}
		if !n.handle(ctx, l) {
			return n.out.failed()
		}
		if n.out.failed() != nil {
			return n.out.failed()
		}
	}
}

// handle runs one command; it reports false for "quit".
func (n *nboard) handle(ctx context.Context, l inputLine) bool {
	line := strings.TrimSpace(l.text)
	cmd, args := splitCommand(line)
	switch cmd {
	case "":
	case "quit":
		return false
	case "nboard":
		if v, err := parseInt(args); err != nil || v != 2 {
			n.opt.Log.Warn().Str("version", printable(args)).Msg("nboard: protocol version is not 2; speaking version 2")
		}
		n.out.printf("set myname %s\n", n.opt.name())
		if n.opt.Book.Note != "" && !n.noted {
			n.noted = true
			n.out.printf("status %s\n", clipLine(n.opt.Book.Note, 300))
		}
	case "set":
		n.set(args)
	case "move":
		n.move(args)
	case "ping":
		n.out.printf("pong %s\n", pongArg(args))
	case "go":
		n.goMove(ctx, l.seq)
	case "hint":
		n.hint(ctx, l.seq, args)
	case "analyze":
		n.analyze(ctx, l.seq)
	case "learn":
		n.learn()
	default:
		// NBoard 1.1 sends a bare move ("F5") instead of "move F5".
		if len(cmd) == 2 && args == "" {
			if _, err := board.ParseSquare(cmd); err == nil || board.IsPassWord(cmd) {
				n.move(cmd)
				return true
			}
		}
		n.opt.Log.Warn().Str("line", printable(line)).Msg("nboard: unknown command ignored")
	}
	return true
}

// splitCommand splits a line into its first word and the rest, trimmed; blanks and tabs
// both separate.
func splitCommand(line string) (cmd, args string) {
	line = strings.TrimSpace(line)
	i := strings.IndexAny(line, " \t")
	if i < 0 {
		return line, ""
	}
	return line[:i], strings.TrimSpace(line[i+1:])
}

// pongArg echoes the ping's number; anything that is not a number becomes 0 so the reply
// stays parseable.
func pongArg(args string) string {
	f := strings.Fields(args)
	if len(f) == 0 {
		return "0"
	}
	if _, err := parseInt(f[0]); err != nil || len(f[0]) > 18 {
		return "0"
	}
	return f[0]
}

// fail reports bad input: on stderr and on the GUI's status line.
func (n *nboard) fail(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	n.opt.Log.Warn().Msg("nboard: " + msg)
	n.out.printf("status %s\n", clipLine(msg, 300))
}

func (n *nboard) set(args string) {
	what, value := splitCommand(args)
	switch what {
	case "depth":
		// NBoard's level: level d of the level table, as Edax and NTest take it.
		d, err := parseInt(value)
		if err != nil || d < 1 {
			n.fail("set depth %s: want a depth of at least 1; depth stays %d", printable(value), n.st.depth)
			return
		}
		if d > search.MaxLevel {
			n.opt.Log.Info().Int("asked", d).Int("used", search.MaxLevel).Msg("nboard: depth clipped")
			n.out.printf("status set depth %s: more than a game's 60 moves; searching at level %d (to the end)\n", printable(value), search.MaxLevel)
			d = search.MaxLevel
		}
		n.st.setLevel(d)
	case "game":
		g, _, err := ggf.Parse(value)
		if err == nil {
			err = CheckPosition(&g.Start)
		}
		if err != nil {
			n.fail("set game: %v; position unchanged", err)
			return
		}
		// GGS records name their game; a record without GM is taken for Othello.
		if g.Type != "" && !strings.EqualFold(g.Type, "Othello") {
			n.fail("set game: the game is %s, not Othello; position unchanged", printable(g.Type))
			return
		}
		n.game = g
	case "contempt":
		c, err := parseInt(value)
		if err != nil {
			n.fail("set contempt %s: want a number", printable(value))
			return
		}
		n.contempt = c
		n.opt.Log.Debug().Int("contempt", c).Msg("nboard: contempt stored (the search does not use it)")
	default:
		n.opt.Log.Warn().Str("what", printable(what)).Msg("nboard: unknown set command ignored")
	}
}

func (n *nboard) move(args string) {
	b := n.game.Final()
	black := b.BlackToMove
	mv, err := ggf.ParseMove(args, black)
	if err != nil {
		n.fail("move %s: %v", printable(args), err)
		return
	}
	if mv.Square != board.NoSquare && b.MustPass() {
		mv.Black = !black // the GUI left the pass out
	}
	if err := n.game.Play(mv); err != nil {
		n.fail("move %s: %v", printable(args), err)
	}
}

// limits are the search limits for the side to move: the level, and the clock from the game
// record when it has one, which replaces -time (the GUI's clock wins).
func (n *nboard) limits(b *board.Board) search.Limits {
	lim := n.st.limits()
	if left, inc, ok := n.game.TimeLeft(b.BlackToMove); ok {
		lim.MoveTime = 0
		// An overstepped clock still gets a token amount: zero would mean "no clock".
		lim.Remaining = max(left, 10*time.Millisecond)
		lim.Increment = inc
	}
	return lim
}

// searchOutput writes search progress for the command being run and stops writing once the
// search is over, so nothing of it can follow a later pong.
type searchOutput struct {
	out  *syncWriter
	done bool // guarded by out.mu
}

func (s *searchOutput) printf(format string, args ...any) {
	s.out.mu.Lock()
	defer s.out.mu.Unlock()
	if !s.done {
		s.out.writeLocked(format, args...)
	}
}

func (s *searchOutput) close() {
	s.out.mu.Lock()
	s.done = true
	s.out.mu.Unlock()
}

func (n *nboard) goMove(ctx context.Context, seq uint64) {
	b := n.game.Final()
	if b.GameOver() {
		n.fail("go: the game is over; no move to play")
		return
	}
	if b.MustPass() {
		n.out.printf("=== PA\n")
		return
	}
	sctx, done := n.abort.start(ctx, seq)
	defer done()
	if sctx.Err() != nil {
		return // a later ping has already made this command stale
	}
	if mv, score, ok := n.book.move(b); ok {
		n.out.printf("status book move %s %s\n", strings.ToUpper(mv.String()), discText(score))
		n.out.printf("=== %s/%s/0\n", strings.ToUpper(mv.String()), discText(score))
		return
	}
	so := &searchOutput{out: n.out}
	start := time.Now()
	var mid float64 // the last midgame estimate, for a win/loss/draw result's eval (wldDiscs)
	res := n.eng.Search(sctx, b, n.limits(&b), func(in search.Info) {
		score := in.Score
		if in.WLD {
			score = wldDiscs(in.Score, mid)
		} else {
			mid = in.Score
		}
		if len(in.PV) > 0 {
			so.printf("search %s %s 0 %s\n", pvString(in.PV), discText(score), depthString(in))
		}
		so.printf("nodestats %d %.3f\n", in.Nodes, in.Elapsed.Seconds())
	})
	so.close()
	if sctx.Err() != nil {
		n.opt.Log.Debug().Msg("nboard: go aborted by ping; no move sent")
		return
	}
	mv, ok := checkedMove(&b, res)
	if !ok {
		n.opt.Log.Error().Str("move", res.Move.String()).Msg("nboard: engine returned an illegal move; playing the first legal move")
	}
	score := res.Score
	if res.WLD {
		score = wldDiscs(res.Score, mid)
	}
	n.out.printf("=== %s/%s/%.3f\n", strings.ToUpper(mv.String()), discText(score), time.Since(start).Seconds())
}

func (n *nboard) hint(ctx context.Context, seq uint64, args string) {
	k := 1
	if args != "" {
		v, err := parseInt(strings.Fields(args)[0])
		if err != nil || v < 1 {
			n.fail("hint %s: want a number of moves of at least 1", printable(args))
			return
		}
		k = min(v, 64)
	}
	b := n.game.Final()
	if b.GameOver() {
		n.fail("hint: the game is over")
		return
	}
	sctx, done := n.abort.start(ctx, seq)
	defer done()
	if sctx.Err() != nil {
		return // a later ping has already made this command stale
	}
	so := &searchOutput{out: n.out}
	n.out.printf("status Analyzing\n")
	lim := n.limits(&b)
	if b.MustPass() {
		// The only move is a pass: its value is minus the opponent's.
		pb := b
		pb.Pass()
		var mid float64
		res := n.eng.Search(sctx, pb, lim, func(in search.Info) {
			if !in.WLD {
				mid = in.Score
			}
		})
		so.close()
		if sctx.Err() == nil {
			pv := append([]board.Square{board.NoSquare}, res.PV...)
			score := -res.Score
			if res.WLD {
				score = -wldDiscs(res.Score, mid)
			}
			n.out.printf("search %s %s 0 %s\n", pvString(pv), discText(score), depthString(res.Info))
			n.out.printf("status\n")
		}
		return
	}
	// The book's moves come first, with their values; the search gives the rest.
	booked := n.book.lines(b, k)
	var inBook uint64
	for _, l := range booked {
		n.out.printf("book %s %s %d %s\n", pvString(l.pv), discText(l.score), l.games, l.depth)
		inBook |= l.move.Bit()
	}
	if len(booked) >= min(k, board.Count(b.LegalMoves())) {
		n.out.printf("status\n")
		return
	}
	want := k - len(booked)
	// The last iteration's report usually equals the final one: it is not written twice.
	var mu sync.Mutex
	var last string
	mid := map[board.Square]float64{} // the moves' last midgame estimates (wldDiscs)
	write := func(ms []search.MoveScore) {
		var sb strings.Builder
		written := 0
		mu.Lock()
		for _, m := range ms {
			if !m.WLD && !m.Bound {
				mid[m.Move] = m.Score
			}
		}
		mu.Unlock()
		// Only the first k have exact values; the engine may list the others as bounds.
		for _, m := range ms[:min(k, len(ms))] {
			if inBook&m.Move.Bit() != 0 {
				continue
			}
			if written++; written > want {
				break
			}
			pv := m.PV
			if len(pv) == 0 || pv[0] != m.Move {
				pv = append([]board.Square{m.Move}, pv...)
			}
			score := m.Score
			if m.WLD {
				mu.Lock()
				score = wldDiscs(m.Score, mid[m.Move])
				mu.Unlock()
			}
			fmt.Fprintf(&sb, "search %s %s 0 %s\n", pvString(pv), discText(score), depthString(m.Info))
		}
		mu.Lock()
		defer mu.Unlock()
		if sb.String() != last {
			so.printf("%s", sb.String())
			last = sb.String()
		}
	}
	final := n.eng.Analyze(sctx, b, lim, k, write)
	if sctx.Err() != nil {
		so.close()
		return
	}
	write(final)
	so.close()
	n.out.printf("status\n")
}

// learn adds the game to the opening book and saves the book; "learned" follows in any case,
// so a GUI waiting for it goes on. Learning runs to its end, as Ntest's does (a ping waits
// for it); quit or the end of the input stops its searches, and what was searched is saved.
func (n *nboard) learn() {
	if n.opt.Book.Book != nil {
		n.out.printf("status Learning the game\n")
	}
	msg, err := n.book.learn(n.learnCtx, quietSearcher{n.eng}, n.game)
	if err != nil {
		n.fail("%v", err)
	} else {
		n.opt.Log.Info().Msg("nboard: " + msg)
		n.out.printf("status %s\n", clipLine(msg, 300))
	}
	n.out.printf("learned\n")
}

// wldDiscs turns a win/loss/draw result into the disc value an "analysis", "search" or "==="
// line carries. NBoard shows and plots the value in discs (a "search" line marks the proof in
// its depth, "100%W", the others cannot), so a proof's +1 would read as a win by one disc. The value sent is the
// midgame search's estimate, moved to the nearest value that agrees with the proof: at least +1
// for a win, at most -1 for a loss, and 0 for a draw, which is exact.
func wldDiscs(proof, estimate float64) float64 {
	switch {
	case proof > 0:
		return max(estimate, 1)
	case proof < 0:
		return min(estimate, -1)
	}
	return 0
}

// analyze evaluates every position of the game from the last back to the first and sends
// "analysis <moves made> <eval>", the eval from black's view (as NBoard's own engines do, so
// the GUI's graph reads the same for both sides) and in discs, a win/loss/draw result too
// (wldDiscs).
func (n *nboard) analyze(ctx context.Context, seq uint64) {
	sctx, done := n.abort.start(ctx, seq)
	defer done()
	if sctx.Err() != nil {
		return // a later ping has already made this command stale
	}
	n.out.printf("status Analyzing game\n")
	for i := len(n.game.Moves); i >= 0; i-- {
		if sctx.Err() != nil {
			return
		}
		b := n.game.Position(i)
		var score float64
		switch {
		case b.GameOver():
			score = float64(b.FinalScore())
		case b.MustPass():
			continue
		default:
			var mid search.Info
			lim := n.st.limits()
			lim.MoveTime = 0 // a game's analysis is not timed
			res := n.eng.Search(sctx, b, lim, func(in search.Info) {
				if !in.WLD {
					mid = in
				}
			})
			if sctx.Err() != nil {
				return
			}
			score = res.Score
			if res.WLD {
				score = wldDiscs(res.Score, mid.Score)
			}
		}
		if !b.BlackToMove {
			score = -score
		}
		n.out.printf("analysis %d %s\n", i, discText(score))
	}
	n.out.printf("status\n")
}
