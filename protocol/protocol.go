// Package protocol owns the text front ends that drive the engine: the NBoard protocol (v2,
// as the NBoard GUI and Chris Welty's Protocol.htm describe it), GTP v2 (the Go Text Protocol,
// used for Othello by Quarry, Edax and match tools), and a console for people and scripts.
// The engine never knows which front end drives it: each front end holds an Engine (the two
// methods below) and a position, and turns lines into searches and searches into lines.
//
// Every front end reads its input through a line reader that cannot be blown up by huge lines
// (they are dropped with an error once they pass MaxLine bytes), answers bad input with a
// message in the protocol's own error channel and keeps its state consistent, so the next
// command works.
package protocol

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/ggf"
	"github.com/othellogo/othello/search"
)

// Engine is what the front ends need from the search: a best move with progress reports,
// and the top n moves with their values. *search.Engine satisfies it; tests use a fake.
// Both must return promptly once ctx is cancelled, with the best result found so far.
type Engine interface {
	Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result
	Analyze(ctx context.Context, b board.Board, lim search.Limits, n int, info func([]search.MoveScore)) []search.MoveScore
}

// Options configure a front end.
type Options struct {
	Name    string         // one-token engine name given to GUIs
	Version string         // engine version (GTP "version")
	Log     zerolog.Logger // diagnostics, on stderr: stdout belongs to the protocol
	// Depth is the default midgame depth (NBoard's "set depth" and the console's "level"
	// change it); 0 means DefaultDepth.
	Depth int
	// Selectivity is the Multi-ProbCut level of game moves and hints (0: none); exact
	// endgame solves are never selective. FixedSelectivity keeps it when a level is picked
	// later (NBoard's "set depth", the console's "level"): the command line gave it.
	Selectivity      int
	FixedSelectivity bool
	// ExactEmpties and WLDEmpties are the most empties at which game moves and hints solve
	// exactly and prove win/loss/draw (0: those of Depth's row of the level table,
	// search.LevelFor); Level is the level the settings come from.
	ExactEmpties, WLDEmpties int
	Level                    int
	// MoveTime bounds each move (0: none). A game clock also applies in the console and GTP;
	// in NBoard the GUI's clock, when the game has one, replaces it.
	MoveTime time.Duration
	// Clock is the game clock of the console and play, the same for both sides (not Set:
	// none): the engine's moves are timed from it, and the board shows both clocks.
	Clock ggf.Clock
	// Prompt makes the console print a prompt before each command (for a terminal).
	Prompt bool
	// EngineBlack and EngineWhite make the console play that colour by itself after each
	// move (the "play" subcommand's human-versus-engine mode).
	EngineBlack, EngineWhite bool
	// Interrupt, when not nil, stops the console's running search on each value (the binary
	// sends one per Ctrl-C); the engine plays its best move so far.
	Interrupt <-chan struct{}
	// Book is the opening book and how to use it (no book when Book.Book is nil).
	Book BookOptions
}

// DefaultDepth is the midgame depth used when none is given.
const DefaultDepth = 12

// DefaultSelectivity is the Multi-ProbCut level of the front ends' game moves and hints:
// level 4 beat no MPC by about +220 Elo at 0.2 s per move (docs/matches.md), as Edax and
// Egaroucid also play selectively by default. Level 5 (cut at 1.1 sigma, Edax's 73%; NTest's
// 1.0 sigma cuts about as hard) beat level 4 against NTest at 25 ms and at 60 ms a move (33.6%
// vs 29.5%, 35.5% vs 31.5%) and in self-play at 25 ms (56.2%), level at 100 ms (52.2%,
// 48.5%). Analysis that wants exact depths passes -sel 0.
const DefaultSelectivity = 5

// MaxDepth bounds requested depths: deeper than the game is long means "to the end".
const MaxDepth = 60

// MaxLine is the longest input line accepted; longer lines are dropped with an error.
// A complete GGF game with evals and times is about 2 KB.
const MaxLine = 64 << 10

func (o *Options) name() string {
	if o.Name == "" {
		return "GoThello"
	}
	return strings.Join(strings.Fields(o.Name), "_")
}

func (o *Options) depth() int {
	if o.Depth <= 0 {
		return DefaultDepth
	}
	return min(o.Depth, MaxDepth)
}

// errLineTooLong reports an input line longer than MaxLine, which was dropped.
var errLineTooLong = errors.New("line too long")

