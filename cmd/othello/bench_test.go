package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// bench wires its flags to package search's bench (tested there) and prints a line a run;
// match_test.go has its signature, -file, -cpuprofile and -movetime.
func TestBenchCommand(t *testing.T) {
	code, out, errOut := runCmd(t, "", "bench", "-depth", "2", "-positions", "3", "-tt", "1", "-each", "-loss", "-table")
	if code != 0 || !strings.HasPrefix(out, "bench: 3 positions, depth 2, eval pattern, tables 1 MiB") ||
		len(regexp.MustCompile(`(?m)^ +\d+ +\d+ empties `).FindAllString(out, -1)) != 3*8 ||
		len(regexp.MustCompile(`(?m) loss \d+\.\d{3} discs/move, \d+ worse`).FindAllString(out, -1)) != 8 ||
		strings.Count(out, " vs full\n") != 7 || !strings.Contains(out, "\nreference: every move at full width, depth 2") {
		t.Fatalf("bench: code %d, stderr %q\n%s", code, errOut, out)
	}
	obf := filepath.Join(t.TempDir(), "p.obf")
	if err := os.WriteFile(obf, []byte(ffo1[:67]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]string{
		{"bench", "-depth", "0"},
		{"bench", "-positions", "13"},
		{"bench", "-n", "0"},
		{"bench", "-sel", "9"},
		{"bench", "extra"},
		{"bench", "-movetime", "1ms"},
		{"bench", "-movetime", "1ms", "-file", obf},
		{"bench", "-file", filepath.Join(t.TempDir(), "missing.obf")},
		{"bench", "-eval", "nonsense"},
	} {
		if code, _, errOut := runCmd(t, "", bad...); code != 2 || errOut == "" {
			t.Errorf("%v: code %d, stderr %q; want a usage error", bad, code, errOut)
		}
	}
}
