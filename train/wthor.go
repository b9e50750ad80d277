package train

import (
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/othellogo/othello/board"
)

// WTHOR is the binary game-database format of the Fédération Française d'Othello: a 16-byte
// header, then fixed-size records (68-byte games in .wtb files, 20-byte player names in .JOU,
// 26-byte tournament names in .TRN). See ../shared/data/SOURCES.md, section A and B.

// WTHORHeader is the 16-byte header of every WTHOR file.
type WTHORHeader struct {
	Created   [4]uint8 // century, year in century, month, day
	Games     int      // N1: number of game records
	Names     int      // N2: number of name records (.JOU, .TRN)
	Year      int      // year of the games
	BoardSize int      // P1: 0 or 8 for 8x8
	Type      int      // P2: 0 for normal games
	Depth     int      // P3: empties from which the theoretical score is exact (0: none)
}

// WTHORGame is one 68-byte game record.
type WTHORGame struct {
	Tournament, Black, White int // indices into the .TRN and .JOU files
	// Score is the stored number of black discs at the end (empties to the winner);
	// Theoretical the black discs under perfect play from Depth empties on.
	Score, Theoretical int
	Moves              []board.Square // in playing order, passes not stored
}

const (
	wthorHeaderSize = 16
	wthorGameSize   = 68
)

func parseWTHORHeader(name string, data []byte) (WTHORHeader, error) {
	if len(data) < wthorHeaderSize {
		return WTHORHeader{}, fmt.Errorf("%s: truncated WTHOR header (%d bytes, want 16)", name, len(data))
	}
	le := binary.LittleEndian
	h := WTHORHeader{
		Games:     int(le.Uint32(data[4:])),
		Names:     int(le.Uint16(data[8:])),
		Year:      int(le.Uint16(data[10:])),
		BoardSize: int(data[12]),
		Type:      int(data[13]),
		Depth:     int(data[14]),
	}
	copy(h.Created[:], data[:4])
	return h, nil
}

// ReadWTB parses a WTHOR game file (.wtb); name identifies it in errors. The file must hold
// exactly the number of records its header announces, on an 8x8 board. A move byte that is no
// square is an error naming the game; whether the moves are legal is Replay's business.
func ReadWTB(name string, data []byte) (WTHORHeader, []WTHORGame, error) {
	h, err := parseWTHORHeader(name, data)
	if err != nil {
		return h, nil, err
	}
	if h.BoardSize != 0 && h.BoardSize != 8 {
		return h, nil, fmt.Errorf("%s: board size %d, only 8x8 is supported", name, h.BoardSize)
	}
	body := data[wthorHeaderSize:]
	if want := h.Games * wthorGameSize; len(body) != want {
		if len(body) < want {
			return h, nil, fmt.Errorf("%s: truncated: header announces %d games (%d bytes), file has %d bytes of records", name, h.Games, want, len(body))
		}
		return h, nil, fmt.Errorf("%s: %d bytes after the %d games the header announces", name, len(body)-want, h.Games)
	}
	if h.Depth > 60 {
		return h, nil, fmt.Errorf("%s: theoretical-score depth %d is beyond 60", name, h.Depth)
	}
	games := make([]WTHORGame, h.Games)
	le := binary.LittleEndian
	for i := range games {
		rec := body[i*wthorGameSize : (i+1)*wthorGameSize]
		g := WTHORGame{
			Tournament:  int(le.Uint16(rec[0:])),
			Black:       int(le.Uint16(rec[2:])),
			White:       int(le.Uint16(rec[4:])),
			Score:       int(rec[6]),
			Theoretical: int(rec[7]),
		}
		if g.Score > 64 || g.Theoretical > 64 {
			return h, nil, fmt.Errorf("%s: game %d: score %d / theoretical %d beyond 64 discs", name, i+1, g.Score, g.Theoretical)
		}
		moves := make([]board.Square, 0, 60)
		for j, m := range rec[8:] {
			if m == 0 {
				for _, rest := range rec[8+j:] {
					if rest != 0 {
						return h, nil, fmt.Errorf("%s: game %d: move byte %d after the end of the move list", name, i+1, rest)
					}
				}
				break
			}
			row, col := int(m)/10, int(m)%10
			if row < 1 || row > 8 || col < 1 || col > 8 {
				return h, nil, fmt.Errorf("%s: game %d: move %d is byte %d, not a square (10*row + column, 1..8)", name, i+1, j+1, m)
			}
			moves = append(moves, board.SquareAt(col-1, row-1))
		}
		g.Moves = moves
		games[i] = g
	}
	return h, games, nil
}

// ReadWTHORNames parses a .JOU (record size 20) or .TRN (record size 26) name file.
func ReadWTHORNames(name string, data []byte, recordSize int) ([]string, error) {
	h, err := parseWTHORHeader(name, data)
	if err != nil {
		return nil, err
	}
	body := data[wthorHeaderSize:]
	if want := h.Names * recordSize; len(body) != want {
		return nil, fmt.Errorf("%s: header announces %d names of %d bytes (%d bytes), file has %d bytes of records", name, h.Names, recordSize, want, len(body))
	}
	names := make([]string, h.Names)
	for i := range names {
		rec := body[i*recordSize : (i+1)*recordSize]
		if k := strings.IndexByte(string(rec), 0); k >= 0 {
			rec = rec[:k]
		}
		names[i] = latin1(rec)
	}
	return names, nil
}

// latin1 converts ISO-8859-1 bytes to a string.
func latin1(b []byte) string {
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

// BlackDiscDiff converts a WTHOR score (black discs, empties to the winner) to the black disc
// difference.
func BlackDiscDiff(score int) int { return 2*score - 64 }
