package protocol

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/book"
	"github.com/othellogo/othello/search"
)

// recordingEngine remembers the limits of each search.
type recordingEngine struct {
	fakeEngine
	mu   sync.Mutex
	lims []search.Limits
}

func (r *recordingEngine) Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result {
	r.mu.Lock()
	r.lims = append(r.lims, lim)
	r.mu.Unlock()
	return r.fakeEngine.Search(ctx, b, lim, info)
}

// runNBoardText runs an NBoard session on input, its input held open until the output holds
// until.
func runNBoardText(t *testing.T, eng Engine, input, until string) string {
	t.Helper()
	return runHeld(t, RunNBoard, eng, testOptions(t), input, until)
}

const startBO = "BO[8 ---------------------------O*------*O--------------------------- *]"

// The clock: the player's main time (TB/TW, else TI) plus extension, minus the times of
// that player's moves, plus the increment for each of them; "move" adds to the record.
func TestNBoardClock(t *testing.T) {
	cases := []struct {
		game, moves    string
		remaining, inc time.Duration
	}{
		// no clock, or NBoard's TI[0]
		{"(;GM[Othello]" + startBO + ";)", "", 0, 0},
		{"(;GM[Othello]TI[0]" + startBO + "B[f5//12.5];)", "", 0, 0},
		// black to move after f5 d6: 5:00 - 12.5 s + 2 s increment
		{"(;GM[Othello]TI[5:00/2]" + startBO + "B[f5//12.5]W[d6//100];)", "", 5*time.Minute - 12500*time.Millisecond + 2*time.Second, 2 * time.Second},
		// white to move: white's own TW clock minus 100 s (the 3 s sent with "move" are black's)
		{"(;GM[Othello]TI[5:00]TW[10:00]" + startBO + "B[f5//12.5]W[d6//100];)", "move c3/0.5/3", 10*time.Minute - 100*time.Second, 0},
		// GGS extension counts as time left
		{"(;GM[Othello]TI[1:00//2:00]" + startBO + "B[f5//30];)", "", 3 * time.Minute, 0},
		// an overstepped clock still gets a token 10 ms (zero would mean no clock)
		{"(;GM[Othello]TI[0:10]" + startBO + "B[f5//30]W[d6];)", "", 10 * time.Millisecond, 0},
	}
	for i, c := range cases {
		eng := &recordingEngine{}
		in := "nboard 2\nset depth 2\nset game " + c.game + "\n"
		if c.moves != "" {
			in += c.moves + "\n"
		}
		in += "go\n"
		out := runNBoardText(t, eng, in, "=== ")
		if !strings.Contains(out, "=== ") || strings.Contains(out, "status") {
			t.Errorf("case %d: output %q", i, out)
			continue
		}
		if len(eng.lims) != 1 {
			t.Fatalf("case %d: %d searches", i, len(eng.lims))
		}
		lim := eng.lims[0]
		if lim.Remaining != c.remaining || lim.Increment != c.inc || lim.Depth != 2 {
			t.Errorf("case %d: limits %+v, want remaining %v increment %v depth 2", i, lim, c.remaining, c.inc)
		}
	}
}

// noisyEngine imitates a parallel search that keeps reporting from another goroutine until
// cancelled, and even a little after Search has returned. Each search has a number (in
// Nodes) so the test can tell an old search's lines.
type noisyEngine struct {
	n  atomic.Int64
	wg sync.WaitGroup
}

func (e *noisyEngine) Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result {
	id := uint64(e.n.Add(1))
	sq := legalSquares(&b)[0]
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		for extra := 0; extra < 20; {
			if ctx.Err() != nil {
				extra++
			}
			info(search.Info{Depth: 1, Nodes: id, PV: []board.Square{sq}})
			time.Sleep(50 * time.Microsecond)
		}
	}()
	<-ctx.Done()
	return search.Result{Move: sq}
}

func (e *noisyEngine) Analyze(ctx context.Context, b board.Board, lim search.Limits, n int, info func([]search.MoveScore)) []search.MoveScore {
	return nil
}

