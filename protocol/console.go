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

// The console is for people at a terminal and for scripts on a pipe: one command a line,
// plain answers, "error: ..." for anything wrong. Moves can be typed directly ("f5", or a
// transcript "f5d6c3"). With Options.EngineBlack/EngineWhite (or "mode") the engine answers
// each move by itself: that is the "play" subcommand.

const consoleHelp = `commands:
  f5 | f5d6c3        play moves (a transcript; "pa" or "pass" for a pass)
  play <moves>       the same
  go                 the engine plays the side to move (from the opening book when it can)
  hint [n]           the n best moves with their values (default 3; book moves first)
  solve [force]      exact endgame solve of the position; "force" for more than 30 empties
  undo [n], redo [n] take back / replay moves (against the engine: back to your turn)
  new                new game from the start position
  setboard <pos>     set a position: 64 squares a1..h8 (X or * black, O white, - empty) and
                     the side to move, e.g. setboard ---...--- X
  level [depth [s]]  show or set the search depth and time per move in seconds (0: none)
  mode [m]           who the engine plays: black, white, both or none
  color <c>          you play black or white; the engine plays the other colour
  show               the board, legal moves and the moves so far
  moves, ggf         the game as a transcript / as a GGF record
  help, quit         (Ctrl-C stops a running search; quit or Ctrl-D ends the session)
`

type console struct {
	intr                     interrupts
	eng                      Engine
	opt                      Options
	out                      io.Writer
	game                     *ggf.Game
	redo                     []ggf.Move
	depth                    int
	moveTime                 time.Duration
	engineBlack, engineWhite bool
	book                     *bookPlayer
	endNoted                 bool // the end of the input has been said to stop the searches
}

// RunConsole runs the console on in and out until "quit", the end of the input or the end
// of ctx. It returns an error only when writing to out fails. The end of the input stops the
// running search and any later one (readLines); a script whose last search must finish ends
// with quit.
func RunConsole(ctx context.Context, eng Engine, in io.Reader, out io.Writer, opt Options) error {
	c := &console{eng: eng, opt: opt, out: &errWriter{w: out}, game: ggf.New(board.Start()),
		depth: opt.depth(), moveTime: opt.MoveTime, engineBlack: opt.EngineBlack, engineWhite: opt.EngineWhite,
		book: newBookPlayer(opt.Book)}
	ew := c.out.(*errWriter)
	if opt.Interrupt != nil {
		done := make(chan struct{})
		defer close(done)
		go c.watch(done)
	}
	// Searches run in sctx, which the end of the input cancels.
	sctx, inputEnded := context.WithCancel(ctx)
	defer inputEnded()
	q := newLineQueue()
	go readLines(in, q, isConsoleQuit, nil, func(uint64) { inputEnded() })
	c.start(sctx)
	for ctx.Err() == nil && ew.failed() == nil {
		if opt.Prompt {
			fmt.Fprint(c.out, "> ")
		}
		l, ok := q.pop(ctx)
		if !ok {
			break
		}
		if l.err == errLineTooLong {
			c.errorf("line longer than %d bytes ignored", MaxLine)
			continue
		}
		if l.err != nil {
			if l.err != io.EOF {
				c.opt.Log.Error().Err(l.err).Msg("console: reading input")
			}
			break
		}
		if !c.handle(sctx, l.text) {
			break
		}
	}
	return ew.failed()
}

// isConsoleQuit reports whether line is the command that ends the session.
func isConsoleQuit(line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 {
		return false
	}
	switch strings.ToLower(f[0]) {
	case "quit", "exit", "q":
		return true
	}
	return false
}

// inputGone reports whether the end of the input has stopped the searches (ctx, the
// session's search context, is done), and says so once: the results of a stopped search are
// not shown or played.
func (c *console) inputGone(ctx context.Context) bool {
	if ctx.Err() == nil {
		return false
	}
	if !c.endNoted {
		c.endNoted = true
		fmt.Fprintf(c.out, "input ended: search stopped (end a script with quit to let its searches finish)\n")
	}
	return true
}

