package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/othellogo/othello/board"
)

// nboardPlayer drives an external engine through the NBoard protocol (version 2): the game so
// far goes as GGF in "set game", then "go" asks for a move, answered by "=== MOVE[/eval/time]".
// "ping n" / "pong n" keeps the two sides in step; the handshake timeout bounds the wait for a
// pong, at the start and before each move.
type nboardPlayer struct {
	cmd       *exec.Cmd
	in        io.WriteCloser
	lines     chan string
	ping      int
	handshake time.Duration
	// exited is closed once the engine's output has ended and the process has been waited
	// for; waitErr is then its exit status.
	exited  chan struct{}
	waitErr error
}

// DefaultHandshakeTimeout bounds the wait for an external engine's answer to a ping when
// Options.HandshakeTimeout is 0.
const DefaultHandshakeTimeout = 10 * time.Second

// exitedError is how an engine that is gone is reported: "exited (status 3)".
type exitedError struct{ err error }

func (e *exitedError) Error() string {
	var ee *exec.ExitError
	switch {
	case e.err == nil:
		return "exited (status 0)"
	case errors.As(e.err, &ee) && ee.Exited():
		return fmt.Sprintf("exited (status %d)", ee.ExitCode())
	}
	return fmt.Sprintf("exited (%v)", e.err)
}

func startNBoard(cmdline string, depth int, handshake time.Duration) (*nboardPlayer, error) {
	if handshake <= 0 {
		handshake = DefaultHandshakeTimeout
	}
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
		return nil, fmt.Errorf("%q: %v", cmdline, err)
	}
	p := &nboardPlayer{cmd: cmd, in: in, lines: make(chan string, 64), handshake: handshake, exited: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64*1024), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	err = p.send("nboard 2")
	if err == nil && depth > 0 {
		err = p.send(fmt.Sprintf("set depth %d", depth))
	}
	if err == nil {
		err = p.sync(context.Background())
	}
	if err != nil {
		p.close()
		var ex *exitedError
		if errors.As(err, &ex) {
			return nil, fmt.Errorf("%q %v at its start", cmdline, err)
		}
		return nil, fmt.Errorf("%q did not answer the NBoard handshake: %v; is it an NBoard engine?", cmdline, err)
	}
	return p, nil
}

// gone turns an error in talking to the engine (a broken pipe, its output ended) into
// exitedError when the engine has exited, giving it a moment to.
func (p *nboardPlayer) gone(err error) error {
	select {
	case <-p.exited:
		return &exitedError{p.waitErr}
	case <-time.After(time.Second):
		return err
	}
}

func (p *nboardPlayer) send(line string) error {
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		return p.gone(err)
	}
	return nil
}

// sync sends a ping and reads until its pong, dropping whatever came before.
func (p *nboardPlayer) sync(ctx context.Context) error {
	p.ping++
	if err := p.send(fmt.Sprintf("ping %d", p.ping)); err != nil {
		return err
	}
	want := fmt.Sprintf("pong %d", p.ping)
	timer := time.NewTimer(p.handshake)
	defer timer.Stop()
	for {
		select {
		case line, ok := <-p.lines:
			if !ok {
				return p.gone(errors.New("its output ended"))
			}
			if strings.TrimSpace(line) == want {
				return nil
			}
		case <-timer.C:
			return fmt.Errorf("no answer to \"ping %d\" within %v", p.ping, p.handshake)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (p *nboardPlayer) move(ctx context.Context, b board.Board, history []board.Square, clock, _ time.Duration) (board.Square, error) {
	if err := p.sync(ctx); err != nil {
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
				return board.NoSquare, p.gone(errors.New("its output ended"))
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
	go func() {
		for range p.lines { // what it still says is not read: let it end
		}
	}()
	p.send("quit")
	p.in.Close()
	select {
	case <-p.exited:
	case <-time.After(2 * time.Second):
		p.cmd.Process.Kill()
		<-p.exited
	}
	return p.waitErr
}
