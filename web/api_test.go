package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/book"
	"github.com/othellogo/othello/protocol"
	"github.com/othellogo/othello/search"
)

// blockingEngine reports one iteration (the first legal move, valued 0) and then, when block
// is set, waits for its context, so a test can cancel a search that is surely running.
type blockingEngine struct {
	block   bool
	started chan struct{} // receives once per search when not nil
}

func (e *blockingEngine) Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result {
	ms := e.Analyze(ctx, b, lim, 1, func(ms []search.MoveScore) { info(ms[0].Info) })
	return search.Result{Move: ms[0].Move, Info: ms[0].Info}
}

func (e *blockingEngine) Analyze(ctx context.Context, b board.Board, lim search.Limits, n int, info func([]search.MoveScore)) []search.MoveScore {
	var out []search.MoveScore
	for m := b.LegalMoves(); m != 0; m &= m - 1 {
		sq := board.FirstSquare(m)
		out = append(out, search.MoveScore{Move: sq, Info: search.Info{Depth: 1, Selectivity: 100, PV: []board.Square{sq}, Nodes: 1}})
	}
	if len(out) == 0 {
		out = []search.MoveScore{{Move: board.NoSquare}}
	}
	info(out)
	if e.started != nil {
		e.started <- struct{}{}
	}
	if e.block {
		<-ctx.Done()
	}
	return out
}

// fastEngine is the real search with small tables, one thread and the mobility evaluation:
// a few milliseconds a search at the depths the tests ask for.
func fastEngine() protocol.Engine {
	return search.NewEngine(search.Config{TTMiB: 2, Threads: 1})
}

func newServer(t testing.TB, opt Options) *httptest.Server {
	t.Helper()
	if len(opt.Engines) == 0 {
		opt.Engines = []protocol.Engine{fastEngine()}
	}
	if opt.Front.Depth == 0 {
		opt.Front.Depth = 4
	}
	opt.Front.Log = zerolog.Nop()
	s, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	// An open page's event stream would keep Close waiting.
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	return ts
}

// post sends body to the endpoint and decodes the answer into out (when not nil); it returns
// the status.
func post(t testing.TB, ts *httptest.Server, name string, body any, out any) int {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case string:
		r = strings.NewReader(b)
	default:
		data, _ := json.Marshal(b)
		r = bytes.NewReader(data)
	}
	res, err := http.Post(ts.URL+"/api/"+name, "application/json", r)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		var e errorBody
		if json.Unmarshal(data, &e) != nil || e.Error == "" {
			t.Errorf("%s: status %d without a JSON reason: %q", name, res.StatusCode, data)
		}
	}
	if out != nil && res.StatusCode == http.StatusOK {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s: %v in %q", name, err, data)
		}
	}
	return res.StatusCode
}

func newSession(t testing.TB, ts *httptest.Server, moves string) state {
	t.Helper()
	var st state
	if code := post(t, ts, "new", map[string]string{"moves": moves}, &st); code != 200 {
		t.Fatalf("new %q: status %d", moves, code)
	}
	return st
}

