package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// --all-moves writes every move's score (endgame.RunProblems checks them) and prints a
// disagreeing move.
func TestSolveCommandAllMoves(t *testing.T) {
	out := filepath.Join(t.TempDir(), "all.obf")
	code, text, errs := runSolve(t, ffo1, "--hash", "8", "--all-moves", out)
	if code != 0 || !strings.Contains(text, "0 wrong") {
		t.Fatalf("--all-moves: exit %d\n%s\n%s", code, text, errs)
	}
	const want = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; A2:+6; H7:+6; A3:+4; B1:-4; A4:-22; G2:-24;\n"
	if data, err := os.ReadFile(out); err != nil || string(data) != want {
		t.Fatalf("written file %q, want %q: %v", data, want, err)
	}
	wrong := strings.Replace(ffo1, "H1:+12", "H1:+14", 1)
	if code, text, _ = runSolve(t, wrong, "--hash", "8", "--all-moves", out); code != 3 || !strings.Contains(text, "WRONG h1 +12 (file +14)") {
		t.Fatalf("a wrong move score: exit %d\n%s", code, text)
	}
	if code, _, _ = runSolve(t, ffo1, "--wld", "--all-moves", out); code != 2 {
		t.Fatalf("--all-moves with --wld: exit %d, want 2", code)
	}
	if code, _, _ = runSolve(t, ffo1, "--all-moves", filepath.Join(t.TempDir(), "no", "such", "dir", "x.obf")); code != 2 {
		t.Fatalf("--all-moves into a missing directory: exit %d, want 2", code)
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
	code, out, errs := runSolve(t, text, "--threads", "2", "--jobs", "2", "--hash", "8")
	if code != 0 || !strings.Contains(out, "2 thread(s) per position, 2 at once") || !strings.Contains(out, "total: 2 positions") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, _ = runSolve(t, ffo1, "--jobs", "0"); code != 2 {
		t.Fatalf("--jobs 0: exit %d", code)
	}
}

// Every command that searches takes -threads; a count outside 1-256 is a usage error.
func TestThreadsFlags(t *testing.T) {
	obf := "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
	for _, args := range [][]string{
		{"analyze", "-position", obf, "-depth", "4", "-threads", "0"},
		{"bench", "-depth", "2", "-positions", "1", "-threads", "300"},
		{"nboard", "-threads", "0"},
		{"gtp", "-threads", "-1"},
		{"solve", "-threads", "0", "x.obf"},
	} {
		if code, _, errs := runCmd(t, "", args...); code != 2 || !strings.Contains(errs, "thread") {
			t.Errorf("%v: exit %d, %s", args, code, errs)
		}
	}
	code, out, errs := runCmd(t, "", "analyze", "-position", obf, "-depth", "6", "-threads", "3")
	if code != 0 || !strings.Contains(out, "g8") {
		t.Fatalf("analyze with 3 threads: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = runCmd(t, "", "bench", "-depth", "6", "-positions", "2", "-threads", "2")
	if code != 0 || !strings.Contains(out, "2 threads") {
		t.Fatalf("bench with 2 threads: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, errs = runCmd(t, "f5\nquit\n", "console", "-threads", "2", "-depth", "4"); code != 0 {
		t.Fatalf("console with 2 threads: exit %d\n%s\n%s", code, out, errs)
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
