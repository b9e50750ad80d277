package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/search"
)

// GTP v2 (the Go Text Protocol, as Edax and Quarry use it for Othello): vertices are Othello
// squares ("f5", either case; a1 is the top-left corner as on an Othello board), colours
// "b"/"black"/"w"/"white", "pass" for a pass. A move of the colour not to move is accepted
// when the side to move has to pass: the pass is played first.

var gtpCommands = []string{
	"protocol_version", "name", "version", "known_command", "list_commands", "quit",
	"boardsize", "clear_board", "komi", "play", "genmove", "undo", "time_settings",
	"time_left", "showboard", "final_score", "set_game", "list_games",
}

type gtp struct {
	eng  Engine
	opt  Options
	out  io.Writer
	game *ggf.Game
	book *bookPlayer
	// undo holds the number of moves before each play/genmove (a colour switch adds a pass,
	// which "undo" takes back with the move).
	undo []int
	komi float64
	// the clock: time_settings, and time_left per colour (index 0 black, 1 white)
	mainTime, byoTime time.Duration
	byoStones         int
	left              [2]time.Duration
	stones            [2]int
	timed             [2]bool
}

// RunGTP speaks GTP v2 on in and out until "quit", the end of the input or the end of ctx.
// It returns an error only when writing to out fails. The end of the input stops the running
// search and any later one (readLines): genmove then fails; a controller always waits for its
// replies, and a script whose last genmove must finish ends with quit.
func RunGTP(ctx context.Context, eng Engine, in io.Reader, out io.Writer, opt Options) error {
	g := &gtp{eng: eng, opt: opt, out: out, game: ggf.New(board.Start()), book: newBookPlayer(opt.Book)}
	// Searches run in sctx, which the end of the input cancels.
	sctx, inputEnded := context.WithCancel(ctx)
	defer inputEnded()
	q := newLineQueue()
	isQuit := func(text string) bool { _, cmd, _, ok := gtpParse(text); return ok && cmd == "quit" }
	go readLines(in, q, isQuit, nil, func(uint64) { inputEnded() })
	for ctx.Err() == nil {
		l, ok := q.pop(ctx)
		if !ok {
			return nil
		}
		line, err := l.text, l.err
		if err == errLineTooLong {
			g.opt.Log.Warn().Int("max", MaxLine).Msg("gtp: input line too long, ignored")
			if _, err := fmt.Fprintf(out, "? line too long\n\n"); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			if err != io.EOF {
				g.opt.Log.Error().Err(err).Msg("gtp: reading input")
			}
			return nil
		}
		id, cmd, args, ok := gtpParse(line)
		if !ok {
			continue
		}
		res, quit, err := g.handle(sctx, cmd, args)
		var werr error
		if err != nil {
			_, werr = fmt.Fprintf(out, "?%s %s\n\n", id, clipLine(err.Error(), 300))
		} else {
			_, werr = fmt.Fprintf(out, "=%s %s\n\n", id, res)
		}
		if werr != nil {
			return werr
		}
		if quit {
			return nil
		}
	}
	return nil
}

