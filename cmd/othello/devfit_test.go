package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/othellogo/othello/search"
	"github.com/othellogo/othello/weights"
)

// devfit wires game files, references, the fit, the measurement and the weight-file section
// to package search (tested there); bench and match take the option.
func TestDevfitCommand(t *testing.T) {
	dir := t.TempDir()
	refs := filepath.Join(dir, "refs.txt")
	code, out, errOut := runCmd(t, "", "-q", "devfit", "refs", "-out", refs, "-depth", "3", "-n", "6", "-empties", "26-36", "-concurrency", "2", "testdata/WTH_1977.wtb")
	if code != 0 || !strings.Contains(out, "devfit refs: 6 positions (26-36 empties), every move at full width depth 3") {
		t.Fatalf("refs: code %d, stderr %q\n%s", code, errOut, out)
	}
	f, err := os.Open(refs)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := search.ReadDevRefs(f)
	f.Close()
	if err != nil || len(rs) != 6 {
		t.Fatalf("refs file: %d, %v", len(rs), err)
	}

	cost := filepath.Join(dir, "dev.txt")
	code, out, errOut = runCmd(t, "", "devfit", "fit", "-refs", refs, "-range", "0:4", "-budgets", "2000,3000", "-sel", "2", "-pop", "4", "-gens", "1", "-out", cost)
	if code != 0 || !strings.Contains(out, "devfit fit: 4 positions, level 2\nplain search, 2000 nodes: loss ") || !strings.Contains(out, "\nplain search, 3000 nodes: loss ") ||
		len(regexp.MustCompile(`(?m)^generation +\d+ +\d+ evaluations +best loss \d+\.\d{3} +cost( \d\.\d\d){7}$`).FindAllString(out, -1)) != 2 {
		t.Fatalf("fit: code %d, stderr %q\n%s", code, errOut, out)
	}
	data, err := os.ReadFile(cost)
	if err != nil || !strings.Contains(string(data), "\ncost ") {
		t.Fatalf("cost file %q, %v", data, err)
	}

	code, out, errOut = runCmd(t, "", "devfit", "measure", "-refs", refs, "-range", "4:6", "-budgets", "3000", "-depths", "2,4", "-cost", cost)
	if code != 0 || !strings.Contains(out, "devfit measure: 2 positions, level 5") ||
		len(regexp.MustCompile(`(?m)^(3000 nodes|depth 2|depth 4) +\d+\.\d{3}\+-\d+\.\d{3} .* [+-]\d+\.\d{3}\+-\d+\.\d{3}  x\d+\.\d\d$`).FindAllString(out, -1)) != 3 {
		t.Fatalf("measure: code %d, stderr %q\n%s", code, errOut, out)
	}

	w := filepath.Join(dir, "w.gtw")
	if err := os.WriteFile(w, weights.Embedded(), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCmd(t, "", "devfit", "store", "-from", cost, "-store", w); code != 0 {
		t.Fatalf("store: code %d, stderr %q", code, errOut)
	}
	wf, err := weights.ReadFile(w)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := wf.Section(search.DevSection); !ok || string(got) != string(data) {
		t.Fatalf("stored section %q", got)
	}

	code, out, errOut = runCmd(t, "", "bench", "-depth", "6", "-positions", "2", "-tt", "1", "-sel", "3", "-depth-by", "deviation", "-dev-cost", cost, "-eval", w)
	if code != 0 || !strings.Contains(out, "as given") {
		t.Fatalf("bench -depth-by deviation: code %d, stderr %q\n%s", code, errOut, out)
	}
	code, out, errOut = runCmd(t, "", "match", "-a", "depth=6,sel=2,dev=on", "-b", "depth=6,sel=2,dev=off", "-random", "1", "-no-progress")
	if code != 0 || !strings.Contains(out, "2 games") {
		t.Fatalf("match dev=on: code %d, stderr %q\n%s", code, errOut, out)
	}
	if code, _, errOut := runCmd(t, "", "match", "-a", "dev=maybe", "-random", "1", "-no-progress"); code != 2 || !strings.Contains(errOut, "dev=maybe") {
		t.Errorf("match dev=maybe: code %d, stderr %q", code, errOut)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("cost 1 1 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"devfit"},
		{"devfit", "frob"},
		{"devfit", "refs", "-out", filepath.Join(dir, "r.txt")},
		{"devfit", "refs", "-out", filepath.Join(dir, "r.txt"), "-empties", "3-9", "testdata/WTH_1977.wtb"},
		{"devfit", "refs", "-out", filepath.Join(dir, "r.txt"), "testdata/missing.wtb"},
		{"devfit", "fit"},
		{"devfit", "fit", "-refs", refs, "-range", "3:99"},
		{"devfit", "fit", "-refs", refs, "-lo", "3", "-hi", "2"},
		{"devfit", "fit", "-refs", refs, "-budgets", ""},
		{"devfit", "fit", "-refs", bad},
		{"devfit", "measure", "-refs", refs, "-budgets", "x"},
		{"devfit", "measure", "-refs", refs, "-cost", bad},
		{"devfit", "store", "-from", bad, "-store", w},
		{"bench", "-depth-by", "magic"},
		{"bench", "-dev-cost", cost},
		{"bench", "-depth-by", "deviation", "-dev-cost", bad},
	} {
		if code, _, errOut := runCmd(t, "", args...); code != 2 || errOut == "" {
			t.Errorf("%v: code %d, stderr %q; want a usage error", args, code, errOut)
		}
	}
}
