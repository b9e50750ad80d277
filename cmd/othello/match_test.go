package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The match command's flags reach package match: openings from a file and at random, two
// games at a time, the GGF file, and the report. (The match itself is tested in package match.)
func TestMatchCommand(t *testing.T) {
	ggf := filepath.Join(t.TempDir(), "games.ggf")
	code, out, errOut := runCmd(t, "", "match", "-a", "depth=2,end=10", "-b", "depth=1,eval=mobility,pvs=off", "-openings", "../../match/testdata/xot-sample.txt",
		"-n", "3", "-random", "1", "-concurrency", "2", "-no-progress", "-ggf", ggf, "-clock", "1m")
	if code != 0 {
		t.Fatalf("match: code %d, stderr %s", code, errOut)
	}
	for _, want := range []string{"8 games (4 openings x 2 colours), concurrency 2, clock 1m0s + 0s", "in 8 games", "Elo", "thinking time per move: A mean", "least clock left"} {
		if !strings.Contains(out, want) {
			t.Errorf("match output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(ggf)
	if n := strings.Count(string(data), "\n"); err != nil || n != 8 {
		t.Fatalf("%d games written (%v), want 8", n, err)
	}
}

func TestMatchErrors(t *testing.T) {
	for _, args := range [][]string{
		{"match", "-a", "depth=0"},
		{"match", "-b", "colour=blue"},
		{"match", "-openings", "testdata/does-not-exist.txt"},
		{"match", "-concurrency", "0"},
		{"match", "-a-clock", "-1s", "-random", "1"},
		{"match", "extra"},
	} {
		if code, _, errOut := runCmd(t, "", args...); code != 2 || errOut == "" {
			t.Errorf("%v: code %d, stderr %q; want a usage error", args, code, errOut)
		}
	}
	// An external engine that does not start stops the match with an error.
	if code, _, errOut := runCmd(t, "", "match", "-b-nboard", "exit 0", "-random", "1", "-no-progress"); code != 1 || errOut == "" {
		t.Errorf("-b-nboard with a dead engine: code %d, stderr %q", code, errOut)
	}
}

// An external engine that never answers fails the match after the handshake timeout with a
// clear error; one that dies in every game ends those games by error: they are listed apart,
// not scored, and the command exits non-zero.
func TestMatchEngineFailures(t *testing.T) {
	code, _, errOut := runCmd(t, "", "match", "-b-nboard", "cat", "-handshake-timeout", "300ms", "-random", "1", "-no-progress")
	if code != 1 || !strings.Contains(errOut, "did not answer") || !strings.Contains(errOut, "300ms") {
		t.Errorf("-b-nboard cat: code %d, stderr %q; want a handshake error", code, errOut)
	}
	// Answers pings, exits with status 3 when asked for a move.
	dies := `sh -c 'while read -r l; do case "$l" in ping*) echo "pong ${l#ping }";; go) exit 3;; esac; done'`
	code, out, errOut := runCmd(t, "", "match", "-a", "depth=1", "-b-nboard", dies, "-random", "1", "-no-progress")
	if code != 1 || !strings.Contains(out+errOut, "engine B exited (status 3) during game 1") || !strings.Contains(out, "in 0 games") ||
		!strings.Contains(out, "2 games ended by an engine error") {
		t.Errorf("an engine dying in every game: code %d\n%s\n%s", code, out, errOut)
	}
	// More failures than restarts: the match stops.
	code, _, errOut = runCmd(t, "", "match", "-a", "depth=1", "-b-nboard", dies, "-random", "4", "-no-progress")
	if code != 1 || !strings.Contains(errOut, "restarted 3 times") {
		t.Errorf("an engine dying more often than it may be restarted: code %d\n%s", code, errOut)
	}
}
