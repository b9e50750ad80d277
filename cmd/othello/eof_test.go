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

// The input closed while the real engine searches at depth 60 from the start (hours of work):
// every protocol command stops the search and exits at once.
func TestProtocolEOFStopsSearch(t *testing.T) {
	for _, tc := range []struct {
		stdin, started string // started: output that shows the search has begun ("" : none)
		args           []string
	}{
		{"nboard 2\nset depth 60\ngo\n", "nodestats", []string{"nboard", "-tt", "1", "-no-book"}},
		{"nboard 2\nset depth 60\nhint 4\n", "status Analyzing", []string{"nboard", "-tt", "1", "-no-book"}},
		{"1 genmove b\n", "", []string{"gtp", "-tt", "1", "-depth", "60", "-no-book"}},
		{"level 60\ngo\n", "level: depth 60", []string{"console", "-tt", "1", "-no-book"}},
		{"f5\n", "legal moves: f4 d6 f6", []string{"play", "-tt", "1", "-depth", "60", "-no-book"}},
	} {
		pr, pw := io.Pipe()
		var out, errOut syncBuffer
		done := make(chan int, 1)
		go func() {
			code := run(tc.args, pr, &out, &errOut)
			pr.CloseWithError(io.ErrClosedPipe)
			done <- code
		}()
		io.WriteString(pw, tc.stdin)
		for guard := time.Now(); !strings.Contains(out.String(), tc.started) && time.Since(guard) < 60*time.Second; {
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond) // well into the search
		pw.Close()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("%v: exit %d, stderr %q", tc.args, code, errOut.String())
			}
		case <-time.After(30 * time.Second):
			t.Errorf("%v: the input ended during a depth-60 search: still running after 30 s; output:\n%s", tc.args, out.String())
		}
	}
}
