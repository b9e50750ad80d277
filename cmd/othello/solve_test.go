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

// solve's flags reach endgame.RunProblems (tested there with its table): the exit status
// says whether the scores agree with the file (3 when not), and bad options and files are
// usage errors.
func TestSolveCommand(t *testing.T) {
	dir := t.TempDir()
	all, prof := filepath.Join(dir, "all.obf"), filepath.Join(dir, "cpu.prof")
	second := "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+0;\n"
	missing := filepath.Join(dir, "no", "such", "dir", "x")
	for _, c := range []struct {
		text string
		args []string
		code int
		want string
	}{
		{ffo1, []string{"--hash", "8", "--cpuprofile", prof, "--all-moves", all}, 0, "0 wrong"},
		{ffo1, []string{"--wld", "--hash", "8"}, 0, " win "},
		{ffo1, []string{"--sel", "5", "--hash", "8"}, 0, "probable (73% cuts) exact"},
		{ffo1 + second, []string{"--threads", "2", "--jobs", "2", "--hash", "8", "--only", "2"}, 0, "2 thread(s) per position, 2 at once"},
		{strings.Replace(ffo1, "G8:+18", "G8:+20", 1), []string{"--hash", "8"}, 3, "WRONG"},
		{strings.Replace(ffo1, "H1:+12", "H1:+14", 1), []string{"--hash", "8", "--all-moves", all}, 3, "WRONG h1 +12 (file +14)"},
		{"garbage line\n", nil, 2, "line 1"},
		{"\n\n", nil, 2, "no positions"},
		{ffo1, []string{"--threads", "0"}, 2, "--threads 0"},
		{ffo1, []string{"--jobs", "0"}, 2, "--jobs 0"},
		{ffo1, []string{"--only", "5"}, 2, "outside the file's positions"},
		{ffo1, []string{"--sel", "9"}, 2, "--sel 9"},
		{ffo1, []string{"--sel", "3", "--eval", "mobility"}, 2, "pattern evaluation"},
		{ffo1, []string{"--wld", "--all-moves", all}, 2, "not with --wld"},
		{ffo1, []string{"--all-moves", missing}, 2, missing},
		{ffo1, []string{"--cpuprofile", missing}, 2, missing},
	} {
		code, out, errOut := runSolve(t, c.text, c.args...)
		if code != c.code || !strings.Contains(out+errOut, c.want) || strings.Contains(out, "NaN") {
			t.Errorf("%v: exit %d, want %d and %q\n%s\n%s", c.args, code, c.code, c.want, out, errOut)
		}
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Errorf("--cpuprofile wrote no profile: %v", err)
	}
	const want = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; A2:+6; H7:+6; A3:+4; B1:-4; A4:-22; G2:-24;\n"
	if data, err := os.ReadFile(all); err != nil || string(data) != want {
		t.Errorf("--all-moves wrote %q, want %q: %v", data, want, err)
	}
}

// Every command that searches takes -threads; a count outside 1-256 is a usage error.
func TestThreadsFlags(t *testing.T) {
	obf := ffo1[:66]
	for _, args := range [][]string{
		{"analyze", "-position", obf, "-depth", "4", "-threads", "0"},
		{"bench", "-depth", "2", "-positions", "1", "-threads", "300"},
		{"nboard", "-threads", "0"},
		{"gtp", "-threads", "-1"},
		{"book", "build", "--book", "x.book", "--threads", "0", "../../book/testdata/learn.ggf"},
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
