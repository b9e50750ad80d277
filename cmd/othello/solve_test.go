package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/othellogo/othello/endgame"
)

func runSolve(t *testing.T, text string, args ...string) (int, string, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.obf")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run(append(append([]string{"solve"}, args...), path), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

const ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;\n"

func TestSolveCommand(t *testing.T) {
	code, out, errs := runSolve(t, ffo1, "--hash", "8")
	if code != 0 || !strings.Contains(out, "g8") || !strings.Contains(out, "+18") || !strings.Contains(out, "0 wrong") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	code, out, _ = runSolve(t, ffo1, "--wld", "--hash", "8")
	if code != 0 || !strings.Contains(out, "win") {
		t.Fatalf("--wld: exit %d\n%s", code, out)
	}
	wrong := strings.Replace(ffo1, "G8:+18", "G8:+20", 1)
	if code, out, _ = runSolve(t, wrong, "--hash", "8"); code != 3 || !strings.Contains(out, "WRONG") {
		t.Fatalf("wrong score: exit %d\n%s", code, out)
	}
	if code, _, errs = runSolve(t, "garbage line\n"); code != 2 || !strings.Contains(errs, "line 1") {
		t.Fatalf("bad file: exit %d, %s", code, errs)
	}
	if code, _, _ = runSolve(t, ffo1, "--threads", "0"); code != 2 {
		t.Fatalf("--threads 0: exit %d", code)
	}
	if code, _, _ = runSolve(t, ffo1, "--only", "5"); code != 2 {
		t.Fatalf("--only out of range: exit %d", code)
	}
}

func TestSolveCommandProfile(t *testing.T) {
	prof := filepath.Join(t.TempDir(), "cpu.prof")
	code, out, errs := runSolve(t, ffo1, "--hash", "8", "--cpuprofile", prof)
	if code != 0 || !strings.Contains(out, "0 wrong") {
		t.Fatalf("--cpuprofile: exit %d\n%s\n%s", code, out, errs)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Fatalf("--cpuprofile wrote no profile: %v", err)
	}
	if code, _, _ := runSolve(t, ffo1, "--cpuprofile", filepath.Join(t.TempDir(), "no", "such", "dir", "p")); code != 2 {
		t.Fatalf("--cpuprofile into a missing directory: exit %d, want 2", code)
	}
}

func TestSolveCommandAllMoves(t *testing.T) {
	out := filepath.Join(t.TempDir(), "all.obf")
	code, text, errs := runSolve(t, ffo1, "--hash", "8", "--all-moves", out)
	if code != 0 || !strings.Contains(text, "0 wrong") {
		t.Fatalf("--all-moves: exit %d\n%s\n%s", code, text, errs)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	// Every move solved again must give the FFO file's scores, best first.
	written, err := endgame.ParseProblems(strings.NewReader(string(data)))
	if err != nil || len(written) != 1 || len(written[0].Scores) != 8 {
		t.Fatalf("written file %q: %v", data, err)
	}
	want, _ := endgame.ParseProblems(strings.NewReader(ffo1))
	for i, m := range written[0].Scores {
		if i > 0 && m.Score > written[0].Scores[i-1].Score {
			t.Fatalf("not best first: %q", data)
		}
		found := false
		for _, k := range want[0].Scores {
			found = found || (k.Move == m.Move && k.Score == m.Score)
		}
		if !found {
			t.Fatalf("move %v %+d is not in the FFO file", m.Move, m.Score)
		}
	}
	wrong := strings.Replace(ffo1, "H1:+12", "H1:+14", 1)
	if code, text, _ = runSolve(t, wrong, "--hash", "8", "--all-moves", out); code != 3 || !strings.Contains(text, "WRONG h1 +12 (file +14)") {
		t.Fatalf("a wrong move score: exit %d\n%s", code, text)
	}
	if code, _, _ = runSolve(t, ffo1, "--wld", "--all-moves", out); code != 2 {
		t.Fatalf("--all-moves with --wld: exit %d, want 2", code)
	}
}

func TestSolveCommandProbable(t *testing.T) {
	code, out, errs := runSolve(t, ffo1, "--sel", "5", "--hash", "8")
	if code != 0 || !strings.Contains(out, "probable (73% cuts) exact") || !strings.Contains(out, "total: 1 positions") {
		t.Fatalf("--sel 5: exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs = runSolve(t, ffo1, "--sel", "9"); code != 2 || !strings.Contains(errs, "--sel 9") {
		t.Fatalf("--sel 9: exit %d, %s", code, errs)
	}
	if code, _, errs = runSolve(t, ffo1, "--sel", "3", "--eval", "mobility"); code != 2 || !strings.Contains(errs, "pattern evaluation") {
		t.Fatalf("--sel with the mobility evaluation: exit %d, %s", code, errs)
	}
}

func TestSolveCommandThreads(t *testing.T) {
	text := ffo1 + "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+0;\n"
	code, out, errs := runSolve(t, text, "--threads", "2", "--hash", "8")
	if code != 0 || !strings.Contains(out, "total: 2 positions") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if i, j := strings.Index(out, "+18"), strings.Index(out, "+10"); i < 0 || j < 0 || i > j {
		t.Fatalf("results out of order:\n%s", out)
	}
}

func TestFirstNumber(t *testing.T) {
	for in, want := range map[string]int{"a/b/fforum-40-59.obf": 40, "x.obf": 1, "fforum-1-19.obf": 1, "fforum-60-79.obf": 60, "a-b-c.obf": 1} {
		if got := firstNumber(in); got != want {
			t.Errorf("firstNumber(%q) = %d, want %d", in, got, want)
		}
	}
}

// A file without positions is a usage error, not a run that averages nothing into NaN.
func TestSolveNoPositions(t *testing.T) {
	for _, text := range []string{"", "\n\n"} {
		code, out, errs := runSolve(t, text, "--hash", "8")
		if code != 2 || !strings.Contains(errs, "no positions") || strings.Contains(out, "NaN") {
			t.Errorf("file %q: exit %d, stdout %q, stderr %q; want exit 2 and \"no positions\"", text, code, out, errs)
		}
	}
}
