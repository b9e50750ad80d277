package main

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer the test can read while the command writes it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// runCmdHeld is runCmd with stdin held open until stdout holds until (or the command has
// ended), as a GUI keeps its pipe open until it has its replies: the end of the input stops
// the protocols' searches.
func runCmdHeld(t *testing.T, stdin, until string, args ...string) (int, string, string) {
	t.Helper()
	pr, pw := io.Pipe()
	var out, errOut syncBuffer
	done := make(chan int, 1)
	go func() {
		code := run(args, pr, &out, &errOut)
		pr.CloseWithError(io.ErrClosedPipe) // input after the end is not read
		done <- code
	}()
	io.WriteString(pw, stdin)
	guard := time.After(60 * time.Second) // a deadlock guard, not a measurement
	code, ended := 0, false
	for !ended && !strings.Contains(out.String(), until) {
		select {
		case code = <-done:
			ended = true
		case <-guard:
			t.Errorf("%v: no %q in the output:\n%s", args, until, out.String())
			ended = true
			code = -1
		case <-time.After(5 * time.Millisecond):
		}
	}
	pw.Close()
	if code == -1 || !ended {
		code = <-done
	}
	return code, out.String(), errOut.String()
}

// The input closed while a search runs at depth 60 (hours of work) through the binary: the
// command stops it and exits at once (each front end is tested so in package protocol).
func TestProtocolEOFStopsSearch(t *testing.T) {
	done := make(chan int, 1)
	go func() {
		code, _, _ := runCmdHeld(t, "level 60\ngo\n", "level: depth 60", "console", "-tt", "1", "-no-book")
		done <- code
	}()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(30 * time.Second):
		t.Error("the input ended during a depth-60 search: still running after 30 s")
	}
}