// lineReader reads lines of at most max bytes; longer lines are consumed and reported as
// errLineTooLong, so a huge line costs no more memory than max.
type lineReader struct {
	r   *bufio.Reader
	max int
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 4096), max: max}
}

// next returns the next line without its end of line ("\n" or "\r\n"). At the end of the
// input it returns io.EOF (a last line without "\n" is returned first).
func (lr *lineReader) next() (string, error) {
	var buf []byte
	tooLong := false
	for {
		chunk, err := lr.r.ReadSlice('\n')
		if !tooLong {
			if len(buf)+len(chunk) > lr.max+2 {
				tooLong = true
				buf = nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && (len(buf) > 0 || tooLong):
			// a last line without end of line
		case err != nil:
			return "", err
		}
		if tooLong {
			return "", errLineTooLong
		}
		buf = bytes.TrimSuffix(buf, []byte{'\n'})
		buf = bytes.TrimSuffix(buf, []byte{'\r'})
		return string(buf), nil
	}
}

// inputLine is one input line with its sequence number.
type inputLine struct {
	seq  uint64
	text string
	err  error // errLineTooLong, or the read error that ended the input
}

// lineQueue is an unbounded queue between the reader and the command loop: the reader must
// never block, or it could not see a ping behind a long backlog.
type lineQueue struct {
	mu     sync.Mutex
	lines  []inputLine
	ready  chan struct{} // signalled (capacity 1) when lines were added
	closed bool
}

func newLineQueue() *lineQueue { return &lineQueue{ready: make(chan struct{}, 1)} }

func (q *lineQueue) push(l inputLine, last bool) {
	q.mu.Lock()
	q.lines = append(q.lines, l)
	q.closed = q.closed || last
	q.mu.Unlock()
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// pop waits for the next line; ok is false once the input has ended and all lines are out.
func (q *lineQueue) pop(ctx context.Context) (inputLine, bool) {
	for {
		q.mu.Lock()
		if len(q.lines) > 0 {
			l := q.lines[0]
			q.lines = q.lines[1:]
			q.mu.Unlock()
			return l, true
		}
		closed := q.closed
		q.mu.Unlock()
		if closed {
			return inputLine{}, false
		}
		select {
		case <-q.ready:
		case <-ctx.Done():
			return inputLine{}, false
		}
	}
}

// readLines reads the lines of in into q on its own goroutine (go readLines(...)), numbered
// from 1, so that a front end sees what comes in while a command runs: NBoard's ping (seen,
// when not nil, is called with each line before it is queued), and the end of the input. That
// end means whoever drives the engine is gone (a GUI that closed, a controller that died), so
// gone is called as soon as the reader meets it, before the end is queued: the front end
// stops its running search and every later one instead of keeping a core busy for nobody,
// and the commands read before the end still run, without their searches. Reading stops
// after a line for which ends is true (quit): what follows it is never read, so a script that
// ends with quit has every search run to its end.
func readLines(in io.Reader, q *lineQueue, ends func(text string) bool, seen func(inputLine), gone func(seq uint64)) {
	lr := newLineReader(in, MaxLine)
	for seq := uint64(1); ; seq++ {
		text, err := lr.next()
		if err != nil && err != errLineTooLong {
			gone(seq)
			q.push(inputLine{seq: seq, err: err}, true)
			return
		}
		l := inputLine{seq: seq, text: text, err: err}
		if seen != nil {
			seen(l)
		}
		last := err == nil && ends(text)
		q.push(l, last)
		if last {
			return
		}
	}
}

// syncWriter serializes writes of whole lines from the command loop and from search
// callbacks.
type syncWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (s *syncWriter) printf(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writeLocked(format, args...)
}

// failed returns the first write error.
func (s *syncWriter) failed() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func (s *syncWriter) writeLocked(format string, args ...any) {
	if s.err != nil {
		return
	}
	_, s.err = fmt.Fprintf(s.w, format, args...)
}

// printable replaces control and non-ASCII bytes so that echoing bad input back never
// writes binary to a protocol stream, and clips it.
func printable(s string) string { return clipLine(s, 60) }

// clipLine is printable with a given length limit.
func clipLine(s string, limit int) string {
	var sb strings.Builder
	for i := 0; i < len(s) && i < limit; i++ {
		c := s[i]
		if c < 32 || c > 126 {
			sb.WriteByte('?')
			continue
		}
		sb.WriteByte(c)
	}
	if len(s) > limit {
		sb.WriteString("...")
	}
	return sb.String()
}

// pvString writes a principal variation for NBoard: upper-case squares run together, "PA"
// for a pass ("F5D6C3").
func pvString(pv []board.Square) string {
	var sb strings.Builder
	for _, sq := range pv {
		sb.WriteString(strings.ToUpper(sq.String()))
	}
	return sb.String()
}

// pvWords writes a principal variation for people: "f5 d6 c3", "pa" for a pass.
func pvWords(pv []board.Square) string {
	w := make([]string, len(pv))
	for i, sq := range pv {
		w[i] = sq.String()
	}
	return strings.Join(w, " ")
}

// depthString is the depth as NBoard shows it: "100%" for an exact endgame solve, "100%W"
// for a win/loss/draw proof ("73%W" for a probable one), else the depth, with the confidence
// of its cuts when selective ("16@73%", Edax's form; the protocol allows anything after the
// leading integer).
func depthString(in search.Info) string {
	switch {
	case in.MonteCarlo:
		return "0" // a Monte-Carlo estimate has no depth; the PV is the most visited line
	case in.Exact:
		return "100%"
	case in.WLD && in.Selectivity > 0 && in.Selectivity < 100:
		return fmt.Sprintf("%d%%W", in.Selectivity) // a probable result (a depth level's band)
	case in.WLD:
		return "100%W"
	case in.Selectivity > 0 && in.Selectivity < 100:
		return fmt.Sprintf("%d@%d%%", in.Depth, in.Selectivity)
	}
	return fmt.Sprint(in.Depth)
}

// legalSquares lists the legal moves of the side to move in square order.
func legalSquares(b *board.Board) []board.Square {
	var out []board.Square
	for m := b.LegalMoves(); m != 0; m &= m - 1 {
		out = append(out, board.FirstSquare(m))
	}
	return out
}

// checkedMove returns res's move if it is legal in b, else the first legal move (and false),
// so a front end never plays an illegal move whatever the engine returns.
func checkedMove(b *board.Board, res search.Result) (board.Square, bool) {
	if b.LegalMoves() == 0 {
		return board.NoSquare, res.Move == board.NoSquare
	}
	if b.IsLegal(res.Move) {
		return res.Move, true
	}
	return legalSquares(b)[0], false
}

// parseInt reads a decimal integer, saturating instead of overflowing, so "set depth
// 99999999999999999999" is a huge depth rather than an error or a negative number.
func parseInt(s string) (int, error) {
	if s == "" {
		return 0, errors.New("missing number")
	}
	neg := false
	i := 0
	if s[0] == '-' || s[0] == '+' {
		neg = s[0] == '-'
		i = 1
	}
	if i >= len(s) {
		return 0, fmt.Errorf("%q is not a number", printable(s))
	}
	n := 0
	for ; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%q is not a number", printable(s))
		}
		if n < 1<<40 {
			n = n*10 + int(c-'0')
		}
	}
	if neg {
		n = -n
	}
	return n, nil
}

