package protocol

import (
	"context"
	"fmt"
	"io"
	"os"
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
  solve [force]      exact endgame solve of the position; "force" for more than 36 empties
  undo [n], redo [n] take back / replay moves (against the engine: back to your turn)
  new                new game from the start position
  setboard <pos>     set a position: 64 squares a1..h8 (X or * black, O white, - empty) and
                     the side to move, e.g. setboard ---...--- X
  load FILE          load a game: a GGF record or a transcript (f5d6c3...)
  level [n [time]]   show or set the level (0-60: depth, selectivity, solve empties) and
                     the time per move (seconds or e.g. 500ms; 0: none)
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
	st                       strength
	engineBlack, engineWhite bool
	// turnStart is when the side to move got the move: a person's time on the clock runs
	// from it.
	turnStart time.Time
	book      *bookPlayer
	endNoted  bool // the end of the input has been said to stop the searches
}

// RunConsole runs the console on in and out until "quit", the end of the input or the end
// of ctx. It returns an error only when writing to out fails. The end of the input stops the
// running search and any later one (readLines); a script whose last search must finish ends
// with quit.
func RunConsole(ctx context.Context, eng Engine, in io.Reader, out io.Writer, opt Options) error {
	c := newConsole(eng, opt, out)
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

func newConsole(eng Engine, opt Options, out io.Writer) *console {
	c := &console{eng: eng, opt: opt, out: &errWriter{w: out}, st: newStrength(&opt),
		engineBlack: opt.EngineBlack, engineWhite: opt.EngineWhite, book: newBookPlayer(opt.Book)}
	c.game = c.newGame(board.Start())
	return c
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
		c.game = c.newGame(board.Start())
		c.redo = nil
		c.show()
		c.autoplay(ctx)
	case "play":
		c.playMoves(ctx, strings.Join(args, ""))
	case "setboard":
		c.setboard(ctx, strings.Join(args, " "))
	case "load":
		c.load(ctx, strings.Join(args, " "))
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
		fmt.Fprintln(c.out, c.record().String())
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

// show prints the board, the last move in brackets, the clocks and the legal moves; the
// side to move's time runs from here.
func (c *console) show() {
	b := c.game.Final()
	fmt.Fprint(c.out, markLast(b.Diagram(), c.lastMove()))
	c.turnStart = time.Now()
	if c.opt.Clock.Set {
		bl, _, _ := c.game.TimeLeft(true)
		wl, _, _ := c.game.TimeLeft(false)
		fmt.Fprintf(c.out, "clock: black %s, white %s\n", clockText(bl), clockText(wl))
	}
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

// lastMove is the square of the last move played (passes skipped), NoSquare before any.
func (c *console) lastMove() board.Square {
	for i := len(c.game.Moves) - 1; i >= 0; i-- {
		if c.game.Moves[i].Square != board.NoSquare {
			return c.game.Moves[i].Square
		}
	}
	return board.NoSquare
}

// markLast puts brackets around square sq of a board.Diagram: "4 - - -[*]* - - - 4".
func markLast(diagram string, sq board.Square) string {
	if sq == board.NoSquare {
		return diagram
	}
	lines := strings.Split(diagram, "\n")
	r, col := 1+sq.Row(), 1+2*sq.Col() // the row's line; the blank before the square
	if r >= len(lines) || col+2 >= len(lines[r]) {
		return diagram
	}
	row := []byte(lines[r])
	row[col], row[col+2] = '[', ']'
	lines[r] = string(row)
	return strings.Join(lines, "\n")
}

// newGame is a record of a new game from start, with the date and the game clock.
func (c *console) newGame(start board.Board) *ggf.Game {
	g := ggf.New(start)
	g.Date = time.Now().UTC().Format("2006.01.02_15:04:05.UTC")
	if c.opt.Clock.Set {
		g.Clock = c.opt.Clock
	}
	return g
}

// record is the game as a GGF record with its players and, once it is over, its result.
func (c *console) record() *ggf.Game {
	g := *c.game
	player := func(engine bool) string {
		if engine {
			return c.opt.name()
		}
		return "human"
	}
	g.Black, g.White = player(c.engineBlack), player(c.engineWhite)
	g.Result = "?"
	if b := c.game.Final(); b.GameOver() {
		g.Result = fmt.Sprintf("%+d", b.BlackScore())
		if b.BlackScore() == 0 {
			g.Result = "0"
		}
	}
	return &g
}

// playHuman plays a person's move, timed on the clock (the first move of a transcript takes
// the time since the board was shown) and says when a clock has run out: the game goes on,
// a person's overstepped clock is only reported.
func (c *console) playHuman(sq board.Square, first bool) error {
	b := c.game.Final()
	m := ggf.Move{Square: sq, Black: b.BlackToMove}
	if c.opt.Clock.Set && sq != board.NoSquare {
		m.HasTime = true
		if first {
			m.Time = time.Since(c.turnStart)
		}
	}
	if err := c.game.Play(m); err != nil {
		return err
	}
	c.noteFlag(b.BlackToMove)
	return nil
}

// noteFlag says when the clock of black (or white) has just run out.
func (c *console) noteFlag(black bool) {
	if !c.opt.Clock.Set {
		return
	}
	left, inc, _ := c.game.TimeLeft(black)
	// What was left when the move was made, before its increment; negative: overstepped, for
	// the first time when the clock still had the move's time before it.
	if over := left - inc; over < 0 && over+c.game.Moves[len(c.game.Moves)-1].Time >= 0 {
		fmt.Fprintf(c.out, "%s's clock has run out (%s); the game goes on\n", colour(black), clockText(over))
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
	for i, sq := range moves {
		if err := c.playHuman(sq, i == 0); err != nil {
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
	if err == nil {
		err = CheckPosition(&b)
	}
	if err != nil {
		c.errorf("setboard: %v; position unchanged", err)
		return
	}
	if b.MustPass() {
		b.Pass()
		fmt.Fprintf(c.out, "%s has no move: %s to move\n", colour(!b.BlackToMove), b.SideName())
	}
	c.game = c.newGame(b)
	c.redo = nil
	c.show()
	c.autoplay(ctx)
}

// load replaces the game by the one in a file: a GGF record (the first, when the file holds
// several) or a transcript of moves from the start ("f5d6c3...", blanks and line ends
// allowed). The players, dates and clocks of a record are not taken over: the console keeps
// its own.
func (c *console) load(ctx context.Context, path string) {
	if path == "" {
		c.errorf("load: which file? (a GGF record or a transcript such as f5d6c3)")
		return
	}
	// Only a regular file: a pipe or a device (/dev/stdin, a FIFO) could block the session.
	if fi, err := os.Stat(path); err != nil {
		c.errorf("load: %v", err)
		return
	} else if !fi.Mode().IsRegular() {
		c.errorf("load %s: not a regular file", printable(path))
		return
	}
	f, err := os.Open(path)
	if err != nil {
		c.errorf("load: %v", err)
		return
	}
	data, err := io.ReadAll(io.LimitReader(f, ggf.MaxRecord+1))
	f.Close()
	switch {
	case err != nil:
		c.errorf("load %s: %v", printable(path), err)
		return
	case len(data) > ggf.MaxRecord:
		c.errorf("load %s: larger than %d bytes: not one game", printable(path), ggf.MaxRecord)
		return
	}
	text := string(data)
	g := c.newGame(board.Start())
	if strings.Contains(text, "(;") {
		rec, _, err := ggf.Parse(text)
		if err == nil {
			err = CheckPosition(&rec.Start)
		}
		if err != nil {
			c.errorf("load %s: %v; game unchanged", printable(path), err)
			return
		}
		g.Start = rec.Start
		for _, m := range rec.Moves {
			m.HasTime, m.Time = false, 0
			if err := g.Play(m); err != nil {
				c.errorf("load %s: %v; game unchanged", printable(path), err) // cannot happen: the record was replayed
				return
			}
		}
	} else {
		moves, _, err := board.ParseTranscript(text)
		if err != nil {
			c.errorf("load %s: %v; game unchanged", printable(path), err)
			return
		}
		for _, sq := range moves {
			g.PlayMove(sq)
		}
	}
	c.game, c.redo = g, nil
	fmt.Fprintf(c.out, "loaded %d moves\n", len(g.Moves))
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

// limits are the level's limits, with the side to move's game clock when there is one.
func (c *console) limits() search.Limits {
	lim := c.st.limits()
	b := c.game.Final()
	if left, inc, ok := c.game.TimeLeft(b.BlackToMove); ok {
		// An overstepped clock still gets a token amount: zero would mean "no clock".
		lim.Remaining, lim.Increment = max(left, 10*time.Millisecond), inc
	}
	return lim
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
		scoreWords(res.Info, false), depthWords(res.Info), res.Nodes, el.Seconds(), pvWords(res.PV))
	// A win/loss/draw result is no disc score: the record keeps no eval for it.
	c.game.Play(ggf.Move{Square: mv, Black: b.BlackToMove, Eval: res.Score, HasEval: !res.WLD, Time: el, HasTime: true})
	c.noteFlag(b.BlackToMove)
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
		fmt.Fprintf(c.out, "  %-12s %7s %12d nodes %7.2f s  %s\n", depthWords(in), scoreWords(in, false), in.Nodes, in.Elapsed.Seconds(), pvWords(in.PV))
	}
}

func signed(x float64) string {
	s := discText(x)
	if s[0] != '-' {
		s = "+" + s
	}
	return s
}

// scoreWords is a value for people: a disc score ("+38.00"), "win", "loss" or "draw" for a
// win/loss/draw result (never a disc score of +1), "<=+6.00" for an upper bound.
func scoreWords(in search.Info, bound bool) string {
	switch {
	case in.WLD && in.Score > 0:
		return "win"
	case in.WLD && in.Score < 0:
		return "loss"
	case in.WLD:
		return "draw"
	case bound:
		return "<=" + signed(in.Score)
	case in.Lower:
		return ">=" + signed(in.Score)
	}
	return signed(in.Score)
}

func depthWords(in search.Info) string {
	switch {
	case in.MonteCarlo:
		return fmt.Sprintf("uct %d playouts", in.Nodes)
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
		fmt.Fprintf(c.out, "%2d. %s %7s  %-12s pv %s\n", i, m.Move, scoreWords(m.Info, m.Bound), depthWords(m.Info), pvWords(m.PV))
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

// level shows or sets the level (search.LevelFor: depth, selectivity unless -sel fixed it,
// solve empties) and the time per move, as whole seconds or a duration ("500ms").
func (c *console) level(args []string) {
	if len(args) > 0 {
		n, err := parseInt(args[0])
		if err != nil || n < 0 || n > search.MaxLevel {
			c.errorf("level %s: want a level of 0-%d (the table is in docs/protocols.md)", printable(args[0]), search.MaxLevel)
			return
		}
		mt := c.st.moveTime
		if len(args) > 1 {
			mt, err = parseMoveTime(args[1])
			if err != nil {
				c.errorf("level: time %s: %v", printable(args[1]), err)
				return
			}
		}
		c.st.setLevel(n)
		c.st.moveTime = mt
	}
	fmt.Fprintf(c.out, "%s\n", c.st.String())
}

// parseMoveTime reads a time per move: whole seconds ("5") or a duration ("500ms", "2s");
// 0 is none.
func parseMoveTime(s string) (time.Duration, error) {
	if v, err := parseInt(s); err == nil {
		if v < 0 {
			return 0, fmt.Errorf("want a time of at least 0")
		}
		return time.Duration(min(v, 1<<30)) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("want whole seconds or a duration such as 500ms, 0 for none")
	}
	return d, nil
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
