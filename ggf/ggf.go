// Package ggf reads and writes Othello game records in GGF, the format of the Generic Game
// Server (GGS) that NBoard also speaks: "(;GM[Othello]PC[..]DT[..]PB[..]PW[..]RE[..]TI[..]
// TY[8]BO[8 <64 squares> <side>]B[f5/eval/time]W[d6]...;)".
//
// The reader is tolerant of what real archives contain: a game number before "(;", lower- or
// upper-case moves, passes spelled PA, PASS, "--" or PS, empty eval fields ("f5//1.2"), blanks
// anywhere inside BO, 'X'/'x' or '*' for black, properties it does not know (kept in order),
// and passes left implicit (B twice in a row when white had no move). It is strict about what
// would make the record wrong: an illegal move, a move by the wrong colour, a board that is
// not 8x8, a truncated record. A parsed Game has been replayed and is always consistent.
package ggf

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/othellogo/othello/board"
)

// Game is one GGF record.
type Game struct {
	Type        string // GM, normally "Othello"
	Place       string // PC
	Date        string // DT
	Black       string // PB
	White       string // PW
	BlackRating string // RB
	WhiteRating string // RW
	Result      string // RE, e.g. "+12.000", "-4", "?"
	Clock       Clock  // TI: both players' clock
	BlackClock  Clock  // TB: black's clock when it differs from TI
	WhiteClock  Clock  // TW
	BoardType   string // TY, e.g. "8" or "8r"
	Komi        string // KM
	Copyright   string // CO
	Start       board.Board
	Moves       []Move
	Other       []Prop // properties this package does not interpret, in the order read
}

// Move is one move of the record: the square (board.NoSquare for a pass), who played it,
// and the optional eval (from the mover's view, in discs) and time (spent on the move).
type Move struct {
	Square  board.Square
	Black   bool
	Eval    float64
	HasEval bool
	Time    time.Duration
	HasTime bool
}

// Prop is a property kept verbatim.
type Prop struct {
	Key, Value string
}

// Clock is a GGF time control: main time, increment added after each move, and a one-time
// extension. Set is false when the record has no such field.
type Clock struct {
	Main, Increment, Extension time.Duration
	Set                        bool
}

// MaxRecord bounds the text one record may take; longer input is rejected rather than
// scanned (a full 8x8 game with evals and times takes about 2 KB).
const MaxRecord = 1 << 20

// New returns an empty Othello record from the given start position.
func New(start board.Board) *Game {
	return &Game{Type: "Othello", BoardType: "8", Start: start}
}

