package protocol

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/book"
	"github.com/othellogo/othello/search"
)

// signalEngine is the fake engine telling when a search or an analysis starts.
type signalEngine struct {
	fakeEngine
	started chan struct{}
}

func (e *signalEngine) signal() {
	select {
	case e.started <- struct{}{}:
	default:
	}
}

func (e *signalEngine) Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result {
	e.signal()
	return e.fakeEngine.Search(ctx, b, lim, info)
}

func (e *signalEngine) Analyze(ctx context.Context, b board.Board, lim search.Limits, n int, info func([]search.MoveScore)) []search.MoveScore {
	e.signal()
	return e.fakeEngine.Analyze(ctx, b, lim, n, info)
}

// The input ending while a search runs means whoever drives the engine is gone: every front
// end stops the search and returns, instead of keeping a core busy for nobody. The fake's
// searches at depth 60 never end by themselves (they wait for their cancellation), so without
// that only the test's timeout would end them.
func TestEOFStopsSearch(t *testing.T) {
	deep := func(o *Options) { o.Depth = 60 }
	learner := func(o *Options) {
		o.Book = BookOptions{Book: book.New(), File: t.TempDir() + "/learned.book", LearnDepth: fakeDeep}
	}
	for _, tc := range []struct {
		name  string
		run   runFunc
		opt   func(*Options)
		input string
	}{
		{"nboard go", RunNBoard, nil, "nboard 2\nset depth 60\ngo\n"},
		{"nboard hint", RunNBoard, nil, "nboard 2\nset depth 60\nhint 3\n"},
		{"nboard analyze", RunNBoard, nil, "nboard 2\nset depth 60\nanalyze\n"},
		{"nboard learn", RunNBoard, learner, "set game " + learnGGF + "\nlearn\n"},
		{"gtp genmove", RunGTP, deep, "1 genmove b\n"},
		{"console go", RunConsole, nil, "level 60\ngo\n"},
		{"console hint", RunConsole, nil, "level 60\nhint 2\n"},
		{"console setboard", RunConsole, func(o *Options) { deep(o); o.EngineWhite = true }, "setboard " + strings.Repeat("-", 27) + "OX------XO" + strings.Repeat("-", 27) + " O\n"},
		{"play", RunConsole, func(o *Options) { deep(o); o.EngineWhite = true }, "f5\n"},
		{"play, the engine first", RunConsole, func(o *Options) { deep(o); o.EngineBlack = true }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := &signalEngine{started: make(chan struct{}, 1)}
			opt := testOptions(t)
			if tc.opt != nil {
				tc.opt(&opt)
			}
			pr, pw := io.Pipe()
			out := &lineCollector{grew: make(chan struct{}, 1)}
			ended := make(chan error, 1)
			go func() {
				err := tc.run(context.Background(), eng, pr, out, opt)
				pr.CloseWithError(io.ErrClosedPipe)
				ended <- err
			}()
			go io.WriteString(pw, tc.input)
			guard := time.After(60 * time.Second) // a deadlock guard, not a measurement
			select {
			case <-eng.started:
			case <-guard:
				t.Fatalf("no search started; output:\n%s", out.String())
			}
			pw.Close()
			select {
			case err := <-ended:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("the input ended during a search that does not end by itself: still running after 30 s; output:\n%s", out.String())
			}
		})
	}
}

// runHeld runs a session the way a GUI or a patient script drives it: it sends input, keeps
// the input open until the output holds until (or the session has ended), and then closes
// it. The end of the input stops searches, so a session whose replies are awaited must not
// end its input before they come.
func runHeld(t *testing.T, run runFunc, eng Engine, opt Options, input, until string) string {
	t.Helper()
	out := &lineCollector{grew: make(chan struct{}, 1)}
	pr, pw := io.Pipe()
	ended := make(chan error, 1)
	go func() {
		err := run(context.Background(), eng, pr, out, opt)
		pr.CloseWithError(io.ErrClosedPipe) // input after the end is not read
		ended <- err
	}()
	var err error
	done := false
	if _, werr := io.WriteString(pw, input); werr == nil {
		guard := time.After(60 * time.Second) // a deadlock guard, not a measurement
	wait:
		for !strings.Contains(out.String(), until) {
			select {
			case <-out.grew:
			case err = <-ended:
				done = true
				break wait
			case <-guard:
				t.Errorf("no %q in the output:\n%s", until, out.String())
				break wait
			}
		}
	}
	pw.Close()
	if !done {
		err = <-ended
	}
	if err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// realSignal is the real engine telling when a search or an analysis starts.
type realSignal struct {
	*search.Engine
	started chan struct{}
}

func (e realSignal) Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result {
	select {
	case e.started <- struct{}{}:
	default:
	}
	return e.Engine.Search(ctx, b, lim, info)
}

func (e realSignal) Analyze(ctx context.Context, b board.Board, lim search.Limits, n int, info func([]search.MoveScore)) []search.MoveScore {
	select {
	case e.started <- struct{}{}:
	default:
	}
	return e.Engine.Analyze(ctx, b, lim, n, info)
}

// The same with the real engine searching at depth 60 from near the start (hours of work):
// the input closed, every front end stops the search and returns at once.
func TestEOFStopsRealSearch(t *testing.T) {
	deep := func(o *Options) { o.Depth = 60 }
	for _, tc := range []struct {
		name  string
		run   runFunc
		opt   func(*Options)
		input string
	}{
		{"nboard go", RunNBoard, nil, "nboard 2\nset depth 60\ngo\n"},
		{"nboard hint", RunNBoard, nil, "nboard 2\nset depth 60\nhint 4\n"},
		{"gtp genmove", RunGTP, deep, "1 genmove b\n"},
		{"console go", RunConsole, nil, "level 60\ngo\n"},
		{"play", RunConsole, func(o *Options) { deep(o); o.EngineWhite = true }, "f5\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := realSignal{search.NewEngine(search.Config{TTMiB: 1}), make(chan struct{}, 1)}
			opt := testOptions(t)
			if tc.opt != nil {
				tc.opt(&opt)
			}
			pr, pw := io.Pipe()
			out := &lineCollector{grew: make(chan struct{}, 1)}
			ended := make(chan error, 1)
			go func() {
				err := tc.run(context.Background(), eng, pr, out, opt)
				pr.CloseWithError(io.ErrClosedPipe)
				ended <- err
			}()
			go io.WriteString(pw, tc.input)
			select {
			case <-eng.started:
			case <-time.After(60 * time.Second): // a deadlock guard, not a measurement
				t.Fatalf("no search started; output:\n%s", out.String())
			}
			time.Sleep(100 * time.Millisecond) // well into the search
			pw.Close()
			select {
			case err := <-ended:
				if err != nil {
					t.Fatal(err)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("the input ended during a depth-60 search: still running after 30 s; output:\n%s", out.String())
			}
		})
	}
}
