package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

var ggfMove = regexp.MustCompile(`\]([BW])\[([A-Za-z0-9]+)`)

// replayGGF plays a written game's moves from the start and returns black's final score and
// the result property.
func replayGGF(t *testing.T, line string) (int, int) {
	t.Helper()
	b := board.Start()
	for _, m := range ggfMove.FindAllStringSubmatch(line, -1) {
		if m[1] == "B" != b.BlackToMove {
			t.Fatalf("move %s by the wrong colour in %s", m[2], line)
		}
		if strings.EqualFold(m[2], "PA") {
			if !b.MustPass() {
				t.Fatalf("pass with moves available in %s", line)
			}
			b.Pass()
			continue
		}
		sq, err := board.ParseSquare(strings.ToLower(m[2]))
		if err != nil || !b.IsLegal(sq) {
			t.Fatalf("illegal move %s in %s", m[2], line)
		}
		b.Make(sq)
	}
	re := regexp.MustCompile(`RE\[([+-]?\d+)\.000\]`).FindStringSubmatch(line)
	if re == nil {
		t.Fatalf("no result in %s", line)
	}
	r, _ := strconv.Atoi(re[1])
	if !b.GameOver() {
		return r, r // a forfeit: the board is not finished
	}
	return b.BlackScore(), r
}

func TestMatchCommand(t *testing.T) {
	dir := t.TempDir()
	ggf := filepath.Join(dir, "games.ggf")
	code, out, errOut := runCmd(t, "", "match", "-a", "depth=2,end=10", "-b", "depth=1,eval=mobility,pvs=off", "-openings", "testdata/xot-sample.txt",
		"-n", "3", "-random", "1", "-concurrency", "2", "-no-progress", "-ggf", ggf)
	if code != 0 {
		t.Fatalf("match: code %d, stderr %s", code, errOut)
	}
	if !strings.Contains(out, "in 8 games") || !strings.Contains(out, "Elo") || !strings.Contains(out, "thinking time per move: A mean") {
		t.Fatalf("match output: %s", out)
	}
	f, err := os.Open(ggf)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		got, want := replayGGF(t, sc.Text())
		if got != want {
			t.Errorf("game %d: replayed score %d, recorded %d", n, got, want)
		}
	}
	if n != 8 {
		t.Fatalf("%d games written, want 8", n)
	}
}

func TestMatchErrors(t *testing.T) {
	for _, args := range [][]string{
		{"match", "-a", "depth=0"},
		{"match", "-a", "depth"},
		{"match", "-b", "colour=blue"},
		{"match", "-a", "sel=9"},
		{"match", "-a", "end=0"},
		{"match", "-a", "handover=31"},
		{"match", "-b", "probable=-1"},
		{"match", "-a", "leafsolve=21"},
		{"match", "-a", "wld=0"},
		{"match", "-a", "wldsel=6"},
		{"match", "-a", "wldsel=x"},
		{"match", "-openings", "testdata/does-not-exist.txt"},
		{"match", "-concurrency", "0"},
	} {
		if code, _, errOut := runCmd(t, "", args...); code != 2 || errOut == "" {
			t.Errorf("%v: code %d, stderr %q; want a usage error", args, code, errOut)
		}
	}
}

// The test binary doubles as a fake NBoard engine for the match client: it answers pings and
// plays the first legal move (or, in "illegal" mode, always a1).
func TestMain(m *testing.M) {
	if mode := os.Getenv("OTHELLO_FAKE_NBOARD"); mode != "" {
		fakeNBoard(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func fakeNBoard(mode string) {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	b := board.Start()
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "ping "):
			fmt.Printf("pong %s\n", strings.TrimPrefix(line, "ping "))
		case strings.HasPrefix(line, "set game "):
			b = board.Start()
			for _, mv := range ggfMove.FindAllStringSubmatch(line, -1) {
				if strings.EqualFold(mv[2], "PA") {
					b.Pass()
					continue
				}
				sq, _ := board.ParseSquare(strings.ToLower(mv[2]))
				b.Make(sq)
			}
		case line == "go":
			mv := "a1"
			if mode != "illegal" {
				mv = board.FirstSquare(b.LegalMoves()).String()
			}
			fmt.Printf("status thinking\n=== %s/0.00/0.01\n", strings.ToUpper(mv))
		case line == "quit":
			return
		}
	}
}