// Parse reads the first record in text (anything before "(;", such as a game number, is
// skipped) and returns it with the text after its closing ";)".
func Parse(text string) (*Game, string, error) {
	i := strings.Index(text, "(;")
	if i < 0 {
		if strings.TrimSpace(text) == "" {
			return nil, "", fmt.Errorf("ggf: no game record (want \"(;GM[Othello]...;)\")")
		}
		return nil, "", fmt.Errorf("ggf: no game record in %q (want \"(;GM[Othello]...;)\")", clip(text))
	}
	s := text[i+2:]
	g := &Game{}
	var start string
	type rawMove struct {
		black bool
		value string
	}
	var moves []rawMove
	pos := 0
	for {
		for pos < len(s) && isSpace(s[pos]) {
			pos++
		}
		if pos >= len(s) {
			return nil, "", fmt.Errorf("ggf: record truncated: no closing \";)\"")
		}
		if pos >= MaxRecord {
			return nil, "", fmt.Errorf("ggf: record longer than %d bytes", MaxRecord)
		}
		if s[pos] == ';' || s[pos] == ')' {
			// ";)" ends the record; tolerate a bare ")" too.
			end := pos + 1
			if s[pos] == ';' {
				j := end
				for j < len(s) && isSpace(s[j]) {
					j++
				}
				if j >= len(s) || s[j] != ')' {
					return nil, "", fmt.Errorf("ggf: record truncated: \";\" not followed by \")\"")
				}
				end = j + 1
			}
			rest := s[end:]
			if start == "" {
				return nil, "", fmt.Errorf("ggf: record has no BO[...] (start position)")
			}
			b, err := parseBoard(start)
			if err != nil {
				return nil, "", err
			}
			g.Start = b
			for _, m := range moves {
				mv, err := ParseMove(m.value, m.black)
				if err != nil {
					return nil, "", fmt.Errorf("ggf: move %d: %v", len(g.Moves)+1, err)
				}
				if err := g.Play(mv); err != nil {
					return nil, "", fmt.Errorf("ggf: move %d: %v", len(g.Moves)+1, err)
				}
			}
			return g, rest, nil
		}
		// A property: letters, then "[value]".
		k := pos
		for k < len(s) && isUpperOrLower(s[k]) {
			k++
		}
		if k == pos || k >= len(s) || s[k] != '[' {
			return nil, "", fmt.Errorf("ggf: at offset %d: want a property KEY[value], found %q", i+2+pos, clip(s[pos:]))
		}
		key := strings.ToUpper(s[pos:k])
		e := strings.IndexByte(s[k+1:], ']')
		if e < 0 {
			return nil, "", fmt.Errorf("ggf: property %s: value not closed by \"]\" (record truncated)", key)
		}
		value := s[k+1 : k+1+e]
		pos = k + 1 + e + 1
		var err error
		switch key {
		case "GM":
			g.Type = value
		case "PC":
			g.Place = value
		case "DT":
			g.Date = value
		case "PB":
			g.Black = value
		case "PW":
			g.White = value
		case "RB":
			g.BlackRating = value
		case "RW":
			g.WhiteRating = value
		case "RE":
			g.Result = value
		case "TI":
			g.Clock, err = ParseClock(value)
		case "TB":
			g.BlackClock, err = ParseClock(value)
		case "TW":
			g.WhiteClock, err = ParseClock(value)
		case "TY":
			g.BoardType = value
			err = checkBoardType(value)
		case "KM":
			g.Komi = value
		case "CO":
			g.Copyright = value
		case "BO":
			start = value
		case "B", "W":
			moves = append(moves, rawMove{black: key == "B", value: value})
		default:
			g.Other = append(g.Other, Prop{key, value})
		}
		if err != nil {
			return nil, "", fmt.Errorf("ggf: %s[%s]: %v", key, clip(value), err)
		}
	}
}

// ParseAll reads every record in text. It stops at the first bad record and returns the
// games read before it with the error.
func ParseAll(text string) ([]*Game, error) {
	var games []*Game
	for strings.Contains(text, "(;") {
		g, rest, err := Parse(text)
		if err != nil {
			return games, fmt.Errorf("game %d: %v", len(games)+1, err)
		}
		games = append(games, g)
		text = rest
	}
	return games, nil
}

// checkBoardType accepts TY values for an 8x8 board: "8" with optional variant letters
// ("8r" random start, "s8" synchro, "k8" komi...). Other sizes are not supported.
func checkBoardType(ty string) error {
	digits := strings.TrimFunc(ty, func(r rune) bool { return r < '0' || r > '9' })
	if ty == "" || digits == "" {
		return nil
	}
	n := 0
	for _, c := range digits {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
		if n > 100 {
			break
		}
	}
	if n != 8 {
		return fmt.Errorf("board size %d is not supported (8x8 only)", n)
	}
	return nil
}