func TestGameFlow(t *testing.T) {
	ts := newServer(t, Options{})
	st := newSession(t, ts, "f5d6c3")
	want, _ := board.ParsePosition("", "f5d6c3")
	if st.OBF != want.OBF() || st.Ply != 3 || st.Last != "c3" || st.ToMove != "white" {
		t.Fatalf("after f5d6c3: %+v", st)
	}
	id := st.Session
	var s2 state
	if post(t, ts, "move", map[string]string{"session": id, "move": "d3"}, &s2); s2.Ply != 4 || s2.Transcript != "f5d6c3d3" {
		t.Fatalf("move d3: ply %d transcript %q", s2.Ply, s2.Transcript)
	}
	post(t, ts, "undo", map[string]string{"session": id}, &s2)
	if s2.Ply != 3 || len(s2.Moves) != 4 {
		t.Fatalf("undo: ply %d, %d moves kept for redo", s2.Ply, len(s2.Moves))
	}
	post(t, ts, "redo", map[string]string{"session": id}, &s2)
	if s2.Transcript != "f5d6c3d3" {
		t.Fatalf("redo: %q", s2.Transcript)
	}
	post(t, ts, "seek", map[string]any{"session": id, "ply": 1}, &s2)
	if s2.Transcript != "f5" {
		t.Fatalf("seek 1: %q", s2.Transcript)
	}
	// A different move drops the rest of the record.
	post(t, ts, "move", map[string]string{"session": id, "move": "f6"}, &s2)
	if s2.Transcript != "f5f6" || len(s2.Moves) != 2 {
		t.Fatalf("f6 after seek: %q, %d moves", s2.Transcript, len(s2.Moves))
	}
	var reply searchReply
	if code := post(t, ts, "go", map[string]any{"session": id, "level": 2}, &reply); code != 200 {
		t.Fatalf("go: %d", code)
	}
	b, _ := board.ParsePosition("", "f5f6")
	if sq, err := board.ParseSquare(reply.Lines[0].Move); err != nil || !b.IsLegal(sq) || reply.State.Ply != 3 {
		t.Fatalf("go: engine move %q, ply %d", reply.Lines[0].Move, reply.State.Ply)
	}
	if !reply.State.Evals[2].Known {
		t.Errorf("go: no value recorded for the position searched")
	}
	// Under a game clock of half a second, with no depth limit to stop it sooner.
	if code := post(t, ts, "go", map[string]any{"session": id, "level": 30, "clock": 0.5}, &reply); code != 200 || reply.State.Ply != 4 {
		t.Fatalf("go on a clock: status %d, ply %d", code, reply.State.Ply)
	}
}

// The forced pass is made by the server, and undo goes back past it.
func TestPass(t *testing.T) {
	ts := newServer(t, Options{})
	// Black to move with no move, white has one: black passes at once.
	var st state
	obf := strings.Repeat("X", 61) + "OX- X"
	if code := post(t, ts, "new", map[string]string{"obf": obf}, &st); code != 200 {
		t.Fatal(code)
	}
	b, _, _ := board.ParseOBF(obf)
	if !b.MustPass() {
		t.Fatal("the test position must be a pass for black")
	}
	if st.ToMove != "white" || len(st.Moves) != 1 || st.Moves[0].Move != "pa" {
		t.Fatalf("pass not made: to move %s, moves %+v", st.ToMove, st.Moves)
	}
}