// gtpParse preprocesses a line as GTP says (control characters but tab and newline removed,
// tabs to blanks, comments after '#' dropped) and splits off the optional numeric id.
func gtpParse(line string) (id, cmd string, args []string, ok bool) {
	var sb strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '#':
			i = len(line)
		case c == '\t':
			sb.WriteByte(' ')
		case c < 32 || c == 127:
		default:
			sb.WriteByte(c)
		}
	}
	f := strings.Fields(sb.String())
	if len(f) == 0 {
		return "", "", nil, false
	}
	if isDigits(f[0]) {
		id, f = f[0], f[1:]
		if len(id) > 18 {
			id = id[:18]
		}
		if len(f) == 0 {
			return id, "", nil, true
		}
	}
	return id, f[0], f[1:], true
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func (g *gtp) handle(ctx context.Context, cmd string, args []string) (res string, quit bool, err error) {
	switch cmd {
	case "protocol_version":
		return "2", false, nil
	case "name":
		return g.opt.name(), false, nil
	case "version":
		return g.opt.Version, false, nil
	case "known_command":
		if len(args) < 1 {
			return "", false, fmt.Errorf("syntax error: known_command <command>")
		}
		for _, c := range gtpCommands {
			if c == args[0] {
				return "true", false, nil
			}
		}
		return "false", false, nil
	case "list_commands":
		return strings.Join(gtpCommands, "\n"), false, nil
	case "quit":
		return "", true, nil
	case "boardsize":
		if len(args) < 1 {
			return "", false, fmt.Errorf("syntax error: boardsize <size>")
		}
		if args[0] != "8" {
			return "", false, fmt.Errorf("unacceptable size")
		}
		return "", false, nil
	case "clear_board":
		g.game = ggf.New(board.Start())
		g.undo = g.undo[:0]
		return "", false, nil
	case "komi":
		if len(args) < 1 {
			return "", false, fmt.Errorf("syntax error: komi <float>")
		}
		k, err := strconv.ParseFloat(args[0], 64)
		if err != nil {
			return "", false, fmt.Errorf("syntax error: komi %q is not a number", printable(args[0]))
		}
		g.komi = k
		return "", false, nil
	case "set_game":
		if len(args) < 1 || !strings.EqualFold(args[0], "othello") {
			return "", false, fmt.Errorf("unsupported game")
		}
		return "", false, nil
	case "list_games":
		return "Othello", false, nil
	case "play":
		return "", false, g.play(args)
	case "genmove":
		res, err := g.genmove(ctx, args)
		return res, false, err
	case "undo":
		if len(g.undo) == 0 {
			return "", false, fmt.Errorf("cannot undo")
		}
		g.game.Truncate(g.undo[len(g.undo)-1])
		g.undo = g.undo[:len(g.undo)-1]
		return "", false, nil
	case "time_settings":
		if len(args) < 3 {
			return "", false, fmt.Errorf("syntax error: time_settings <main> <byo-yomi time> <byo-yomi stones>")
		}
		m, err1 := parseInt(args[0])
		bt, err2 := parseInt(args[1])
		bs, err3 := parseInt(args[2])
		if err1 != nil || err2 != nil || err3 != nil || m < 0 || bt < 0 || bs < 0 {
			return "", false, fmt.Errorf("syntax error: time_settings wants three non-negative integers")
		}
		g.mainTime, g.byoTime, g.byoStones = seconds(m), seconds(bt), bs
		// main time 0 and byo-yomi time 0 mean no time limit
		timed := m > 0 || bt > 0
		g.left, g.stones, g.timed = [2]time.Duration{g.mainTime, g.mainTime}, [2]int{}, [2]bool{timed, timed}
		return "", false, nil
	case "time_left":
		if len(args) < 3 {
			return "", false, fmt.Errorf("syntax error: time_left <color> <time> <stones>")
		}
		black, err := gtpColour(args[0])
		if err != nil {
			return "", false, err
		}
		t, err1 := parseInt(args[1])
		s, err2 := parseInt(args[2])
		if err1 != nil || err2 != nil || t < 0 || s < 0 {
			return "", false, fmt.Errorf("syntax error: time_left wants a colour and two non-negative integers")
		}
		c := colourIndex(black)
		g.left[c], g.stones[c], g.timed[c] = seconds(t), s, true
		return "", false, nil
	case "showboard":
		b := g.game.Final()
		return "\n" + strings.TrimSuffix(b.Diagram(), "\n"), false, nil
	case "final_score":
		b := g.game.Final()
		if !b.GameOver() {
			return "", false, fmt.Errorf("cannot score: the game is not over")
		}
		s := float64(b.BlackScore()) - g.komi
		switch {
		case s > 0:
			return "B+" + strconv.FormatFloat(s, 'f', -1, 64), false, nil
		case s < 0:
			return "W+" + strconv.FormatFloat(-s, 'f', -1, 64), false, nil
		}
		return "0", false, nil
	case "":
		return "", false, fmt.Errorf("missing command")
	}
	g.opt.Log.Warn().Str("command", printable(cmd)).Msg("gtp: unknown command")
	return "", false, fmt.Errorf("unknown command")
}

func seconds(n int) time.Duration {
	return time.Duration(min(n, 1<<30)) * time.Second
}

func colourIndex(black bool) int {
	if black {
		return 0
	}
	return 1
}

func gtpColour(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "b", "black":
		return true, nil
	case "w", "white":
		return false, nil
	}
	return false, fmt.Errorf("syntax error: %q is not a colour (b or w)", printable(s))
}

