package board

import (
	"fmt"
	"strings"
)

// ParseOBF reads a position in the 64-character board + side form of .obf files: the squares
// a1..h1, a2..h8 as 'X' or '*' (black), 'O' (white), '-' or '.' (empty), case-insensitive, then
// optional blanks and the side to move ('X'/'*' black, 'O' white). Anything after the side
// (the "; MOVE:SCORE" fields of an .obf line) is returned untouched in rest.
func ParseOBF(text string) (b Board, rest string, err error) {
	s := strings.TrimLeft(text, " \t")
	if len(s) < 64 {
		return Board{}, "", fmt.Errorf("position %q: want 64 board characters and a side to move, got %d characters", clip(text), len(s))
	}
	var black, white uint64
	for i := 0; i < 64; i++ {
		switch s[i] {
		case 'X', 'x', '*':
			black |= 1 << uint(i)
		case 'O', 'o', '0':
			white |= 1 << uint(i)
		case '-', '.':
		default:
			return Board{}, "", fmt.Errorf("position: character %d (square %s) is %q; want X, *, O, - or .", i+1, Square(i), s[i])
		}
	}
	s = strings.TrimLeft(s[64:], " \t")
	if s == "" {
		return Board{}, "", fmt.Errorf("position: the side to move (X or O) is missing after the 64 board characters")
	}
	var blackToMove bool
	switch s[0] {
	case 'X', 'x', '*', 'B', 'b':
		blackToMove = true
	case 'O', 'o', '0', 'W', 'w':
	default:
		return Board{}, "", fmt.Errorf("position: side to move is %q; want X or O", s[0])
	}
	if len(s) > 1 && isAlnum(s[1]) {
		return Board{}, "", fmt.Errorf("position: side to move %q is followed by %q; want one character", s[0], s[1])
	}
	return FromColors(black, white, blackToMove), s[1:], nil
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// OBF writes the position as 64 board characters ('X' black, 'O' white, '-' empty), a blank
// and the side to move.
func (b *Board) OBF() string {
	var buf [66]byte
	black, white := b.Black(), b.White()
	for i := 0; i < 64; i++ {
		switch {
		case black>>uint(i)&1 != 0:
			buf[i] = 'X'
		case white>>uint(i)&1 != 0:
			buf[i] = 'O'
		default:
			buf[i] = '-'
		}
	}
	buf[64] = ' '
	buf[65] = 'O'
	if b.BlackToMove {
		buf[65] = 'X'
	}
	return string(buf[:])
}

// ParseTranscript reads a move list such as "f5d6c3" (case-insensitive, blanks allowed
// between moves) played from the start position, and returns the moves with passes made
// explicit (NoSquare entries) and the final board. Passes are implied: when the side to move
// has no legal move it passes; explicit "pa"/"PA" tokens are also accepted where a pass is due.
func ParseTranscript(text string) ([]Square, Board, error) {
	return PlayTranscript(Start(), text)
}

// PlayTranscript is ParseTranscript from a given starting board.
func PlayTranscript(b Board, text string) ([]Square, Board, error) {
	var moves []Square
	s := text
	pos := 0
	for {
		for pos < len(s) && (s[pos] == ' ' || s[pos] == '\t' || s[pos] == '\n' || s[pos] == '\r' || s[pos] == ',') {
			pos++
		}
		if pos >= len(s) {
			return moves, b, nil
		}
		if pos+2 > len(s) {
			return moves, b, fmt.Errorf("transcript: move %d at character %d: %q is cut short", len(moves)+1, pos+1, s[pos:])
		}
		tok := s[pos : pos+2]
		if IsPassWord(tok) {
			if !b.MustPass() {
				return moves, b, fmt.Errorf("transcript: move %d at character %d: pass while a move is available", len(moves)+1, pos+1)
			}
			b.Pass()
			moves = append(moves, NoSquare)
			pos += 2
			continue
		}
		sq, err := ParseSquare(tok)
		if err != nil {
			return moves, b, fmt.Errorf("transcript: move %d at character %d: %v", len(moves)+1, pos+1, err)
		}
		if b.MustPass() {
			b.Pass()
			moves = append(moves, NoSquare)
		}
		if !b.IsLegal(sq) {
			return moves, b, fmt.Errorf("transcript: move %d at character %d: %s is not legal for %s", len(moves)+1, pos+1, sq, b.SideName())
		}
		b.Make(sq)
		moves = append(moves, sq)
		pos += 2
	}
}

// ParsePosition is the position a command line gives with an optional .obf text (64 squares
// and the side to move, at most a ";" after it; "" for the start position) and a transcript
// played from it (ParseTranscript's form).
func ParsePosition(obf, moves string) (Board, error) {
	b := Start()
	if obf != "" {
		var rest string
		var err error
		if b, rest, err = ParseOBF(obf); err != nil {
			return b, err
		}
		if r := strings.TrimRight(strings.TrimLeft(rest, " \t"), " \t\r\n"); r != "" && r != ";" {
			return b, fmt.Errorf("position: unexpected %q after the side to move", r)
		}
	}
	if moves != "" {
		var err error
		if _, b, err = PlayTranscript(b, moves); err != nil {
			return b, err
		}
	}
	return b, nil
}

// Transcript writes moves as a compact lower-case transcript; passes are left out, as is
// usual (they are implied by the position).
func Transcript(moves []Square) string {
	var sb strings.Builder
	for _, m := range moves {
		if m != NoSquare {
			sb.WriteString(m.String())
		}
	}
	return sb.String()
}

// SideName returns "black" or "white" for the side to move.
func (b *Board) SideName() string {
	if b.BlackToMove {
		return "black"
	}
	return "white"
}

// Diagram draws the board for people: black as '*', white as 'O', legal moves of the side to
// move as '.', other empties as '-', with coordinates, disc counts and the side to move.
func (b *Board) Diagram() string {
	var sb strings.Builder
	black, white := b.Black(), b.White()
	moves := b.LegalMoves()
	sb.WriteString("  a b c d e f g h\n")
	for r := 0; r < 8; r++ {
		sb.WriteByte(byte('1' + r))
		for c := 0; c < 8; c++ {
			bit := SquareAt(c, r).Bit()
			ch := byte('-')
			switch {
			case black&bit != 0:
				ch = '*'
			case white&bit != 0:
				ch = 'O'
			case moves&bit != 0:
				ch = '.'
			}
			sb.WriteByte(' ')
			sb.WriteByte(ch)
		}
		sb.WriteString(fmt.Sprintf(" %d\n", r+1))
	}
	sb.WriteString("  a b c d e f g h\n")
	fmt.Fprintf(&sb, "black (*) %d, white (O) %d, empties %d; ", Count(black), Count(white), b.NumEmpties())
	switch {
	case b.GameOver():
		fmt.Fprintf(&sb, "game over, black %+d\n", b.BlackScore())
	default:
		fmt.Fprintf(&sb, "%s to move\n", b.SideName())
	}
	return sb.String()
}

// ParseDiagram reads the board back from Diagram's output (or any 8 lines of 8 squares using
// '*'/'X' black, 'O' white and '-'/'.' empty, optionally framed by coordinates). The side to
// move is taken from a line containing "black to move" or "white to move"; black by default.
func ParseDiagram(text string) (Board, error) {
	var cells []byte
	blackToMove := true
	for _, line := range strings.Split(text, "\n") {
		l := strings.ToLower(line)
		if strings.Contains(l, "white to move") {
			blackToMove = false
		}
		if strings.Contains(l, "to move") || strings.Contains(l, "game over") {
			continue
		}
		fields := strings.Fields(line)
		var row []byte
		for _, f := range fields {
			if len(f) == 1 && strings.IndexByte("*XxOo-.", f[0]) >= 0 {
				row = append(row, f[0])
			}
		}
		if len(row) == 8 {
			cells = append(cells, row...)
		} else if len(row) != 0 {
			return Board{}, fmt.Errorf("diagram: line %q has %d squares, want 8", clip(line), len(row))
		}
	}
	if len(cells) != 64 {
		return Board{}, fmt.Errorf("diagram: found %d rows of squares, want 8", len(cells)/8)
	}
	side := "X"
	if !blackToMove {
		side = "O"
	}
	b, _, err := ParseOBF(string(cells) + " " + side)
	return b, err
}
