package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// bench wires its flags to package search's bench (its signature, table, loss and move
// quality are tested there) and prints a line a run.
func TestBenchCommand(t *testing.T) {
	code, out, errOut := runCmd(t, "", "bench", "-depth", "2", "-positions", "3", "-tt", "1", "-each", "-loss", "-table")
	if code != 0 || !strings.HasPrefix(out, "bench: 3 positions, depth 2, eval pattern, tables 1 MiB") || strings.Count(out, " empties ") != 3*8 ||
		strings.Count(out, " vs full\n") != 7 || !strings.Contains(out, "\nreference: every move at full width, depth 2") {
		t.Fatalf("bench: code %d, stderr %q\n%s", code, errOut, out)
	}
	dir := t.TempDir()
	obf, prof := filepath.Join(dir, "p.obf"), filepath.Join(dir, "cpu.prof")
	if err := os.WriteFile(obf, []byte(ffo1+"---------------------------OX------XO--------------------------- X\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// -file: the 14-empties position has no room for depth 16 and is left out.
	code, out, errOut = runCmd(t, "", "bench", "-depth", "16", "-tt", "1", "-file", obf, "-sel", "5", "-cpuprofile", prof)
	if code != 0 || !strings.Contains(out, "bench: 1 positions, depth 16") {
		t.Fatalf("bench -file: code %d out %s err %s", code, out, errOut)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Fatalf("bench -cpuprofile wrote no profile: %v", err)
	}
	code, out, errOut = runCmd(t, "", "bench", "-file", obf, "-n", "1", "-movetime", "20ms", "-sel", "5", "-tt", "1")
	if code != 0 || !strings.Contains(out, "move quality: 1 positions, 20ms a move, selectivity 5: mean loss ") {
		t.Fatalf("bench -movetime: code %d out %s err %s", code, out, errOut)
	}
	bad := filepath.Join(dir, "bad.obf")
	os.WriteFile(bad, []byte("XXO garbage\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-depth", "0"}, "depth 1-30"},
		{[]string{"-positions", "13"}, "positions 1-12"},
		{[]string{"-n", "0"}, "-n 0"},
		{[]string{"-sel", "9"}, "selectivity 9"},
		{[]string{"extra"}, "unexpected argument"},
		{[]string{"-movetime", "1ms"}, "-movetime needs"},
		{[]string{"-file", bad}, "line 1"},
		{[]string{"-movetime", "1ms", "-file", bad}, "line 1"},
		{[]string{"-file", filepath.Join(dir, "missing.obf")}, "missing.obf"},
		{[]string{"-eval", "nonsense"}, "nonsense"},
		{[]string{"-cpuprofile", filepath.Join(dir, "no", "p"), "-depth", "1", "-positions", "1"}, "p"},
	} {
		if code, _, errOut := runCmd(t, "", append([]string{"bench"}, c.args...)...); code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: code %d, stderr %q; want a usage error naming %q", c.args, code, errOut, c.want)
		}
	}
}

// analyze wires its flags to the engine's Analyze and prints the moves best first; a bad
// transcript is a usage error before any search.
func TestAnalyzeCommand(t *testing.T) {
	code, out, errOut := runCmd(t, "", "analyze", "-depth", "4", "-n", "2", "-tt", "1", "-progress", "f5d6c3")
	if code != 0 || !strings.Contains(out, "depth 4") || !strings.Contains(out, " 1  ") || !strings.Contains(out, " bound ") {
		t.Fatalf("analyze: code %d out %s err %s", code, out, errOut)
	}
	code, out, _ = runCmd(t, "", "analyze", "-position", ffo1[:66], "-depth", "30", "-n", "1", "-tt", "1")
	if code != 0 || !regexp.MustCompile(`(?m)^ 1  g8 +\+18\.00  exact`).MatchString(out) {
		t.Errorf("analyze of a solvable position: code %d\n%s", code, out)
	}
	for _, args := range [][]string{
		{"analyze", "-tt", "1", "f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1f3f6e7f7g5e2d1g4h3g6h5f8g3h4e8c7d7"},
		{"analyze", "f5", "d6"},
		{"analyze", "-sel", "9", "f5"},
		{"analyze", "-eval", "nonsense", "f5"},
	} {
		if code, out, _ := runCmd(t, "", args...); code != 2 || out != "" {
			t.Errorf("%v: code %d out %q; want a usage error, no search", args, code, out)
		}
	}
}