// parseBoard reads a BO value: the board size, 64 squares and the side to move, blanks
// anywhere.
func parseBoard(v string) (board.Board, error) {
	f := strings.Fields(v)
	if len(f) == 0 {
		return board.Board{}, fmt.Errorf("ggf: BO[] is empty")
	}
	if f[0] != "8" {
		if _, err := strconv.Atoi(f[0]); err == nil {
			return board.Board{}, fmt.Errorf("ggf: BO: board size %s is not supported (8x8 only)", clip(f[0]))
		}
	} else {
		f = f[1:]
	}
	cells := strings.Join(f, "")
	if len(cells) != 65 {
		return board.Board{}, fmt.Errorf("ggf: BO: want 64 squares and the side to move, got %d characters", len(cells))
	}
	b, _, err := board.ParseOBF(cells[:64] + " " + cells[64:])
	if err != nil {
		return board.Board{}, fmt.Errorf("ggf: BO: %v", err)
	}
	return b, nil
}

// ParseMove reads a move value "sq[/eval[/time]]" (as in B[...] and NBoard's "move"
// command) played by black or white: a square or a pass word, an optional eval in discs and
// an optional time in seconds or [[hh:]mm:]ss.
func ParseMove(v string, black bool) (Move, error) {
	parts := strings.SplitN(strings.TrimSpace(v), "/", 3)
	m := Move{Black: black}
	tok := strings.TrimSpace(parts[0])
	switch {
	case board.IsPassWord(tok):
		m.Square = board.NoSquare
	default:
		sq, err := board.ParseSquare(tok)
		if err != nil {
			return m, err
		}
		m.Square = sq
	}
	if len(parts) > 1 {
		if e := strings.TrimSpace(parts[1]); e != "" {
			x, err := strconv.ParseFloat(e, 64)
			if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
				return m, fmt.Errorf("eval %q is not a number", clip(e))
			}
			m.Eval, m.HasEval = x, true
		}
	}
	if len(parts) > 2 {
		if t := strings.TrimSpace(parts[2]); t != "" {
			d, err := parseDuration(t)
			if err != nil {
				return m, fmt.Errorf("time %q: %v", clip(t), err)
			}
			m.Time, m.HasTime = d, true
		}
	}
	return m, nil
}

// Play appends m to the game after checking it against the current position. A move by the
// colour not to move is accepted when the side to move has to pass: the pass is inserted.
func (g *Game) Play(m Move) error {
	b := g.Final()
	if m.Square == board.NoSquare {
		if m.Black != b.BlackToMove {
			return fmt.Errorf("pass by %s but %s is to move", colour(m.Black), b.SideName())
		}
		if b.LegalMoves() != 0 {
			return fmt.Errorf("%s passes but has a move", b.SideName())
		}
		g.Moves = append(g.Moves, m)
		return nil
	}
	if m.Black != b.BlackToMove {
		if !b.MustPass() {
			return fmt.Errorf("%s plays %s but %s is to move", colour(m.Black), m.Square, b.SideName())
		}
		g.Moves = append(g.Moves, Move{Square: board.NoSquare, Black: b.BlackToMove})
		b.Pass()
	}
	if !b.IsLegal(m.Square) {
		return fmt.Errorf("%s is not legal for %s", m.Square, b.SideName())
	}
	g.Moves = append(g.Moves, m)
	return nil
}

// PlayMove is Play for the side to move, with no eval or time.
func (g *Game) PlayMove(sq board.Square) error {
	b := g.Final()
	black := b.BlackToMove
	if sq != board.NoSquare && b.MustPass() {
		black = !black
	}
	return g.Play(Move{Square: sq, Black: black})
}

// StoredResult reads the record's result (RE) as black's final disc difference, rounded to
// a whole disc; ok is false when RE is not a number from -64 to 64 ("?", a result by time,
// no result).
func (g *Game) StoredResult() (diff int, ok bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(g.Result), 64)
	if err != nil || !(v >= -64 && v <= 64) {
		return 0, false
	}
	return int(math.Round(v)), true
}

// Position returns the board after the first n moves (n clipped to the record).
func (g *Game) Position(n int) board.Board {
	b := g.Start
	for i, m := range g.Moves {
		if i >= n {
			break
		}
		if m.Square == board.NoSquare {
			b.Pass()
		} else {
			b.Make(m.Square)
		}
	}
	return b
}