// go/ping rounds against a search that never ends by itself and keeps reporting from
// another goroutine: each ping is sent once its search is reporting; every ping gets its pong,
// in order, and no line of search k appears after "pong k".
func TestNBoardNothingStaleAfterPong(t *testing.T) {
	const rounds = 30
	eng := &noisyEngine{}
	out := &lineCollector{grew: make(chan struct{}, 1)}
	pr, pw := io.Pipe()
	ended := make(chan error, 1)
	go func() { ended <- RunNBoard(context.Background(), eng, pr, out, testOptions(t)) }()
	waitFor := func(s string) {
		t.Helper()
		deadline := time.After(60 * time.Second) // a deadlock guard, not a measurement
		for !strings.Contains(out.String(), s) {
			select {
			case <-out.grew:
			case <-deadline:
				t.Fatalf("no %q in output:\n%s", s, out.String())
			}
		}
	}
	io.WriteString(pw, "nboard 2\nset depth 10\n")
	for k := 1; k <= rounds; k++ {
		io.WriteString(pw, "go\n")
		waitFor(fmt.Sprintf("nodestats %d ", k))
		fmt.Fprintf(pw, "ping %d\n", k)
		waitFor(fmt.Sprintf("pong %d\n", k))
	}
	pw.Close()
	if err := <-ended; err != nil {
		t.Fatal(err)
	}
	eng.wg.Wait()
	pong := 0
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		f := strings.Fields(line)
		switch f[0] {
		case "pong":
			k, _ := strconv.Atoi(f[1])
			if k != pong+1 {
				t.Fatalf("pong %d after pong %d", k, pong)
			}
			pong = k
		case "nodestats":
			id, _ := strconv.Atoi(f[1])
			if id <= pong {
				t.Fatalf("line %q of search %d after pong %d", line, id, pong)
			}
		case "search", "set", "===":
		default:
			t.Fatalf("unexpected line %q", line)
		}
	}
	if pong != rounds {
		t.Fatalf("%d pongs, want %d", pong, rounds)
	}
}

// The input ending without "quit" ends the session once the commands read before it have
// run, a last line without its end of line too; their searches are stopped, so a deep "go"
// sends no move (TestEOFStopsSearch: the end of the input alone stops them).
func TestNBoardEOF(t *testing.T) {
	var out bytes.Buffer
	in := "nboard 2\nset depth 60\ngo\nhint 2\nping 4"
	if err := RunNBoard(context.Background(), &fakeEngine{}, strings.NewReader(in), &out, testOptions(t)); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.HasPrefix(s, "set myname GoThello\n") || !strings.HasSuffix(s, "\npong 4\n") || strings.Contains(s, "===") {
		t.Errorf("output %q", s)
	}
}

// A read error other than the end of the input ends the session too.
func TestNBoardReadError(t *testing.T) {
	r := io.MultiReader(strings.NewReader("nboard 2\n"), errReader{})
	var out bytes.Buffer
	if err := RunNBoard(context.Background(), &fakeEngine{}, r, &out, testOptions(t)); err != nil {
		t.Fatal(err)
	}
	if out.String() != "set myname GoThello\n" {
		t.Errorf("output %q", out.String())
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, fmt.Errorf("broken pipe") }

func TestLineReader(t *testing.T) {
	long := strings.Repeat("y", 300)
	in := "a\r\nbb\n" + long + "\n\nlast"
	lr := newLineReader(strings.NewReader(in), 100)
	want := []struct {
		s   string
		err error
	}{{"a", nil}, {"bb", nil}, {"", errLineTooLong}, {"", nil}, {"last", nil}, {"", io.EOF}}
	for i, w := range want {
		s, err := lr.next()
		if s != w.s || err != w.err {
			t.Errorf("line %d: %q, %v; want %q, %v", i, s, err, w.s, w.err)
		}
	}
}

// FuzzNBoard feeds arbitrary sessions to the command loop: it must not panic or hang, and
// everything it writes must be a protocol reply.
func FuzzNBoard(f *testing.F) {
	f.Add("nboard 2\nset depth 2\nhint 3\ngo\nping 1\n")
	f.Add("set game (;GM[Othello]" + startBO + "B[f5]W[d6];)\nmove c3\ngo\nanalyze\n")
	f.Add("set game (;GM[Othello]TI[1:00]" + startBO + "B[f5//70];)\ngo\n")
	f.Add("move pa\nF5\nset depth -1\nhint 99999999999999\n\x00\xff\n")
	f.Add("set game (;GM[Othello]BO[8 XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXO O];)\ngo\nhint 1\nanalyze\nlearn\n")
	f.Add("set game (;GM[Othello]" + startBO + "B[f5]W[d6]B[c3];)\nlearn\nset game (;GM[Othello]" + startBO + ";)\ngo\nhint 4\nmove f5\ngo\nlearn\n")
	f.Fuzz(func(t *testing.T, input string) {
		var out bytes.Buffer
		// a real book in memory, which "learn" fills (its searches at depth 1)
		opt := Options{Log: zerolog.Nop(), Book: BookOptions{Book: book.New(), LearnDepth: 1}}
		if err := RunNBoard(context.Background(), &fakeEngine{noDeep: true}, strings.NewReader(input), &out, opt); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if line == "" && out.Len() == 0 {
				break
			}
			word, _, _ := strings.Cut(line, " ")
			switch word {
			case "set", "===", "search", "book", "nodestats", "status", "pong", "learned", "analysis":
			default:
				t.Fatalf("reply %q is not an NBoard reply", line)
			}
			for i := 0; i < len(line); i++ {
				if line[i] < 32 || line[i] > 126 {
					t.Fatalf("reply %q has a control or non-ASCII byte", line)
				}
			}
		}
	})
}

