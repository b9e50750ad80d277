package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/book"
	"github.com/othellogo/othello/search"
)

// player is one side of a match game: this engine with some configuration, or an external
// engine speaking NBoard.
type player interface {
	// move returns the move for b (which has a legal move). history is the game so far from
	// the standard start; clock is the time left (0: no clock).
	move(ctx context.Context, b board.Board, history []board.Square, clock, inc time.Duration) (board.Square, error)
	close() error
}

// playerSpec is a parsed player description.
type playerSpec struct {
	text     string
	external string // NBoard command line, "" for this engine
	lim      search.Limits
	cfg      search.Config
	eval     evaluator
	book     *book.Book // nil: no opening book
}

// parseEngineSpec reads "key=value,..." options of this engine: depth, time (per move),
// end (exact solve from N empties), sel (selectivity level), eval, tt (MiB), and mpc/pvs/prev = on|off.
func parseEngineSpec(text string) (playerSpec, error) {
	sp := playerSpec{text: text, cfg: search.Config{TTMiB: 16}}
	evalName := "default"
	for _, kv := range strings.Split(text, ",") {
		kv = strings.TrimSpace(kv)
		if kv == "" {
			continue
		}
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return sp, fmt.Errorf("player %q: option %q is not key=value", text, kv)
		}
		var err error
		switch k {
		case "depth":
			sp.lim.Depth, err = strconv.Atoi(v)
			if err == nil && (sp.lim.Depth < 1 || sp.lim.Depth > 60) {
				err = fmt.Errorf("want 1-60")
			}
		case "end":
			sp.lim.ExactEmpties, err = strconv.Atoi(v)
			if err == nil && (sp.lim.ExactEmpties < 1 || sp.lim.ExactEmpties > 60) {
				err = fmt.Errorf("want 1-60")
			}
		case "wld":
			// With end=N: prove win/loss/draw from this many empties down to N+1.
			sp.lim.WLDEmpties, err = strconv.Atoi(v)
			if err == nil && (sp.lim.WLDEmpties < 1 || sp.lim.WLDEmpties > 60) {
				err = fmt.Errorf("want 1-60")
			}
		case "wldsel":
			// Measurement: the win/loss/draw band's solver selectivity (0: proofs).
			var l int
			l, err = strconv.Atoi(v)
			if err == nil && (l < 0 || l > search.MaxSelectivity) {
				err = fmt.Errorf("want 0-%d", search.MaxSelectivity)
			}
			sp.cfg.WLDLevel = l
			if l == 0 {
				sp.cfg.WLDLevel = -1
			}
		case "time":
			sp.lim.MoveTime, err = time.ParseDuration(v)
			if err == nil && sp.lim.MoveTime <= 0 {
				err = fmt.Errorf("want a positive duration")
			}
		case "sel":
			sp.lim.Selectivity, err = strconv.Atoi(v)
			if err == nil && (sp.lim.Selectivity < 0 || sp.lim.Selectivity > search.MaxSelectivity) {
				err = fmt.Errorf("want 0-%d", search.MaxSelectivity)
			}
		case "eval":
			evalName = v
		case "book":
			// Loaded once here: Lookup on a book nobody changes is safe from every game.
			sp.book, err = book.Open(v)
		case "tt":
			sp.cfg.TTMiB, err = strconv.Atoi(v)
			if err == nil && (sp.cfg.TTMiB < 1 || sp.cfg.TTMiB > 4096) {
				err = fmt.Errorf("want 1-4096")
			}
		case "handover":
			// Measurement: empties at which a search to the end hands over to the solver.
			sp.cfg.EndHandover, err = strconv.Atoi(v)
			if err == nil && (sp.cfg.EndHandover < -1 || sp.cfg.EndHandover > 30) {
				err = fmt.Errorf("want -1 (never) to 30")
			}
		case "leafsolve":
			// Measurement: leaves with at most this many empties are solved, not evaluated.
			sp.cfg.LeafSolve, err = strconv.Atoi(v)
			if err == nil && (sp.cfg.LeafSolve < -1 || sp.cfg.LeafSolve > 20) {
				err = fmt.Errorf("want -1 (never) to 20")
			}
		case "screen":
			// Measurement: the Multi-ProbCut screen's width (off: no screen).
			if v == "off" {
				sp.cfg.MPCScreen = -1
				break
			}
			sp.cfg.MPCScreen, err = strconv.ParseFloat(v, 64)
			if err == nil && !(sp.cfg.MPCScreen > 0 && sp.cfg.MPCScreen <= 100) {
				err = fmt.Errorf("want a width in (0, 100] or off")
			}
		case "probable":
			// Measurement: empties above the exact solve given probable solves (0: none).
			var band int
			band, err = strconv.Atoi(v)
			if err == nil && (band < 0 || band > 20) {
				err = fmt.Errorf("want 0-20")
			}
			sp.cfg.ProbableBand = band
			if band == 0 {
				sp.cfg.ProbableBand = -1
			}
		case "mpc", "pvs", "prev", "killer", "staticcut", "solvebudget", "wldrefine", "solverhint":
			// Measurement switches. solvebudget=off gives a solving move no more than any
			// other move's share of the clock; wldrefine=off plays the solver's first winning
			// move where a win/loss/draw proof picks the move, not the midgame's best one;
			// solverhint=off keeps the midgame tables' moves out of the solver's ordering.
			var on bool
			switch v {
			case "on":
				on = true
			case "off":
			default:
				err = fmt.Errorf("want on or off")
			}
			switch k {
			case "mpc":
				sp.cfg.NoMPC = !on
			case "pvs":
				sp.cfg.NoPVS = !on
			case "prev":
				sp.cfg.NoPrevOrder = !on
			case "killer":
				sp.cfg.NoKiller = !on
			case "staticcut":
				sp.cfg.NoStaticCut = !on
			case "solvebudget":
				sp.cfg.NoSolveBudget = !on
			case "wldrefine":
				sp.cfg.NoWLDRefine = !on
			case "solverhint":
				sp.cfg.NoSolverHint = !on
			}
		default:
			err = fmt.Errorf("unknown option (want depth, time, end, sel, eval, tt, mpc, pvs, prev, killer, staticcut, handover, leafsolve, probable, screen, wld, wldsel, solvebudget, wldrefine, solverhint, book)")
		}
		if err != nil {
			return sp, fmt.Errorf("player %q: %s=%s: %v", text, k, v, err)
		}
	}
	ev, err := loadEvaluator(evalName)
	if err != nil {
		return sp, fmt.Errorf("player %q: %v", text, err)
	}
	sp.eval = ev
	ev.configure(&sp.cfg)
	return sp, nil
}