func TestBadRequests(t *testing.T) {
	ts := newServer(t, Options{})
	id := newSession(t, ts, "").Session
	big := `{"session":"` + id + `","text":"` + strings.Repeat("x", MaxBody) + `"}`
	cases := []struct {
		name, endpoint, body string
		code                 int
	}{
		{"empty body", "move", "", 400},
		{"not JSON", "move", "f5", 400},
		{"truncated JSON", "move", `{"session":"` + id, 400},
		{"unknown field", "move", `{"session":"` + id + `","square":"f5"}`, 400},
		{"two values", "move", `{"session":"` + id + `","move":"f5"}{}`, 400},
		{"wrong type", "move", `{"session":"` + id + `","move":5}`, 400},
		{"unknown session", "move", `{"session":"nope","move":"f5"}`, 404},
		{"no session", "state", `{}`, 404},
		{"bad square", "move", `{"session":"` + id + `","move":"z9"}`, 400},
		{"pass as a move", "move", `{"session":"` + id + `","move":"pa"}`, 400},
		{"illegal move", "move", `{"session":"` + id + `","move":"a1"}`, 409},
		{"occupied square", "move", `{"session":"` + id + `","move":"d4"}`, 409},
		{"nothing to undo", "undo", `{"session":"` + id + `"}`, 409},
		{"nothing to redo", "redo", `{"session":"` + id + `"}`, 409},
		{"seek without ply", "seek", `{"session":"` + id + `"}`, 400},
		{"seek past the end", "seek", `{"session":"` + id + `","ply":5}`, 400},
		{"seek negative", "seek", `{"session":"` + id + `","ply":-1}`, 400},
		{"bad level", "go", `{"session":"` + id + `","level":999}`, 400},
		{"negative level", "hint", `{"session":"` + id + `","level":-1}`, 400},
		{"bad selectivity", "hint", `{"session":"` + id + `","sel":99}`, 400},
		{"negative time", "go", `{"session":"` + id + `","time":-1}`, 400},
		{"huge time", "go", `{"session":"` + id + `","time":1e300}`, 400},
		{"negative clock", "go", `{"session":"` + id + `","clock":-5}`, 400},
		{"clock as text", "go", `{"session":"` + id + `","clock":"5:00"}`, 400},
		{"bad OBF", "new", `{"obf":"XXXX X"}`, 400},
		{"bad OBF character", "new", `{"obf":"` + strings.Repeat("Z", 64) + ` X"}`, 400},
		{"OBF without side", "new", `{"text":"` + strings.Repeat("-", 64) + `"}`, 400},
		{"illegal transcript", "new", `{"moves":"f5f5"}`, 400},
		{"cut transcript", "new", `{"moves":"f5d"}`, 400},
		{"transcript garbage", "new", `{"moves":"hello"}`, 400},
		{"bad GGF", "new", `{"text":"(;GM[Othello]BO[8 garbage]"}`, 400},
		{"GGF illegal move", "new", `{"text":"(;GM[Othello]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[a1];)"}`, 400},
		{"GGF board type", "new", `{"text":"(;GM[Othello]TY[10]BO[10 x];)"}`, 400},
		{"oversized body", "new", big, 413},
		{"unknown endpoint", "frobnicate", `{}`, 404},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if code := post(t, ts, c.endpoint, c.body, nil); code != c.code {
				t.Errorf("status %d, want %d", code, c.code)
			}
		})
	}
	// None of it changed the game.
	var st state
	post(t, ts, "state", map[string]string{"session": id}, &st)
	if st.Ply != 0 || st.OBF != startOBF() {
		t.Fatalf("the game changed: %+v", st)
	}
	res, err := http.Get(ts.URL + "/api/move")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode/100 != 4 {
		t.Errorf("GET /api/move: status %d, want 4xx", res.StatusCode)
	}
}

func TestLoadGGF(t *testing.T) {
	ts := newServer(t, Options{})
	data, err := os.ReadFile("testdata/game.ggf")
	if err != nil {
		t.Fatal(err)
	}
	var st state
	if code := post(t, ts, "new", map[string]string{"text": string(data)}, &st); code != 200 {
		t.Fatal(code)
	}
	if st.Transcript != "f5d6c3d3c4f4f6f3e6e7" {
		t.Fatalf("GGF loaded as %q", st.Transcript)
	}
	if !st.Evals[0].Known {
		t.Errorf("the record's evals were not kept")
	}
	var again state
	post(t, ts, "new", map[string]string{"text": st.GGF}, &again)
	if again.Transcript != st.Transcript {
		t.Errorf("the GGF written does not read back: %q", again.Transcript)
	}
	// OBF followed by moves, as the URL gives them.
	post(t, ts, "new", map[string]string{"obf": st.Start, "moves": "f5d6"}, &again)
	if again.Transcript != "f5d6" {
		t.Errorf("obf+moves: %q", again.Transcript)
	}
}

// Analysis values every position and marks each move's loss against the best move.
func TestAnalyze(t *testing.T) {
	ts := newServer(t, Options{})
	st := newSession(t, ts, "f5d6c3d3c4f4f6f3e6e7")
	var reply searchReply
	if code := post(t, ts, "analyze", map[string]any{"session": st.Session, "level": 2}, &reply); code != 200 {
		t.Fatal(code)
	}
	for i, e := range reply.State.Evals {
		if !e.Known {
			t.Errorf("position %d not valued", i)
		}
	}
	for i, m := range reply.State.Moves {
		if m.Loss == nil || *m.Loss < 0 {
			t.Errorf("move %d %s: loss %v", i+1, m.Move, m.Loss)
		}
		if m.Best == m.Move && *m.Loss != 0 {
			t.Errorf("move %d %s is the best move but loses %v", i+1, m.Move, *m.Loss)
		}
	}
}

