package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/bigmem"
)

// runCmd runs the binary's entry point in-process and returns exit code, stdout and stderr.
func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

// cmdCase is a command line with its input, and the exit status and the output it gives:
// want is a regular expression matched against stdout followed by stderr.
type cmdCase struct {
	stdin string
	code  int
	want  string
	args  []string
}

// cl is the case of a command line with no input, clIn with this input.
func cl(code int, want string, args ...string) cmdCase {
	return cmdCase{code: code, want: want, args: args}
}
func clIn(stdin string, code int, want string, args ...string) cmdCase {
	return cmdCase{stdin: stdin, code: code, want: want, args: args}
}

// runCases runs the cases in order in a directory holding the files they name; upFront
// cases are usage errors found before any work: nothing on stdout (but the list of commands
// of a bare 'othello book'), nothing logged.
func runCases(t *testing.T, upFront bool, cases []cmdCase) {
	_, _, memory := bigmem.Available()
	for _, c := range cases {
		if !memory && strings.Contains(c.want, "memory needed") {
			continue // the system does not say how much memory is available
		}
		code, out, errOut := runCmd(t, c.stdin, c.args...)
		early := !upFront || (out == "" || len(c.args) == 1) && !strings.Contains(errOut, " INF ")
		if code != c.code || !regexp.MustCompile(c.want).MatchString(out+errOut) || !early {
			t.Errorf("%q: exit %d, want %d and %q; stdout:\n%s\nstderr:\n%s", c.args, code, c.code, c.want, out, errOut)
		}
	}
}

// oldGame is a GGF record already in the file that match -ggf appends to.
const oldGame = "(;GM[Othello]PC[earlier]PB[a]PW[b]RE[?]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6];)"

const ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;\n"

// testFiles makes the files the cases name in a new working directory, and returns the
// packages' test data: WTHOR games, game transcripts, a GGF game and XOT openings.
func testFiles(t *testing.T) (wtb, txt, ggf, xot string) {
	abs := func(p string) string { a, _ := filepath.Abs(filepath.Join("..", "..", p)); return a }
	wtb, txt, ggf, xot = abs("train/testdata/wth_2023_200.wtb"), abs("book/testdata/book-games.txt"), abs("book/testdata/learn.ggf"), abs("match/testdata/xot-sample.txt")
	selfplay := abs("train/testdata/selfplay_30.txt")
	t.Chdir(t.TempDir())
	os.Symlink(selfplay, "selfplay.txt")
	os.WriteFile("fit.txt", []byte("old"), 0o444)
	os.Link("fit.txt", "old-fit.txt")
	for name, text := range map[string]string{
		"p.obf": ffo1, "start.obf": startOBF, "bad.obf": "XXO garbage\n", "empty.obf": "\n\n", "badpos.txt": "garbage; 1\n", "b.book": "not touched",
		"p2.obf":    ffo1 + "---------------------------OX------XO--------------------------- X\n",
		"two.obf":   ffo1 + "-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+0;\n",
		"wrong.obf": strings.Replace(ffo1, "G8:+18", "G8:+20", 1),
		"pos.txt":   "---------------------------OX------XO--------------------------- X; 0\n",
		"bad.toml":  "[perft]\nmovez = 1\n", "perft.toml": "[perft]\nmoves = \"f5d6c3\"\n", "gtp.toml": "[gtp]\nname = \"Configured\"\ntt = 1\n",
		"corrupt.book": "GOTHBOOK but not really a book",
		"openings.txt": "f5d6c3\n", "games.ggf": oldGame + "\n",
		"long.txt": strings.Repeat("f5", 40000) + "\n",
	} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return wtb, txt, ggf, xot
}

