// Package web owns the browser board of `othello web`: an HTTP server on the loopback
// interface, one embedded page (HTML, CSS and plain JavaScript, no build step), JSON
// endpoints for the game, hints and game analysis, and a server-sent-event stream of the
// running search's progress. It drives the engine through the same small interface as the
// text front ends (protocol.Engine) and never knows which search runs.
//
// Each page is a session: a random id the page holds, and on the server only that session's
// game. A session runs at most one search at a time; a move, an undo or any other change to
// the game cancels it. Sessions left idle expire. Searches of different sessions share a
// fixed pool of engines, each engine running one search at a time.
//
// Everything a request carries is checked before use: a body larger than MaxBody, JSON that
// does not parse or has unknown fields, an illegal move, a bad OBF, GGF or transcript are
// answered with a 4xx status and a JSON {"error": reason}, and the game is left as it was.
package web

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/protocol"
	"github.com/othellogo/othello/search"
)

//go:embed static
var staticFiles embed.FS

// DefaultAddr is where the server listens unless told otherwise.
const DefaultAddr = "127.0.0.1:8080"

// MaxBody bounds a request body; a GGF record is at most ggf.MaxRecord (1 MiB).
const MaxBody = 2 << 20

// MaxMoveTime bounds the time per move a page may ask for.
const MaxMoveTime = time.Hour

// Level is one entry of the page's level menu: the depth and Multi-ProbCut selectivity of
// the searches it asks for, and the most empties at which they solve exactly and prove
// win/loss/draw (a row of search.LevelFor's table, the one every front end plays by).
type Level struct {
	Name        string `json:"name"`
	Depth       int    `json:"depth"`
	Selectivity int    `json:"sel"`
	Exact       int    `json:"exact"`
	WLD         int    `json:"wld"`
}

// TableLevels is the level menu of the front ends' level table (search.LevelFor), levels 0 to
// search.MaxLevel, so that menu index and level number agree.
func TableLevels() []Level {
	var ls []Level
	for n := 0; n <= search.MaxLevel; n++ {
		l, err := search.LevelFor(n)
		if err != nil {
			panic(err) // every level up to MaxLevel exists
		}
		name := fmt.Sprintf("level %d: depth %d, exact from %d empties", n, l.Depth, l.ExactEmpties)
		if n == search.MaxLevel {
			name = fmt.Sprintf("level %d: perfect play", n)
		}
		ls = append(ls, Level{Name: name, Depth: l.Depth, Selectivity: l.Selectivity, Exact: l.ExactEmpties, WLD: l.WLDEmpties})
	}
	return ls
}

// Options configure a Server.
type Options struct {
	// Engines search for the sessions, one search at a time each; at least one.
	Engines []protocol.Engine
	// Front is the front-end options the engine was built with (protocol.NewEngine): the
	// name, the default depth, selectivity and time per move, and the opening book.
	Front protocol.Options
	// Levels is the level menu (TableLevels when empty).
	Levels []Level
	// SessionTTL is how long a session with no request and no open page lives (30 min when 0);
	// MaxSessions how many may live at once (64 when 0).
	SessionTTL  time.Duration
	MaxSessions int
}

// Server is the browser board's HTTP handler.
type Server struct {
	opt     Options
	log     zerolog.Logger
	levels  []Level
	engines chan protocol.Engine
	files   fs.FS

	mu       sync.Mutex
	sessions map[string]*session
	seq      uint64
}

// New checks the options and returns the server.
func New(opt Options) (*Server, error) {
	if len(opt.Engines) == 0 {
		return nil, errors.New("web: no engine")
	}
	if opt.SessionTTL <= 0 {
		opt.SessionTTL = 30 * time.Minute
	}
	if opt.MaxSessions <= 0 {
		opt.MaxSessions = 64
	}
	s := &Server{opt: opt, log: opt.Front.Log, levels: opt.Levels, sessions: map[string]*session{}}
	if len(s.levels) == 0 {
		s.levels = TableLevels()
	}
	for _, l := range s.levels {
		if err := (search.Limits{Depth: l.Depth, Selectivity: l.Selectivity}).Check(); err != nil || l.Depth < 1 {
			return nil, fmt.Errorf("web: level %q: want a depth of 1-60 and a selectivity of 0-%d", l.Name, search.MaxSelectivity)
		}
	}
	s.engines = make(chan protocol.Engine, len(opt.Engines))
	for _, e := range opt.Engines {
		s.engines <- e
	}
	sub, err := fs.Sub(staticFiles, "static")
	if err != nil {
		return nil, err
	}
	s.files = sub
	return s, nil
}

