package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/othellogo/othello/eval"
)

var trainData = filepath.Join("..", "..", "train", "testdata")

// A tiny training run through the command, then othello eval on what it wrote: the flags reach
// package train (the run, the relabelling cache and the files are tested there).
func TestTrainAndEvalCommands(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "tiny.gtw")
	games := filepath.Join(trainData, "wth_2023_200.wtb")
	code, stdout, stderr := runCmd(t, "", "train", "-o", out, "-epochs", "1", "-exact", "6", "-exact-cache", filepath.Join(dir, "labels.gtx"), "-empties-bias", "-mobility",
		"-validation", games, filepath.Join(trainData, "selfplay_30.txt"))
	if code != 0 || !strings.Contains(stdout, "24 empties vs WTHOR theoretical score") || !strings.Contains(stdout, "wrote "+out) {
		t.Fatalf("train: code %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	for _, f := range []string{filepath.Join(dir, "tiny.csv"), filepath.Join(dir, "tiny.png"), filepath.Join(dir, "labels.gtx")} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if e, err := eval.Load(out); err != nil || !e.HasMobility() || e.EmptiesBias() == ([61]float64{}) {
		t.Fatalf("trained weights: %v; want mobility features and the correction by empties", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-weights", out, "-moves", "f5d6c3"}, "evaluation"},
		{[]string{"-weights", out, "-info"}, "validation on"},
		{[]string{"-games", games, "-exact", "0", "-fit-bias", filepath.Join(dir, "fitted.gtw")}, "wrote " + filepath.Join(dir, "fitted.gtw")},
	} {
		if code, stdout, stderr := runCmd(t, "", append([]string{"eval"}, c.args...)...); code != 0 || !strings.Contains(stdout, c.want) {
			t.Errorf("eval %v: code %d\nstdout %s\nstderr %s", c.args, code, stdout, stderr)
		}
	}
	for _, c := range [][]string{
		{"eval", "-fit-bias", out},
		{"eval", "-position", "XXO garbage"},
		{"eval", "extra"},
		{"train", "-o", out},
		{"train", "-potmobility", games},
	} {
		if code, _, _ := runCmd(t, "", c...); code != 2 {
			t.Errorf("%v: code %d, want 2", c, code)
		}
	}
	if code, _, stderr := runCmd(t, "", "eval", "-weights", filepath.Join(dir, "absent.gtw")); code != 1 || !strings.Contains(stderr, "absent.gtw") {
		t.Errorf("eval -weights of a missing file: code %d, stderr %q", code, stderr)
	}
}

// othello label writes labelled positions that othello train -positions, eval -positions and
// mpcfit -positions read; a malformed positions file is a usage error naming the file.
func TestLabelAndPositions(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(trainData, "wth_2023_200.wtb")
	pos := filepath.Join(dir, "pos.txt")
	code, stdout, stderr := runCmd(t, "", "-q", "label", "-o", pos, "-n", "40", "-depth", "1", "-min-empties", "20", "-max-empties", "40", "-tt", "1", games)
	if code != 0 || !strings.Contains(stdout, "wrote 40 positions") {
		t.Fatalf("label: code %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	code, stdout, stderr = runCmd(t, "", "train", "-o", filepath.Join(dir, "p.gtw"), "-epochs", "1", "-exact", "0", "-positions", pos, "-positions-weight", "2", games)
	if code != 0 || !strings.Contains(stderr, "40 labelled positions") || !strings.Contains(stdout, "labelled positions: 40 from") {
		t.Fatalf("train -positions: code %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	if code, stdout, _ = runCmd(t, "", "eval", "-positions", pos); code != 0 || !regexp.MustCompile(`all\s+40\s`).MatchString(stdout) {
		t.Errorf("eval -positions: code %d\n%s", code, stdout)
	}
	// -out replaces the file by a rename: a hard link to the old one keeps the old text.
	fit, oldFit := filepath.Join(dir, "fit.txt"), filepath.Join(dir, "old-fit.txt")
	os.WriteFile(fit, []byte("old"), 0o444)
	os.Link(fit, oldFit)
	if code, _, stderr := runCmd(t, "", "-q", "mpcfit", "-positions", pos, "-n", "40", "-depth", "4", "-min-samples", "5", "-out", fit); code != 0 {
		t.Fatalf("mpcfit -positions: code %d, %s", code, stderr)
	}
	if data, err := os.ReadFile(fit); err != nil || !regexp.MustCompile(`(?m)^[234] 4 2 `).Match(data) {
		t.Fatalf("fit %q, %v: want the height-4 regressions of stages 2-4", data, err)
	}
	if data, _ := os.ReadFile(oldFit); string(data) != "old" {
		t.Errorf("mpcfit -out rewrote the old file in place: %q", data)
	}
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(bad, []byte("garbage; 1\n"), 0o644)
	for _, c := range [][]string{
		{"train", "-o", filepath.Join(dir, "q.gtw"), "-positions", bad, games},
		{"eval", "-positions", bad},
		{"mpcfit", "-positions", bad},
		{"mpcfit", "-positions", pos, "-openings", pos},
		{"label", "-o", pos, "-from", "-1", games},
		{"label", "-o", pos, games + ".absent"},
	} {
		if code, _, stderr := runCmd(t, "", c...); code != 2 || (strings.Contains(strings.Join(c, " "), bad) && !strings.Contains(stderr, "bad.txt")) {
			t.Errorf("%v: code %d, stderr %q; want a usage error", c, code, stderr)
		}
	}
}

// Bad training settings and output paths that cannot be written are refused before any work,
// with a message in words.
func TestTrainRefusesBadSettingsUpFront(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(trainData, "selfplay_30.txt")
	out := filepath.Join(dir, "w.gtw")
	missing := filepath.Join(dir, "no", "such", "dir")
	pos := filepath.Join(dir, "pos.txt")
	os.WriteFile(pos, []byte("---------------------------OX------XO--------------------------- X; 0\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "-o", out, "-rate", "-5", games}, "rate -5"},
		{[]string{"train", "-o", out, "-exact", "40", games}, "exact 40"},
		{[]string{"train", "-o", filepath.Join(missing, "w.gtw"), games}, filepath.Join(missing, "w.gtw")},
		{[]string{"train", "-o", dir, games}, dir},
		{[]string{"train", "-o", out, "-plot", filepath.Join(missing, "p.png"), games}, "p.png"},
		{[]string{"train", "-o", out, "-exact-cache", filepath.Join(missing, "c.gtx"), games}, "c.gtx"},
		{[]string{"eval", "-games", games, "-fit-bias", filepath.Join(missing, "f.gtw")}, "f.gtw"},
		{[]string{"label", "-o", filepath.Join(missing, "p.txt"), games}, "p.txt"},
		{[]string{"mpcfit", "-positions", pos, "-store", filepath.Join(missing, "s.gtw")}, "s.gtw"},
		{[]string{"mpcfit", "-positions", pos, "-out", filepath.Join(missing, "m.txt")}, "m.txt"},
	} {
		code, _, stderr := runCmd(t, "", c.args...)
		if code != 2 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "{Epochs") || strings.Contains(stderr, "games read") {
			t.Errorf("%v: code %d, stderr %q; want a usage error naming %q before any work", c.args, code, stderr, c.want)
		}
	}
}
