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

// An external engine that never answers, or dies in every game, makes the command exit 1
// (package match tests the timeout, the restarts and the games left out of the score).
func TestMatchEngineFailures(t *testing.T) {
	dies := `sh -c 'while read -r l; do case "$l" in ping*) echo "pong ${l#ping }";; go) exit 3;; esac; done'`
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-b-nboard", "cat", "-handshake-timeout", "300ms"}, "did not answer"},
		{[]string{"-a", "depth=1", "-b-nboard", dies}, "2 games ended by an engine error"},
		{[]string{"-a", "depth=1", "-b-nboard", dies, "-random", "4"}, "restarted 3 times"},
	} {
		code, out, errOut := runCmd(t, "", append([]string{"match", "-random", "1", "-no-progress"}, c.args...)...)
		if code != 1 || !strings.Contains(out+errOut, c.want) {
			t.Errorf("%v: code %d, want 1 and %q\n%s\n%s", c.args, code, c.want, out, errOut)
		}
	}
}