// Listen opens addr for the server. warning is not empty when addr is not a loopback
// address: the board then answers anyone who can reach the machine.
func Listen(addr string) (ln net.Listener, warning string, err error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, "", fmt.Errorf("-addr %q: %v", addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		warning = fmt.Sprintf("listening on %s, not on the loopback interface: anyone who can reach this machine can use the board and its engine", addr)
	}
	ln, err = net.Listen("tcp", addr)
	return ln, warning, err
}

// Handler returns the server's routes.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.index)
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(s.files)))
	mux.HandleFunc("GET /api/config", s.config)
	mux.HandleFunc("GET /api/events", s.events)
	post := map[string]func(http.ResponseWriter, *http.Request, *request, *session){
		"state": s.state, "move": s.move, "undo": s.undo, "redo": s.redo, "seek": s.seek,
		"go": s.engineMove, "hint": s.hint, "analyze": s.analyze, "stop": s.stop,
	}
	for name, h := range post {
		mux.HandleFunc("POST /api/"+name, s.withSession(h))
	}
	mux.HandleFunc("POST /api/new", s.newGame)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		fail(w, http.StatusNotFound, "no such endpoint: %s %s", r.Method, r.URL.Path)
	})
	return mux
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	page, err := fs.ReadFile(s.files, "index.html")
	if err != nil {
		fail(w, http.StatusInternalServerError, "page missing")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Write(page)
}

// request is every endpoint's body; each uses the fields it needs.
type request struct {
	Session string `json:"session"`
	Move    string `json:"move"`
	Ply     *int   `json:"ply"`
	// Text is a game or position to load: GGF, OBF (optionally followed by moves) or a
	// transcript; OBF and Moves are the URL's form (?obf=...&moves=...).
	Text  string `json:"text"`
	OBF   string `json:"obf"`
	Moves string `json:"moves"`
	// Level indexes the level menu; Sel, when not nil, overrides its selectivity; Time is the
	// time per move in seconds (0: the server's default).
	Level *int     `json:"level"`
	Sel   *int     `json:"sel"`
	Time  *float64 `json:"time"`
	// Clock, when positive, is the time in seconds the engine has left for the rest of the
	// game (the page keeps the clock; the search plans its move from it).
	Clock *float64 `json:"clock"`
}

// errorBody is what every failed request gets.
type errorBody struct {
	Error string `json:"error"`
}

func fail(w http.ResponseWriter, code int, format string, args ...any) {
	writeJSON(w, code, errorBody{Error: fmt.Sprintf(format, args...)})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(v)
}

// decode reads a request body of at most MaxBody bytes holding one JSON object with known
// fields only; false when it failed (the answer is written).
func decode(w http.ResponseWriter, r *http.Request, req *request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(req)
	if err == nil {
		if _, e := dec.Token(); e != io.EOF {
			err = errors.New("more than one JSON value")
		}
	}
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		fail(w, http.StatusRequestEntityTooLarge, "request body larger than %d bytes", MaxBody)
		return false
	case err == io.EOF:
		fail(w, http.StatusBadRequest, "empty request body: want a JSON object")
		return false
	case err != nil:
		fail(w, http.StatusBadRequest, "bad JSON: %v", err)
		return false
	}
	return true
}

func (s *Server) withSession(h func(http.ResponseWriter, *http.Request, *request, *session)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req request
		if !decode(w, r, &req) {
			return
		}
		ss := s.session(req.Session)
		if ss == nil {
			fail(w, http.StatusNotFound, "unknown or expired session %q", clip(req.Session))
			return
		}
		h(w, r, &req, ss)
	}
}

func clip(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strings.ToValidUTF8(s, "?")
}

// session returns the live session id, or nil.
func (s *Server) session(id string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.sessions[id]
	if ss == nil {
		return nil
	}
	if ss.expired(s.opt.SessionTTL) {
		delete(s.sessions, id)
		ss.close()
		return nil
	}
	ss.touch()
	return ss
}