// start greets, says who plays what against the engine, shows the board and lets the engine
// move if it is its turn.
func (c *console) start(ctx context.Context) {
	fmt.Fprintf(c.out, "%s %s. Type \"help\" for the commands.\n", c.opt.name(), c.opt.Version)
	if c.opt.Book.Note != "" {
		fmt.Fprintln(c.out, clipLine(c.opt.Book.Note, 300))
	}
	if c.engineBlack != c.engineWhite {
		fmt.Fprintf(c.out, "you play %s; %s plays %s\n", colour(!c.engineBlack), c.opt.name(), colour(c.engineBlack))
	}
	c.show()
	c.autoplay(ctx)
}

// errWriter remembers the first write error so the loop can stop on a closed output, and
// serializes writes (the interrupt watcher writes too).
type errWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

func (e *errWriter) failed() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// interrupts stops the running search on each value from Options.Interrupt (Ctrl-C); when no
// search runs it tells how to leave instead.
type interrupts struct {
	mu          sync.Mutex
	cancel      context.CancelFunc // of the running search, nil when none
	interrupted bool               // the last search was stopped
}

// watch handles interrupts until done is closed.
func (c *console) watch(done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case <-c.opt.Interrupt:
			c.intr.mu.Lock()
			if c.intr.cancel != nil {
				c.intr.cancel()
				c.intr.interrupted = true
				c.intr.mu.Unlock()
				continue
			}
			c.intr.mu.Unlock()
			fmt.Fprintf(c.out, "\n(Ctrl-C stops a search; type quit or press Ctrl-D to leave)\n")
			if c.opt.Prompt {
				fmt.Fprint(c.out, "> ")
			}
		}
	}
}

// searchContext is the context of one search, cancelled by an interrupt; end reports whether
// the search was interrupted.
func (c *console) searchContext(ctx context.Context) (sctx context.Context, end func() bool) {
	sctx, cancel := context.WithCancel(ctx)
	c.intr.mu.Lock()
	c.intr.cancel, c.intr.interrupted = cancel, false
	c.intr.mu.Unlock()
	return sctx, func() bool {
		c.intr.mu.Lock()
		defer c.intr.mu.Unlock()
		c.intr.cancel = nil
		cancel()
		if c.intr.interrupted {
			fmt.Fprintf(c.out, "(search interrupted)\n")
		}
		return c.intr.interrupted
	}
}

func (c *console) errorf(format string, args ...any) {
	fmt.Fprintf(c.out, "error: %s\n", clipLine(fmt.Sprintf(format, args...), 300))
}