func TestMatchNBoardEngine(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	for _, mode := range []string{"first", "illegal"} {
		cmdline := fmt.Sprintf("OTHELLO_FAKE_NBOARD=%s %q", mode, exe)
		dir := t.TempDir()
		ggf := filepath.Join(dir, "games.ggf")
		code, out, errOut := runCmd(t, "", "-q", "match", "-a", "depth=1", "-b-nboard", cmdline, "-b-depth", "3", "-random", "2", "-no-progress", "-ggf", ggf)
		if code != 0 {
			t.Fatalf("%s: code %d, stderr %s", mode, code, errOut)
		}
		if !strings.Contains(out, "in 4 games") {
			t.Fatalf("%s: output %s", mode, out)
		}
		if mode == "illegal" && !strings.Contains(out, "A 0, B 4") {
			t.Fatalf("illegal-move engine not forfeited: %s", out)
		}
		data, _ := os.ReadFile(ggf)
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			got, want := replayGGF(t, line)
			if got != want {
				t.Errorf("%s: replayed %d, recorded %d", mode, got, want)
			}
		}
	}
}

func TestAnalyzeAndBenchCommands(t *testing.T) {
	code, out, errOut := runCmd(t, "", "analyze", "-depth", "4", "-n", "2", "-tt", "1", "f5d6c3")
	if code != 0 || !strings.Contains(out, "depth 4") || !strings.Contains(out, " 1  ") {
		t.Fatalf("analyze: code %d out %s err %s", code, out, errOut)
	}
	code, out, _ = runCmd(t, "", "analyze", "-tt", "1", "f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1f3f6e7f7g5e2d1g4h3g6h5f8g3h4e8c7d7")
	if code != 2 || out != "" {
		// that transcript has an illegal move: a clear error, no search
		t.Fatalf("analyze of a bad transcript: code %d out %q", code, out)
	}
	sig := func() string {
		code, out, errOut := runCmd(t, "", "bench", "-depth", "4", "-positions", "3", "-tt", "1")
		if code != 0 {
			t.Fatalf("bench: code %d err %s", code, errOut)
		}
		m := regexp.MustCompile(`nodes +(\d+)`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("bench output %s", out)
		}
		return m[1]
	}
	if a, b := sig(), sig(); a != b {
		t.Fatalf("bench signature not reproducible: %s vs %s", a, b)
	}

	// Bench on the user's positions: the 4-empties one is skipped (no room for depth 4), the
	// count says how many were searched, and a profile is written on request.
	dir := t.TempDir()
	file := filepath.Join(dir, "pos.obf")
	text := "% comment\n" +
		"---------------------------OX------XO--------------------------- X; anything\n" +
		"--------------------------XXX------XO--------------------------- O\n" +
		"XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOO---- X\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(dir, "cpu.prof")
	code, out, errOut = runCmd(t, "", "bench", "-depth", "4", "-tt", "1", "-file", file, "-cpuprofile", prof)
	if code != 0 || !strings.Contains(out, "bench: 2 positions, depth 4") {
		t.Fatalf("bench -file: code %d out %s err %s", code, out, errOut)
	}
	if st, err := os.Stat(prof); err != nil || st.Size() == 0 {
		t.Fatalf("bench -cpuprofile wrote no profile: %v", err)
	}
	if err := os.WriteFile(file, []byte("XXO garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCmd(t, "", "bench", "-depth", "4", "-tt", "1", "-file", file)
	if code != 2 || !strings.Contains(errOut, "line 1") {
		t.Fatalf("bench -file on a bad file: code %d out %s err %s", code, out, errOut)
	}
}

func FuzzReadOpenings(f *testing.F) {
	f.Add("f5d6c3\n# comment\n\nf5f6e6f4\n")
	f.Add("f5d6zz")
	f.Add("f5f5")
	f.Fuzz(func(t *testing.T, text string) {
		opens, err := readOpenings(strings.NewReader(text), 0, 0)
		if err != nil {
			return
		}
		for _, o := range opens {
			b := board.Start()
			for _, m := range o {
				if !b.Play(m) {
					t.Fatalf("opening %v has an illegal move", o)
				}
			}
		}
	})
}

// bench -movetime measures move quality against a file of exact move scores.
func TestBenchMoveQuality(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "q.obf")
	if err := os.WriteFile(file, []byte(ffo1), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCmd(t, "", "bench", "-file", file, "-movetime", "20ms", "-sel", "5", "-tt", "1")
	if code != 0 || !strings.Contains(out, "move quality: 1 positions, 20ms a move, selectivity 5: mean loss ") {
		t.Fatalf("bench -movetime: code %d out %s err %s", code, out, errOut)
	}
	// Only a bad move scored: the engine's choice has no score in the file.
	partial := strings.SplitN(ffo1, ";", 2)[0] + "; G2:-24;\n"
	if err := os.WriteFile(file, []byte(partial), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut = runCmd(t, "", "bench", "-file", file, "-movetime", "20ms", "-tt", "1"); code != 2 || !strings.Contains(errOut, "no score for the chosen move") {
		t.Fatalf("partial scores: code %d err %s", code, errOut)
	}
	if code, _, _ = runCmd(t, "", "bench", "-movetime", "20ms"); code != 2 {
		t.Fatalf("-movetime without -file: code %d, want 2", code)
	}
}

func TestParseEngineSpecSwitches(t *testing.T) {
	for _, c := range []struct {
		name string
		off  func(search.Config) bool // whether the config has the switch off
	}{
		{"wldrefine", func(c search.Config) bool { return c.NoWLDRefine }},
		{"solverhint", func(c search.Config) bool { return c.NoSolverHint }},
	} {
		sp, err := parseEngineSpec("depth=8," + c.name + "=off")
		if err != nil || !c.off(sp.cfg) {
			t.Fatalf("%s=off: %+v, %v", c.name, sp.cfg, err)
		}
		if sp, err := parseEngineSpec("depth=8," + c.name + "=on"); err != nil || c.off(sp.cfg) {
			t.Fatalf("%s=on: %+v, %v", c.name, sp.cfg, err)
		}
		if _, err := parseEngineSpec("depth=8," + c.name + "=maybe"); err == nil {
			t.Fatalf("%s=maybe: no error", c.name)
		}
	}
}

// screen=W sets the Multi-ProbCut screen's width, screen=off turns it off, and anything else is
// refused.
func TestParseEngineSpecScreen(t *testing.T) {
	for text, want := range map[string]float64{"screen=0.7": 0.7, "screen=off": -1, "sel=5": 0} {
		if sp, err := parseEngineSpec("depth=8," + text); err != nil || sp.cfg.MPCScreen != want {
			t.Fatalf("%s: screen %v (want %v), %v", text, sp.cfg.MPCScreen, want, err)
		}
	}
	for _, bad := range []string{"screen=0", "screen=-2", "screen=wide", "screen=NaN", "screen=1e9"} {
		if _, err := parseEngineSpec("depth=8," + bad); err == nil {
			t.Fatalf("%s: no error", bad)
		}
	}
}

func FuzzParseEngineSpec(f *testing.F) {
	f.Add("depth=8,sel=2,eval=mobility,time=200ms,mpc=off")
	f.Add("depth=,=,,")
	f.Add("time=25ms,sel=5,handover=-1,probable=4")
	f.Add("depth=4,leafsolve=-1")
	f.Add("depth=10,sel=5,screen=0.5")
	f.Add("depth=12,end=18,wld=22,wldsel=3")
	f.Fuzz(func(t *testing.T, text string) {
		parseEngineSpec(text)
	})
}

// A clock for one side only: A plays on a clock, the external engine by its depth, and
// nobody loses on time for a clock it does not have.
func TestMatchOneSidedClock(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	cmdline := fmt.Sprintf("OTHELLO_FAKE_NBOARD=first %q", exe)
	code, out, errOut := runCmd(t, "", "-q", "match", "-a", "sel=2", "-a-clock", "5s", "-b-nboard", cmdline, "-b-depth", "2",
		"-random", "2", "-no-progress")
	if code != 0 {
		t.Fatalf("code %d, stderr %s", code, errOut)
	}
	for _, want := range []string{"clock A 5s, B 0s", "A 0, B 0;", "least clock left at the end of a game: A ", "B no clock"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code, _, _ := runCmd(t, "", "match", "-a-clock", "-1s", "-random", "1"); code != 2 {
		t.Errorf("negative clock: code %d, want 2", code)
	}
}