// create starts a session with g; nil when there are too many.
func (s *Server) create(g *game) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, ss := range s.sessions {
		if ss.expired(s.opt.SessionTTL) {
			delete(s.sessions, id)
			ss.close()
		}
	}
	if len(s.sessions) >= s.opt.MaxSessions {
		return nil
	}
	var raw [16]byte
	rand.Read(raw[:])
	s.seq++
	ss := &session{id: hex.EncodeToString(raw[:]), g: g, subs: map[chan event]struct{}{}, closed: make(chan struct{})}
	if bo := s.opt.Front.Book; bo.Random {
		ss.rng = mrand.New(mrand.NewPCG(bo.Seed, s.seq))
	}
	ss.touch()
	s.sessions[ss.id] = ss
	return ss
}

// newGame starts a game: in the caller's session when it is alive, else in a new one. The
// game is the start position, or what Text, or OBF and Moves, give.
func (s *Server) newGame(w http.ResponseWriter, r *http.Request) {
	var req request
	if !decode(w, r, &req) {
		return
	}
	text := req.Text
	if text == "" && (req.OBF != "" || req.Moves != "") {
		text = req.OBF + " " + req.Moves
		if req.OBF == "" {
			text = req.Moves
		}
	}
	g, err := loadGame(text)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	ss := s.session(req.Session)
	if ss == nil {
		if ss = s.create(g); ss == nil {
			fail(w, http.StatusServiceUnavailable, "too many open boards (%d): close one or wait for one to expire", s.opt.MaxSessions)
			return
		}
	} else {
		ss.change(func() { ss.g = g })
	}
	writeJSON(w, http.StatusOK, s.stateOf(ss))
}

func (s *Server) state(w http.ResponseWriter, r *http.Request, req *request, ss *session) {
	writeJSON(w, http.StatusOK, s.stateOf(ss))
}

