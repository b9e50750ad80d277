package search

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/othellogo/othello/weights"
)

// The devfit runs: references written to a file, the fit printing every generation and
// writing the table, the measurement's table, and the table stored in a weight file.
func TestDevfitRuns(t *testing.T) {
	dir := t.TempDir()
	ro := DevRefsOptions{Out: filepath.Join(dir, "refs.txt"), Empties: "26-36", Depth: 3, N: 6, Concurrency: 2, Seed: 1, Files: []string{"games"}}
	if err := ro.Check(); err != nil {
		t.Fatal(err)
	}
	ps, err := ro.Positions(randomGames(3, 10))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := ro.Run(context.Background(), &out, Config{TTMiB: 1, SolverMiB: 1}, ps, nil); err != nil || !strings.Contains(out.String(), "devfit refs: 6 positions (26-36 empties), every move at full width depth 3") {
		t.Fatalf("refs: %v\n%s", err, out.String())
	}
	refs, err := ReadDevRefsFile(ro.Out, "")
	if err != nil || len(refs) != 6 {
		t.Fatalf("refs file: %d, %v", len(refs), err)
	}

	cfg := Config{TTMiB: 1, SolverMiB: 1}
	fo := DevFitOptions{Refs: ro.Out, Budgets: "2000,3000", Selectivity: 2, Population: 4, Generations: 1, Concurrency: 1, Lo: 0.5, Hi: 2.5, EvalName: "mobility", Out: filepath.Join(dir, "dev.txt")}
	out.Reset()
	if err := fo.Check(0); err != nil {
		t.Fatal(err)
	}
	if err := fo.Run(&out, cfg, refs[:4]); err != nil || !strings.Contains(out.String(), "devfit fit: 4 positions, level 2\nplain search, 2000 nodes: loss ") || !strings.Contains(out.String(), "\nplain search, 3000 nodes: loss ") ||
		len(regexp.MustCompile(`(?m)^generation +\d+ +\d+ evaluations +best loss \d+\.\d{3} +cost( \d\.\d\d){7}$`).FindAllString(out.String(), -1)) != 2 {
		t.Fatalf("fit: %v\n%s", err, out.String())
	}
	data, err := ReadDevCostText(fo.Out)
	if err != nil || !strings.Contains(string(data), "\ncost ") {
		t.Fatalf("cost file %q, %v", data, err)
	}

	mo := DevMeasureOptions{Refs: ro.Out, Budgets: "3000", Depths: "2,4", Selectivity: 5, Concurrency: 1}
	if err := mo.Check(0); err != nil {
		t.Fatal(err)
	}
	dev := cfg
	if err := dev.SetDepthBy("deviation", fo.Out); err != nil || dev.DevCost == nil {
		t.Fatalf("SetDepthBy: %v", err)
	}
	out.Reset()
	mo.Run(&out, cfg, dev, refs[4:])
	if !strings.Contains(out.String(), "devfit measure: 2 positions, level 5") ||
		len(regexp.MustCompile(`(?m)^(3000 nodes|depth 2|depth 4) +\d+\.\d{3}\+-\d+\.\d{3} .* [+-]\d+\.\d{3}\+-\d+\.\d{3}  x\d+\.\d\d$`).FindAllString(out.String(), -1)) != 3 {
		t.Fatalf("measure:\n%s", out.String())
	}

	w := filepath.Join(dir, "w.gtw")
	if err := os.WriteFile(w, weights.Embedded(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := StoreDevCost(w, data); err != nil {
		t.Fatal(err)
	}
	wf, err := weights.ReadFile(w)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := wf.Section(DevSection); !ok || string(got) != string(data) {
		t.Fatalf("stored section %q", got)
	}
}

// The checks refuse what the commands cannot run with, usage errors (missing or extra
// arguments, options out of range) apart.
func TestDevfitChecks(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("cost 1 1 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	refs := DevRefsOptions{Out: "r.txt", Empties: "24-44", Depth: 12, N: 300, Concurrency: 1, Files: []string{"g.wtb"}}
	fit := DevFitOptions{Refs: "r.txt", Budgets: "10", Population: 16, Concurrency: 1, Lo: 0.5, Hi: 2.5, Selectivity: 5}
	measure := DevMeasureOptions{Refs: "r.txt", Budgets: "10", Depths: "4", Concurrency: 1}
	for _, c := range []struct {
		name  string
		set   func()
		check func() error
		usage bool
	}{
		{"refs no files", func() { refs.Files = nil }, func() error { return refs.Check() }, true},
		{"refs empties", func() { refs.Empties = "3-9" }, func() error { return refs.Check() }, false},
		{"fit no refs", func() { fit.Refs = "" }, func() error { return fit.Check(0) }, true},
		{"fit args", nil, func() error { return fit.Check(1) }, true},
		{"fit lo hi", func() { fit.Lo, fit.Hi = 3, 2 }, func() error { return fit.Check(0) }, true},
		{"fit budgets", func() { fit.Budgets = "" }, func() error { return fit.Check(0) }, true},
		{"fit sel", func() { fit.Selectivity = 9 }, func() error { return fit.Check(0) }, false},
		{"measure budgets", func() { measure.Budgets = "x" }, func() error { return measure.Check(0) }, false},
		{"measure depths", func() { measure.Depths = "99" }, func() error { return measure.Check(0) }, false},
		{"measure args", nil, func() error { return measure.Check(2) }, true},
		{"store", nil, func() error { return CheckDevStore("", "w", 0) }, true},
		{"cost text", nil, func() error { _, err := ReadDevCostText(bad); return err }, false},
		{"depth-by", nil, func() error { return (&Config{}).SetDepthBy("magic", "") }, false},
		{"cost without deviation", nil, func() error { return (&Config{}).SetDepthBy("plies", bad) }, false},
		{"bad cost", nil, func() error { return (&Config{}).SetDepthBy("deviation", bad) }, false},
	} {
		r0, f0, m0 := refs, fit, measure
		if c.set != nil {
			c.set()
		}
		err := c.check()
		if err == nil || errors.As(err, &UsageError{}) != c.usage {
			t.Errorf("%s: %v, want an error (usage %v)", c.name, err, c.usage)
		}
		refs, fit, measure = r0, f0, m0
	}
	if refs.Check() != nil || fit.Check(0) != nil || measure.Check(0) != nil || CheckDevStore("a", "b", 0) != nil {
		t.Error("valid options refused")
	}
}