// handle runs one command line; it reports false for "quit".
func (c *console) handle(ctx context.Context, line string) bool {
	f := strings.Fields(line)
	if len(f) == 0 || strings.HasPrefix(f[0], "#") {
		return true
	}
	cmd, args := strings.ToLower(f[0]), f[1:]
	switch cmd {
	case "quit", "exit", "q": // isConsoleQuit
		return false
	case "help", "?", "h":
		fmt.Fprint(c.out, consoleHelp)
	case "new":
		c.game = ggf.New(board.Start())
		c.redo = nil
		c.show()
		c.autoplay(ctx)
	case "play":
		c.playMoves(ctx, strings.Join(args, ""))
	case "setboard":
		c.setboard(ctx, strings.Join(args, " "))
	case "undo", "redo":
		n := 1
		if len(args) > 0 {
			v, err := parseInt(args[0])
			if err != nil || v < 1 {
				c.errorf("%s %s: want a number of moves of at least 1", cmd, printable(args[0]))
				return true
			}
			n = v
		}
		if cmd == "undo" {
			c.undo(n)
		} else {
			c.redoMoves(ctx, n)
		}
	case "go":
		b := c.game.Final()
		if b.GameOver() {
			c.errorf("the game is over")
			return true
		}
		n := len(c.game.Moves)
		stopped := c.engineMove(ctx)
		if len(c.game.Moves) > n {
			c.show()
		}
		if !stopped {
			c.autoplay(ctx)
		}
	case "hint":
		n := 3
		if len(args) > 0 {
			v, err := parseInt(args[0])
			if err != nil || v < 1 {
				c.errorf("hint %s: want a number of moves of at least 1", printable(args[0]))
				return true
			}
			n = min(v, 64)
		}
		c.hint(ctx, n)
	case "solve":
		c.solve(ctx, args)
	case "level":
		c.level(args)
	case "mode":
		c.mode(ctx, args)
	case "color", "colour":
		if len(args) != 1 {
			c.errorf("color: want black or white")
			return true
		}
		switch strings.ToLower(args[0]) {
		case "black", "b":
			c.engineBlack, c.engineWhite = false, true
		case "white", "w":
			c.engineBlack, c.engineWhite = true, false
		default:
			c.errorf("color %s: want black or white", printable(args[0]))
			return true
		}
		fmt.Fprintf(c.out, "you play %s; %s plays %s\n", strings.ToLower(args[0]), c.opt.name(), colour(c.engineBlack))
		c.autoplay(ctx)
	case "show", "board", "d":
		c.show()
		fmt.Fprintf(c.out, "moves: %s\n", c.transcript())
	case "moves":
		fmt.Fprintln(c.out, c.transcript())
	case "ggf":
		fmt.Fprintln(c.out, c.game.String())
	default:
		// a move or a transcript typed directly, legal or not
		if text := strings.Join(f, ""); looksLikeMoves(text) {
			c.playMoves(ctx, text)
			return true
		}
		c.errorf("unknown command %q; type \"help\" for the commands", printable(f[0]))
	}
	return true
}

func colour(black bool) string {
	if black {
		return "black"
	}
	return "white"
}

func (c *console) transcript() string {
	var sq []board.Square
	for _, m := range c.game.Moves {
		sq = append(sq, m.Square)
	}
	if len(sq) == 0 {
		return "(none)"
	}
	return board.Transcript(sq)
}

// show prints the board and the legal moves.
func (c *console) show() {
	b := c.game.Final()
	fmt.Fprint(c.out, b.Diagram())
	switch {
	case b.GameOver():
		d := b.BlackScore()
		switch {
		case d > 0:
			fmt.Fprintf(c.out, "game over: black wins by %d\n", d)
		case d < 0:
			fmt.Fprintf(c.out, "game over: white wins by %d\n", -d)
		default:
			fmt.Fprintf(c.out, "game over: draw\n")
		}
	case b.MustPass():
		fmt.Fprintf(c.out, "%s has no move and must pass\n", b.SideName())
	default:
		fmt.Fprintf(c.out, "legal moves: %s\n", pvWords(legalSquares(&b)))
	}
}

func (c *console) playMoves(ctx context.Context, text string) {
	if text == "" {
		c.errorf("play: which moves? (e.g. play f5d6)")
		return
	}
	moves, at, err := board.PlayTranscript(c.game.Final(), text)
	if err != nil {
		msg := err.Error()
		// One move typed alone gets a plain answer; a transcript says which of its moves.
		if sq, perr := board.ParseSquare(text); perr == nil && len(moves) == 0 {
			msg = fmt.Sprintf("%s: not a legal move", sq)
			if (at.P|at.O)&sq.Bit() != 0 {
				msg = fmt.Sprintf("%s: the square is occupied", sq)
			}
		}
		c.errorf("%s; nothing played; %s", msg, legalWords(&at))
		return
	}
	for _, sq := range moves {
		if err := c.game.PlayMove(sq); err != nil {
			c.errorf("%v", err) // cannot happen: the transcript was checked
			return
		}
	}
	c.redo = nil
	c.show()
	c.autoplay(ctx)
}

// looksLikeMoves reports whether text (blanks removed) is made of squares and pass words
// only: moves, legal or not, rather than an unknown command.
func looksLikeMoves(text string) bool {
	if text == "" || len(text)%2 != 0 {
		return false
	}
	for i := 0; i < len(text); i += 2 {
		tok := text[i : i+2]
		if _, err := board.ParseSquare(tok); err != nil && !board.IsPassWord(tok) {
			return false
		}
	}
	return true
}

