package protocol

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/search"
)

// ffoProblem is a position of testdata/ffo.obf (FFO #1 and #40 with their published move
// scores) with its scores by move.
type ffoProblem struct {
	obf    string
	b      board.Board
	scores map[string]int
}

func ffoProblems(t *testing.T) []ffoProblem {
	data, err := os.ReadFile("testdata/ffo.obf")
	if err != nil {
		t.Fatal(err)
	}
	var out []ffoProblem
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		b, rest, err := board.ParseOBF(line)
		if err != nil {
			t.Fatal(err)
		}
		p := ffoProblem{obf: line[:66], b: b, scores: map[string]int{}}
		for _, f := range strings.Split(rest, ";") {
			var mv string
			var v int
			if _, err := fmt.Sscanf(strings.TrimSpace(f), "%2s:%d", &mv, &v); err == nil {
				p.scores[strings.ToLower(mv)] = v
			}
		}
		out = append(out, p)
	}
	return out
}

// defaultEngine is the engine and options of a front end at its defaults (level 12), with
// the trained evaluation and no book.
func defaultEngine(t *testing.T) (Engine, Options) {
	eng, opt, err := NewEngine(EngineSettings{TTMiB: 16, Threads: 1, Eval: "default", BookPath: "none"}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	return eng, opt
}

var hintLine = regexp.MustCompile(`^ ?\d+\. ([a-h][1-8]) +(\S+) +(.*?) +pv`)

// At the front ends' defaults the hints of an endgame position are exact disc scores: FFO #40
// (20 empties) gives the three best moves exactly (+38, +36, +34 by the published scores),
// on the console and in NBoard, not a win/loss/draw result shown as +1.00. FFO #1 (14 empties)
// likewise.
func TestExactHintsAtDefaults(t *testing.T) {
	eng, opt := defaultEngine(t)
	for i, p := range ffoProblems(t) {
		if p.b.NumEmpties() > 14 && raceEnabled {
			continue // FFO #40 solves 19 M nodes, too slow under the race detector
		}
		var out bytes.Buffer
		in := fmt.Sprintf("setboard %s\nhint 3\nquit\n", p.obf)
		if err := RunConsole(context.Background(), eng, strings.NewReader(in), &out, opt); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, l := range strings.Split(out.String(), "\n") {
			m := hintLine.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			n++
			if want := fmt.Sprintf("%+d.00", p.scores[m[1]]); m[2] != want || m[3] != "exact" {
				t.Errorf("FFO problem %d: hint %q; want %s %s exact", i, l, m[1], want)
			}
		}
		if n != 3 {
			t.Errorf("FFO problem %d: %d hint lines, want 3:\n%s", i, n, out.String())
		}
		// NBoard at the depth NBoard sends for its default level.
		c := newNBoardClient(t, eng)
		c.send("nboard 2")
		c.send("set depth 12")
		c.send(fmt.Sprintf("set game (;GM[Othello]BO[8 %s %s];)", ggfBoard(p.b), map[bool]string{true: "*", false: "O"}[p.b.BlackToMove]))
		c.send("hint 3")
		lines := c.untilStatusDone()
		got := 0
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) != 5 || f[0] != "search" || f[4] != "100%" {
				continue
			}
			mv := strings.ToLower(f[1][:2])
			if want := fmt.Sprintf("%d.00", p.scores[mv]); strings.TrimPrefix(f[2], "+") != want {
				t.Errorf("FFO problem %d: nboard %q; want %s", i, l, want)
			}
			got++
		}
		if got < 3 {
			t.Errorf("FFO problem %d: nboard sent %d exact hint lines, want 3 or more: %q", i, got, lines)
		}
		c.close()
	}
}

// ggfBoard writes b's squares in GGF's BO form, rows separated by blanks.
func ggfBoard(b board.Board) string {
	var rows []string
	for r := 0; r < 8; r++ {
		var sb strings.Builder
		for col := 0; col < 8; col++ {
			bit := board.SquareAt(col, r).Bit()
			switch {
			case b.Black()&bit != 0:
				sb.WriteByte('*')
			case b.White()&bit != 0:
				sb.WriteByte('O')
			default:
				sb.WriteByte('-')
			}
		}
		rows = append(rows, sb.String())
	}
	return strings.Join(rows, " ")
}