// Usage errors are found before any work, with exit status 2 and a message naming what is
// wrong: the arguments, the output files, tables beyond the memory, and one case of each
// package's checks (tested in full there: search TestChecks, endgame TestProblemOptionsCheck,
// match TestSettingsOptions, book TestGameWorkOptions and TestRunnerErrors, train
// TestOptionChecks and TestConfigValidate, protocol TestNewEngine).
func TestUsageErrors(t *testing.T) {
	wtb, txt, ggf, _ := testFiles(t)
	runCases(t, true, []cmdCase{
		cl(2, "unknown command", "frobnicate"),
		cl(2, `\[perft\] has unknown option "movez"`, "-config", "bad.toml", "perft", "1"),
		cl(2, "h3 is not legal", "analyze", "-tt", "1", "f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1f3f6e7f7g5e2d1g4h3g6h5f8g3h4e8c7d7"),
		cl(2, "want at most one TRANSCRIPT", "analyze", "f5", "d6"),
		cl(2, "want at most one TRANSCRIPT", "analyze", "-moves", "f5", "d6"),
		cl(2, "want depth 0-60, selectivity 0-5", "analyze", "-sel", "9", "f5"),
		cl(2, `eval "nonsense"`, "analyze", "-eval", "nonsense", "f5"),
		cl(2, "-threads 0: want 1 to 256", "analyze", "-threads", "0", "f5"),
		cl(2, "-engine \"minimax\": want alphabeta or uct", "play", "-engine", "minimax"),
		cl(2, "-uct \"playouts=x\"", "nboard", "-engine", "uct", "-uct", "playouts=x"),
		cl(2, "-tt 1000000000: .* TiB of memory needed, but only .* available", "analyze", "-tt", "1000000000", "-depth", "1", "f5"),
		cl(2, "want depth 1-30 and positions 1-12", "bench", "-positions", "13"),
		cl(2, `unexpected argument "extra"`, "bench", "extra"),
		cl(2, "-movetime needs", "bench", "-movetime", "1ms"),
		cl(2, "bad.obf line 1", "bench", "-file", "bad.obf"),
		cl(2, "bad.obf: line 1", "bench", "-movetime", "1ms", "-file", "bad.obf"),
		cl(2, "missing.obf", "bench", "-file", "missing.obf"),
		cl(2, "nonsense", "bench", "-eval", "nonsense"),
		cl(2, "-cpuprofile no/p: cannot write", "bench", "-cpuprofile", "no/p", "-depth", "1", "-positions", "1"),
		cl(2, "-threads 300", "bench", "-threads", "300"),
		cl(2, "-parallel: parallel mode \"eager\": want ybwc or speculative", "bench", "-parallel", "eager"),
		cl(2, "-tt 1000000000: .* memory needed", "bench", "-tt", "1000000000", "-positions", "1", "-depth", "1"),
		cl(2, "want a book command", "book"),
		cl(2, "unknown book command", "book", "frob"),
		cl(2, "want --book FILE", "book", "build", txt),
		cl(2, "a1 is not legal", "book", "show", "f5a1"),
		cl(2, "want at most one position", "book", "show", "f5", "d6"),
		cl(2, "want depth 1-60", "book", "build", "--book", "x", "--depth", "0", txt),
		cl(2, "1-256 threads", "book", "build", "--book", "x", "--threads", "0", ggf),
		cl(2, "nonsense", "book", "build", "--book", "x", "--eval", "nonsense", txt),
		cl(2, "--moves 0-60", "book", "build", "--book", "x", "--moves", "61", txt),
		cl(2, "want game files and --moves 0-60", "book", "learn", "--book", "x"),
		cl(2, "want at least one text file", "book", "import", "--book", "x"),
		cl(2, "is the book file", "book", "export", "--book", "b.book", "-o", "b.book"),
		cl(2, "is the book file", "book", "export", "--book", "b.book", "-o", "./b.book"),
		cl(2, "--book no/b.book: cannot write", "book", "build", "--book", "no/b.book", "--depth", "1", "--tt", "1", txt),
		cl(2, "--book no/b.book: cannot write", "book", "learn", "--book", "no/b.book", "--depth", "1", "--tt", "1", ggf),
		cl(2, "--book no/b.book: cannot write", "book", "import", "--book", "no/b.book", txt),
		cl(2, "--book .: cannot write there: it is a directory", "book", "build", "--book", ".", "--depth", "1", "--tt", "1", txt),
		cl(2, "-o no/t.txt: cannot write", "book", "export", "-o", "no/t.txt"),
		cl(2, "--tt 1000000000 with --threads 2: .* memory needed", "book", "build", "--book", "b2.book", "--tt", "1000000000", "--threads", "2", ggf),
		cl(2, "--tt 1000000000 with --threads 1: .* memory needed", "book", "learn", "--book", "b2.book", "--tt", "1000000000", ggf),
		cl(2, `player "colour=blue"`, "match", "-b", "colour=blue"),
		cl(2, "counts and times non-negative", "match", "-a-clock", "-1s", "-random", "1"),
		cl(2, `unexpected argument "extra"`, "match", "extra"),
		cl(2, "want at least one GGF file", "phases"),
		cl(2, "want at least one run", "compare"),
		cl(2, "-plies 61: want 0-60", "compare", "-plies", "61", "games.ggf"),
		cl(2, "absent.ggf", "compare", "absent.ggf"),
		cl(2, "-exact 40: want 0-30", "phases", "-exact", "40", "games.ggf"),
		cl(2, "phase bounds \\[20 30\\]: want descending", "phases", "-phases", "20,30", "games.ggf"),
		cl(2, `-at "x": want empties counts`, "phases", "-at", "x", "games.ggf"),
		cl(2, "-errors games.ggf: that is the input file", "phases", "-errors", "games.ggf", "games.ggf"),
		cl(2, "no games in openings.txt", "phases", "openings.txt"),
		cl(2, "absent.ggf", "phases", "absent.ggf"),
		cl(2, "the players' tt= with -concurrency 1000000: .* memory needed", "match", "-a", "tt=4096", "-concurrency", "1000000", "-random", "1"),
		cl(2, "want at least one PATH of games", "label"),
		cl(2, "from >= 0", "label", "-o", "l.txt", "-from", "-1", wtb),
		cl(2, "wtb.absent", "label", "-o", "l.txt", wtb+".absent"),
		cl(2, "-o no/p.txt: cannot write", "label", "-o", "no/p.txt", wtb),
		cl(2, "-tt 1000000000 with -workers 2: .* memory needed", "label", "-tt", "1000000000", "-workers", "2", "-o", "l.txt", wtb),
		cl(2, "badpos.txt line 1", "mpcfit", "-positions", "badpos.txt"),
		cl(2, "want one of -openings FILE and -positions FILE", "mpcfit", "-positions", "pos.txt", "-openings", "pos.txt"),
		cl(2, "depth 2-16", "mpcfit", "-positions", "pos.txt", "-depth", "1"),
		cl(2, "-store no/s.gtw: cannot write", "mpcfit", "-positions", "pos.txt", "-store", "no/s.gtw"),
		cl(2, "-out no/m.txt: cannot write", "mpcfit", "-positions", "pos.txt", "-out", "no/m.txt"),
		cl(2, "-from needs -store", "mpcfit", "-from", "pos.txt"),
		cl(2, "want one DEPTH argument", "perft"),
		cl(2, `depth "x"`, "perft", "x"),
		cl(2, `depth "61"`, "perft", "61"),
		cl(2, `position "garbage"`, "perft", "--position", "garbage", "3"),
		cl(2, "f5 is not legal", "perft", "--moves", "f5f5", "3"),
		cl(2, "want one FILE.obf argument", "solve", "p.obf", "p.obf"),
		cl(2, "bad.obf: line 1", "solve", "bad.obf"),
		cl(2, "no positions", "solve", "empty.obf"),
		cl(2, "--threads 0: want 1 to 256", "solve", "--threads", "0", "p.obf"),
		cl(2, "--sel needs the pattern evaluation", "solve", "p.obf", "--sel", "3", "--eval", "mobility"),
		cl(2, "outside the file's positions", "solve", "--only", "5", "p.obf"),
		cl(2, "position #1: 60 empties: too many to solve exactly .* --force starts it anyway", "solve", "start.obf"),
		cl(2, "not with --wld", "solve", "--wld", "--all-moves", "all.obf", "p.obf"),
		cl(2, "--all-moves no/x: cannot write", "solve", "--all-moves", "no/x", "p.obf"),
		cl(2, "-cpuprofile no/x: cannot write", "solve", "--cpuprofile", "no/x", "p.obf"),
		cl(2, "--all-moves p.obf: that is the input file", "solve", "--all-moves", "p.obf", "p.obf"),
		cl(2, "--all-moves ./p.obf: that is the input file", "solve", "p.obf", "--all-moves", "./p.obf"),
		cl(2, "-cpuprofile p.obf: that is the input file", "solve", "--cpuprofile", "p.obf", "p.obf"),
		cl(2, "-cpuprofile p2.obf: that is the input file", "bench", "-cpuprofile", "p2.obf", "-file", "p2.obf"),
		cl(2, "-ggf openings.txt: that is the input file", "match", "-openings", "openings.txt", "-ggf", "openings.txt", "-no-progress"),
		cl(2, "-hash 65536 with -jobs 256: .* memory needed", "solve", "-hash", "65536", "-jobs", "256", "p.obf"),
		cl(2, "-trees 1000000000: .* memory needed", "treesim", "-trees", "1000000000"),
		cl(2, "want at least one PATH of training games", "train", "-o", "w.gtw"),
		cl(2, "rate -5", "train", "-o", "w.gtw", "-rate", "-5", wtb),
		cl(2, "exact 40", "train", "-o", "w.gtw", "-exact", "40", wtb),
		cl(2, "-o no/w.gtw: cannot write", "train", "-o", "no/w.gtw", wtb),
		cl(2, "-o .: cannot write there: it is a directory", "train", "-o", ".", wtb),
		cl(2, "-plot no/p.png: cannot write", "train", "-o", "w.gtw", "-plot", "no/p.png", wtb),
		cl(2, "-log no/p.csv: cannot write", "train", "-o", "w.gtw", "-log", "no/p.csv", wtb),
		cl(2, "-exact-cache no/c.gtx: cannot write", "train", "-o", "w.gtw", "-exact-cache", "no/c.gtx", wtb),
		cl(2, "-exact-tt 1000000000 with -workers 3: .* memory needed", "train", "-exact-tt", "1000000000", "-workers", "3", "-o", "w.gtw", wtb),
		cl(2, "-fit-bias needs -games", "eval", "-fit-bias", "w.gtw"),
		cl(2, "want at least one opening", "openings", "-n", "0"),
		cl(2, "plies 0", "openings", "-plies", "0"),
		cl(2, "-o p.obf exists \\(-force replaces it\\)", "openings", "-o", "p.obf"),
		cl(2, "-o no/o.txt: cannot write", "openings", "-o", "no/o.txt"),
		cl(2, `position "XXO garbage"`, "eval", "-position", "XXO garbage"),
		cl(2, `unexpected argument "extra"`, "eval", "extra"),
		cl(2, "-fit-bias no/f.gtw: cannot write", "eval", "-games", wtb, "-fit-bias", "no/f.gtw"),
		cl(2, "-interpolate no/i.gtw: cannot write", "eval", "-interpolate", "no/i.gtw"),
		cl(2, "-interpolate writes a file: give it without -games", "eval", "-interpolate", "i.gtw", "-positions", "badpos.txt"),
		cl(2, "badpos.txt: line 1", "eval", "-positions", "badpos.txt"),
		cl(2, `color "green"`, "play", "-color", "green"),
		cl(2, "depth of 1-60", "gtp", "-depth", "61"),
		cl(2, "-level: level 61: want 0-60", "nboard", "-level", "61"),
		cl(2, "long.txt: line 1 is longer than 65536 bytes: not an opening transcript", "match", "-a", "depth=1", "-b", "depth=1", "-openings", "long.txt", "-n", "2"),
		cl(2, "-level: level -1: want 0-60", "analyze", "-level", "-1", "f5"),
		cl(2, "-clock: clock \"5\": want a main time", "play", "-clock", "5"),
		cl(2, "increment", "console", "-clock", "5m/x"),
		cl(2, "flag provided but not defined: -clock", "nboard", "-clock", "5m"),
		cl(2, "no disc in its centre", "analyze", "-position", strings.Repeat("-", 64)+" X"),
		cl(2, "must not be negative", "console", "-time", "-1s"),
		cl(2, "-threads 0", "nboard", "-threads", "0"),
		cl(2, "-parallel: parallel mode", "nboard", "-parallel", "x"),
		cl(2, "nonsense", "gtp", "-eval", "nonsense"),
		cl(2, "book margin", "nboard", "-book-margin", "NaN"),
		cl(2, "book learn depth", "nboard", "-book-learn-depth", "0"),
		clIn("nboard 2\n", 2, "-tt 1000000000: .* memory needed", "nboard", "-tt", "1000000000"),
	})
	if data, _ := os.ReadFile("b.book"); string(data) != "not touched" {
		t.Errorf("the book file changed: %q", data)
	}
	for name, want := range map[string]string{"p.obf": ffo1, "openings.txt": "f5d6c3\n"} {
		if data, _ := os.ReadFile(name); string(data) != want {
			t.Errorf("the input %s changed: %q", name, data)
		}
	}
}

