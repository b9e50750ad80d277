package web

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/book"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/cputime"
	"github.com/othellogo/othello/protocol"
	"github.com/othellogo/othello/search"
)

// The page's tests run in a real headless Chromium (Debian's chromium package), one browser
// for the package with a tab per test. Without chromium they fail: CI installs it.

var screenshot = flag.String("screenshot", "", "write a PNG screenshot of the board with hints to this file")

var browserOnce struct {
	sync.Once
	ctx    context.Context
	cancel context.CancelFunc
	err    error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if browserOnce.cancel != nil {
		browserOnce.cancel()
	}
	os.Exit(code)
}

func chromiumPath() (string, error) {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no chromium on the PATH: the browser tests need it (apt-get install -y chromium; .ci/run installs it)")
}

// tab opens a new tab of the shared browser, closed at the end of the test.
func tab(t testing.TB) context.Context {
	t.Helper()
	browserOnce.Do(func() {
		path, err := chromiumPath()
		if err != nil {
			browserOnce.err = err
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.NoSandbox,
			chromedp.DisableGPU, chromedp.WindowSize(1240, 860))
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		bctx, cancelBrowser := chromedp.NewContext(actx)
		if err := chromedp.Do(bctx); err != nil {
			browserOnce.err = fmt.Errorf("starting %s: %v", path, err)
		}
		browserOnce.ctx = bctx
		browserOnce.cancel = func() { cancelBrowser(); cancelAlloc() }
	})
	if browserOnce.err != nil {
		t.Fatal(browserOnce.err)
	}
	ctx, cancel := chromedp.NewContext(browserOnce.ctx)
	if err := chromedp.Do(ctx); err != nil {
		cancel()
		t.Fatal(err)
	}
	// The tab is open: a timeout on what runs in it no longer stops the browser.
	ctx, cancelTime := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelTime(); cancel() })
	return ctx
}

