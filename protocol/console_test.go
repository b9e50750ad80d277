package protocol

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

// Against itself ("mode both") the console plays a whole game to the end by itself.
func TestConsoleSelfPlay(t *testing.T) {
	var out bytes.Buffer
	opt := Options{Log: zerolog.Nop(), Depth: 1, EngineBlack: true, EngineWhite: true}
	if err := RunConsole(context.Background(), &fakeEngine{}, strings.NewReader("moves\nquit\n"), &out, opt); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.Contains(s, "game over:") {
		t.Fatalf("no game over in\n%s", s)
	}
	lines := strings.Split(strings.TrimSpace(s), "\n")
	tr := lines[len(lines)-1]
	if len(tr) < 2*50 || len(tr)%2 != 0 {
		t.Errorf("final transcript %q is too short for a full game", tr)
	}
}

func FuzzConsole(f *testing.F) {
	f.Add("f5d6\nhint 2\nundo\nredo\ngo\nmoves\nggf\n")
	f.Add("mode both\nlevel 1\n")
	f.Add("setboard ---------------------------OX------XO--------------------------- X\nsolve\nnew\n")
	f.Add("color white\nundo 3\nredo 9\nplay pa\n\x00\xff\n")
	f.Fuzz(func(t *testing.T, input string) {
		var out bytes.Buffer
		opt := Options{Log: zerolog.Nop(), Depth: 1}
		if err := RunConsole(context.Background(), &fakeEngine{noDeep: true}, strings.NewReader(input), &out, opt); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < out.Len(); i++ {
			if c := out.Bytes()[i]; c != '\n' && (c < 32 || c > 126) {
				t.Fatalf("output has byte %#x:\n%s", c, out.String())
			}
		}
	})
}

// startEngine tells when a search starts.
type startEngine struct {
	fakeEngine
	started chan struct{}
}

func (e *startEngine) Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result {
	e.started <- struct{}{}
	return e.fakeEngine.Search(ctx, b, lim, info)
}

// Ctrl-C (Options.Interrupt) stops a search that would never end; the engine plays its best
// move so far and the session goes on. At the prompt it says how to leave.
func TestConsoleInterrupt(t *testing.T) {
	eng := &startEngine{started: make(chan struct{}, 1)}
	intr := make(chan struct{}, 1)
	pr, pw := io.Pipe()
	out := &lineCollector{grew: make(chan struct{}, 1)}
	ended := make(chan error, 1)
	go func() {
		ended <- RunConsole(context.Background(), eng, pr, out, Options{Log: zerolog.Nop(), Interrupt: intr})
		pr.CloseWithError(io.ErrClosedPipe)
	}()
	waitFor := func(s string) {
		t.Helper()
		deadline := time.After(60 * time.Second) // a deadlock guard, not a measurement
		for !strings.Contains(out.String(), s) {
			select {
			case <-out.grew:
			case <-deadline:
				t.Fatalf("no %q in output:\n%s", s, out.String())
			}
		}
	}
	io.WriteString(pw, "level 60\ngo\n") // the fake's depth 60 runs until cancelled
	<-eng.started
	intr <- struct{}{}
	waitFor("(search interrupted)")
	waitFor("GoThello plays d3")
	io.WriteString(pw, "moves\n")
	waitFor("\nd3\n")
	intr <- struct{}{}
	waitFor("type quit or press Ctrl-D to leave")
	io.WriteString(pw, "quit\n")
	if err := <-ended; err != nil {
		t.Fatal(err)
	}
}
