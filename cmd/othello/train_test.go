package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
)

// A tiny training run through the command: weights, CSV log and plot are written, the
// weights load back, and othello eval reads them.
func TestTrainAndEvalCommands(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "tiny.gtw")
	games := filepath.Join("..", "..", "train", "testdata", "wth_2023_200.wtb")
	code, stdout, stderr := runCmd(t, "", "-q", "train", "-o", out, "-epochs", "3", "-exact", "6", "-empties-bias",
		"-validation", games, filepath.Join("..", "..", "train", "testdata", "playok_60.wtb"), filepath.Join("..", "..", "train", "testdata", "selfplay_30.txt"))
	if code != 0 {
		t.Fatalf("train: code %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	for _, f := range []string{out, filepath.Join(dir, "tiny.csv"), filepath.Join(dir, "tiny.png")} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if !strings.Contains(stdout, "24 empties vs WTHOR theoretical score") {
		t.Errorf("train output lacks the validation report:\n%s", stdout)
	}
	code, stdout, stderr = runCmd(t, "", "eval", "-weights", out, "-moves", "f5d6c3")
	if code != 0 || !strings.Contains(stdout, "evaluation") {
		t.Errorf("eval: code %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	code, stdout, _ = runCmd(t, "", "eval", "-weights", out, "-info")
	if code != 0 || !strings.Contains(stdout, "validation on") {
		t.Errorf("eval -info: code %d\n%s", code, stdout)
	}
	code, stdout, _ = runCmd(t, "", "eval", "-games", games)
	if code != 0 || !strings.Contains(stdout, "all ") {
		t.Errorf("eval -games: code %d\n%s", code, stdout)
	}
	labelled := filepath.Join(dir, "labelled.txt")
	if err := os.WriteFile(labelled, []byte("--XXXXO-X-XXXO--XXOXOXXXXXXOXXX-XXXOXX--XXXXOX----XXXO---OOOOOO- O; +13.57\n"+
		"--X-OO----XOOOO-XXOXXOOX-OOXXXOX--OOOXOX--XOOXOX--XXOOO---OOOOOX X; +49.42\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ = runCmd(t, "", "eval", "-weights", out, "-positions", labelled)
	if code != 0 || !strings.Contains(stdout, "2 labelled positions") || !regexp.MustCompile(`all\s+2\s`).MatchString(stdout) {
		t.Errorf("eval -positions: code %d\n%s", code, stdout)
	}
	if err := os.WriteFile(labelled, []byte("garbage; 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr = runCmd(t, "", "eval", "-positions", labelled); code != 2 || !strings.Contains(stderr, "labelled.txt") {
		t.Errorf("eval -positions on a bad file: code %d, %s", code, stderr)
	}
	// The trained file carries the correction by empties; -fit-bias adds one to a file.
	if e, err := eval.Load(out); err != nil {
		t.Fatal(err)
	} else if b := e.EmptiesBias(); b == ([61]float64{}) {
		t.Error("trained weights without the correction by empties")
	}
	fitted := filepath.Join(dir, "fitted.gtw")
	code, stdout, _ = runCmd(t, "", "eval", "-games", games, "-exact", "0", "-fit-bias", fitted)
	if code != 0 || !strings.Contains(stdout, "wrote "+fitted) {
		t.Errorf("eval -fit-bias: code %d\n%s", code, stdout)
	} else if e, err := eval.Load(fitted); err != nil {
		t.Error(err)
	} else if b := e.EmptiesBias(); b == ([61]float64{}) || b[20] == 0 {
		t.Errorf("fitted correction %v", b)
	}
	if code, _, stderr = runCmd(t, "", "eval", "-fit-bias", fitted); code != 2 || !strings.Contains(stderr, "-games") {
		t.Errorf("-fit-bias without -games: code %d, %s", code, stderr)
	}
	code, _, stderr = runCmd(t, "", "eval", "-weights", filepath.Join(dir, "absent.gtw"))
	if code == 0 || !strings.Contains(stderr, "absent.gtw") {
		t.Errorf("eval with a missing weight file: code %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCmd(t, "", "train", "-o", out)
	if code != 2 {
		t.Errorf("train without data: code %d, stderr %q", code, stderr)
	}

	// With the mobility features and a cache of the exact labels: the second run reads the
	// cache and fits the same weights.
	cache := filepath.Join(dir, "labels.gtx")
	for run, name := range []string{"mob1.gtw", "mob2.gtw"} {
		code, stdout, stderr = runCmd(t, "", "train", "-o", filepath.Join(dir, name), "-epochs", "3", "-exact", "6",
			"-exact-cache", cache, "-mobility", filepath.Join("..", "..", "train", "testdata", "playok_60.wtb"))
		if code != 0 {
			t.Fatalf("train -mobility: code %d\nstdout %s\nstderr %s", code, stdout, stderr)
		}
		if read := strings.Contains(stderr, "read from"); read != (run == 1) {
			t.Errorf("run %d: cache read %v\n%s", run+1, read, stderr)
		}
	}
	var evals [2]*eval.Evaluator
	for i, name := range []string{"mob1.gtw", "mob2.gtw"} {
		e, err := eval.Load(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !e.HasMobility() {
			t.Fatalf("%s has no mobility features", name)
		}
		evals[i] = e
	}
	b := board.Start()
	for _, m := range []string{"f5", "d6", "c3", "d3", "c4"} {
		sq, _ := board.ParseSquare(m)
		b.Make(sq)
		if a, c := evals[0].Eval(&b), evals[1].Eval(&b); a != c {
			t.Fatalf("after %s: %d with solved labels, %d with cached ones", m, a, c)
		}
	}
}

// othello label writes labelled positions that othello train -positions reads; a malformed
// positions file is a usage error naming the line.
func TestLabelAndTrainPositions(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join("..", "..", "train", "testdata", "wth_2023_200.wtb")
	pos := filepath.Join(dir, "pos.txt")
	code, stdout, stderr := runCmd(t, "", "-q", "label", "-o", pos, "-n", "40", "-depth", "2", "-exact", "8", "-tt", "1", games)
	if code != 0 || !strings.Contains(stdout, "wrote 40 positions") {
		t.Fatalf("label: code %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	data, err := os.ReadFile(pos)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n != 40 {
		t.Fatalf("%d lines in the positions file, want 40", n)
	}
	code, stdout, stderr = runCmd(t, "", "train", "-o", filepath.Join(dir, "p.gtw"), "-epochs", "2", "-exact", "0",
		"-positions", pos, "-positions-weight", "2", games)
	if code != 0 || !strings.Contains(stderr, "40 labelled positions") {
		t.Fatalf("train -positions: code %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
	// The summary names the positions without listing them.
	if !strings.Contains(stdout, "labelled positions: 40 from") || strings.Contains(stdout, "Lines:") {
		t.Errorf("train -positions summary:\n%s", stdout)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte(string(data[:66])+"; x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCmd(t, "", "train", "-o", filepath.Join(dir, "q.gtw"), "-positions", bad, games)
	if code != 2 || !strings.Contains(stderr, "line 1") {
		t.Errorf("train with a bad positions file: code %d, stderr %q", code, stderr)
	}
	// Two runs, the second from where the first stopped, make the file of one run.
	first, second := filepath.Join(dir, "first.txt"), filepath.Join(dir, "second.txt")
	if code, _, stderr := runCmd(t, "", "-q", "label", "-o", first, "-n", "15", "-depth", "2", "-exact", "8", "-tt", "1", games); code != 0 {
		t.Fatalf("label -n 15: code %d, %s", code, stderr)
	}
	if code, _, stderr := runCmd(t, "", "-q", "label", "-o", second, "-from", "15", "-n", "25", "-depth", "2", "-exact", "8", "-tt", "1", games); code != 0 {
		t.Fatalf("label -from 15: code %d, %s", code, stderr)
	}
	a, _ := os.ReadFile(first)
	b, _ := os.ReadFile(second)
	if string(a)+string(b) != string(data) {
		t.Errorf("-n 15 then -from 15 -n 25 differ from one run of 40")
	}
	if code, _, _ := runCmd(t, "", "label", "-o", pos, "-from", "-1", games); code != 2 {
		t.Errorf("label -from -1: code %d", code)
	}
	code, _, stderr = runCmd(t, "", "label", "-o", pos, games+".absent")
	if code != 2 {
		t.Errorf("label with a missing game file: code %d, stderr %q", code, stderr)
	}
}

// mpcfit -positions fits on the positions of a file; a malformed file or both sources at once
// are usage errors.
func TestMpcfitPositions(t *testing.T) {
	dir := t.TempDir()
	pos := filepath.Join(dir, "pos.txt")
	games := filepath.Join("..", "..", "train", "testdata", "wth_2023_200.wtb")
	if code, _, stderr := runCmd(t, "", "-q", "label", "-o", pos, "-n", "40", "-depth", "1", "-min-empties", "20", "-max-empties", "40", "-tt", "1", games); code != 0 {
		t.Fatalf("label: code %d, %s", code, stderr)
	}
	out := filepath.Join(dir, "fit.txt")
	code, _, stderr := runCmd(t, "", "-q", "mpcfit", "-positions", pos, "-n", "40", "-depth", "4", "-min-samples", "5", "-out", out)
	if code != 0 {
		t.Fatalf("mpcfit -positions: code %d, %s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(data), "eval pattern") || !regexp.MustCompile(`(?m)^[234] 4 2 `).Match(data) {
		t.Fatalf("fit %q, %v: want the height-4 regressions of stages 2-4", data, err)
	}
	bad := filepath.Join(dir, "bad.txt")
	if err := os.WriteFile(bad, []byte("# x\nXXO X\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCmd(t, "", "mpcfit", "-positions", bad); code != 2 || !strings.Contains(stderr, "line 2") {
		t.Errorf("bad positions file: code %d, stderr %q", code, stderr)
	}
	if code, _, _ := runCmd(t, "", "mpcfit", "-positions", pos, "-openings", pos); code != 2 {
		t.Errorf("both sources: code %d, want 2", code)
	}
}
