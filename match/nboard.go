package match

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/othellogo/othello/board"
)

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
