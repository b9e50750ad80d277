package protocol

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/search"
)

// These tests drive whole games through the protocols with the real search at a small depth,
// checking every move against the rules.

func realEngine() *search.Engine { return search.NewEngine(search.Config{TTMiB: 1}) }

// nboardClient talks to RunNBoard as the GUI does: it waits for the replies it needs.
type nboardClient struct {
	t     *testing.T
	in    *io.PipeWriter
	out   *bufio.Reader
	ended chan error
	ping  int
}

func newNBoardClient(t *testing.T, eng Engine) *nboardClient {
	return newNBoardClientWith(t, eng, Options{Log: zerolog.Nop()})
}

func newNBoardClientWith(t *testing.T, eng Engine, opt Options) *nboardClient {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &nboardClient{t: t, in: inW, out: bufio.NewReader(outR), ended: make(chan error, 1)}
	go func() {
		err := RunNBoard(context.Background(), eng, inR, outW, opt)
		outW.Close()
		inR.CloseWithError(io.ErrClosedPipe)
		c.ended <- err
	}()
	return c
}

func (c *nboardClient) send(format string, args ...any) {
	fmt.Fprintf(c.in, format+"\n", args...)
}

// until reads replies up to the first starting with prefix and returns it.
func (c *nboardClient) until(prefix string) string {
	c.t.Helper()
	for {
		line, err := c.out.ReadString('\n')
		if err != nil {
			c.t.Fatalf("waiting for %q: %v", prefix, err)
		}
		if strings.HasPrefix(line, "status ") && !strings.HasPrefix(prefix, "status") {
			c.t.Fatalf("waiting for %q: %s", prefix, line)
		}
		if strings.HasPrefix(line, prefix) {
			return strings.TrimSpace(line)
		}
	}
}

func (c *nboardClient) sync() {
	c.ping++
	c.send("ping %d", c.ping)
	c.until(fmt.Sprintf("pong %d", c.ping))
}

// A game of the real engine against itself through NBoard: "go", then the GUI's "move".
func TestNBoardRealGame(t *testing.T) {
	c := newNBoardClient(t, realEngine())
	c.send("nboard 2")
	c.until("set myname")
	c.send("set depth 3")
	c.sync()
	c.send("set game (;GM[Othello]PC[test]TI[0]TY[8]%s;)", startBO)
	g := ggf.New(board.Start())
	for n := 0; ; n++ {
		b := g.Final()
		if b.GameOver() {
			break
		}
		if n > 70 {
			t.Fatal("game too long")
		}
		if n%10 == 0 {
			c.send("hint 2")
			c.until("status Analyzing")
			h := c.until("search ")
			sq, err := board.ParseSquare(strings.ToLower(strings.Fields(h)[1][:2]))
			if b.MustPass() {
				if !strings.HasPrefix(strings.Fields(h)[1], "PA") {
					t.Fatalf("hint %q when the only move is a pass", h)
				}
			} else if err != nil || !b.IsLegal(sq) {
				t.Fatalf("hint %q: not a legal move in\n%s", h, b.Diagram())
			}
			c.until("status")
		}
		c.send("go")
		reply := c.until("===")
		mv := strings.Fields(reply)[1]
		move, err := ggf.ParseMove(mv, b.BlackToMove)
		if err != nil {
			t.Fatalf("reply %q: %v", reply, err)
		}
		if err := g.Play(move); err != nil {
			t.Fatalf("reply %q: %v in\n%s", reply, err, b.Diagram())
		}
		c.sync()
		c.send("move %s", mv)
	}
	fb0 := g.Final()
	t.Logf("game of %d moves (passes included), black %+d", len(g.Moves), fb0.BlackScore())
	c.send("analyze")
	c.until("status Analyzing")
	final := c.until("analysis")
	fb := g.Final()
	if want := fmt.Sprintf("analysis %d %s", len(g.Moves), discText(float64(fb.BlackScore()))); final != want {
		t.Errorf("analysis of the final position: %q, want %q", final, want)
	}
	c.sync() // aborts the rest of the analysis
	c.send("quit")
	if err := <-c.ended; err != nil {
		t.Fatal(err)
	}
}