// events reads server-sent events of one session and sends their names and data.
func events(t testing.TB, ts *httptest.Server, id string) (<-chan [2]string, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/events?session="+id, nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 {
		t.Fatalf("events: status %d", res.StatusCode)
	}
	out := make(chan [2]string, 100)
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		var name string
		for sc.Scan() {
			l := sc.Text()
			switch {
			case strings.HasPrefix(l, "event: "):
				name = l[7:]
			case strings.HasPrefix(l, "data: "):
				select {
				case out <- [2]string{name, l[6:]}:
				default:
				}
			}
		}
		close(out)
	}()
	return out, cancel
}

// A hint streams every iteration; a move made meanwhile stops it.
func TestHintStreamAndCancel(t *testing.T) {
	eng := &blockingEngine{block: true, started: make(chan struct{}, 1)}
	ts := newServer(t, Options{Engines: []protocol.Engine{eng}})
	st := newSession(t, ts, "f5")
	evs, stop := events(t, ts, st.Session)
	defer stop()
	code := make(chan int, 1)
	go func() { code <- post(t, ts, "hint", map[string]string{"session": st.Session}, nil) }()
	<-eng.started
	ev := <-evs
	var p progress
	if ev[0] != "search" || json.Unmarshal([]byte(ev[1]), &p) != nil || p.Kind != "hint" || len(p.Lines) != len(st.Legal) {
		t.Fatalf("event %q: want a hint with %d lines", ev, len(st.Legal))
	}
	var s2 state
	if post(t, ts, "move", map[string]string{"session": st.Session, "move": st.Legal[0]}, &s2); s2.Ply != 2 {
		t.Fatalf("move during the hint: ply %d", s2.Ply)
	}
	select {
	case c := <-code:
		if c != http.StatusConflict {
			t.Fatalf("the stopped hint answered %d, want 409", c)
		}
	case <-time.After(time.Minute):
		t.Fatal("the hint did not stop when the game changed")
	}
}

// Pages each have their own game, and their searches share the engine pool.
func TestConcurrentSessions(t *testing.T) {
	ts := newServer(t, Options{Engines: []protocol.Engine{fastEngine(), fastEngine()}})
	var wg sync.WaitGroup
	openings := []string{"f5d6", "f5f6", "f5f4", "e6f4", "c4c3"}
	for _, o := range openings {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := newSession(t, ts, o)
			for i := 0; i < 4; i++ {
				var r searchReply
				if code := post(t, ts, "go", map[string]any{"session": st.Session, "level": 1}, &r); code != 200 {
					t.Errorf("%s: go: %d", o, code)
					return
				}
				if !strings.HasPrefix(r.State.Transcript, o) || r.State.Ply != len(o)/2+i+1 {
					t.Errorf("%s: another page's moves came in: %q", o, r.State.Transcript)
				}
			}
		}()
	}
	wg.Wait()
}

func TestBookInState(t *testing.T) {
	bk, err := book.Open("default")
	if err != nil || bk == nil {
		t.Fatalf("embedded book: %v", err)
	}
	ts := newServer(t, Options{Front: protocol.Options{Book: protocol.BookOptions{Book: bk}}})
	st := newSession(t, ts, "f5")
	if len(st.Book) == 0 {
		t.Fatal("no book moves after f5")
	}
	var r searchReply
	post(t, ts, "go", map[string]string{"session": st.Session}, &r)
	if r.Lines[0].Label != "book" || r.Lines[0].Move != st.Book[0].Move {
		t.Fatalf("engine move %+v, want the book's %s", r.Lines[0], st.Book[0].Move)
	}
}

func TestSessionsExpire(t *testing.T) {
	ts := newServer(t, Options{SessionTTL: time.Millisecond, MaxSessions: 2})
	a := newSession(t, ts, "")
	time.Sleep(5 * time.Millisecond)
	if code := post(t, ts, "state", map[string]string{"session": a.Session}, nil); code != 404 {
		t.Fatalf("expired session: %d", code)
	}
}

func TestTooManySessions(t *testing.T) {
	ts := newServer(t, Options{MaxSessions: 2})
	newSession(t, ts, "")
	newSession(t, ts, "")
	if code := post(t, ts, "new", map[string]string{}, nil); code != http.StatusServiceUnavailable {
		t.Fatalf("third session: %d, want 503", code)
	}
}

