package protocol

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// "solve" in the opening is refused with the reason and the command that forces it, and
// searches nothing; "solve force" starts a search that Ctrl-C stops, after which the
// console says it stopped, with the search's nodes.
func TestConsoleSolveOpening(t *testing.T) {
	var out bytes.Buffer
	eng := &fakeEngine{}
	if err := RunConsole(context.Background(), eng, strings.NewReader("solve\nsolve now\nquit\n"), &out, Options{Log: zerolog.Nop()}); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.Contains(s, "error: solve: 60 empties: too many") || !strings.Contains(s, `"solve force"`) || !strings.Contains(s, "error: solve now:") {
		t.Fatalf("no refusal in\n%s", s)
	}
	if n := eng.searches.Load(); n != 0 {
		t.Fatalf("a refused solve searched (%d searches)", n)
	}

	se := &startEngine{started: make(chan struct{}, 1)}
	intr := make(chan struct{}, 1)
	pr, pw := io.Pipe()
	lc := &lineCollector{grew: make(chan struct{}, 1)}
	ended := make(chan error, 1)
	go func() {
		ended <- RunConsole(context.Background(), se, pr, lc, Options{Log: zerolog.Nop(), Interrupt: intr})
		pr.CloseWithError(io.ErrClosedPipe)
	}()
	io.WriteString(pw, "solve force\n") // the fake's forced solve (depth 60) runs until cancelled
	<-se.started
	intr <- struct{}{}
	deadline := time.After(60 * time.Second) // a deadlock guard, not a measurement
	for !strings.Contains(lc.String(), "solve: stopped before the end") {
		select {
		case <-lc.grew:
		case <-deadline:
			t.Fatalf("no stop in output:\n%s", lc.String())
		}
	}
	io.WriteString(pw, "quit\n")
	if err := <-ended; err != nil {
		t.Fatal(err)
	}
	if s := lc.String(); !strings.Contains(s, "(search interrupted)") || !strings.Contains(s, "nodes") {
		t.Fatalf("forced solve output:\n%s", s)
	}
}