// answerChange applies a change to the session's game (session.changeErr) and answers with
// the new state, or with status and the reason the change was refused.
func (s *Server) answerChange(w http.ResponseWriter, ss *session, status int, f func() error) {
	if err := ss.changeErr(f); err != nil {
		fail(w, status, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, s.stateOf(ss))
}

func (s *Server) move(w http.ResponseWriter, r *http.Request, req *request, ss *session) {
	sq, err := board.ParseSquare(req.Move)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	s.answerChange(w, ss, http.StatusConflict, func() error { return ss.g.play(sq) })
}

func (s *Server) undo(w http.ResponseWriter, r *http.Request, req *request, ss *session) {
	s.answerChange(w, ss, http.StatusConflict, func() error {
		if !ss.g.undo() {
			return errors.New("nothing to undo")
		}
		return nil
	})
}

func (s *Server) redo(w http.ResponseWriter, r *http.Request, req *request, ss *session) {
	s.answerChange(w, ss, http.StatusConflict, func() error {
		if !ss.g.redo() {
			return errors.New("nothing to redo")
		}
		return nil
	})
}

func (s *Server) seek(w http.ResponseWriter, r *http.Request, req *request, ss *session) {
	if req.Ply == nil {
		fail(w, http.StatusBadRequest, "seek: want a position number (ply)")
		return
	}
	s.answerChange(w, ss, http.StatusBadRequest, func() error { return ss.g.seek(*req.Ply) })
}

func (s *Server) stop(w http.ResponseWriter, r *http.Request, req *request, ss *session) {
	ss.stopSearch()
	writeJSON(w, http.StatusOK, s.stateOf(ss))
}

// limits turns a request's level, selectivity and time into search limits.
func (s *Server) limits(req *request) (search.Limits, string, error) {
	f := s.opt.Front
	lim := search.Limits{Depth: f.Depth, Selectivity: f.Selectivity, MoveTime: f.MoveTime, ExactEmpties: f.ExactEmpties, WLDEmpties: f.WLDEmpties}
	if lim.Depth <= 0 {
		lim.Depth = protocol.DefaultDepth
	}
	name := fmt.Sprintf("depth %d", lim.Depth)
	if req.Level != nil {
		if *req.Level < 0 || *req.Level >= len(s.levels) {
			return lim, "", fmt.Errorf("level %d: want 0-%d", *req.Level, len(s.levels)-1)
		}
		l := s.levels[*req.Level]
		lim.Depth, lim.Selectivity, lim.ExactEmpties, lim.WLDEmpties, name = l.Depth, l.Selectivity, l.Exact, l.WLD, l.Name
	}
	if req.Sel != nil {
		if *req.Sel < 0 || *req.Sel > search.MaxSelectivity {
			return lim, "", fmt.Errorf("selectivity %d: want 0-%d", *req.Sel, search.MaxSelectivity)
		}
		lim.Selectivity = *req.Sel
	}
	if req.Time != nil {
		t := *req.Time
		if math.IsNaN(t) || t < 0 || t > MaxMoveTime.Seconds() {
			return lim, "", fmt.Errorf("time per move %v s: want 0-%v s", t, MaxMoveTime.Seconds())
		}
		lim.MoveTime = time.Duration(t * float64(time.Second))
	}
	if req.Clock != nil {
		c := *req.Clock
		if math.IsNaN(c) || c < 0 || c > 24*MaxMoveTime.Seconds() {
			return lim, "", fmt.Errorf("game clock %v s: want 0-%v s", c, 24*MaxMoveTime.Seconds())
		}
		// A clock run down still gets a token amount: zero would mean no clock.
		lim.Remaining = max(time.Duration(c*float64(time.Second)), 10*time.Millisecond)
	}
	return lim, name, nil
}

// line is one move's value as the page shows it: on its square and in the hint list.
type line struct {
	Move    string   `json:"move"`
	Score   float64  `json:"score"` // discs, for the side to move
	Label   string   `json:"label"` // on the square: "12@73%", "exact", "win", "book"
	Depth   string   `json:"depth"` // protocol.DepthLabel
	Exact   bool     `json:"exact"`
	WLD     bool     `json:"wld"`
	Lower   bool     `json:"lower"` // Score is a lower bound (search.Info.Lower); Label starts with ">="
	PV      []string `json:"pv"`
	Nodes   uint64   `json:"nodes"`
	Seconds float64  `json:"seconds"`
}

func lineOf(m search.MoveScore) line {
	l := line{Move: m.Move.String(), Score: m.Score, Label: squareLabel(m.Info), Depth: protocol.DepthLabel(m.Info),
		Exact: m.Exact, WLD: m.WLD, Lower: m.Lower, Nodes: m.Nodes, Seconds: m.Elapsed.Seconds()}
	if m.Lower {
		l.Label = ">=" + l.Label
	}
	pv := m.PV
	if len(pv) == 0 || pv[0] != m.Move {
		pv = append([]board.Square{m.Move}, pv...)
	}
	for _, sq := range pv {
		l.PV = append(l.PV, sq.String())
	}
	return l
}

// squareLabel is the short form of how a value was found, under the value on its square.
func squareLabel(in search.Info) string {
	switch {
	case in.WLD && in.Selectivity > 0 && in.Selectivity < 100:
		return fmt.Sprintf("wld@%d%%", in.Selectivity)
	case in.WLD:
		return "wld"
	case in.Exact && in.Selectivity > 0 && in.Selectivity < 100:
		return fmt.Sprintf("%d@%d%%", in.Depth, in.Selectivity)
	case in.Exact:
		return "exact"
	case in.Selectivity > 0 && in.Selectivity < 100:
		return fmt.Sprintf("%d@%d%%", in.Depth, in.Selectivity)
	}
	return fmt.Sprint(in.Depth)
}

// progress is a "search" event: the running search's lines after an iteration.
type progress struct {
	Search uint64  `json:"search"`
	Kind   string  `json:"kind"` // "go", "hint", "analyze"
	Ply    int     `json:"ply"`
	Lines  []line  `json:"lines"`
	Nodes  uint64  `json:"nodes"`
	Speed  float64 `json:"speed"` // nodes per second
	Final  bool    `json:"final"`
}

func progressOf(id uint64, kind string, ply int, ms []search.MoveScore, final bool) progress {
	p := progress{Search: id, Kind: kind, Ply: ply, Final: final}
	for _, m := range ms {
		if m.Move == board.NoSquare && len(ms) > 1 {
			continue
		}
		p.Lines = append(p.Lines, lineOf(m))
	}
	if len(ms) > 0 {
		p.Nodes = ms[0].Nodes
		if el := ms[0].Elapsed.Seconds(); el > 0 {
			p.Speed = float64(p.Nodes) / el
		}
	}
	return p
}

// searchReply is what a search endpoint answers: the progress it ended with and the state.
type searchReply struct {
	progress
	State state `json:"state"`
}

// engineMove lets the engine play the side to move: a book move where the book has one,
// else a search whose iterations go to the events stream.
func (s *Server) engineMove(w http.ResponseWriter, r *http.Request, req *request, ss *session) {
	lim, _, err := s.limits(req)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	var reply searchReply
	err = ss.search(r.Context(), s.engines, func(ctx context.Context, eng protocol.Engine, id uint64, b board.Board, ply int) (func(), error) {
		if b.GameOver() {
			return nil, errors.New("the game is over")
		}
		if bk := s.opt.Front.Book; bk.Book != nil {
			ss.mu.Lock()
			sq, score, ok := bk.Book.Choose(b, bk.Margin, ss.rng)
			ss.mu.Unlock()
			if ok && b.IsLegal(sq) {
				reply.progress = progress{Search: id, Kind: "go", Ply: ply, Final: true,
					Lines: []line{{Move: sq.String(), Score: score, Label: "book", Depth: "book", PV: []string{sq.String()}}}}
				return func() {
					ss.g.setEval(ply, score, "book")
					ss.g.play(sq)
				}, nil
			}
		}
		res := eng.Search(ctx, b, lim, func(in search.Info) {
			mv := board.NoSquare
			if len(in.PV) > 0 {
				mv = in.PV[0]
			}
			ss.publish(event{"search", progressOf(id, "go", ply, []search.MoveScore{{Move: mv, Info: in}}, false)})
		})
		if ctx.Err() != nil {
			return nil, errCancelled
		}
		mv := res.Move
		if !b.IsLegal(mv) {
			s.log.Error().Str("move", mv.String()).Msg("web: engine returned an illegal move; playing the first legal move")
			mv = board.FirstSquare(b.LegalMoves())
		}
		reply.progress = progressOf(id, "go", ply, []search.MoveScore{{Move: mv, Info: res.Info}}, true)
		return func() {
			ss.g.setEval(ply, res.Score, protocol.DepthLabel(res.Info))
			ss.g.play(mv)
		}, nil
	})
	s.answerSearch(w, ss, &reply, err)
}

var errCancelled = errors.New("the search was stopped: the game changed or another search started")

func (s *Server) answerSearch(w http.ResponseWriter, ss *session, reply *searchReply, err error) {
	switch {
	case errors.Is(err, errCancelled):
		fail(w, http.StatusConflict, "%v", err)
	case err != nil:
		fail(w, http.StatusConflict, "%v", err)
	default:
		reply.State = s.stateOf(ss)
		writeJSON(w, http.StatusOK, reply)
	}
}

// hint searches every legal move of the current position; each iteration's values go to the
// events stream, so the page refines them on the squares as the search deepens.
func (s *Server) hint(w http.ResponseWriter, r *http.Request, req *request, ss *session) {
	lim, _, err := s.limits(req)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	var reply searchReply
	err = ss.search(r.Context(), s.engines, func(ctx context.Context, eng protocol.Engine, id uint64, b board.Board, ply int) (func(), error) {
		if b.GameOver() {
			return nil, errors.New("the game is over")
		}
		final := eng.Analyze(ctx, b, lim, 0, func(ms []search.MoveScore) {
			ss.publish(event{"search", progressOf(id, "hint", ply, ms, false)})
		})
		if ctx.Err() != nil || len(final) == 0 {
			return nil, errCancelled
		}
		reply.progress = progressOf(id, "hint", ply, final, true)
		best := final[0]
		return func() { ss.g.setEval(ply, best.Score, protocol.DepthLabel(best.Info)) }, nil
	})
	s.answerSearch(w, ss, &reply, err)
}

// analyze searches every position of the whole record, from the last to the first (the
// later positions' table entries help the earlier ones), for its value and best move; each
// position's result goes to the events stream as it comes. The state then carries, for each
// move, its loss in discs against the best move.
func (s *Server) analyze(w http.ResponseWriter, r *http.Request, req *request, ss *session) {
	lim, _, err := s.limits(req)
	if err != nil {
		fail(w, http.StatusBadRequest, "%v", err)
		return
	}
	var reply searchReply
	err = ss.search(r.Context(), s.engines, func(ctx context.Context, eng protocol.Engine, id uint64, _ board.Board, _ int) (func(), error) {
		ss.mu.Lock()
		g := ss.g
		n := len(g.moves)
		positions := make([]board.Board, n+1)
		for i := range positions {
			positions[i] = g.position(i)
		}
		ss.mu.Unlock()
		type result struct {
			score float64
			label string
			best  board.Square
			ok    bool
		}
		results := make([]result, n+1)
		for i := n; i >= 0; i-- {
			b := positions[i]
			var res result
			switch {
			case b.GameOver():
				res = result{score: float64(b.FinalScore()), label: "exact", best: board.NoSquare, ok: true}
			case b.MustPass():
				continue
			default:
				sr := eng.Search(ctx, b, lim, func(search.Info) {})
				if ctx.Err() != nil {
					return nil, errCancelled
				}
				res = result{score: sr.Score, label: protocol.DepthLabel(sr.Info), best: sr.Move, ok: true}
				if sr.WLD {
					res.label = "wld " + res.label
				}
			}
			results[i] = res
			black := res.score
			if !b.BlackToMove {
				black = -black
			}
			ss.publish(event{"analysis", struct {
				Search uint64  `json:"search"`
				Ply    int     `json:"ply"`
				Eval   float64 `json:"eval"`
				Best   string  `json:"best"`
				Done   int     `json:"done"`
				Total  int     `json:"total"`
			}{id, i, black, res.best.String(), n + 1 - i, n + 1}})
		}
		reply.progress = progress{Search: id, Kind: "analyze", Final: true}
		return func() {
			if len(ss.g.moves) != n {
				return
			}
			for i, res := range results {
				if res.ok {
					ss.g.setEval(i, res.score, res.label)
					ss.g.best[i] = res.best
				}
			}
		}, nil
	})
	s.answerSearch(w, ss, &reply, err)
}

// config is what the page needs before its first request: the levels and the defaults.
func (s *Server) config(w http.ResponseWriter, r *http.Request) {
	f := s.opt.Front
	depth := f.Depth
	if depth <= 0 {
		depth = protocol.DefaultDepth
	}
	// The menu starts at the level the engine was started with (-level, or the level whose
	// depth -depth gave), else at the first entry of that depth.
	def := -1
	for i, l := range s.levels {
		if l.Depth == depth && l.Exact == f.ExactEmpties && def < 0 {
			def = i
		}
	}
	for i, l := range s.levels {
		if l.Depth == depth && def < 0 {
			def = i
		}
	}
	def = max(def, 0)
	name := f.Name
	if name == "" {
		name = "GoThello"
	}
	writeJSON(w, http.StatusOK, struct {
		Name           string  `json:"name"`
		Version        string  `json:"version"`
		Levels         []Level `json:"levels"`
		Level          int     `json:"level"`
		Selectivity    int     `json:"sel"`
		MaxSelectivity int     `json:"maxSel"`
		Time           float64 `json:"time"`
		Book           bool    `json:"book"`
	}{name, f.Version, s.levels, def, f.Selectivity, search.MaxSelectivity, f.MoveTime.Seconds(), f.Book.Book != nil})
}

// events streams a session's search progress as server-sent events until the page goes.
// It wakes only for an event or a keep-alive every 25 s, so an open page costs no CPU.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	ss := s.session(r.URL.Query().Get("session"))
	if ss == nil {
		fail(w, http.StatusNotFound, "unknown or expired session %q", clip(r.URL.Query().Get("session")))
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		fail(w, http.StatusInternalServerError, "streaming not supported")
		return
	}
	ch := ss.subscribe()
	defer ss.unsubscribe(ch)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, ": open\n\n")
	fl.Flush()
	tick := time.NewTicker(25 * time.Second)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-ss.closed:
			return
		case <-tick.C:
			ss.touch()
			fmt.Fprint(w, ": keep-alive\n\n")
		case ev := <-ch:
			data, err := json.Marshal(ev.data)
			if err != nil {
				continue
			}
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev.name, data)
		}
		fl.Flush()
	}
}