func (sp playerSpec) newPlayer(depth int) (player, error) {
	if sp.external != "" {
		return startNBoard(sp.external, depth)
	}
	return &enginePlayer{e: search.NewEngine(sp.cfg), lim: sp.lim, book: sp.book}, nil
}

type enginePlayer struct {
	e    *search.Engine
	lim  search.Limits
	book *book.Book
}

func (p *enginePlayer) move(ctx context.Context, b board.Board, _ []board.Square, clock, inc time.Duration) (board.Square, error) {
	if sq, _, ok := p.book.Choose(b, 0, nil); ok {
		return sq, nil
	}
	lim := p.lim
	if clock > 0 {
		lim.Remaining, lim.Increment = clock, inc
	}
	r := p.e.Search(ctx, b, lim, nil)
	return r.Move, nil
}

func (p *enginePlayer) close() error { return nil }

// nboardPlayer drives an external engine through the NBoard protocol (version 2): the game so
// far goes as GGF in "set game", then "go" asks for a move, answered by "=== MOVE[/eval/time]".
// "ping n" / "pong n" keeps the two sides in step.
type nboardPlayer struct {
	cmd   *exec.Cmd
	in    io.WriteCloser
	lines chan string
	ping  int
}

func startNBoard(cmdline string, depth int) (*nboardPlayer, error) {
	cmd := exec.Command("sh", "-c", cmdline)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("external engine %q: %v", cmdline, err)
	}
	p := &nboardPlayer{cmd: cmd, in: in, lines: make(chan string, 64)}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	if err := p.send("nboard 2"); err != nil {
		return nil, err
	}
	if depth > 0 {
		if err := p.send(fmt.Sprintf("set depth %d", depth)); err != nil {
			return nil, err
		}
	}
	if err := p.sync(context.Background(), time.Minute); err != nil {
		p.close()
		return nil, fmt.Errorf("external engine %q: %v", cmdline, err)
	}
	return p, nil
}

func (p *nboardPlayer) send(line string) error {
	_, err := io.WriteString(p.in, line+"\n")
	return err
}

// sync sends a ping and reads until its pong, dropping whatever came before.
func (p *nboardPlayer) sync(ctx context.Context, limit time.Duration) error {
	p.ping++
	if err := p.send(fmt.Sprintf("ping %d", p.ping)); err != nil {
		return err
	}
	want := fmt.Sprintf("pong %d", p.ping)
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return fmt.Errorf("engine exited")
			}
			if strings.TrimSpace(line) == want {
				return nil
			}
		case <-timer.C:
			return fmt.Errorf("no %q within %v", want, limit)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (p *nboardPlayer) move(ctx context.Context, b board.Board, history []board.Square, clock, _ time.Duration) (board.Square, error) {
	if err := p.sync(ctx, time.Minute); err != nil {
		return board.NoSquare, err
	}
	g := gameRecord(history, nil)
	g.Black, g.White = "?", "?"
	if err := p.send("set game " + g.String()); err != nil {
		return board.NoSquare, err
	}
	if err := p.send("go"); err != nil {
		return board.NoSquare, err
	}
	limit := 10 * time.Minute
	if clock > 0 {
		limit = clock + time.Second
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return board.NoSquare, fmt.Errorf("engine exited")
			}
			rest, found := strings.CutPrefix(strings.TrimSpace(line), "===")
			if !found {
				continue
			}
			mv, _, _ := strings.Cut(strings.TrimSpace(rest), "/")
			if board.IsPassWord(mv) {
				return board.NoSquare, fmt.Errorf("engine passed with moves available")
			}
			sq, err := board.ParseSquare(strings.ToLower(mv))
			if err != nil {
				return board.NoSquare, fmt.Errorf("engine answered %q: %v", line, err)
			}
			return sq, nil
		case <-timer.C:
			return board.NoSquare, fmt.Errorf("no move within %v", limit)
		case <-ctx.Done():
			return board.NoSquare, ctx.Err()
		}
	}
}

func (p *nboardPlayer) close() error {
	p.send("quit")
	p.in.Close()
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(2 * time.Second):
		p.cmd.Process.Kill()
		return <-done
	}
}