// legalWords says what the side to move of b can play: "black's legal moves: d3 c4 f5 e6".
func legalWords(b *board.Board) string {
	switch {
	case b.GameOver():
		return "the game is over"
	case b.MustPass():
		return fmt.Sprintf("%s has no move and must pass (pa)", b.SideName())
	}
	return fmt.Sprintf("%s's legal moves: %s", b.SideName(), pvWords(legalSquares(b)))
}

func (c *console) setboard(ctx context.Context, text string) {
	b, rest, err := board.ParseOBF(text)
	if err == nil && strings.Trim(rest, " \t;") != "" {
		err = fmt.Errorf("unexpected %q after the side to move", printable(rest))
	}
	if err != nil {
		c.errorf("setboard: %v", err)
		return
	}
	if b.MustPass() {
		b.Pass()
		fmt.Fprintf(c.out, "%s has no move: %s to move\n", colour(!b.BlackToMove), b.SideName())
	}
	c.game = ggf.New(b)
	c.redo = nil
	c.show()
	c.autoplay(ctx)
}

func (c *console) isEngine(b *board.Board) bool {
	if b.BlackToMove {
		return c.engineBlack
	}
	return c.engineWhite
}

// undo takes back n moves and, against the engine, on to the human's turn (passes go with
// the move before them).
func (c *console) undo(n int) {
	if len(c.game.Moves) == 0 {
		c.errorf("undo: no move to take back")
		return
	}
	take := func() {
		last := len(c.game.Moves) - 1
		c.redo = append(c.redo, c.game.Moves[last])
		c.game.Truncate(last)
	}
	for i := 0; i < n && len(c.game.Moves) > 0; i++ {
		take()
		for len(c.game.Moves) > 0 && c.game.Moves[len(c.game.Moves)-1].Square == board.NoSquare {
			take()
		}
	}
	if c.engineBlack != c.engineWhite {
		for b := c.game.Final(); len(c.game.Moves) > 0 && (c.isEngine(&b) || b.MustPass()); b = c.game.Final() {
			take()
		}
	}
	c.show()
}

func (c *console) redoMoves(ctx context.Context, n int) {
	if len(c.redo) == 0 {
		c.errorf("redo: no move to replay")
		return
	}
	for i := 0; i < n && len(c.redo) > 0; {
		m := c.redo[len(c.redo)-1]
		c.redo = c.redo[:len(c.redo)-1]
		if err := c.game.Play(m); err != nil {
			c.errorf("redo: %v", err)
			c.redo = nil
			break
		}
		if m.Square != board.NoSquare {
			i++
		}
	}
	c.show()
}

func (c *console) limits() search.Limits {
	return search.Limits{Depth: c.depth, MoveTime: c.moveTime, Selectivity: c.opt.Selectivity}
}

// engineMove lets the engine play the side to move (or pass for it). A search interrupted by
// Ctrl-C still plays its best move so far; one stopped by the end of the input plays nothing.
// It reports either.
func (c *console) engineMove(ctx context.Context) (interrupted bool) {
	b := c.game.Final()
	if b.LegalMoves() == 0 {
		fmt.Fprintf(c.out, "%s has no move and passes\n", b.SideName())
		c.game.PlayMove(board.NoSquare)
		return false
	}
	if mv, score, ok := c.book.move(b); ok {
		fmt.Fprintf(c.out, "%s plays %s (%s %s, book)\n", c.opt.name(), mv, colour(b.BlackToMove), signed(score))
		c.game.Play(ggf.Move{Square: mv, Black: b.BlackToMove, Eval: score, HasEval: true, HasTime: true})
		c.redo = nil
		return false
	}
	start := time.Now()
	sctx, end := c.searchContext(ctx)
	res := c.eng.Search(sctx, b, c.limits(), c.progress)
	interrupted = end()
	if c.inputGone(ctx) {
		return true
	}
	el := time.Since(start)
	mv, ok := checkedMove(&b, res)
	if !ok {
		c.opt.Log.Error().Str("move", res.Move.String()).Msg("console: engine returned an illegal move; playing the first legal move")
	}
	fmt.Fprintf(c.out, "%s plays %s (%s %s, %s, %d nodes, %.2f s; pv %s)\n", c.opt.name(), mv, colour(b.BlackToMove),
		signed(res.Score), depthWords(res.Info), res.Nodes, el.Seconds(), pvWords(res.PV))
	c.game.Play(ggf.Move{Square: mv, Black: b.BlackToMove, Eval: res.Score, HasEval: true, Time: el, HasTime: true})
	c.redo = nil
	return interrupted
}

