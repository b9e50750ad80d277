package main

import (
	"bufio"
	"io"
	"strings"
	"testing"
	"time"
)

// runCmdHeld is runCmd with stdin held open until stdout holds until (or the command has
// ended), as a GUI keeps its pipe open until it has its replies: the end of the input stops
// the protocols' searches.
func runCmdHeld(t *testing.T, stdin, until string, args ...string) (int, string, string) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errOut strings.Builder
	done := make(chan int, 1)
	go func() {
		code := run(args, inR, outW, &errOut)
		inR.CloseWithError(io.ErrClosedPipe) // input after the end is not read
		outW.Close()
		done <- code
	}()
	go io.WriteString(inW, stdin)
	var out strings.Builder
	r := bufio.NewReader(outR)
	for !strings.Contains(out.String(), until) {
		line, err := r.ReadString('\n')
		out.WriteString(line)
		if err != nil {
			break
		}
	}
	inW.Close()
	rest, _ := io.ReadAll(r)
	out.Write(rest)
	return <-done, out.String(), errOut.String()
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