// Final returns the position after all moves.
func (g *Game) Final() board.Board { return g.Position(len(g.Moves)) }

// Truncate drops the moves after the first n.
func (g *Game) Truncate(n int) {
	if n >= 0 && n < len(g.Moves) {
		g.Moves = g.Moves[:n]
	}
}

// PlayerClock is black's (or white's) clock: TB (or TW) when the record has it, else TI
// (Set false when neither is there).
func (g *Game) PlayerClock(black bool) Clock {
	switch {
	case black && g.BlackClock.Set:
		return g.BlackClock
	case !black && g.WhiteClock.Set:
		return g.WhiteClock
	}
	return g.Clock
}

// TimeLeft returns the time left on the clock of black (or white) after the recorded moves:
// the player's clock (TB/TW, else TI) main time plus extension, minus the times recorded with
// that player's moves, plus the increment for each of them. ok is false when the record has no
// clock for that player (no field, or a zero clock as NBoard sends when it does not time).
// The result can be negative when a player has overstepped.
func (g *Game) TimeLeft(black bool) (left, increment time.Duration, ok bool) {
	c := g.PlayerClock(black)
	if !c.Set || c.Main+c.Increment+c.Extension <= 0 {
		return 0, 0, false
	}
	left = c.Main + c.Extension
	for _, m := range g.Moves {
		if m.Black == black {
			left += c.Increment - m.Time
		}
	}
	return left, c.Increment, true
}

// String writes the record in GGF, on one line.
func (g *Game) String() string {
	var sb strings.Builder
	sb.WriteString("(;")
	prop := func(k, v string) {
		if v == "" {
			return
		}
		sb.WriteString(k)
		sb.WriteByte('[')
		sb.WriteString(sanitize(v))
		sb.WriteByte(']')
	}
	typ := g.Type
	if typ == "" {
		typ = "Othello"
	}
	prop("GM", typ)
	prop("PC", g.Place)
	prop("DT", g.Date)
	prop("PB", g.Black)
	prop("PW", g.White)
	prop("RB", g.BlackRating)
	prop("RW", g.WhiteRating)
	prop("RE", g.Result)
	if g.Clock.Set {
		prop("TI", g.Clock.String())
	}
	if g.BlackClock.Set {
		prop("TB", g.BlackClock.String())
	}
	if g.WhiteClock.Set {
		prop("TW", g.WhiteClock.String())
	}
	ty := g.BoardType
	if ty == "" {
		ty = "8"
	}
	prop("TY", ty)
	prop("KM", g.Komi)
	prop("CO", g.Copyright)
	for _, p := range g.Other {
		if isKey(p.Key) {
			prop(p.Key, p.Value)
		}
	}
	prop("BO", boardString(&g.Start))
	for _, m := range g.Moves {
		k := "W"
		if m.Black {
			k = "B"
		}
		prop(k, m.String())
	}
	sb.WriteString(";)")
	return sb.String()
}

// String writes the move value: "F5", "F5/1.50", "F5/1.50/2.31", "F5//2.31" or "PA".
func (m Move) String() string {
	s := strings.ToUpper(m.Square.String())
	switch {
	case m.HasEval && m.HasTime:
		return fmt.Sprintf("%s/%.2f/%s", s, m.Eval, seconds(m.Time))
	case m.HasEval:
		return fmt.Sprintf("%s/%.2f", s, m.Eval)
	case m.HasTime:
		return fmt.Sprintf("%s//%s", s, seconds(m.Time))
	}
	return s
}

// seconds writes a move time in seconds, to the millisecond (to the microsecond below one
// millisecond, so that a fast move does not read as no time at all). The division of an
// integer count gives the nearest float to the decimal, which prints short (4.738, where
// Duration.Seconds gives 4.7379999999999995).
func seconds(d time.Duration) string {
	unit, perSecond := time.Millisecond, 1e3
	if d > 0 && d < time.Millisecond {
		unit, perSecond = time.Microsecond, 1e6
	}
	return strconv.FormatFloat(float64(d.Round(unit)/unit)/perSecond, 'f', -1, 64)
}