// autoplay lets the engine move while it is its turn, and passes for a human who has no move.
// After the end of the input it still plays book moves, and stops at the first search.
func (c *console) autoplay(ctx context.Context) {
	for {
		b := c.game.Final()
		if b.GameOver() {
			return
		}
		if c.isEngine(&b) {
			n := len(c.game.Moves)
			stop := c.engineMove(ctx)
			if len(c.game.Moves) > n {
				c.show()
			}
			if stop {
				return // Ctrl-C also stops the engine playing on; "go" resumes
			}
			continue
		}
		if b.MustPass() && (c.engineBlack || c.engineWhite) {
			fmt.Fprintf(c.out, "%s has no move and passes\n", b.SideName())
			c.game.PlayMove(board.NoSquare)
			c.show()
			continue
		}
		return
	}
}

// progress prints search iterations for a person at a terminal; scripts get the result only.
func (c *console) progress(in search.Info) {
	if c.opt.Prompt {
		fmt.Fprintf(c.out, "  %-12s %7s %12d nodes %7.2f s  %s\n", depthWords(in), signed(in.Score), in.Nodes, in.Elapsed.Seconds(), pvWords(in.PV))
	}
}

func signed(x float64) string {
	s := discText(x)
	if s[0] != '-' {
		s = "+" + s
	}
	return s
}

func depthWords(in search.Info) string {
	switch {
	case in.Exact:
		return "exact"
	case in.WLD && in.Selectivity > 0 && in.Selectivity < 100:
		return fmt.Sprintf("win/loss/draw@%d%%", in.Selectivity)
	case in.WLD:
		return "win/loss/draw"
	}
	if in.Selectivity > 0 && in.Selectivity < 100 {
		return fmt.Sprintf("depth %d@%d%%", in.Depth, in.Selectivity)
	}
	return fmt.Sprintf("depth %d", in.Depth)
}

func (c *console) hint(ctx context.Context, n int) {
	b := c.game.Final()
	if b.GameOver() {
		c.errorf("hint: the game is over")
		return
	}
	if b.MustPass() {
		fmt.Fprintf(c.out, "%s has no move: the only move is a pass\n", b.SideName())
		return
	}
	// The book's moves first, then the search's best of the others.
	booked := c.book.lines(b, n)
	var inBook uint64
	for i, l := range booked {
		fmt.Fprintf(c.out, "%2d. %s %7s  %-12s pv %s\n", i+1, l.move, signed(l.score), bookWords(l), pvWords(l.pv))
		inBook |= l.move.Bit()
	}
	if len(booked) >= min(n, board.Count(b.LegalMoves())) {
		return
	}
	sctx, end := c.searchContext(ctx)
	ms := c.eng.Analyze(sctx, b, c.limits(), n, func([]search.MoveScore) {})
	end()
	if c.inputGone(ctx) {
		return
	}
	// Only the first n have exact values; the engine may list the others as bounds.
	i := len(booked)
	for _, m := range ms[:min(n, len(ms))] {
		if inBook&m.Move.Bit() != 0 {
			continue
		}
		if i++; i > n {
			break
		}
		fmt.Fprintf(c.out, "%2d. %s %7s  %-12s pv %s\n", i, m.Move, signed(m.Score), depthWords(m.Info), pvWords(m.PV))
	}
}