func TestDepthString(t *testing.T) {
	cases := []struct {
		in   search.Info
		want string
	}{
		{search.Info{Depth: 12, Selectivity: 100}, "12"},
		{search.Info{Depth: 20, Exact: true}, "100%"},
		{search.Info{Depth: 20, WLD: true}, "100%W"},
		{search.Info{Depth: 21, WLD: true, Selectivity: 73}, "73%W"},
		{search.Info{Depth: 16, Selectivity: 73}, "16@73%"},
		{search.Info{Depth: 10}, "10"},
	}
	for _, c := range cases {
		if got := depthString(c.in); got != c.want {
			t.Errorf("%+v: %q, want %q", c.in, got, c.want)
		}
	}
	if discText(-0.001) != "0.00" || discText(-1.5) != "-1.50" || signed(2) != "+2.00" {
		t.Error("eval formatting")
	}
}

// wldEngine's searches report a midgame iteration of score mid, then end in a win/loss/draw
// proof of the given sign, as the real search does in its proof band above the exact solve.
type wldEngine struct {
	fakeEngine
	mid   float64
	proof float64
}

func (e *wldEngine) Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result {
	mv := legalSquares(&b)[0]
	info(search.Info{Depth: 1, Selectivity: 100, Score: e.mid, PV: []board.Square{mv}})
	return search.Result{Move: mv, Info: search.Info{Depth: b.NumEmpties(), Selectivity: 100, WLD: true, Score: e.proof, PV: []board.Square{mv}}}
}

// "analysis" lines carry a value in discs and nothing to mark a win/loss/draw proof: a proof's
// +1 must not be sent as "wins by one disc". The value is the midgame estimate, moved to agree
// with the proof when it does not.
func TestNBoardAnalyzeWLD(t *testing.T) {
	for _, tc := range []struct {
		mid, proof float64
		want       string // for black to move; the line after f5 has white to move
	}{
		{5.5, 1, "5.50"}, // a win: the estimate
		{-2, 1, "1.00"},  // a win the estimate missed: the least win
		{-7.25, -1, "-7.25"},
		{3, -1, "-1.00"},
		{3, 0, "0.00"}, // a draw is exact
	} {
		c := newNBoardClient(t, &wldEngine{mid: tc.mid, proof: tc.proof})
		c.send("nboard 2")
		c.until("set myname")
		c.send("set game (;GM[Othello]%sB[f5];)", startBO)
		c.send("analyze")
		c.until("status Analyzing")
		got := []string{c.until("analysis 1 "), c.until("analysis 0 ")}
		c.until("status")
		// Position 1 has white to move: its value is turned to black's view.
		white := tc.want
		if white != "0.00" {
			if white[0] == '-' {
				white = white[1:]
			} else {
				white = "-" + white
			}
		}
		if got[0] != "analysis 1 "+white || got[1] != "analysis 0 "+tc.want {
			t.Errorf("midgame %v, proof %v: %q, want values %s and %s", tc.mid, tc.proof, got, white, tc.want)
		}
		c.send("quit")
		if err := <-c.ended; err != nil {
			t.Fatal(err)
		}
	}
}
