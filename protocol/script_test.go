package protocol

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// A session script is a transcript of one protocol session:
//
//	# comment
//	> input line            sent to the engine
//	>hex 00ff41             raw bytes sent as one line
//	>long 100000            a line of that many 'x' bytes
//	< output line           expected, exactly
//	<~ regexp               expected, the whole line matching
//	<                       an expected empty line
//
// Input is sent the way a GUI sends it: an input line goes out once all the output expected
// before it has arrived (a GUI waits for "pong" before trusting what follows), so a script
// can also send a command while a search is still running; the input ends once all the
// expected output has arrived. The whole output must then match the expected lines in order.
// Engines are fakes, so transcripts are exact.

type script struct {
	steps []step
}

// step is either input to send or an expected output line.
type step struct {
	input []byte
	exp   *expectLine
}

type expectLine struct {
	text  string
	re    *regexp.Regexp
	where string
}

func loadScript(t *testing.T, path string) script {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s script
	in := func(b []byte) { s.steps = append(s.steps, step{input: append(b, '\n')}) }
	exp := func(e expectLine) { s.steps = append(s.steps, step{exp: &e}) }
	for i, line := range strings.Split(strings.TrimRight(string(data), "\n"), "\n") {
		where := fmt.Sprintf("%s:%d", filepath.Base(path), i+1)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, ">hex "):
			b, err := hex.DecodeString(strings.TrimSpace(line[5:]))
			if err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			in(b)
		case strings.HasPrefix(line, ">long "):
			var n int
			fmt.Sscan(line[6:], &n)
			in(bytes.Repeat([]byte{'x'}, n))
		case strings.HasPrefix(line, "> "):
			in([]byte(line[2:]))
		case strings.HasPrefix(line, "<~ "):
			exp(expectLine{re: regexp.MustCompile("^(?:" + line[3:] + ")$"), where: where})
		case line == "<":
			exp(expectLine{text: "", where: where})
		case strings.HasPrefix(line, "< "):
			exp(expectLine{text: line[2:], where: where})
		default:
			t.Fatalf("%s: unknown script line %q", where, line)
		}
	}
	return s
}

// lineCollector is the engine's stdout: it counts complete lines for the script runner.
type lineCollector struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	lines int
	grew  chan struct{}
}

func (c *lineCollector) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.buf.Write(p)
	c.lines += bytes.Count(p, []byte{'\n'})
	c.mu.Unlock()
	select {
	case c.grew <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (c *lineCollector) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lines
}

func (c *lineCollector) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// waitLines waits until the output has n lines or the run has ended. The long timeout only
// turns a deadlock into a failure; it measures nothing.
func (c *lineCollector) waitLines(n int, ended <-chan struct{}) bool {
	timeout := time.After(60 * time.Second)
	for c.count() < n {
		select {
		case <-c.grew:
		case <-ended:
			return false
		case <-timeout:
			return false
		}
	}
	return true
}

type runFunc func(ctx context.Context, eng Engine, in io.Reader, out io.Writer, opt Options) error

func testOptions(t *testing.T) Options {
	return Options{Name: "GoThello", Version: "test", Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)}
}

func runScripts(t *testing.T, pattern string, run runFunc, opt func(*Options)) {
	files, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts %s: %v", pattern, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			s := loadScript(t, f)
			o := testOptions(t)
			if opt != nil {
				opt(&o)
			}
			out := &lineCollector{grew: make(chan struct{}, 1)}
			pr, pw := io.Pipe()
			ended := make(chan struct{})
			var err error
			go func() {
				err = run(context.Background(), &fakeEngine{}, pr, out, o)
				pr.CloseWithError(io.ErrClosedPipe) // input after the end is not read
				close(ended)
			}()
			var exp []*expectLine
			for _, st := range s.steps {
				if st.exp != nil {
					exp = append(exp, st.exp)
					continue
				}
				if !out.waitLines(len(exp), ended) {
					break
				}
				if _, err := pw.Write(st.input); err != nil {
					break // the session has ended ("quit"): the rest is not read
				}
			}
			// Like a GUI, the script keeps its input open until it has the replies it waits
			// for: the end of the input would stop a search still running.
			out.waitLines(len(exp), ended)
			pw.Close()
			<-ended
			if err != nil {
				t.Fatal(err)
			}
			text := out.String()
			var got []string
			if text != "" {
				got = strings.Split(strings.TrimSuffix(text, "\n"), "\n")
			}
			for i, e := range exp {
				if i >= len(got) {
					t.Fatalf("%s: output ended; want %q\nfull output:\n%s", e.where, e.text, text)
				}
				ok := e.text == got[i]
				if e.re != nil {
					ok = e.re.MatchString(got[i])
				}
				if !ok {
					want := e.text
					if e.re != nil {
						want = "~" + e.re.String()
					}
					t.Fatalf("%s: output line %d is %q, want %q\nfull output:\n%s", e.where, i+1, got[i], want, text)
				}
			}
			if len(got) > len(exp) {
				t.Fatalf("extra output from line %d: %q\nfull output:\n%s", len(exp)+1, got[len(exp)], text)
			}
		})
	}
}

func TestNBoardScripts(t *testing.T) { runScripts(t, "nboard_*.txt", RunNBoard, nil) }

func TestGTPScripts(t *testing.T) {
	runScripts(t, "gtp_*.txt", RunGTP, func(o *Options) { o.Depth = 2 })
}

func TestConsoleScripts(t *testing.T) {
	runScripts(t, "console_*.txt", RunConsole, func(o *Options) { o.Depth = 2 })
}

func TestPlayScripts(t *testing.T) {
	runScripts(t, "play_*.txt", RunConsole, func(o *Options) { o.Depth = 2; o.EngineWhite = true })
}