func TestListenWarns(t *testing.T) {
	for _, c := range []struct {
		addr string
		warn bool
	}{{"127.0.0.1:0", false}, {"localhost:0", false}, {"[::1]:0", false}, {"0.0.0.0:0", true}, {":0", true}} {
		ln, warning, err := Listen(c.addr)
		if err != nil {
			if strings.Contains(c.addr, "::1") {
				continue // no IPv6 loopback here
			}
			t.Fatalf("%s: %v", c.addr, err)
		}
		ln.Close()
		if (warning != "") != c.warn {
			t.Errorf("%s: warning %q", c.addr, warning)
		}
	}
	if _, _, err := Listen("nonsense"); err == nil {
		t.Error("a bad address was accepted")
	}
}

// FuzzAPI sends arbitrary bodies to every endpoint: the answer is a status below 500 and,
// when it is not 200, a JSON reason.
func FuzzAPI(f *testing.F) {
	s, err := New(Options{Engines: []protocol.Engine{search.NewEngine(search.Config{TTMiB: 1, Threads: 1})},
		Front: protocol.Options{Depth: 1, Log: zerolog.Nop()}})
	if err != nil {
		f.Fatal(err)
	}
	h := s.Handler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/new", strings.NewReader(`{}`)))
	var st state
	json.Unmarshal(rec.Body.Bytes(), &st)
	for _, seed := range []string{`{"move":"f5"}`, `{"text":"f5d6c3"}`, `{"obf":"` + startOBF() + `"}`,
		`{"text":"(;GM[Othello]B[f5];)"}`, `{"ply":3}`, `{"level":1,"sel":2,"time":0.01}`, `{`, `[]`, `null`} {
		f.Add(uint8(0), seed)
		f.Add(uint8(1), seed)
	}
	endpoints := []string{"new", "move", "undo", "redo", "seek", "state", "go", "hint", "analyze", "stop"}
	f.Fuzz(func(t *testing.T, ep uint8, body string) {
		// The session's id goes in where the body names none, so the fuzzer reaches the game.
		if strings.HasPrefix(body, "{") && !strings.Contains(body, "session") {
			body = `{"session":"` + st.Session + `",` + body[1:]
			if strings.HasSuffix(body, ",}") {
				body = body[:len(body)-2] + "}"
			}
		}
		name := endpoints[int(ep)%len(endpoints)]
		if name == "analyze" || name == "go" || name == "hint" {
			// Searches stay at depth 1 with no time per move, so each request is short.
			body = strings.ReplaceAll(strings.ReplaceAll(body, `"level"`, `"lvl"`), `"time"`, `"tm"`)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/"+name, strings.NewReader(body)))
		if rec.Code >= 500 {
			t.Fatalf("%s %q: status %d %s", name, body, rec.Code, rec.Body)
		}
		if rec.Code != 200 {
			var e errorBody
			if json.Unmarshal(rec.Body.Bytes(), &e) != nil || e.Error == "" {
				t.Fatalf("%s %q: status %d without a reason: %q", name, body, rec.Code, rec.Body)
			}
		}
	})
}

func startOBF() string {
	b := board.Start()
	return b.OBF()
}

// A page that goes (its event stream closes) stops its session's search.
func TestPageGoneStopsSearch(t *testing.T) {
	eng := &blockingEngine{block: true, started: make(chan struct{}, 1)}
	ts := newServer(t, Options{Engines: []protocol.Engine{eng}})
	st := newSession(t, ts, "f5")
	evs, stop := events(t, ts, st.Session)
	code := make(chan int, 1)
	go func() { code <- post(t, ts, "hint", map[string]string{"session": st.Session}, nil) }()
	<-eng.started
	<-evs
	stop()
	select {
	case c := <-code:
		if c != http.StatusConflict {
			t.Fatalf("the hint of a page gone answered %d, want 409", c)
		}
	case <-time.After(time.Minute):
		t.Fatal("the search went on after its page closed")
	}
}
