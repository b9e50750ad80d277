package book

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/internal/atomicfile"
)

// The plain-text form, for interchange and for people: one line per known move value,
//
//	<transcript> <value> <depth> [<wins>/<draws>/<losses>]
//
// The transcript runs from the start position to the move (passes written "pa"); value is the
// move's value in discs for the player who played it; depth is the search depth behind the
// value or "exact"; the game counts, from the same player's view, are present exactly when the
// position after the move is itself in the book. Lines starting with '#' and blank lines are
// ignored. Only positions reachable from the start position through book moves are exported
// (Export reports how many others there are), and the start position's own game counts are
// not part of the form.

const exportHeader = "# GoThello opening book: transcript, value of the last move for its player (discs), depth or \"exact\", and wins/draws/losses through the resulting book position\n"

// ExportFile writes the text form (Export) to the file at path, atomically
// (internal/atomicfile): a failed or killed export leaves an older file whole.
func (bk *Book) ExportFile(path string) (lines, unreachable int, err error) {
	err = atomicfile.Write(path, 0o644, func(w io.Writer) error {
		lines, unreachable, err = bk.Export(w)
		return err
	})
	return lines, unreachable, err
}

// Export writes the book in its plain-text form, positions in depth-first order from the
// start position. It returns the number of lines written and of book positions not reachable
// from the start position (which are not written).
func (bk *Book) Export(w io.Writer) (lines, unreachable int, err error) {
	bw := bufio.NewWriter(w)
	bw.WriteString(exportHeader)
	seen := make(map[Key]bool, len(bk.nodes))
	var path []board.Square
	var walk func(b board.Board)
	walk = func(b board.Board) {
		k, sym := keyOf(b.P, b.O)
		n := bk.nodes[k]
		if n == nil || seen[k] {
			return
		}
		seen[k] = true
		inv := board.InverseSymmetry(sym)
		for _, mv := range n.moves {
			sq := board.NoSquare
			if mv.sq != passSquare {
				sq = board.TransformSquare(board.Square(mv.sq), inv)
			}
			path = append(path, sq)
			var sb strings.Builder
			for _, m := range path {
				if m == board.NoSquare {
					sb.WriteString("pa")
				} else {
					sb.WriteString(m.String())
				}
			}
			fmt.Fprintf(&sb, " %+.2f %s", mv.value.discs(), depthString(mv.depth))
			nb := b
			nb.Play(sq)
			if mv.inBook {
				ck, _ := keyOf(nb.P, nb.O)
				if c := bk.nodes[ck]; c != nil {
					fmt.Fprintf(&sb, " %d/%d/%d", c.losses, c.draws, c.wins)
				}
			}
			sb.WriteByte('\n')
			bw.WriteString(sb.String())
			lines++
			if mv.inBook {
				walk(nb)
			}
			path = path[:len(path)-1]
		}
	}
	walk(board.Start())
	if err := bw.Flush(); err != nil {
		return lines, 0, fmt.Errorf("book export: %w", err)
	}
	return lines, len(bk.nodes) - len(seen), nil
}

func depthString(d uint8) string {
	if d == DepthExact {
		return "exact"
	}
	return strconv.Itoa(int(d))
}

// Import reads the plain-text form (see Export) into the book, adding positions and move
// values (a value read replaces the one the book had), then re-propagates values. A malformed
// line stops the import with an error naming the line; the lines before it are kept.
func (bk *Book) Import(r io.Reader) (int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	lines, lineNo := 0, 0
	defer bk.Fix()
	for sc.Scan() {
		lineNo++
		if err := bk.importLine(sc.Text()); err != nil {
			return lines, fmt.Errorf("book import: line %d: %w", lineNo, err)
		}
		if t := strings.TrimSpace(sc.Text()); t != "" && t[0] != '#' {
			lines++
		}
	}
	if err := sc.Err(); err != nil {
		return lines, fmt.Errorf("book import: after line %d: %w", lineNo, err)
	}
	return lines, nil
}

func (bk *Book) importLine(text string) error {
	t := strings.TrimSpace(text)
	if t == "" || t[0] == '#' {
		return nil
	}
	f := strings.Fields(t)
	if len(f) < 3 || len(f) > 4 {
		return fmt.Errorf("%q: want a transcript, a value, a depth and optionally wins/draws/losses", clip(t))
	}
	moves, _, err := board.ParseTranscript(f[0])
	if err != nil {
		return err
	}
	if len(moves) == 0 {
		return fmt.Errorf("empty transcript")
	}
	v, err := strconv.ParseFloat(f[1], 64)
	if err != nil || math.IsNaN(v) || v < -64 || v > 64 {
		return fmt.Errorf("value %q: want a number of discs from -64 to 64", clip(f[1]))
	}
	var depth uint8
	if f[2] == "exact" {
		depth = DepthExact
	} else {
		d, err := strconv.Atoi(f[2])
		if err != nil || d < 0 || d > 60 {
			return fmt.Errorf("depth %q: want a number from 0 to 60 or \"exact\"", clip(f[2]))
		}
		depth = uint8(d)
	}
	var wdl [3]uint32
	if len(f) == 4 {
		parts := strings.Split(f[3], "/")
		if len(parts) != 3 {
			return fmt.Errorf("game counts %q: want wins/draws/losses", clip(f[3]))
		}
		for i, p := range parts {
			c, err := strconv.ParseUint(p, 10, 32)
			if err != nil {
				return fmt.Errorf("game counts %q: want three whole numbers", clip(f[3]))
			}
			wdl[i] = uint32(c)
		}
	}
	// ParseTranscript inserts a pass before a move when one is due; a pass written as the last
	// token is the line's move.
	b := board.Start()
	last := len(moves) - 1
	for _, m := range moves[:last] {
		bk.ensure(b.P, b.O)
		b.Play(m)
	}
	_, sym := keyOf(b.P, b.O)
	n := bk.ensure(b.P, b.O)
	sq := uint8(passSquare)
	if moves[last] != board.NoSquare {
		sq = uint8(board.TransformSquare(moves[last], sym))
	}
	n.set(move{sq: sq, depth: depth, value: toValue(v)})
	if len(f) == 4 {
		b.Play(moves[last])
		c := bk.ensure(b.P, b.O)
		c.losses, c.draws, c.wins = wdl[0], wdl[1], wdl[2]
	}
	return nil
}

// ensure returns the node of a position, adding it when missing.
func (bk *Book) ensure(p, o uint64) *node {
	k, _ := keyOf(p, o)
	n := bk.nodes[k]
	if n == nil {
		n = &node{}
		if board.LegalMoves(p, o) == 0 && board.LegalMoves(o, p) == 0 {
			n.known, n.depth, n.score = true, DepthExact, toValue(float64(board.DiscDiff(p, o)))
		}
		bk.nodes[k] = n
	}
	return n
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}