// bookWords describes a book value: "book", its depth, and the games through the move.
func bookWords(l bookLine) string {
	s := "book " + l.depth
	if l.depth == "100%" {
		s = "book exact"
	}
	if l.games > 0 {
		s += fmt.Sprintf(", %d games", l.games)
	}
	return s
}

func (c *console) solve(ctx context.Context, args []string) {
	if len(args) > 1 || len(args) == 1 && !strings.EqualFold(args[0], "force") {
		c.errorf("solve %s: want nothing, or force", printable(strings.Join(args, " ")))
		return
	}
	b := c.game.Final()
	if b.GameOver() {
		c.errorf("solve: the game is over")
		return
	}
	empties := b.NumEmpties()
	lim := search.Limits{}
	if empties > search.MaxSolveEmpties {
		if len(args) == 0 {
			c.errorf("solve: %v", search.TooManyEmpties(empties, `"solve force"`))
			return
		}
		lim = search.ForcedSolveLimits(empties)
		fmt.Fprintf(c.out, "solving %d empties by iterations deepening to the end of the game; Ctrl-C stops it\n", empties)
	}
	start := time.Now()
	sctx, end := c.searchContext(ctx)
	res := c.eng.Search(sctx, b, lim, c.progress)
	interrupted := end()
	if c.inputGone(ctx) {
		return
	}
	words := depthWords(res.Info)
	if res.Depth >= empties && res.Selectivity == 100 {
		words = "exact" // the forced iterations' last one reaches the end at full width
	}
	if interrupted && words != "exact" {
		// The nodes count all the search, the stopped iteration's too.
		fmt.Fprintf(c.out, "solve: stopped before the end; best after %s: %s %s (%d nodes, %.2f s; pv %s)\n", words, res.Move, signed(res.Score),
			res.Nodes, time.Since(start).Seconds(), pvWords(res.PV))
		return
	}
	fmt.Fprintf(c.out, "solve: %s %s (%s, %d nodes, %.2f s; pv %s)\n", res.Move, signed(res.Score), words,
		res.Nodes, time.Since(start).Seconds(), pvWords(res.PV))
}

func (c *console) level(args []string) {
	if len(args) > 0 {
		d, err := parseInt(args[0])
		if err != nil || d < 1 {
			c.errorf("level %s: want a depth of at least 1", printable(args[0]))
			return
		}
		var mt time.Duration
		if len(args) > 1 {
			s, err := parseInt(args[1])
			if err != nil || s < 0 {
				c.errorf("level: time %s: want whole seconds, 0 for none", printable(args[1]))
				return
			}
			mt = time.Duration(min(s, 1<<30)) * time.Second
		}
		c.depth, c.moveTime = min(d, MaxDepth), mt
	}
	if c.moveTime > 0 {
		fmt.Fprintf(c.out, "level: depth %d, %v a move\n", c.depth, c.moveTime)
	} else {
		fmt.Fprintf(c.out, "level: depth %d\n", c.depth)
	}
}

func (c *console) mode(ctx context.Context, args []string) {
	if len(args) > 0 {
		switch strings.ToLower(args[0]) {
		case "black", "b":
			c.engineBlack, c.engineWhite = true, false
		case "white", "w":
			c.engineBlack, c.engineWhite = false, true
		case "both":
			c.engineBlack, c.engineWhite = true, true
		case "none", "human", "off":
			c.engineBlack, c.engineWhite = false, false
		default:
			c.errorf("mode %s: want black, white, both or none", printable(args[0]))
			return
		}
	}
	switch {
	case c.engineBlack && c.engineWhite:
		fmt.Fprintf(c.out, "mode: %s plays both colours\n", c.opt.name())
	case c.engineBlack || c.engineWhite:
		fmt.Fprintf(c.out, "mode: %s plays %s\n", c.opt.name(), colour(c.engineBlack))
	default:
		fmt.Fprintf(c.out, "mode: %s plays neither colour (use go)\n", c.opt.name())
	}
	if len(args) > 0 {
		c.autoplay(ctx)
	}
}
