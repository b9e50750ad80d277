package main

import (
	"os"
	"path/filepath"
	"regexp"
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

func TestAnalyzeAndBenchCommands(t *testing.T) {
	code, out, errOut := runCmd(t, "", "analyze", "-depth", "4", "-n", "2", "-tt", "1", "f5d6c3")
	if code != 0 || !strings.Contains(out, "depth 4") || !strings.Contains(out, " 1  ") {
		t.Fatalf("analyze: code %d out %s err %s", code, out, errOut)
	}
	code, out, _ = runCmd(t, "", "analyze", "-tt", "1", "f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1f3f6e7f7g5e2d1g4h3g6h5f8g3h4e8c7d7")
	if code != 2 || out != "" {
		// that transcript has an illegal move: a clear error, no search
		t.Fatalf("analyze of a bad transcript: code %d out %q", code, out)
	}
	sig := func() string {
		code, out, errOut := runCmd(t, "", "bench", "-depth", "4", "-positions", "3", "-tt", "1")
		if code != 0 {
			t.Fatalf("bench: code %d err %s", code, errOut)
		}
		m := regexp.MustCompile(`nodes +(\d+)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("bench output %s", out)
		}
		return m[1]
	}
	if a, b := sig(), sig(); a != b {
		t.Fatalf("bench signature not reproducible: %s vs %s", a, b)
	}

	// Bench on the user's positions: the 4-empties one is skipped (no room for depth 4), the
	// count says how many were searched, and a profile is written on request.
	dir := t.TempDir()
	file := filepath.Join(dir, "pos.obf")
	text := "% comment\n" +
		"---------------------------OX------XO--------------------------- X; anything\n" +
		"--------------------------XXX------XO--------------------------- O\n" +
		"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOO---- X\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(dir, "cpu.prof")
	code, out, errOut = runCmd(t, "", "bench", "-depth", "4", "-tt", "1", "-file", file, "-cpuprofile", prof)
	if code != 0 || !strings.Contains(out, "bench: 2 positions, depth 4") {
		t.Fatalf("bench -file: code %d out %s err %s", code, out, errOut)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Fatalf("bench -cpuprofile wrote no profile: %v", err)
	}
	if err := os.WriteFile(file, []byte("XXO garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCmd(t, "", "bench", "-depth", "4", "-tt", "1", "-file", file)
	if code != 2 || !strings.Contains(errOut, "line 1") {
		t.Fatalf("bench -file on a bad file: code %d out %s err %s", code, out, errOut)
	}
}

// bench -movetime measures move quality against a file of exact move scores.
func TestBenchMoveQuality(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "q.obf")
	if err := os.WriteFile(file, []byte(ffo1), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "", "bench", "-file", file, "-movetime", "20ms", "-sel", "5", "-tt", "1")
	if code != 0 || !strings.Contains(out, "move quality: 1 positions, 20ms a move, selectivity 5: mean loss ") {
		t.Fatalf("bench -movetime: code %d out %s err %s", code, out, errOut)
	}
	// Only a bad move scored: the engine's choice has no score in the file.
	partial := strings.SplitN(ffo1, ";", 2)[0] + "; G2:-24;\n"
	if err := os.WriteFile(file, []byte(partial), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut = runCmd(t, "", "bench", "-file", file, "-movetime", "20ms", "-tt", "1"); code != 2 || !strings.Contains(errOut, "no score for the chosen move") {
		t.Fatalf("partial scores: code %d err %s", code, errOut)
	}
	if code, _, _ = runCmd(t, "", "bench", "-movetime", "20ms"); code != 2 {
		t.Fatalf("-movetime without -file: code %d, want 2", code)
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