// An analysis of the n best moves labels exact only what is exact: on FFO #1 with n 3 every
// line labelled exact has the published score of its move, and the moves beyond the three
// best (searched with a null window at the third value, +6) are bounds that the true scores
// respect.
func TestAnalysisBoundsFFO1(t *testing.T) {
	eng, _ := defaultEngine(t)
	p := ffoProblems(t)[0]
	lv, _ := search.LevelFor(search.DefaultLevel)
	lim := lv.Limits()
	lim.Selectivity = 0
	ms := eng.Analyze(context.Background(), p.b, lim, 3, nil)
	var w bytes.Buffer
	WriteAnalysis(&w, ms, 3, "pattern", time.Second)
	exact, bounds := 0, 0
	for _, l := range strings.Split(strings.TrimSpace(w.String()), "\n")[1:] {
		f := strings.Fields(l)
		mv, kind := f[1], f[len(f)-1]
		if len(f) > 3 {
			kind = f[3]
		}
		switch {
		case strings.Contains(l, " exact "):
			exact++
			if want := fmt.Sprintf("%+d.00", p.scores[mv]); f[2] != want {
				t.Errorf("%q: labelled exact, the published score is %s", l, want)
			}
		case strings.Contains(l, " bound "):
			bounds++
			var v float64
			fmt.Sscanf(strings.TrimPrefix(strings.Join(f[2:len(f)-1], ""), "<="), "%f", &v)
			if float64(p.scores[mv]) > v {
				t.Errorf("%q: the published score %d is above the bound", l, p.scores[mv])
			}
		default:
			t.Errorf("%q: neither exact nor a bound (%s)", l, kind)
		}
	}
	if exact < 3 || bounds == 0 {
		t.Errorf("%d exact lines and %d bounds, want 3 or more and some:\n%s", exact, bounds, w.String())
	}
}

// untilStatusDone reads the replies of a hint up to its closing bare "status" line.
func (c *nboardClient) untilStatusDone() []string {
	c.t.Helper()
	var lines []string
	for {
		line, err := c.out.ReadString('\n')
		if err != nil {
			c.t.Fatalf("waiting for the end of the hint: %v (%q)", err, lines)
		}
		line = strings.TrimSpace(line)
		if line == "status" {
			return lines
		}
		lines = append(lines, line)
	}
}

// close ends the session and waits for it.
func (c *nboardClient) close() {
	c.send("quit")
	c.in.Close()
	if err := <-c.ended; err != nil {
		c.t.Error(err)
	}
}

// limitsEngine is the fake engine that records the limits of each search.
type limitsEngine struct {
	fakeEngine
	mu  sync.Mutex
	got []search.Limits
}

func (l *limitsEngine) Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result {
	l.mu.Lock()
	l.got = append(l.got, lim)
	l.mu.Unlock()
	return l.fakeEngine.Search(ctx, b, lim, info)
}

func (l *limitsEngine) Analyze(ctx context.Context, b board.Board, lim search.Limits, n int, info func([]search.MoveScore)) []search.MoveScore {
	l.mu.Lock()
	l.got = append(l.got, lim)
	l.mu.Unlock()
	return l.fakeEngine.Analyze(ctx, b, lim, n, info)
}

