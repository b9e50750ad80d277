package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/othellogo/othello/weights"
)

// devfit wires game files, references, the fit, the measurement and the weight-file section
// to package search (tested there, devfitopts_test.go); bench and match take the option.
func TestDevfitCommand(t *testing.T) {
	dir := t.TempDir()
	refs, cost, w := filepath.Join(dir, "refs.txt"), filepath.Join(dir, "dev.txt"), filepath.Join(dir, "w.gtw")
	if err := os.WriteFile(w, weights.Embedded(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		want string
		args []string
	}{
		{"devfit refs: 6 positions (26-36 empties), every move at full width depth 3", []string{"-q", "devfit", "refs", "-out", refs, "-depth", "3", "-n", "6", "-empties", "26-36", "-concurrency", "2", "testdata/WTH_1977.wtb"}},
		{"devfit fit: 4 positions, level 2", []string{"devfit", "fit", "-refs", refs, "-range", "0:4", "-budgets", "2000", "-sel", "2", "-pop", "4", "-gens", "1", "-out", cost}},
		{"devfit measure: 2 positions, level 5", []string{"devfit", "measure", "-refs", refs, "-range", "4:6", "-budgets", "3000", "-depths", "2", "-cost", cost}},
		{"", []string{"devfit", "store", "-from", cost, "-store", w}},
		{"as given", []string{"bench", "-depth", "6", "-positions", "2", "-tt", "1", "-sel", "3", "-depth-by", "deviation", "-dev-cost", cost, "-eval", w}},
		{"2 games", []string{"match", "-a", "depth=6,sel=2,dev=on", "-b", "depth=6,sel=2,dev=off", "-random", "1", "-no-progress"}},
	} {
		if code, out, errOut := runCmd(t, "", c.args...); code != 0 || !strings.Contains(out, c.want) {
			t.Fatalf("%v: code %d, stderr %q\n%s", c.args, code, errOut, out)
		}
	}
	for _, args := range [][]string{
		{"devfit"},
		{"devfit", "frob"},
		{"devfit", "refs", "-out", filepath.Join(dir, "r.txt")},
		{"devfit", "refs", "-out", filepath.Join(dir, "r.txt"), "testdata/missing.wtb"},
		{"devfit", "fit", "-refs", refs, "-range", "3:99"},
		{"devfit", "fit", "-refs", refs, "-sel", "9"},
		{"devfit", "measure", "-refs", refs, "x"},
		{"devfit", "store", "-from", refs, "-store", w},
		{"bench", "-depth-by", "magic"},
		{"match", "-a", "dev=maybe", "-random", "1", "-no-progress"},
	} {
		if code, _, errOut := runCmd(t, "", args...); code != 2 || errOut == "" {
			t.Errorf("%v: code %d, stderr %q; want a usage error", args, code, errOut)
		}
	}
}