// Runs through the binary: each command's flags reach its package (whose tests check the
// work itself), and the exit status says how the work ended.
func TestRuns(t *testing.T) {
	wtb, txt, ggf, xot := testFiles(t)
	gamesGGF := filepath.Join(filepath.Dir(wtb), "..", "..", "ggf", "testdata", "games.ggf")
	obf := ffo1[:66]
	dies := `sh -c 'while read -r l; do case "$l" in ping*) echo "pong ${l#ping }";; go) exit 3;; esac; done'`
	runCases(t, false, []cmdCase{
		cl(0, "perft", "help"),
		cl(0, "usage: othello"),
		cl(0, `(?s)perft  1              5 leaves.*perft  6 `, "perft", "--moves", "f5d6", "6"),
		cl(0, "empties 57", "-config", "perft.toml", "perft", "1"),
		clIn("name\n", 0, "^= Configured\n\n", "-config", "gtp.toml", "gtp"),
		cl(0, `(?s)depth 4 .* 1  [a-h][1-8] .* bound `, "analyze", "-depth", "4", "-n", "2", "-tt", "1", "-progress", "f5d6c3"),
		cl(0, `(?m)^ 1  g8 +\+18\.00  exact`, "analyze", "-position", obf, "-depth", "30", "-n", "1", "-tt", "1"),
		cl(0, "g8", "analyze", "-position", obf, "-depth", "6", "-threads", "3"),
		cl(0, `^bench: 3 positions, depth 2, eval pattern, tables 1 MiB(?s).*\nreference: every move at full width, depth 2.* vs full\n`, "bench", "-depth", "2", "-positions", "3", "-tt", "1", "-each", "-loss", "-table"),
		cl(0, "bench: 1 positions, depth 16", "bench", "-depth", "16", "-tt", "1", "-file", "p2.obf", "-sel", "5", "-cpuprofile", "bench.prof"),
		cl(0, "move quality: 1 positions, 20ms a move, selectivity 5: mean loss ", "bench", "-file", "p2.obf", "-n", "1", "-movetime", "20ms", "-sel", "5", "-tt", "1"),
		cl(0, `, 2 threads \(ybwc\)`, "bench", "-depth", "6", "-positions", "2", "-threads", "2"),
		cl(0, `2 threads \(speculative\)`, "bench", "-depth", "8", "-positions", "2", "-threads", "2", "-parallel", "speculative"),
		cl(0, "leaves searched", "book", "build", "--book", "t.book", "--moves", "6", "--min-games", "2", "--games", "50", "--depth", "1", "--tt", "1", "--threads", "2", txt),
		cl(0, "positions added", "book", "deviate", "--book", "t.book", "--margin", "1", "--limit", "5", "--depth", "1", "--tt", "1"),
		cl(0, "positions added", "book", "extend", "--book", "t.book", "--moves", "8", "--depth", "1", "--tt", "1"),
		cl(0, "1 games learned", "book", "learn", "--book", "t.book", "--depth", "1", "--tt", "1", ggf),
		cl(0, "changed value", "book", "fix", "--book", "t.book"),
		cl(0, "start position:", "book", "stats", "--book", "t.book"),
		cl(0, "embedded book", "book", "stats"),
		cl(0, "book value", "book", "show", "--book", "t.book", "f5f6e6f4e3c5c4e7"),
		cl(0, "not in the book", "book", "show", "--book", "t.book", "--", "-------------------------OOO-----XXX---------------------------- X"),
		cl(0, "exported", "book", "export", "--book", "t.book", "-o", "t.txt"),
		cl(0, "copy.book: ", "book", "import", "--book", "copy.book", "t.txt"),
		cl(0, "learn", "book", "help"),
		cl(1, "absent.book", "book", "stats", "--book", "absent.book"),
		cl(0, `8 games \(4 openings x 2 colours\), concurrency 2, clock 1m0s \+ 0s(?s).*in 8 games.*Elo.*thinking time per move: A mean.*least clock left`,
			"match", "-a", "depth=2,end=10", "-b", "depth=1,eval=mobility,pvs=off", "-openings", xot, "-n", "3", "-random", "1", "-concurrency", "2", "-no-progress", "-ggf", "games.ggf", "-clock", "1m"),
		cl(0, `(?s)^9 games, positions solved exactly from 14 empties\n\na \(1 games\).*\nA depth=2,end=10 \(8 games\)\n  empties .*\n  18-0 +\d+ +\d+ +\d\.\d{3} .*expected score: 14 empties \d+\.\d% \(8 games\), final`,
			"phases", "-exact", "14", "-at", "14", "-tt", "1", "-workers", "2", "games.ggf"),
		cl(0, `(?s)B depth=1,eval=mobility,pvs=off \(8 games\).*  36-25 +\d+ +\d+ +-?\d\.\d{3} `, "phases", "-exact", "10", "-depth", "2", "-tt", "1", "games.ggf"),
		cl(0, `(?s)A depth=2,end=10 \(8 games\).*\n\d+ result errors written to errs.obf\n`, "phases", "-exact", "14", "-tt", "1", "-errors", "errs.obf", "games.ggf"),
		cl(0, `(?s)^run 1 \(games.ggf\): "A depth=2,end=10", 8 games, \d+-\d+-\d+, score \d+\.\d% \(SE \d+\.\d by opening, 4 openings\).*thinking time a game: .*1 games left out.*\nrun 2 - run 1: \+0\.0 points paired by opening \(SE 0\.0, 4 openings with both colours in both runs\)\n$`,
			"compare", "games.ggf", "games.ggf,"),
		cl(2, `games.ggf: no finished game with a player whose name starts with "C " \(9 games read\)`, "compare", "-player", "C ", "games.ggf"),
		cl(0, `(?s)openings: 4 kept of \d+ searched.*values \(discs, black's view\): mean`, "openings", "-n", "4", "-depth", "2", "-tt", "1", "-eval", "mobility", "-max-abs", "3", "-o", "o.txt"),
		cl(0, `openings: 2 kept`, "openings", "-n", "2", "-depth", "2", "-tt", "1", "-seed", "5", "-o", "o.txt", "-force"),
		cl(0, `4 games \(2 openings x 2 colours\)`, "match", "-a", "depth=1", "-b", "depth=1", "-openings", "o.txt", "-no-progress"),
		cl(1, "exited", "match", "-b-nboard", "exit 0", "-random", "1", "-no-progress"),
		cl(1, "did not answer", "match", "-random", "1", "-no-progress", "-b-nboard", "cat", "-handshake-timeout", "300ms"),
		cl(1, "2 games ended by an engine error", "match", "-random", "1", "-no-progress", "-a", "depth=1", "-b-nboard", dies),
		cl(0, "0 wrong", "solve", "p.obf", "--hash", "8", "--cpuprofile", "solve.prof", "--all-moves", "all.obf"),
		cl(0, " win ", "solve", "p.obf", "--wld", "--hash", "8"),
		cl(0, "pattern ordering, midgame presearch to 6 empties", "solve", "p.obf", "--hash", "8"),
		cl(0, "pattern ordering\n", "solve", "p.obf", "--hash", "8", "--no-presearch"),
		cl(0, `probable \(73% cuts\) exact`, "solve", "p.obf", "--sel", "5", "--hash", "8"),
		cl(0, `2 thread\(s\) per position, 2 at once`, "solve", "two.obf", "--threads", "2", "--jobs", "2", "--hash", "8", "--only", "2"),
		cl(3, "WRONG", "solve", "wrong.obf", "--hash", "8"),
		clIn("nboard 2\nping 1\n", 0, "^set myname GoThello\n(?s).*pong 1", "nboard", "-tt", "1"),
		clIn("1 name\n2 play b f5\n3 genmove w\nquit\n", 0, "^=1 GoThello\n\n=2 \n\n=3 ", "gtp", "-depth", "2", "-tt", "1"),
		clIn("f5\nhint 2\nmoves\nquit\n", 0, "(?s) 2\\. .*f5\n", "console", "-depth", "2", "-tt", "1"),
		clIn("f5\nquit\n", 0, "", "console", "-threads", "2", "-depth", "4"),
		clIn("level\nquit\n", 0, "level 16: depth 16@73%, win/loss/draw from 26 empties, exact from 24\n", "console", "-level", "16", "-tt", "1"),
		clIn("level\nlevel 20\nquit\n", 0, "(?s)level: depth 4, win/loss/draw from 26 empties, exact from 24\n.*level: depth 20, win/loss/draw from 28 empties, exact from 26\n", "console", "-level", "16", "-depth", "4", "-sel", "0", "-tt", "1"),
		clIn("f5\nquit\n", 0, "(?s)clock: black 5:00, white 5:00\n.*GoThello plays .*clock: black [45]:[0-9][0-9], white [45]:[0-9][0-9]\n", "play", "-clock", "5m/2s", "-depth", "2", "-tt", "1"),
		clIn("f5\nmoves\nquit\n", 0, "GoThello plays ", "play", "-depth", "2", "-tt", "1"),
		clIn("moves\nquit\n", 0, "Tester plays ", "play", "-color", "white", "-depth", "1", "-tt", "1", "-name", "Tester"),
		clIn("hint 1\ngo\nquit\n", 0, `(?s) 1\. [a-h][1-8] .* book .*, book\)`, "console", "-depth", "2", "-tt", "1", "-book", "t.book"),
		clIn("go\nquit\n", 0, `plays [a-h][1-8] \(black [^,]*, depth`, "console", "-depth", "2", "-tt", "1", "-book", "t.book", "-no-book"),
		clIn("1 genmove b\nquit\n", 0, "^=1 (?s).*corrupt book", "gtp", "-depth", "2", "-tt", "1", "-book", "corrupt.book"),
		cl(0, "(?s)24 empties vs WTHOR theoretical score.*wrote tiny.gtw", "train", "-o", "tiny.gtw", "-epochs", "1", "-exact", "6", "-exact-cache", "labels.gtx",
			"-empties-bias", "-mobility", "-validation", wtb, "selfplay.txt"),
		cl(0, "evaluation", "eval", "-eval", "tiny.gtw", "-moves", "f5d6c3"),
		cl(0, `validation on \[wth_2023_200.wtb\]`, "eval", "-weights", "tiny.gtw", "-info"),
		cl(0, "wrote fitted.gtw", "eval", "-games", wtb, "-exact", "0", "-fit-bias", "fitted.gtw"),
		cl(0, "wrote itp.gtw; .* othello mpcfit -eval itp.gtw -store itp.gtw", "eval", "-eval", "tiny.gtw", "-interpolate", "itp.gtw"),
		cl(0, `stage 0, evaluation`, "eval", "-eval", "itp.gtw", "-moves", "f5d6c3"),
		cl(2, "-interpolate itp.gtw: that is the input file itp.gtw", "eval", "-eval", "itp.gtw", "-interpolate", "itp.gtw"),
		cl(0, "wrote joint.gtw", "train", "-o", "joint.gtw", "-epochs", "2", "-exact", "0", "-interpolate", "-mobility", wtb),
		cl(0, "Interpolate:true", "eval", "-eval", "joint.gtw", "-info"),
		cl(2, "interpolate with potmobility", "train", "-o", "j2.gtw", "-interpolate", "-mobility", "-potmobility", wtb),
		cl(1, "absent.gtw", "eval", "-weights", "absent.gtw"),
		cl(0, "wrote 40 positions", "-q", "label", "-o", "l.txt", "-n", "40", "-depth", "1", "-min-empties", "20", "-max-empties", "40", "-tt", "1", wtb),
		cl(0, "wrote 10 positions", "-q", "label", "-o", "lg.txt", "-n", "10", "-depth", "1", "-min-empties", "20", "-max-empties", "40", "-tt", "1", gamesGGF),
		cl(0, "(?s)labelled positions: 40 from.*40 labelled positions", "train", "-o", "p.gtw", "-epochs", "1", "-exact", "0", "-positions", "l.txt", "-positions-weight", "2", wtb),
		cl(2, "badpos.txt", "train", "-o", "q.gtw", "-positions", "badpos.txt", wtb),
		cl(2, "random plies 9..8", "selfplay", "-random-min", "9", "-random-max", "8"),
		cl(2, "unexpected argument", "selfplay", "-n", "2", wtb),
		cl(0, "wrote 4 games to sp.txt", "-q", "selfplay", "-n", "4", "-depth", "1", "-exact", "6", "-tt", "1", "-o", "sp.txt"),
		cl(2, "sp.txt exists: -resume continues it", "selfplay", "-n", "6", "-depth", "1", "-exact", "6", "-tt", "1", "-o", "sp.txt"),
		cl(0, `wrote 2 games to sp.txt .*\(6 in the file\)`, "-q", "selfplay", "-resume", "-n", "6", "-depth", "1", "-exact", "6", "-tt", "1", "-o", "sp.txt"),
		cl(2, "made with other settings", "selfplay", "-resume", "-n", "8", "-depth", "2", "-exact", "6", "-tt", "1", "-o", "sp.txt"),
		cl(0, "(?s)6 games read, 6 used.*wrote sp.gtw", "train", "-o", "sp.gtw", "-epochs", "1", "-exact", "0", "sp.txt"),
		cl(0, `all\s+40\s`, "eval", "-positions", "l.txt"),
		cl(0, "", "-q", "mpcfit", "-positions", "l.txt", "-n", "40", "-depth", "4", "-min-samples", "5", "-out", "fit.txt"),
	})
	for _, f := range []string{"bench.prof", "solve.prof", "all.obf", "tiny.csv", "tiny.png", "joint.csv", "joint.png", "labels.gtx", "games.ggf"} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
	// match -ggf appends to the file: the game it held is kept.
	if data, _ := os.ReadFile("games.ggf"); strings.Count(string(data), "\n") != 9 || !strings.HasPrefix(string(data), oldGame+"\n") {
		t.Errorf("%d lines in the GGF file, want the old game and 8 new ones:\n%s", strings.Count(string(data), "\n"), data)
	}
	if e, err := eval.Load("tiny.gtw"); err != nil || !e.HasMobility() || e.EmptiesBias() == ([61]float64{}) {
		t.Errorf("trained weights: %v; want mobility features and the correction by empties", err)
	}
	// The weights name their training files without the directories of the machine that
	// trained them, and a run without validation games shows no validation error.
	if _, out, _ := runCmd(t, "", "eval", "-eval", "tiny.gtw", "-info"); strings.Contains(out, filepath.Dir(wtb)) || !strings.Contains(out, "(paths [selfplay.txt])") {
		t.Errorf("eval -info names the training machine's paths:\n%s", out)
	}
	if code, _, errOut := runCmd(t, "", "train", "-o", "noval.gtw", "-epochs", "1", "-exact", "0", wtb); code != 0 || strings.Contains(errOut, "NaN") {
		t.Errorf("train without validation: exit %d, stderr:\n%s", code, errOut)
	}
	if data, _ := os.ReadFile("noval.csv"); !strings.Contains(string(data), "\n0,1,") || strings.Contains(string(data), "NaN") {
		t.Errorf("the log of a run without validation:\n%s", data)
	}
	if data, _ := os.ReadFile("fit.txt"); !regexp.MustCompile(`(?m)^[234] 4 2 `).Match(data) {
		t.Errorf("mpcfit -out wrote %q: want the height-4 regressions of stages 2-4", data)
	}
	// mpcfit -out replaced the read-only fit.txt by a rename: a hard link to it keeps the old text.
	if data, _ := os.ReadFile("old-fit.txt"); string(data) != "old" {
		t.Errorf("mpcfit -out rewrote the old file in place: %q", data)
	}
}

// startOBF is the start position, 60 empties, in .obf form.
const startOBF = "---------------------------OX------XO--------------------------- X\n"