// The front ends search at their level: its depth, selectivity and solve empties, -time per
// move; NBoard's "set depth N" picks level N (keeping a -sel given on the command line) and a
// GGF clock replaces -time; the console's "level N [time]" does the same and a -clock times
// the engine from the game clock.
func TestFrontEndLimits(t *testing.T) {
	l12, _ := search.LevelFor(12)
	l16, _ := search.LevelFor(16)
	base := func(fixedSel bool) Options {
		o := testOptions(t)
		o.Depth, o.Selectivity, o.FixedSelectivity = 12, 5, fixedSel
		o.ExactEmpties, o.WLDEmpties, o.Level = l12.ExactEmpties, l12.WLDEmpties, 12
		o.MoveTime = 2 * time.Second
		return o
	}
	run := func(f runFunc, o Options, input string) []search.Limits {
		eng := &limitsEngine{}
		var out bytes.Buffer
		if err := f(context.Background(), eng, strings.NewReader(input), &out, o); err != nil {
			t.Fatal(err)
		}
		return eng.got
	}
	want := func(what string, got []search.Limits, i int, w search.Limits) {
		t.Helper()
		if i >= len(got) {
			t.Errorf("%s: %d searches, want search %d", what, len(got), i+1)
			return
		}
		g := got[i]
		if w.Remaining > 0 && g.Remaining > 0 {
			// the clock has run while the command was read
			if g.Remaining > w.Remaining || g.Remaining < w.Remaining-time.Second {
				t.Errorf("%s: clock %v, want about %v", what, g.Remaining, w.Remaining)
			}
			g.Remaining = w.Remaining
		}
		if g != w {
			t.Errorf("%s: limits %+v, want %+v", what, g, w)
		}
	}
	lim12 := l12.Limits()
	lim12.MoveTime = 2 * time.Second
	lim16 := l16.Limits()
	lim16.MoveTime = 2 * time.Second
	start := "(;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *];)"
	nb := func(o Options, cmds ...string) []search.Limits {
		eng := &limitsEngine{}
		c := newNBoardClientWith(t, eng, o)
		c.send("nboard 2")
		for _, cmd := range cmds {
			c.send("%s", cmd)
			if cmd == "go" {
				c.until("===")
			}
		}
		c.close()
		return eng.got
	}
	got := nb(base(false), "go", "set depth 16", "go", "set game "+strings.Replace(start, "BO[", "TI[5:00]BO[", 1), "go")
	want("nboard go", got, 0, lim12)
	want("nboard set depth 16", got, 1, lim16)
	clocked := l16.Limits()
	clocked.Remaining = 5 * time.Minute
	want("nboard with the GUI's clock", got, 2, clocked)
	o := base(true)
	o.Selectivity = 0
	got = nb(o, "set depth 16", "go")
	fixed := lim16
	fixed.Selectivity = 0
	want("nboard set depth 16 with -sel", got, 0, fixed)
	o = base(false)
	o.Clock = ggf.Clock{Main: time.Minute, Increment: time.Second, Set: true}
	got = run(RunConsole, o, "go\nlevel 16 500ms\ngo\nquit\n")
	c12 := lim12
	c12.Remaining, c12.Increment = time.Minute, time.Second
	want("console go with -clock", got, 0, c12)
	c16 := l16.Limits()
	c16.MoveTime, c16.Remaining, c16.Increment = 500*time.Millisecond, time.Minute+time.Second, time.Second
	want("console level 16 500ms", got, 1, c16)
	got = run(RunGTP, base(false), "genmove b\nquit\n")
	want("gtp genmove", got, 0, lim12)
}