// turn brings the game to black's (or white's) turn: a pass is played when the side to move
// has none; otherwise a colour out of turn is an error.
func (g *gtp) turn(black bool) error {
	b := g.game.Final()
	if b.BlackToMove == black {
		return nil
	}
	if b.LegalMoves() != 0 {
		return fmt.Errorf("wrong color: %s is to move", b.SideName())
	}
	return g.game.PlayMove(board.NoSquare)
}

func (g *gtp) play(args []string) error {
	if len(args) < 2 {
		return fmt.Errorf("syntax error: play <color> <vertex|pass>")
	}
	black, err := gtpColour(args[0])
	if err != nil {
		return err
	}
	sq := board.NoSquare
	if !board.IsPassWord(args[1]) {
		if sq, err = board.ParseSquare(args[1]); err != nil {
			return fmt.Errorf("syntax error: %q is not a vertex", printable(args[1]))
		}
	}
	before := len(g.game.Moves)
	if err := g.turn(black); err != nil {
		return err
	}
	if err := g.game.PlayMove(sq); err != nil {
		g.game.Truncate(before)
		return fmt.Errorf("illegal move: %v", err)
	}
	g.undo = append(g.undo, before)
	return nil
}

// errSearchStopped answers a genmove whose search the end of the input stopped: no move is
// played.
var errSearchStopped = errors.New("search stopped: the input has ended")

func (g *gtp) genmove(ctx context.Context, args []string) (string, error) {
	if len(args) < 1 {
		return "", fmt.Errorf("syntax error: genmove <color>")
	}
	black, err := gtpColour(args[0])
	if err != nil {
		return "", err
	}
	before := len(g.game.Moves)
	b := g.game.Final()
	if b.GameOver() {
		return "pass", nil
	}
	if err := g.turn(black); err != nil {
		return "", err
	}
	b = g.game.Final()
	if b.LegalMoves() == 0 {
		if err := g.game.PlayMove(board.NoSquare); err != nil {
			g.game.Truncate(before)
			return "", err
		}
		g.undo = append(g.undo, before)
		return "pass", nil
	}
	start := time.Now()
	var res search.Result
	if sq, score, ok := g.book.move(b); ok {
		res.Move, res.Score = sq, score
		g.opt.Log.Debug().Str("move", sq.String()).Float64("eval", score).Msg("gtp: book move")
	} else {
		res = g.eng.Search(ctx, b, g.limits(black), func(search.Info) {})
		if ctx.Err() != nil {
			g.game.Truncate(before)
			return "", errSearchStopped
		}
	}
	mv, ok := checkedMove(&b, res)
	if !ok {
		g.opt.Log.Error().Str("move", res.Move.String()).Msg("gtp: engine returned an illegal move; playing the first legal move")
	}
	if err := g.game.Play(ggf.Move{Square: mv, Black: black, Eval: res.Score, HasEval: true, Time: time.Since(start), HasTime: true}); err != nil {
		g.game.Truncate(before)
		return "", err
	}
	g.undo = append(g.undo, before)
	if c := colourIndex(black); g.timed[c] {
		g.left[c] -= time.Since(start)
		if g.stones[c] > 0 {
			if g.stones[c]--; g.stones[c] == 0 {
				g.left[c], g.stones[c] = g.byoTime, g.byoStones // next period
			}
		}
	}
	return strings.ToUpper(mv.String()), nil
}

// limits: the level and move time of the options, and the clock kept from time_settings,
// time_left and the engine's own thinking: main time left as the game clock, or in byo-yomi
// the period's time over its stones as the time for this move.
func (g *gtp) limits(black bool) search.Limits {
	st := newStrength(&g.opt)
	lim := st.limits()
	c := colourIndex(black)
	if !g.timed[c] {
		return lim
	}
	left, stones := g.left[c], g.stones[c]
	if stones == 0 && left <= 0 && g.byoStones > 0 {
		// main time is used up: a byo-yomi period starts
		left, stones = g.byoTime, g.byoStones
		g.left[c], g.stones[c] = left, stones
	}
	switch {
	case stones > 0:
		lim.MoveTime = max(left/time.Duration(stones), 10*time.Millisecond)
	default:
		lim.Remaining = max(left, 10*time.Millisecond)
	}
	return lim
}