// discText writes a score in discs with two decimals, never as "-0.00".
func discText(x float64) string {
	s := strconv.FormatFloat(x, 'f', 2, 64)
	if s == "-0.00" {
		return "0.00"
	}
	return s
}

// quietSearcher gives the book's searches a progress callback, which an Engine may expect.
type quietSearcher struct{ eng Engine }

func (q quietSearcher) Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result {
	if info == nil {
		info = func(search.Info) {}
	}
	return q.eng.Search(ctx, b, lim, info)
}

// The real search is an Engine.
var _ Engine = (*search.Engine)(nil)

// CheckPosition refuses a position no game can reach by its centre: the four centre squares
// are filled at the start and never emptied, so an empty board, or one with an empty centre
// square, is a typing error rather than a position to search.
func CheckPosition(b *board.Board) error {
	var empty []string
	for _, sq := range []board.Square{board.D4, board.E4, board.D5, board.E5} {
		if (b.P|b.O)&sq.Bit() == 0 {
			empty = append(empty, sq.String())
		}
	}
	switch {
	case len(empty) == 4:
		return fmt.Errorf("the board has no disc in its centre (d4 e4 d5 e5): not a position of a game")
	case len(empty) == 1:
		return fmt.Errorf("centre square %s is empty: no game reaches such a position (the centre is filled from the start)", empty[0])
	case len(empty) > 1:
		return fmt.Errorf("centre squares %s are empty: no game reaches such a position (the centre is filled from the start)", strings.Join(empty, " "))
	}
	return nil
}
