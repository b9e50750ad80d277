package train

import (
	"bufio"
	"fmt"
	"github.com/othellogo/othello/internal/textline"
	"io"
	"strings"

	"github.com/othellogo/othello/board"
)

// ReadOpenings reads opening transcripts, one per line (XOT style, passes allowed); blank lines
// and lines starting with # are skipped. It keeps n openings (0: all) after skipping the first
// skip. An illegal move, or an opening that ends the game, is an error naming the line.
func ReadOpenings(r io.Reader, skip, n int) ([][]board.Square, error) {
	var out [][]board.Square
	sc := bufio.NewScanner(r)
	line, seen := 0, 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		seen++
		if seen <= skip {
			continue
		}
		moves, b, err := board.ParseTranscript(text)
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		if b.GameOver() {
			return nil, fmt.Errorf("line %d: the game is already over", line)
		}
		out = append(out, moves)
		if n > 0 && len(out) >= n {
			break
		}
	}
	return out, textline.Err(sc.Err(), line, bufio.MaxScanTokenSize, "an opening transcript")
}