// A ping during a long real search comes back without waiting for the search.
func TestNBoardRealPing(t *testing.T) {
	c := newNBoardClient(t, realEngine())
	c.send("set depth 40")
	c.send("go")
	c.until("search ") // the search is running
	start := time.Now()
	c.sync()
	t.Logf("pong %v after the ping", time.Since(start)) // reported, not asserted
	c.send("quit")
	if err := <-c.ended; err != nil {
		t.Fatal(err)
	}
}

// A game of the real engine against itself through GTP.
func TestGTPRealGame(t *testing.T) {
	s := newGTPSession(t, realEngine(), Options{Log: zerolog.Nop(), Depth: 3})
	b := board.Start()
	for n, passes := 0, 0; passes < 2; n++ {
		if n > 70 {
			t.Fatal("game too long")
		}
		c := "w"
		if b.BlackToMove {
			c = "b"
		}
		r, ok := s.do("genmove " + c)
		if !ok {
			t.Fatalf("genmove %s: %s", c, r)
		}
		if r == "pass" {
			passes++
			if b.LegalMoves() != 0 {
				t.Fatalf("pass with a move in\n%s", b.Diagram())
			}
			b.Pass()
			continue
		}
		passes = 0
		sq, err := board.ParseSquare(r)
		if err != nil || !b.Play(sq) {
			t.Fatalf("genmove %s: %q is not legal in\n%s", c, r, b.Diagram())
		}
	}
	r, _ := s.do("final_score")
	d := b.BlackScore()
	want := "0"
	if d > 0 {
		want = fmt.Sprintf("B+%d", d)
	} else if d < 0 {
		want = fmt.Sprintf("W+%d", -d)
	}
	if r != want {
		t.Errorf("final_score %q, want %q", r, want)
	}
	s.do("quit")
	<-s.ended
}

// The console against itself with the real engine plays to the end.
func TestConsoleRealSelfPlay(t *testing.T) {
	var out strings.Builder
	opt := Options{Log: zerolog.Nop(), Depth: 2, EngineBlack: true, EngineWhite: true}
	if err := RunConsole(context.Background(), realEngine(), strings.NewReader("ggf\nquit\n"), &out, opt); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	g, _, err := ggf.Parse(lines[len(lines)-1])
	if err != nil {
		t.Fatalf("last line is not the game record: %v\n%s", err, out.String())
	}
	if f := g.Final(); !f.GameOver() {
		t.Fatalf("game not finished:\n%s", f.Diagram())
	}
}

// FFO position #1 (14 empties) through NBoard's hint with the real search: the three best
// moves with their known exact values (G8 +18, H1 +12, H7 +6), shown at depth "100%".
func TestNBoardRealEndgameHint(t *testing.T) {
	b, _, err := board.ParseOBF("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X")
	if err != nil {
		t.Fatal(err)
	}
	c := newNBoardClient(t, realEngine())
	c.send("set depth 12")
	c.send("set game %s", ggf.New(b).String())
	c.send("hint 3")
	c.until("status Analyzing")
	var last []string
	for {
		line, err := c.out.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		line = strings.TrimSpace(line)
		if line == "status" {
			break
		}
		last = append(last, line)
	}
	if len(last) < 3 {
		t.Fatalf("hint lines %q", last)
	}
	last = last[len(last)-3:]
	want := []string{"G8", "18.00", "H1", "12.00", "H7", "6.00"}
	for i, l := range last {
		f := strings.Fields(l)
		if len(f) != 5 || f[0] != "search" || !strings.HasPrefix(f[1], want[2*i]) || f[2] != want[2*i+1] || f[4] != "100%" {
			t.Errorf("hint line %q, want search %s... %s 0 100%%", l, want[2*i], want[2*i+1])
		}
	}
	c.send("quit")
	<-c.ended
}