func boardString(b *board.Board) string {
	obf := b.OBF()
	var sb strings.Builder
	sb.WriteString("8")
	for r := 0; r < 8; r++ {
		sb.WriteByte(' ')
		for c := 0; c < 8; c++ {
			ch := obf[r*8+c]
			if ch == 'X' {
				ch = '*'
			}
			sb.WriteByte(ch)
		}
	}
	if b.BlackToMove {
		sb.WriteString(" *")
	} else {
		sb.WriteString(" O")
	}
	return sb.String()
}

// ParseClock reads a GGF clock "main[/increment[/extension]]", each part "[[hh:]mm:]ss" with
// an optional fraction; empty parts are zero, and trailing modifier letters (GGS writes e.g.
// "N" or "L") are ignored.
func ParseClock(s string) (Clock, error) {
	parts := strings.Split(strings.TrimSpace(s), "/")
	if len(parts) > 3 {
		return Clock{}, fmt.Errorf("clock %q: want main[/increment[/extension]]", clip(s))
	}
	var d [3]time.Duration
	for i, p := range parts {
		p = strings.TrimRightFunc(strings.TrimSpace(p), func(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' })
		if p == "" {
			continue
		}
		v, err := parseDuration(p)
		if err != nil {
			return Clock{}, fmt.Errorf("clock %q: %v", clip(s), err)
		}
		d[i] = v
	}
	return Clock{Main: d[0], Increment: d[1], Extension: d[2], Set: true}, nil
}

// String writes the clock as GGS does: "mm:ss" parts separated by "/", trailing zero parts
// left out.
func (c Clock) String() string {
	parts := []time.Duration{c.Main, c.Increment, c.Extension}
	for len(parts) > 1 && parts[len(parts)-1] == 0 {
		parts = parts[:len(parts)-1]
	}
	out := make([]string, len(parts))
	for i, d := range parts {
		if d == 0 && i > 0 {
			continue
		}
		out[i] = clockPart(d)
	}
	return strings.Join(out, "/")
}

func clockPart(d time.Duration) string {
	total := d.Seconds()
	m := int(total) / 60
	sec := total - float64(m*60)
	if sec == math.Trunc(sec) {
		return fmt.Sprintf("%02d:%02d", m, int(sec))
	}
	return fmt.Sprintf("%02d:%05.2f", m, sec)
}

// parseDuration reads "[[hh:]mm:]ss[.fff]" (seconds may be fractional).
func parseDuration(s string) (time.Duration, error) {
	f := strings.Split(s, ":")
	if len(f) > 3 {
		return 0, fmt.Errorf("want [[hh:]mm:]ss")
	}
	var total float64
	for i, p := range f {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) || v > 1e7 {
			return 0, fmt.Errorf("%q is not a time: want [[hh:]mm:]ss", clip(s))
		}
		if i < len(f)-1 && v != math.Trunc(v) {
			return 0, fmt.Errorf("%q is not a time: want [[hh:]mm:]ss", clip(s))
		}
		total = total*60 + v
	}
	return time.Duration(math.Round(total * float64(time.Second))), nil
}

func colour(black bool) string {
	if black {
		return "black"
	}
	return "white"
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isUpperOrLower(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }

func isKey(k string) bool {
	if k == "" {
		return false
	}
	for i := 0; i < len(k); i++ {
		if !isUpperOrLower(k[i]) {
			return false
		}
	}
	return true
}

// sanitize keeps a value writable: "]" would end it early and line breaks would split the
// one-line record.
func sanitize(v string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ']':
			return ')'
		case '\n', '\r':
			return ' '
		}
		return r
	}, v)
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
