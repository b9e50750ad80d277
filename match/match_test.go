package match

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/book"
	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/internal/bigmem"
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

// checkGGF replays every game of a GGF stream and returns how many there were.
func checkGGF(t *testing.T, text string) int {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(text))
	n := 0
	for sc.Scan() {
		n++
		if got, want := replayGGF(t, sc.Text()); got != want {
			t.Errorf("game %d: replayed score %d, recorded %d", n, got, want)
		}
	}
	return n
}

func mustParse(t *testing.T, text string) Spec {
	t.Helper()
	sp, err := ParseEngine(text)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// A match between two engine configurations from file and random openings: every game is
// counted once, the GGF records replay to their recorded results, and Progress sees each game.
func TestRun(t *testing.T) {
	opens, err := Openings("testdata/xot-sample.txt", 1, 3, 1, 1)
	if err != nil || len(opens) != 4 {
		t.Fatalf("openings: %d, %v", len(opens), err)
	}
	var ggf bytes.Buffer
	seen := map[int]bool{}
	opt := Options{A: mustParse(t, "depth=2,end=10"), B: mustParse(t, "depth=1,eval=mobility,pvs=off"), Openings: opens,
		Concurrency: 2, GGF: &ggf, Progress: func(g Game) { seen[g.Number] = true }}
	if h := opt.Header(); h != `match: A = "depth=2,end=10" vs B = "depth=1,eval=mobility,pvs=off", 8 games (4 openings x 2 colours), concurrency 2` {
		t.Errorf("header %q", h)
	}
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Games() != 8 || res.AsBlack.Games() != 4 || len(seen) != 8 || res.Interrupted {
		t.Fatalf("%+v; progress saw %d games", res, len(seen))
	}
	if res.Forfeits != [2]int{} || res.Thought[0].N == 0 || res.Thought[1].N == 0 {
		t.Errorf("forfeits %v, thought %v", res.Forfeits, res.Thought)
	}
	if n := checkGGF(t, ggf.String()); n != 8 {
		t.Fatalf("%d games written, want 8", n)
	}
	var out bytes.Buffer
	res.Write(&out)
	if !strings.Contains(out.String(), "in 8 games") || !strings.Contains(out.String(), "thinking time per move: A mean") ||
		strings.Contains(out.String(), "least clock") {
		t.Errorf("report:\n%s", out.String())
	}
}

// The report's standard error and time ratio, from games counted as a match counts them:
// games 0-1 are opening 0 (A black, then white), 2-3 opening 1, 4 opening 2 alone.
func TestResultWriteSE(t *testing.T) {
	r := &Result{}
	ms := time.Millisecond
	for g, c := range []struct {
		blackScore int
		a, b       time.Duration
	}{{10, 30 * ms, 10 * ms}, {-6, 30 * ms, 10 * ms}, {0, 30 * ms, 10 * ms}, {4, 30 * ms, 10 * ms}, {-2, 30 * ms, 10 * ms}} {
		aBlack := g%2 == 0
		gr := gameResult{moves: []board.Square{board.SquareAt(5, 4), board.SquareAt(3, 5)}, movers: []bool{true, false},
			blackScore: c.blackScore, forfeit: -1, failed: -1}
		if aBlack {
			gr.times = []time.Duration{c.a, c.b}
		} else {
			gr.times = []time.Duration{c.b, c.a}
		}
		r.add(g, aBlack, 0, gr)
	}
	// A's scores: 1, 1 | 0.5, 0 | 0: as TestOpeningSE's unequal groups, mean 0.5, SE 0.3.
	if se := r.ScoreSE(); math.Abs(se-0.3) > 1e-12 {
		t.Errorf("ScoreSE %v, want 0.3", se)
	}
	var out bytes.Buffer
	r.Write(&out)
	for _, want := range []string{
		"score 50.0%",
		"standard error of the score: 30.0 points, the two colours of an opening as one sample (3 openings)\n",
		"thinking time per game: A 0.030 s; B 0.010 s; A 3.00 times B's\n",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// The report's text, from a result made by hand.
func TestResultWrite(t *testing.T) {
	r := &Result{Forfeits: [2]int{0, 1}, Elapsed: 1500 * time.Millisecond, Interrupted: true,
		Errors: []Game{{Number: 5, Error: true, Comment: "engine B exited (status 3) during game 5"}},
		clocks: [2]time.Duration{2 * time.Second, 0}, LeastLeft: [2]time.Duration{1234567 * time.Microsecond, 0}}
	for _, d := range []int{10, 0, -4, 64} {
		r.Stats.Add(d)
	}
	r.AsBlack.Add(10)
	r.Thought[0].add(2 * time.Millisecond)
	r.Thought[0].add(4 * time.Millisecond)
	var out bytes.Buffer
	r.Write(&out)
	want := "interrupted: results of the 4 finished games\n" +
		"A: 2 wins, 1 draws, 1 losses in 4 games: score 62.5%, Elo +88.7 [-221.2, +inf] (95%), mean disc difference +17.50\n" +
		"A as black: 1-0-0; games lost on time or by an illegal move: A 0, B 1; 1.5 s\n" +
		"thinking time per move: A mean 3ms, max 4ms over 2 moves; B no moves\n" +
		"thinking time per game: A 0.002 s, 0.1% of its clock; B 0.000 s\n" +
		"least clock left at the end of a game: A 1.235s, B no clock\n" +
		"1 games ended by an engine error, not scored:\n" +
		"  engine B exited (status 3) during game 5\n"
	if out.String() != want {
		t.Errorf("report\n%s\nwant\n%s", out.String(), want)
	}
	if s := eloText(0 * -1); s != "+0.0" {
		t.Errorf("eloText(-0) = %q", s)
	}
}

// Cancelling the context stops the match after the games under way; the finished ones count.
func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	opt := Options{A: mustParse(t, "depth=1"), B: mustParse(t, "depth=1"), Openings: RandomOpenings(1, 20, 8), Concurrency: 1,
		Progress: func(g Game) {
			if g.Number == 3 {
				cancel()
			}
		}}
	res, err := Run(ctx, opt)
	if err != nil || !res.Interrupted || res.Stats.Games() != 3 {
		t.Fatalf("%+v, %v; want 3 games, interrupted", res, err)
	}
}

// A player that cannot start is an error, not a forfeit.
func TestRunPlayerError(t *testing.T) {
	opt := Options{A: mustParse(t, "depth=1"), B: External("exit 0", 0), Openings: RandomOpenings(1, 2, 8), Concurrency: 2}
	if res, err := Run(context.Background(), opt); err == nil {
		t.Fatalf("%+v, no error", res)
	}
}

func TestOpenings(t *testing.T) {
	for _, c := range []struct {
		path            string
		skip, n, random int
		want            int
	}{
		{"", 0, 0, 0, 10}, // no file: 10 random openings by default
		{"", 0, 0, 3, 3},
		{"testdata/xot-sample.txt", 0, 0, 0, 50},
		{"testdata/xot-sample.txt", 48, 0, 2, 4},
		{"testdata/xot-sample.txt", 0, 5, 0, 5},
	} {
		opens, err := Openings(c.path, c.skip, c.n, c.random, 1)
		if err != nil || len(opens) != c.want {
			t.Errorf("%+v: %d openings, %v", c, len(opens), err)
		}
	}
	if _, err := Openings("testdata/xot-sample.txt", 50, 0, 0, 1); err == nil {
		t.Error("no openings: no error")
	}
	if _, err := Openings("testdata/absent.txt", 0, 0, 0, 1); err == nil {
		t.Error("absent file: no error")
	}
	bad := filepath.Join(t.TempDir(), "bad.txt")
	os.WriteFile(bad, []byte("f5d6\nf5a1\n"), 0o644)
	if _, err := Openings(bad, 0, 0, 0, 1); err == nil || !strings.Contains(err.Error(), "bad.txt: line 2") {
		t.Errorf("illegal opening: %v", err)
	}
	a, b := RandomOpenings(7, 5, 8), RandomOpenings(7, 5, 8)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Error("random openings differ for one seed")
	}
}

func TestParseEngineErrors(t *testing.T) {
	for _, text := range []string{"depth=0", "depth", "colour=blue", "sel=9", "end=0", "handover=31", "probable=-1", "mpctop=0", "mpctop=31", "horizon=0", "horizon=x", "endhorizon=0", "endhorizon=41", "endweight=0", "endweight=11", "endlast=9", "endlast=96", "endlast=x", "bandtop=0", "bandtop=61", "bandtop=x", "exacttime=0", "exacttime=x", "exacttime=101", "surer=", "surer=4.x", "surer=6",
		"leafsolve=21", "wld=0", "wldsel=6", "wldsel=x", "time=-1s", "tt=0", "threads=0", "threads=x", "parallel=eager", "mpc=maybe", "eval=/absent.gtw", "book=/absent.book"} {
		if _, err := ParseEngine(text); err == nil || !strings.Contains(err.Error(), "player \""+text+"\"") {
			t.Errorf("%s: error %v, want one naming the player", text, err)
		}
	}
	sp, err := ParseEngine("depth=8, sel=2 ,eval=mobility,time=200ms,end=14,tt=1,threads=2,parallel=speculative")
	if err != nil || sp.lim.Depth != 8 || sp.lim.Selectivity != 2 || sp.cfg.Eval != nil || sp.lim.MoveTime != 200*time.Millisecond ||
		sp.lim.ExactEmpties != 14 || sp.cfg.TTMiB != 1 || sp.cfg.Threads != 2 || sp.cfg.Parallel != search.ParallelSpeculative {
		t.Errorf("%+v, %v", sp, err)
	}
	if sp := mustParse(t, "depth=4,horizon=18,endhorizon=22"); sp.cfg.ClockHorizon != 18 || sp.cfg.EndHorizon != 22 {
		t.Errorf("horizons: %+v", sp.cfg)
	}
	if sp := mustParse(t, "depth=4,endweight=3"); sp.cfg.EndProofWeight != 3 {
		t.Errorf("endweight=3: %+v", sp.cfg)
	}
	if sp := mustParse(t, "depth=4,endlast=75"); sp.cfg.EndLastShare != 75 {
		t.Errorf("endlast=75: %+v", sp.cfg)
	}
	if sp := mustParse(t, "depth=4,endlast=75,endlast=off"); sp.cfg.EndLastShare != 0 {
		t.Errorf("endlast=off: %+v", sp.cfg)
	}
	if sp := mustParse(t, "depth=4,bandtop=22"); sp.cfg.TimeBandTop != 22 {
		t.Errorf("bandtop=22: %+v", sp.cfg)
	}
	if sp := mustParse(t, "depth=4,salvage=off"); !sp.cfg.NoSalvage {
		t.Errorf("salvage=off: %+v", sp.cfg)
	}
	if sp := mustParse(t, "depth=4,surer=4.3.0"); !slices.Equal(sp.cfg.SurerLevels, []int{4, 3, 0}) {
		t.Errorf("surer=4.3.0: %+v", sp.cfg)
	}
	if sp := mustParse(t, "depth=4,exacttime=2.5"); sp.cfg.ExactTimeScale != 2.5 {
		t.Errorf("exacttime=2.5: %+v", sp.cfg)
	}
	if sp := mustParse(t, "depth=4,bandtop=22,bandtop=off"); sp.cfg.TimeBandTop != 0 {
		t.Errorf("bandtop=off: %+v", sp.cfg)
	}
	if sp := mustParse(t, "depth=4,endhorizon=off"); sp.cfg.EndHorizon >= 0 {
		t.Errorf("endhorizon=off: %+v", sp.cfg)
	}
	if sp := mustParse(t, "depth=4"); sp.cfg.Eval == nil || sp.cfg.TTMiB != 16 {
		t.Errorf("defaults: %+v", sp.cfg)
	}
}

// Every key of EngineOptions is one ParseEngine knows (a bad value is another error), and the
// error for an unknown key lists them all.
func TestParseEngineOptionList(t *testing.T) {
	for _, k := range EngineOptions {
		if _, err := ParseEngine("depth=4," + k + "=?"); err != nil && strings.Contains(err.Error(), "unknown option") {
			t.Errorf("%s: %v", k, err)
		}
	}
	_, err := ParseEngine("depth=4,colour=blue")
	if err == nil {
		t.Fatal("colour=blue: no error")
	}
	for _, k := range EngineOptions {
		if !strings.Contains(err.Error(), " "+k+",") && !strings.HasSuffix(err.Error(), " "+k+")") {
			t.Errorf("the error %q does not name %s", err, k)
		}
	}
	if sp := mustParse(t, "depth=4,solvertt=64"); sp.cfg.SolverMiB != 64 || sp.tableBytes() != search.TableBytes(search.Config{TTMiB: 16, SolverMiB: 64}) {
		t.Errorf("solvertt=64: %+v", sp.cfg)
	}
	for _, bad := range []string{"solvertt=0", "solvertt=4097", "solvertt=x"} {
		if _, err := ParseEngine("depth=4," + bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestParseEngineSwitches(t *testing.T) {
	for _, c := range []struct {
		name string
		off  func(search.Config) bool // whether the config has the switch off
	}{
		{"wldrefine", func(c search.Config) bool { return c.NoWLDRefine }},
		{"solverhint", func(c search.Config) bool { return c.NoSolverHint }},
		{"bandwld", func(c search.Config) bool { return !c.BandWLD }},
		{"sortalpha", func(c search.Config) bool { return c.ExactOrderKeys }},
		{"resulttime", func(c search.Config) bool { return c.NoResultTime }},
	} {
		sp, err := ParseEngine("depth=8," + c.name + "=off")
		if err != nil || !c.off(sp.cfg) {
			t.Fatalf("%s=off: %+v, %v", c.name, sp.cfg, err)
		}
		if sp, err := ParseEngine("depth=8," + c.name + "=on"); err != nil || c.off(sp.cfg) {
			t.Fatalf("%s=on: %+v, %v", c.name, sp.cfg, err)
		}
		if _, err := ParseEngine("depth=8," + c.name + "=maybe"); err == nil {
			t.Fatalf("%s=maybe: no error", c.name)
		}
	}
}

// screen=W sets the Multi-ProbCut screen's width, screen=off turns it off, and anything else is
// refused.
func TestParseEngineScreen(t *testing.T) {
	for text, want := range map[string]float64{"screen=0.7": 0.7, "screen=off": -1, "sel=5": 0} {
		if sp, err := ParseEngine("depth=8," + text); err != nil || sp.cfg.MPCScreen != want {
			t.Fatalf("%s: screen %v (want %v), %v", text, sp.cfg.MPCScreen, want, err)
		}
	}
	for _, bad := range []string{"screen=0", "screen=-2", "screen=wide", "screen=NaN", "screen=1e9"} {
		if _, err := ParseEngine("depth=8," + bad); err == nil {
			t.Fatalf("%s: no error", bad)
		}
	}
}

// mpct=T sets the midgame Multi-ProbCut threshold; a threshold outside (0, 5] is refused.
func TestParseEngineMPCT(t *testing.T) {
	if sp, err := ParseEngine("sel=5,mpct=0.9"); err != nil || sp.cfg.MPCT != 0.9 {
		t.Fatalf("mpct %v, %v", sp.cfg.MPCT, err)
	}
	for _, bad := range []string{"mpct=0", "mpct=-1", "mpct=6", "mpct=NaN", "mpct=x"} {
		if _, err := ParseEngine("sel=5," + bad); err == nil {
			t.Fatalf("%s: no error", bad)
		}
	}
}

func FuzzParseEngine(f *testing.F) {
	f.Add("depth=8,sel=2,eval=mobility,time=200ms,mpc=off")
	f.Add("depth=,=,,")
	f.Add("time=25ms,sel=5,handover=-1,probable=4")
	f.Add("depth=4,leafsolve=-1")
	f.Add("depth=10,sel=5,screen=0.5")
	f.Add("depth=12,end=18,wld=22,wldsel=3")
	f.Fuzz(func(t *testing.T, text string) {
		ParseEngine(text)
	})
}

// A player with an opening book plays the book's move; book=none plays without one.
func TestPlayerBook(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "t.book")
	bk := book.New()
	var games []book.Game
	for _, line := range []string{"f5d6c3d3c4", "f5f6e6f4e3", "f5d6c5f4e3"} {
		g, err := book.ParseTranscripts(strings.NewReader(line))
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g...)
	}
	if _, err := bk.AddGames(games, 4, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := bk.Evaluate(context.Background(), search.NewEngine(search.Config{TTMiB: 1}), book.Options{Depth: 1}); err != nil {
		t.Fatal(err)
	}
	if err := bk.Save(path); err != nil {
		t.Fatal(err)
	}
	sp, err := ParseEngine("depth=1,tt=1,book=" + path)
	if err != nil || sp.book == nil {
		t.Fatalf("book option: %v", err)
	}
	p, _ := sp.newPlayer(0)
	want, _, _ := sp.book.Choose(board.Start(), 0, nil)
	if got, err := p.move(context.Background(), board.Start(), nil, 0, 0); err != nil || got != want {
		t.Errorf("player with a book: %s (%v), book move %s", got, err, want)
	}
	if sp, err := ParseEngine("depth=1,book=none"); err != nil || sp.book != nil {
		t.Errorf("book=none: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "bad.book"), []byte("junk"), 0o644)
	if _, err := ParseEngine("depth=1,book=" + filepath.Join(dir, "bad.book")); err == nil || !strings.Contains(err.Error(), "corrupt book") {
		t.Errorf("corrupt book: %v", err)
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
	gos := 0
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
			// "die": the first engine started exits with status 3 at its fifth move; the ones
			// started after it (a marker file tells) play on.
			if gos++; mode == "die" && gos == 5 {
				if f, err := os.OpenFile(os.Getenv("OTHELLO_FAKE_DIE_MARKER"), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err == nil {
					f.Close()
					os.Exit(3)
				}
			}
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

func fakeEngine(t *testing.T, mode string) string {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	return fmt.Sprintf("OTHELLO_FAKE_NBOARD=%s %q", mode, exe)
}

// An external engine plays through NBoard; one that plays illegal moves forfeits every game.
func TestRunNBoardEngine(t *testing.T) {
	for _, mode := range []string{"first", "illegal"} {
		var ggf bytes.Buffer
		forfeits := 0
		opt := Options{A: mustParse(t, "depth=1"), B: External(fakeEngine(t, mode), 3), Openings: RandomOpenings(1, 2, 8), Concurrency: 1, GGF: &ggf,
			Progress: func(g Game) {
				if g.Forfeit {
					forfeits++
					if g.LoserIsA || !strings.Contains(g.Comment, "played illegal a1") {
						t.Errorf("%s: forfeit %+v", mode, g)
					}
				}
			}}
		res, err := Run(context.Background(), opt)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		if res.Stats.Games() != 4 {
			t.Fatalf("%s: %d games", mode, res.Stats.Games())
		}
		if want := map[string]int{"first": 0, "illegal": 4}[mode]; res.Forfeits != [2]int{0, want} || forfeits != want {
			t.Fatalf("%s: forfeits %v (progress %d), want B %d", mode, res.Forfeits, forfeits, want)
		}
		checkGGF(t, ggf.String())
	}
}

// A clock for one side only: A plays on a clock, the external engine by its depth, and
// nobody loses on time for a clock it does not have.
func TestRunOneSidedClock(t *testing.T) {
	opt := Options{A: mustParse(t, "depth=3,sel=2"), B: External(fakeEngine(t, "first"), 2), Openings: RandomOpenings(1, 2, 8), Concurrency: 1,
		Clocks: [2]time.Duration{5 * time.Second, 0}}
	if h := opt.Header(); !strings.HasSuffix(h, ", clock A 5s, B 0s, + 0s") {
		t.Errorf("header %q", h)
	}
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	res.Write(&out)
	for _, want := range []string{"A 0, B 0;", "least clock left at the end of a game: A ", "B no clock"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if res.LeastLeft[0] <= 0 || res.LeastLeft[0] > 5*time.Second {
		t.Errorf("least clock left for A: %v", res.LeastLeft[0])
	}
}

// An external engine that dies in a game is restarted for the next one; the game it died in
// says so and is not a result: the other games are the score.
func TestRunEngineDiesMidMatch(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "died")
	t.Setenv("OTHELLO_FAKE_DIE_MARKER", marker)
	var comments []string
	var ggf bytes.Buffer
	opt := Options{A: mustParse(t, "depth=1"), B: External(fakeEngine(t, "die"), 0), Openings: RandomOpenings(1, 2, 8), Concurrency: 1, GGF: &ggf,
		Progress: func(g Game) {
			if g.Comment != "" {
				comments = append(comments, g.Comment)
				if !g.Error || g.Forfeit || g.LoserIsA {
					t.Errorf("game %+v: want an error of B", g)
				}
			}
		}}
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(comments) != 1 || !regexp.MustCompile(`^engine B exited \(status 3\) during game [12]$`).MatchString(comments[0]) {
		t.Errorf("comments %q; want one game ended by B exiting", comments)
	}
	if res.Stats.Games() != 3 || res.Forfeits != [2]int{} {
		t.Errorf("%d games scored, forfeits %v; want the 3 games played to the end, none forfeited", res.Stats.Games(), res.Forfeits)
	}
	if len(res.Errors) != 1 || res.Errors[0].Comment != comments[0] {
		t.Errorf("errors %+v", res.Errors)
	}
	if n := checkGGF(t, ggf.String()); n != 3 {
		t.Errorf("%d games written, want the 3 with a result", n)
	}
	var out bytes.Buffer
	res.Write(&out)
	if !strings.Contains(out.String(), "in 3 games") || !strings.Contains(out.String(), "1 games ended by an engine error, not scored:\n  "+comments[0]+"\n") {
		t.Errorf("report:\n%s", out.String())
	}
}

// An external engine that dies in every game is restarted MaxRestarts times, then the match
// stops with an error saying so.
func TestRunEngineAlwaysDies(t *testing.T) {
	dies := `sh -c 'while read -r l; do case "$l" in ping*) echo "pong ${l#ping }";; go) exit 3;; esac; done'`
	opt := Options{A: mustParse(t, "depth=1"), B: External(dies, 0), Openings: RandomOpenings(1, 4, 8), Concurrency: 1}
	if _, err := Run(context.Background(), opt); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("after being restarted %d times; the match stops", MaxRestarts)) {
		t.Fatalf("an engine dying in every game: %v", err)
	}
}

// An engine that never answers the handshake fails the match after the handshake timeout,
// with an error saying so.
func TestRunHandshakeTimeout(t *testing.T) {
	opt := Options{A: mustParse(t, "depth=1"), B: External("cat", 0), Openings: RandomOpenings(1, 1, 8), Concurrency: 2,
		HandshakeTimeout: 200 * time.Millisecond}
	start := time.Now()
	_, err := Run(context.Background(), opt)
	if err == nil || !strings.Contains(err.Error(), `engine B: "cat" did not answer the NBoard handshake: no answer to "ping 1" within 200ms`) {
		t.Fatalf("Run with cat as engine B: %v", err)
	}
	t.Logf("failed after %v", time.Since(start).Round(time.Millisecond))
}

// Players' tables beyond the machine's memory are refused when the match starts, with an
// error naming the tables and the memory available, before any engine is made (making them
// would end the process).
func TestRunTablesBeyondMemory(t *testing.T) {
	if _, _, ok := bigmem.Available(); !ok {
		t.Skip("this system does not say how much memory is available")
	}
	opt := Options{A: mustParse(t, "depth=1,tt=4096"), B: mustParse(t, "depth=1,tt=4096"), Openings: [][]board.Square{nil}, Concurrency: 1 << 20}
	if got, want := opt.TableBytes(), uint64(1<<20)*2*(4096+16)<<20; got != want {
		t.Errorf("TableBytes %d, want %d", got, want)
	}
	started := false
	opt.Progress = func(Game) { started = true }
	_, err := Run(context.Background(), opt)
	if err == nil || !strings.Contains(err.Error(), "tt= of A and B") || !strings.Contains(err.Error(), "available") || started {
		t.Fatalf("Run: %v (a game played: %v); want a refusal naming the tables and the memory available", err, started)
	}
	if ext := (Options{A: mustParse(t, "tt=1"), B: External("x", 0), Concurrency: 3}); ext.TableBytes() != 3*(1+16)<<20 {
		t.Errorf("with an external B: %d bytes", ext.TableBytes())
	}
}

// "uct,..." plays the Monte-Carlo engine: a match against the alpha-beta engine finishes with
// replayable games, and bad UCT options are errors naming the player.
func TestRunUCT(t *testing.T) {
	var ggf bytes.Buffer
	opt := Options{A: mustParse(t, "uct,playouts=300,prune=visits,threads=2"), B: mustParse(t, "depth=1,eval=mobility"),
		Openings: RandomOpenings(5, 2, 8), GGF: &ggf}
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Games() != 4 || len(res.Errors) != 0 || res.Forfeits != [2]int{} {
		t.Fatalf("%+v", res)
	}
	if n := checkGGF(t, ggf.String()); n != 4 {
		t.Fatalf("%d games written, want 4", n)
	}
	for _, text := range []string{"uct,playouts=-5", "uct,prune=maybe", "uct,colour=blue"} {
		if _, err := ParseEngine(text); err == nil || !strings.Contains(err.Error(), "player \""+text+"\"") {
			t.Errorf("%s: error %v, want one naming the player", text, err)
		}
	}
}

// GameOpenings cuts each game of a GGF file at the first position with at most N empties:
// passes kept, repeats dropped, games that start elsewhere or end earlier passed over, skip
// and n applied after that, and a file it cannot use named in the error.
func TestGameOpenings(t *testing.T) {
	games := RandomOpenings(3, 4, 50) // random games of 50 plies, passes included
	var text strings.Builder
	for _, g := range games {
		text.WriteString(gameRecord(g, nil).String() + "\n")
	}
	text.WriteString(gameRecord(games[0], nil).String() + "\n")      // a repeat
	text.WriteString(gameRecord(games[1][:20], nil).String() + "\n") // ends at 40 empties
	other := board.Start()
	other.Make(board.FirstSquare(other.LegalMoves()))
	og := ggf.New(other) // another start position, then 40 plies: passed over
	for b := other; b.NumEmpties() > 19 && !b.GameOver(); b = og.Final() {
		sq := board.NoSquare
		if m := b.LegalMoves(); m != 0 {
			sq = board.FirstSquare(m)
		}
		if err := og.PlayMove(sq); err != nil {
			t.Fatal(err)
		}
	}
	text.WriteString(og.String() + "\n")
	path := filepath.Join(t.TempDir(), "games.ggf")
	if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, empties := range []int{26, 40, 50} {
		// At 40 and 50 empties the short game's cut is games[1]'s, a repeat too.
		opens, err := GameOpenings(path, empties, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(opens) != 4 {
			t.Fatalf("%d empties: %d openings, want 4", empties, len(opens))
		}
		for i, o := range opens {
			b := board.Start()
			for _, sq := range o {
				if sq == board.NoSquare {
					b.Pass()
				} else {
					b.Make(sq)
				}
			}
			if b.NumEmpties() != empties || fmt.Sprint(o) != fmt.Sprint(games[i][:len(o)]) {
				t.Fatalf("%d empties: opening %d (%d moves) reaches %d empties or is not game %d's start", empties, i, len(o), b.NumEmpties(), i)
			}
		}
	}
	if opens, err := GameOpenings(path, 26, 1, 2); err != nil || len(opens) != 2 || fmt.Sprint(opens[0]) != fmt.Sprint(games[1][:len(opens[0])]) {
		t.Errorf("skip 1, n 2: %d openings, %v", len(opens), err)
	}
	if _, err := GameOpenings(path, 26, 4, 0); err == nil || !strings.Contains(err.Error(), "games.ggf") {
		t.Errorf("nothing left after skipping: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.ggf")
	os.WriteFile(bad, []byte("(;GM[Othello]TY[8]BO[8 "+strings.Repeat("-", 64)+" *]B[a1]"), 0o644)
	if _, err := GameOpenings(bad, 26, 0, 0); err == nil || !strings.Contains(err.Error(), "bad.ggf") {
		t.Errorf("truncated file: %v", err)
	}
	if _, err := GameOpenings("testdata/xot-sample.txt", 26, 0, 0); err == nil || !strings.Contains(err.Error(), "no GGF game records") {
		t.Errorf("a transcript file: %v", err)
	}
	s := Settings{A: "depth=1", B: "depth=1", OpeningFile: path, OpeningEmpties: 26, Concurrency: 1, HandshakeTimeout: DefaultHandshakeTimeout}
	if opt, err := s.Options(); err != nil || len(opt.Openings) != 4 {
		t.Errorf("settings with openings by empties: %d openings, %v", len(opt.Openings), err)
	}
	s.OpeningFile = ""
	if _, err := s.Options(); err == nil {
		t.Error("openings by empties without a file: no error")
	}
}

// With FollowB, A's clock for each game is FollowB times B's mean time a game over the games
// before it, the first game on A's own clock; each game's clocks are in its record (TB, TW),
// B's move times too, so the record checks the rule.
func TestRunFollowClock(t *testing.T) {
	var out bytes.Buffer
	const follow = 8
	opt := Options{A: mustParse(t, "sel=2"), B: mustParse(t, "depth=7,sel=2"), Openings: RandomOpenings(3, 2, 8), Concurrency: 1,
		Clocks: [2]time.Duration{2 * time.Second, 0}, FollowB: follow, GGF: &out}
	if h := opt.Header(); !strings.Contains(h, "A's clock 8.00 times B's mean time a game so far (2s before the first game), B 0s") {
		t.Errorf("header %q", h)
	}
	res, err := Run(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	games, err := ggf.ParseAll(out.String())
	if err != nil || len(games) != 4 {
		t.Fatalf("%d records, %v", len(games), err)
	}
	var bTotal, clockSum time.Duration
	bMoves := 0 // B's moves with a recorded time so far
	for i, g := range games {
		aBlack := strings.HasPrefix(g.Black, "A ")
		aClock, bClock := g.BlackClock, g.WhiteClock
		if !aBlack {
			aClock, bClock = bClock, aClock
		}
		want := 2 * time.Second
		if i > 0 {
			want = follow * bTotal / time.Duration(i)
		}
		// The record keeps clocks to 10 ms and each move time to the millisecond: the sum of B's
		// recorded times may be off by half a millisecond a move, FollowB/i times that in A's clock.
		slack := 10 * time.Millisecond
		if i > 0 {
			slack += time.Duration(follow*bMoves) * time.Millisecond / time.Duration(2*i)
		}
		if d := aClock.Main - want; !aClock.Set || bClock.Set || d < -slack || d > slack {
			t.Errorf("game %d: A's clock %+v, B's %+v; want A %v (B's time so far %v)", i+1, aClock, bClock, want, bTotal)
		}
		clockSum += aClock.Main
		for _, m := range g.Moves {
			if m.Black != aBlack && m.HasTime && m.Square != board.NoSquare { // passes are not thought
				bTotal += m.Time
				bMoves++
			}
		}
	}
	if bTotal <= 0 {
		t.Fatal("B's moves took no recorded time")
	}
	// A's clocks are a few hundred milliseconds (B's games take tens): on a loaded machine A may
	// lose one on time, which is the clock's business, not the following's, so only that A's
	// clock was kept and B, without one, never lost on time are checked.
	if res.LeastLeft[0] >= noGameLeft || res.Forfeits[1] != 0 {
		t.Errorf("least clock left %v, forfeits %v", res.LeastLeft, res.Forfeits)
	}
	var w bytes.Buffer
	res.Write(&w)
	if m := regexp.MustCompile(`thinking time per game: A ([0-9.]+) s, ([0-9.]+)% of its clock`).FindStringSubmatch(w.String()); m == nil {
		t.Errorf("no clock share in\n%s", w.String())
	} else {
		spent, _ := strconv.ParseFloat(m[1], 64)
		share, _ := strconv.ParseFloat(m[2], 64)
		if want := 100 * spent / (clockSum / time.Duration(len(games))).Seconds(); math.Abs(share-want) > 1 {
			t.Errorf("clock share %.1f%%, want %.1f%% of the mean clock %v", share, want, clockSum/time.Duration(len(games)))
		}
	}
}

// A clock that follows B's time needs a first clock and a sensible factor.
func TestSettingsFollow(t *testing.T) {
	s := Settings{A: "sel=2", B: "depth=1", Random: 1, Concurrency: 1, HandshakeTimeout: DefaultHandshakeTimeout, FollowB: 1}
	if _, err := s.Options(); err == nil || !strings.Contains(err.Error(), "needs A's clock") {
		t.Errorf("no first clock: %v", err)
	}
	s.ClockA = time.Second
	if opt, err := s.Options(); err != nil || opt.FollowB != 1 || opt.Clocks[0] != time.Second {
		t.Errorf("%+v, %v", opt, err)
	}
	for _, f := range []float64{-1, 101} {
		s.FollowB = f
		if _, err := s.Options(); err == nil || !strings.Contains(err.Error(), "within 0-100") {
			t.Errorf("factor %v: %v", f, err)
		}
	}
}