// A Monte-Carlo engine's hints carry no search depth: NBoard gets depth 0 (it used to get
// the length of the PV as a depth), the console says how many playouts.
func TestMonteCarloHintLabels(t *testing.T) {
	eng, opt, err := NewEngine(EngineSettings{TTMiB: 1, Threads: 1, Eval: "mobility", BookPath: "none", Engine: "uct", UCT: "playouts=300"}, zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := RunConsole(context.Background(), eng, strings.NewReader("f5\nhint 2\nquit\n"), &out, opt); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^ 1\. [a-h][1-8] +[-+][0-9.]+  uct [0-9]+ playouts pv `).MatchString(out.String()) {
		t.Errorf("console hint of the uct engine:\n%s", out.String())
	}
	c := newNBoardClientWith(t, eng, opt)
	c.send("nboard 2")
	c.send("hint 1")
	for _, l := range c.untilStatusDone() {
		if f := strings.Fields(l); f[0] == "search" && (len(f) != 5 || f[4] != "0") {
			t.Errorf("nboard hint of the uct engine: %q, want depth 0", l)
		}
	}
	c.close()
}

// wldHintEngine answers every search with a midgame iteration (+7.5 for its first move) and
// then a win/loss/draw proof (a win: +1).
type wldHintEngine struct{ fakeEngine }

func (w *wldHintEngine) result(b board.Board) []search.MoveScore {
	var out []search.MoveScore
	for i, sq := range legalSquares(&b) {
		out = append(out, search.MoveScore{Move: sq, Info: search.Info{Depth: 12, Selectivity: 73, Score: 7.5 - float64(i), PV: []board.Square{sq}}})
	}
	return out
}

func (w *wldHintEngine) Analyze(ctx context.Context, b board.Board, lim search.Limits, n int, info func([]search.MoveScore)) []search.MoveScore {
	ms := w.result(b)
	info(ms)
	for i := range ms {
		ms[i].Info = search.Info{Depth: b.NumEmpties(), Selectivity: 100, WLD: true, Score: 1, PV: ms[i].PV}
	}
	info(ms)
	return ms
}

func (w *wldHintEngine) Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result {
	ms := w.Analyze(ctx, b, lim, 1, func(ms []search.MoveScore) { info(ms[0].Info) })
	return search.Result{Move: ms[0].Move, Info: ms[0].Info}
}

// A win/loss/draw result is never shown as a disc score of +1: NBoard gets the midgame
// estimate moved to agree with the proof (its depth says 100%W), the console says "win".
func TestWLDNeverOneDisc(t *testing.T) {
	eng := &wldHintEngine{}
	c := newNBoardClientWith(t, eng, testOptions(t))
	c.send("nboard 2")
	c.send("hint 2")
	lines := c.untilStatusDone()
	c.send("go")
	lines = append(lines, c.until("==="))
	// Black must pass: the hint is the pass, minus white's value.
	c.send("set game (;GM[Othello]BO[8 -OOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOOOOOO OOOO-*OO *];)")
	c.send("hint 1")
	lines = append(lines, c.untilStatusDone()...)
	c.close()
	want := []string{"search D3 7.50 0 100%W", "search C4 6.50 0 100%W", "=== D3/7.50/", "search PAE8 -7.50 0 100%W"}
	joined := strings.Join(lines, "\n")
	for _, w := range want {
		if !strings.Contains(joined, w) {
			t.Errorf("nboard: no %q in\n%s", w, joined)
		}
	}
	var out bytes.Buffer
	if err := RunConsole(context.Background(), eng, strings.NewReader("hint 2\ngo\nquit\n"), &out, testOptions(t)); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{" 1. d3     win  win/loss/draw pv d3", "GoThello plays d3 (black win, win/loss/draw"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("console: no %q in\n%s", w, out.String())
		}
	}
}

// A person's clock that runs out is said once, and the game goes on; the board shows both
// clocks.
func TestConsoleClockRunsOut(t *testing.T) {
	o := testOptions(t)
	o.Depth = 2
	o.Clock = ggf.Clock{Main: 100 * time.Millisecond, Set: true}
	var out bytes.Buffer
	c := newConsole(&fakeEngine{}, o, &out)
	c.show()
	c.turnStart = time.Now().Add(-time.Second) // a second's thought on a clock of 0.1 s
	if err := c.playHuman(board.F5, true); err != nil {
		t.Fatal(err)
	}
	c.turnStart = time.Now().Add(-time.Second)
	if err := c.playHuman(board.SquareAt(3, 5), true); err != nil { // white: its own clock runs out too
		t.Fatal(err)
	}
	c.turnStart = time.Now().Add(-time.Second)
	if err := c.playHuman(board.SquareAt(2, 2), true); err != nil { // black again: already said
		t.Fatal(err)
	}
	c.show()
	text := out.String()
	if !strings.Contains(text, "clock: black 0:00, white 0:00\n") || strings.Count(text, "black's clock has run out (-0:01); the game goes on\n") != 1 ||
		strings.Count(text, "white's clock has run out") != 1 || !strings.Contains(text, "clock: black -0:02, white -0:01\n") {
		t.Errorf("console:\n%s", text)
	}
}