func run(t testing.TB, ctx context.Context, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// js evaluates a JavaScript expression in the page.
func js[T any](t testing.TB, ctx context.Context, expr string, opts ...chromedp.EvaluateOption) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// wait polls a JavaScript condition in the page until it is true.
func wait(t testing.TB, ctx context.Context, cond string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(30*time.Second), chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('error').textContent + ' | ' + document.getElementById('status').textContent`))
		t.Fatalf("waiting for %s: %v (the page says: %s)", cond, err, msg)
	}
}

const discsJS = `Object.fromEntries([...document.querySelectorAll('[data-square]')].map(e => [e.dataset.square, e.dataset.disc || ""]))`

func discsOf(b board.Board) map[string]string {
	out := map[string]string{}
	for i := 0; i < 64; i++ {
		sq := board.Square(i)
		switch bit := sq.Bit(); {
		case b.Black()&bit != 0:
			out[sq.String()] = "black"
		case b.White()&bit != 0:
			out[sq.String()] = "white"
		default:
			out[sq.String()] = ""
		}
	}
	return out
}

// The URL's moves are on the board; a click plays a move and the engine answers.
func TestBrowserPlay(t *testing.T) {
	ts := newServer(t, Options{})
	ctx := tab(t)
	run(t, ctx, chromedp.Navigate(ts.URL+"/?moves=f5d6c3&side=black"))
	wait(t, ctx, `document.querySelectorAll('[data-disc]').length === 7 && document.querySelector('.sq.legal') !== null`)
	names := js[[]string](t, ctx, `[...document.querySelectorAll('[data-square]')].map(e => e.dataset.square)`)
	var want []string
	for i := 0; i < 64; i++ {
		want = append(want, board.Square(i).String())
	}
	sort.Strings(names)
	sort.Strings(want)
	if !slices.Equal(names, want) {
		t.Fatalf("squares %v, want a1..h8 once each", names)
	}
	b, _ := board.ParsePosition("", "f5d6c3")
	if discs, w := js[map[string]string](t, ctx, discsJS), discsOf(b); fmt.Sprint(discs) != fmt.Sprint(w) {
		t.Fatalf("discs %v, want %v", discs, w)
	}
	legal := js[[]string](t, ctx, `[...document.querySelectorAll('.sq.legal')].map(e => e.dataset.square).sort()`)
	var wantLegal []string
	for m := b.LegalMoves(); m != 0; m &= m - 1 {
		wantLegal = append(wantLegal, board.FirstSquare(m).String())
	}
	sort.Strings(wantLegal)
	if !slices.Equal(legal, wantLegal) {
		t.Fatalf("legal moves marked %v, want %v", legal, wantLegal)
	}
	// White (the player) moves; black (the engine) answers.
	run(t, ctx, chromedp.Click(chromedp.CSS(`[data-square="`+legal[0]+`"]`)))
	wait(t, ctx, `document.querySelectorAll('[data-disc]').length === 9 && document.getElementById('status').textContent.startsWith('white to move')`)
	last := js[string](t, ctx, `document.querySelector('.sq.last').dataset.square`)
	url := js[string](t, ctx, `location.search`)
	played := strings.TrimPrefix(url, "?moves=")
	if len(played) != 10 || played[:8] != "f5d6c3"+legal[0] || played[8:] != last {
		t.Fatalf("after the click: URL %q, last move marked %q", url, last)
	}
	after, err := board.ParsePosition("", played)
	if err != nil {
		t.Fatalf("the URL's game %q: %v", played, err)
	}
	if discs, w := js[map[string]string](t, ctx, discsJS), discsOf(after); fmt.Sprint(discs) != fmt.Sprint(w) {
		t.Fatalf("discs %v, want %v", discs, w)
	}
}

// With hints on, every legal move gets a value on its square.
func TestBrowserHints(t *testing.T) {
	ts := newServer(t, Options{})
	ctx := tab(t)
	run(t, ctx, chromedp.Navigate(ts.URL+"/?moves=f5d6c3&side=none&hints=1"))
	wait(t, ctx, `document.getElementById('hintinfo').dataset.final === "1"`)
	n := js[int](t, ctx, `document.querySelectorAll('.sq.legal').length`)
	hinted := js[int](t, ctx, `document.querySelectorAll('.sq.legal[data-hint]').length`)
	if n != 4 || hinted != n {
		t.Fatalf("%d of %d legal squares have a value, want all of 4", hinted, n)
	}
	for _, l := range js[[]string](t, ctx, `[...document.querySelectorAll('.hint small')].map(e => e.textContent)`) {
		// The page starts at the level of the server's depth 4: level 4, at selectivity 5.
		if l != "4@73%" {
			t.Errorf("hint label %q: want the search's depth and confidence, 4@73%%", l)
		}
	}
	if info := js[string](t, ctx, `document.getElementById('hintinfo').textContent`); !strings.Contains(info, "nodes/s") {
		t.Errorf("hint text %q: no speed", info)
	}
	if *screenshot != "" {
		// The picture shows the engine as `othello web` runs it, after a game analysis.
		run(t, ctx, chromedp.Navigate(realServer(t)+"/?side=none&moves=f5d6c3d3c4f4f6f3e6e7c6"), chromedp.Click(chromedp.CSS("#analyze")))
		wait(t, ctx, `document.getElementById('anaprogress').textContent.startsWith('analysed:')`)
		run(t, ctx, chromedp.Click(chromedp.CSS("#hints")))
		wait(t, ctx, `document.getElementById('hintinfo').dataset.final === "1"`)
		png, err := chromedp.Run(ctx, chromedp.ScreenshotScale(chromedp.CSS("main"), 0.6))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*screenshot, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A GGF record pasted and analysed shows in the graph, one point per position.
func TestBrowserGGF(t *testing.T) {
	ts := newServer(t, Options{})
	ctx := tab(t)
	data, err := os.ReadFile("testdata/game.ggf")
	if err != nil {
		t.Fatal(err)
	}
	run(t, ctx, chromedp.Navigate(ts.URL+"/?side=none"))
	wait(t, ctx, `document.querySelectorAll('[data-disc]').length === 4`)
	run(t, ctx, chromedp.SetValue(chromedp.CSS("#io"), string(data)), chromedp.Click(chromedp.CSS("#load")))
	wait(t, ctx, `document.querySelectorAll('#moves span').length === 10`)
	run(t, ctx, chromedp.Click(chromedp.CSS("#analyze")))
	wait(t, ctx, `document.getElementById('anaprogress').textContent.startsWith('analysed:')`)
	if points := js[int](t, ctx, `document.querySelectorAll('#graph circle').length`); points != 11 {
		t.Fatalf("%d points in the graph, want 11 (the start and 10 moves)", points)
	}
	// A click on the graph goes back to that position.
	run(t, ctx, chromedp.Click(chromedp.CSS(`#graph circle[data-ply="2"]`)))
	wait(t, ctx, `location.search === '?moves=f5d6'`)
}

// A position set up square by square becomes the game, and the URL links to it.
func TestBrowserSetup(t *testing.T) {
	ts := newServer(t, Options{})
	ctx := tab(t)
	run(t, ctx, chromedp.Navigate(ts.URL+"/?side=none"))
	wait(t, ctx, `document.querySelectorAll('[data-disc]').length === 4`)
	run(t, ctx, chromedp.Click(chromedp.CSS("#edit")), chromedp.Click(chromedp.CSS("#edclear")),
		chromedp.Click(chromedp.CSS(`[data-square="a1"]`)),
		chromedp.Click(chromedp.CSS(`[data-square="b1"]`)), chromedp.Click(chromedp.CSS(`[data-square="b1"]`)),
		chromedp.Click(chromedp.CSS("#eddone")))
	wait(t, ctx, `location.search.startsWith('?obf=')`)
	obf := js[string](t, ctx, `new URLSearchParams(location.search).get('obf')`)
	if want := "XO" + strings.Repeat("-", 62) + " X"; obf != want {
		t.Fatalf("set-up position %q, want %q", obf, want)
	}
	if legal := js[[]string](t, ctx, `[...document.querySelectorAll('.sq.legal')].map(e => e.dataset.square)`); !slices.Equal(legal, []string{"c1"}) {
		t.Fatalf("legal moves %v, want [c1]", legal)
	}
}

// realServer is the engine as `othello web` runs it by default: the trained evaluation,
// 64 MiB of tables, depth 12 at the default selectivity, the embedded book; one thread.
func realServer(b testing.TB) string {
	ev, err := eval.ByName("default")
	if err != nil {
		b.Fatal(err)
	}
	bk, err := book.Open("default")
	if err != nil {
		b.Fatal(err)
	}
	eng := search.NewEngine(search.Config{TTMiB: 64, Threads: 1, Eval: ev})
	ts := newServer(b, Options{Engines: []protocol.Engine{eng},
		Front: protocol.Options{Depth: protocol.DefaultDepth, Selectivity: protocol.DefaultSelectivity, Book: protocol.BookOptions{Book: bk}}})
	return ts.URL
}

// BenchmarkClickToHint measures, in the browser, the time from a click on a legal square,
// with hints on, to the first value of the engine's search drawn on a square of the new
// position (the book's values, drawn at once, do not count).
func BenchmarkClickToHint(b *testing.B) {
	url := realServer(b)
	ctx := tab(b)
	openings := []string{"f5d6c3d3c4", "f5f6e6f4e3", "f5f4e3f6d3", "f5d6c5f4e3", "f5f6e6d6c5", "f5d6c4d3c3", "f5f6e6f4g5"}
	var times []time.Duration
	for i := 0; i < b.N; i++ {
		o := openings[i%len(openings)]
		n := 4 + len(o)/2
		run(b, ctx, chromedp.Navigate(url+"/?side=none&hints=1&moves="+o))
		wait(b, ctx, fmt.Sprintf(`document.querySelectorAll('[data-disc]').length === %d && document.querySelector('[data-hint]') !== null`, n))
		sq := js[string](b, ctx, `document.querySelector('.sq.legal').dataset.square`)
		// The click comes while the position's own hint search runs, as when a person plays.
		ms := js[float64](b, ctx, `new Promise(ok => {
			const t = performance.now();
			new MutationObserver((_, obs) => {
				if (document.querySelectorAll('[data-disc]').length > `+fmt.Sprint(n)+` && document.querySelector('.hint:not(.book)')) { obs.disconnect(); ok(performance.now() - t); }
			}).observe(document.getElementById('board'), {subtree: true, childList: true, attributes: true});
			document.querySelector('[data-square="`+sq+`"]').click();
		})`, chromedp.EvalAwaitPromise)
		times = append(times, time.Duration(ms*float64(time.Millisecond)))
		b.Logf("%s, click %s: %.1f ms", o, sq, ms)
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2])/1e6, "median-ms")
	b.ReportMetric(float64(times[len(times)-1])/1e6, "max-ms")
	b.ReportMetric(0, "ns/op")
	b.Logf("click to first hint: %v", times)
}

// BenchmarkIdlePage measures the server's CPU time while a page stays open for 30 s with
// hints on, after its hint search has ended.
func BenchmarkIdlePage(b *testing.B) {
	url := realServer(b)
	ctx := tab(b)
	for i := 0; i < b.N; i++ {
		run(b, ctx, chromedp.Navigate(url+"/?side=none&hints=1&moves=f5d6c3"))
		wait(b, ctx, `document.getElementById('hintinfo').dataset.final === "1"`)
		time.Sleep(time.Second)
		c0, t0 := cputime.Process(), time.Now()
		time.Sleep(30 * time.Second)
		cpu, wall := cputime.Process()-c0, time.Since(t0)
		b.ReportMetric(float64(cpu)/float64(time.Millisecond), "cpu-ms")
		b.ReportMetric(100*float64(cpu)/float64(wall), "cpu-%")
	}
	b.ReportMetric(0, "ns/op")
}
