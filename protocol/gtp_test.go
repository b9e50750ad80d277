package protocol

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/othellogo/othello/board"
)

// gtpSession drives RunGTP command by command through a pipe, as a controller does.
type gtpSession struct {
	t     *testing.T
	in    *io.PipeWriter
	out   *lineCollector
	ended chan error
	next  int
}

func newGTPSession(t *testing.T, eng Engine, opt Options) *gtpSession {
	pr, pw := io.Pipe()
	s := &gtpSession{t: t, in: pw, out: &lineCollector{grew: make(chan struct{}, 1)}, ended: make(chan error, 1)}
	go func() {
		err := RunGTP(context.Background(), eng, pr, s.out, opt)
		pr.CloseWithError(io.ErrClosedPipe)
		s.ended <- err
	}()
	return s
}

// do sends one command and returns its response (without "=" and the blank line) or fails.
func (s *gtpSession) do(cmd string) (string, bool) {
	s.t.Helper()
	s.next++
	start := len(s.out.String())
	fmt.Fprintf(s.in, "%d %s\n", s.next, cmd)
	for !strings.HasSuffix(s.out.String(), "\n\n") || len(s.out.String()) == start {
		<-s.out.grew
	}
	resp := strings.TrimSuffix(s.out.String()[start:], "\n\n")
	ok := strings.HasPrefix(resp, fmt.Sprintf("=%d", s.next))
	if !ok && !strings.HasPrefix(resp, fmt.Sprintf("?%d", s.next)) {
		s.t.Fatalf("%s: response %q", cmd, resp)
	}
	return strings.TrimSpace(resp[len(fmt.Sprint(s.next))+1:]), ok
}

// A full game of the engine against itself through GTP, checked against the rules.
func TestGTPFullGame(t *testing.T) {
	s := newGTPSession(t, &fakeEngine{}, Options{Log: zerolog.Nop(), Depth: 2})
	b := board.Start()
	black := true
	passes := 0
	for moves := 0; passes < 2; moves++ {
		if moves > 70 {
			t.Fatal("game too long")
		}
		c := "w"
		if black {
			c = "b"
		}
		r, ok := s.do("genmove " + c)
		if !ok {
			t.Fatalf("genmove %s: %s", c, r)
		}
		if r == "pass" {
			passes++
			if b.LegalMoves() != 0 && !b.GameOver() {
				t.Fatalf("engine passed with moves %x", b.LegalMoves())
			}
			if !b.GameOver() {
				b.Pass()
			}
		} else {
			passes = 0
			sq, err := board.ParseSquare(r)
			if err != nil || !b.Play(sq) {
				t.Fatalf("genmove %s: %q is not legal in\n%s", c, r, b.Diagram())
			}
		}
		black = !black
	}
	if !b.GameOver() {
		t.Fatalf("two passes before the end:\n%s", b.Diagram())
	}
	r, ok := s.do("final_score")
	want := "0"
	if d := b.BlackScore(); d > 0 {
		want = fmt.Sprintf("B+%d", d)
	} else if d < 0 {
		want = fmt.Sprintf("W+%d", -d)
	}
	if !ok || r != want {
		t.Errorf("final_score %q, want %q", r, want)
	}
	r, _ = s.do("showboard")
	got, err := board.ParseDiagram(r)
	if err != nil || got.Black() != b.Black() || got.White() != b.White() {
		t.Errorf("showboard differs from the game:\n%s\n%s", r, b.Diagram())
	}
	s.do("quit")
	if err := <-s.ended; err != nil {
		t.Fatal(err)
	}
}

// The clock: time_settings and time_left reach the search as a game clock or, in
// byo-yomi, as a time per move.
func TestGTPClock(t *testing.T) {
	eng := &recordingEngine{}
	s := newGTPSession(t, eng, Options{Log: zerolog.Nop(), Depth: 2})
	s.do("time_settings 300 0 0")
	s.do("genmove b")
	s.do("time_left w 100 0")
	s.do("genmove w")
	s.do("time_left b 30 5")
	s.do("genmove b")
	s.do("time_settings 0 0 0")
	s.do("genmove w")
	s.do("quit")
	<-s.ended
	if len(eng.lims) != 4 {
		t.Fatalf("%d searches", len(eng.lims))
	}
	if l := eng.lims[0]; l.Remaining != 300e9 || l.MoveTime != 0 {
		t.Errorf("main time: %+v", l)
	}
	if l := eng.lims[1]; l.Remaining != 100e9 {
		t.Errorf("time_left: %+v", l)
	}
	if l := eng.lims[2]; l.MoveTime != 6e9 || l.Remaining != 0 {
		t.Errorf("byo-yomi 30 s / 5 stones: %+v", l)
	}
	if l := eng.lims[3]; l.MoveTime != 0 || l.Remaining != 0 {
		t.Errorf("no time limit: %+v", l)
	}
}

func FuzzGTP(f *testing.F) {
	f.Add("1 play b f5\n2 genmove w\nundo\nshowboard\nfinal_score\n")
	f.Add("time_settings 10 5 2\ntime_left b 3 1\ngenmove b\ngenmove w\n")
	f.Add("list_commands\nknown_command play\nboardsize 9\n\x00#x\tkomi 7.5\n")
	f.Add("play w pass\nplay b pass\nundo\nundo\nundo\n99999999999999999999999 name\n")
	f.Fuzz(func(t *testing.T, input string) {
		var out bytes.Buffer
		if err := RunGTP(context.Background(), &fakeEngine{noDeep: true}, strings.NewReader(input), &out, Options{Log: zerolog.Nop(), Depth: 1}); err != nil {
			t.Fatal(err)
		}
		s := out.String()
		if s != "" && !strings.HasSuffix(s, "\n\n") {
			t.Fatalf("output does not end with a blank line: %q", s)
		}
		for _, resp := range strings.Split(strings.TrimSuffix(s, "\n\n"), "\n\n") {
			if s != "" && resp[0] != '=' && resp[0] != '?' {
				t.Fatalf("response %q does not start with = or ?", resp)
			}
		}
	})
}
