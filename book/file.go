package book

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/internal/atomicfile"
)

// The book file (version 1), little-endian:
//
//	header, 32 bytes:
//	  0  [8]byte  magic "GOTHBOOK"
//	  8  uint32   version (1)
//	  12 uint32   number of positions N
//	  16 uint32   number of move records M
//	  20 uint32   CRC-32C (Castagnoli) of everything after the header
//	  24 [8]byte  reserved, zero
//	N position records, 40 bytes each, sorted by (P, O) ascending, no duplicates:
//	  0  uint64   P (canonical, side to move)
//	  8  uint64   O
//	  16 int16    score, hundredths of a disc, side to move's view
//	  18 uint8    depth of the score (255: exact)
//	  19 uint8    flags: bit 0 the score is known
//	  20 uint32   wins, 24 uint32 draws, 28 uint32 losses (side to move's view)
//	  32 uint32   index of the position's first move record
//	  36 uint8    number of move records; 37 [3]byte reserved, zero
//	M move records, 4 bytes each, grouped by position in position order, by square within:
//	  0  uint8    square 0..63 (canonical orientation), 64 for a pass; bit 7 set: the
//	              resulting position is in the book
//	  1  uint8    depth (255: exact)
//	  2  int16    value, hundredths of a disc, for the side to move of the position
//
// Fixed-size records sorted by key let a reader binary-search the file in place; this loader
// checks everything and builds a map, which costs well under a second per million positions.
const (
	magic          = "GOTHBOOK"
	fileVersion    = 1
	headerSize     = 32
	nodeRecordSize = 40
	moveRecordSize = 4
	flagKnown      = 1
	inBookBit      = 0x80
)

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// ErrCorrupt is wrapped by every error about a malformed book file.
var ErrCorrupt = errors.New("corrupt book")

func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// Load reads a book file. A file that is truncated, fails its checksum or holds an impossible
// record is rejected with an error wrapping ErrCorrupt that says what is wrong.
func Load(path string) (*Book, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("book: %w", err)
	}
	bk, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("book %s: %w", path, err)
	}
	return bk, nil
}

// Decode reads a book from the bytes of a book file (see Load).
func Decode(data []byte) (*Book, error) {
	if len(data) < headerSize {
		return nil, corrupt("file is %d bytes, shorter than the %d-byte header (truncated or not a book)", len(data), headerSize)
	}
	if string(data[:8]) != magic {
		return nil, corrupt("not a GoThello book (magic %q, want %q)", data[:8], magic)
	}
	le := binary.LittleEndian
	if v := le.Uint32(data[8:]); v != fileVersion {
		return nil, corrupt("version %d, this program reads version %d", v, fileVersion)
	}
	for _, c := range data[24:headerSize] {
		if c != 0 {
			return nil, corrupt("reserved header bytes are not zero")
		}
	}
	n, m := uint64(le.Uint32(data[12:])), uint64(le.Uint32(data[16:]))
	want := headerSize + n*nodeRecordSize + m*moveRecordSize
	if uint64(len(data)) != want {
		return nil, corrupt("file is %d bytes, the header's %d positions and %d moves need %d (truncated or padded)", len(data), n, m, want)
	}
	if sum := crc32.Checksum(data[headerSize:], crcTable); sum != le.Uint32(data[20:]) {
		return nil, corrupt("checksum mismatch (stored %08x, computed %08x): the file was damaged", le.Uint32(data[20:]), sum)
	}
	bk := &Book{nodes: make(map[Key]*node, n)}
	movesAt := headerSize + n*nodeRecordSize
	allMoves := make([]move, m)
	var next uint64 // the next move record a position must start at
	var prev Key
	for i := uint64(0); i < n; i++ {
		r := data[headerSize+i*nodeRecordSize:]
		k := Key{le.Uint64(r), le.Uint64(r[8:])}
		if i > 0 && (k.P < prev.P || k.P == prev.P && k.O <= prev.O) {
			return nil, corrupt("position %d is out of order", i)
		}
		prev = k
		if k.P&k.O != 0 || board.Count(k.P|k.O) < 4 {
			return nil, corrupt("position %d is impossible (overlapping or fewer than 4 discs)", i)
		}
		if ck, _ := keyOf(k.P, k.O); ck != k {
			return nil, corrupt("position %d is not in canonical form", i)
		}
		nd := &node{score: value(int16(le.Uint16(r[16:]))), depth: r[18], known: r[19]&flagKnown != 0,
			wins: le.Uint32(r[20:]), draws: le.Uint32(r[24:]), losses: le.Uint32(r[28:])}
		if r[19]&^flagKnown != 0 || r[37]|r[38]|r[39] != 0 {
			return nil, corrupt("position %d has reserved bits set", i)
		}
		if nd.score < -6400 || nd.score > 6400 {
			return nil, corrupt("position %d has score %d out of range", i, nd.score)
		}
		first, count := uint64(le.Uint32(r[32:])), uint64(r[36])
		if first != next || first+count > m {
			return nil, corrupt("position %d has move records %d..%d, want them to start at %d within %d", i, first, first+count, next, m)
		}
		next = first + count
		legal := legalSquares(k.P, k.O)
		nd.moves = allMoves[first:next:next]
		for j := range nd.moves {
			mr := data[movesAt+(first+uint64(j))*moveRecordSize:]
			mv := move{sq: mr[0] &^ inBookBit, inBook: mr[0]&inBookBit != 0, depth: mr[1], value: value(int16(le.Uint16(mr[2:])))}
			if !slices.Contains(legal, mv.sq) {
				return nil, corrupt("position %d has a move on square %d, which is not legal there", i, mv.sq)
			}
			if j > 0 && mv.sq <= nd.moves[j-1].sq {
				return nil, corrupt("position %d has its moves out of order", i)
			}
			if mv.depth == unknownDepth {
				return nil, corrupt("position %d has a move of depth %d, which marks a value never searched", i, mv.depth)
			}
			if mv.value < -6400 || mv.value > 6400 {
				return nil, corrupt("position %d has a move value %d out of range", i, mv.value)
			}
			nd.moves[j] = mv
		}
		bk.nodes[k] = nd
	}
	if next != m {
		return nil, corrupt("%d move records belong to no position", m-next)
	}
	return bk, nil
}

// sortedKeys returns the book's keys in file order.
func (bk *Book) sortedKeys() []Key {
	keys := make([]Key, 0, len(bk.nodes))
	for k := range bk.nodes {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b Key) int {
		switch {
		case a.P != b.P:
			if a.P < b.P {
				return -1
			}
			return 1
		case a.O < b.O:
			return -1
		case a.O > b.O:
			return 1
		}
		return 0
	})
	return keys
}

// Encode returns the book as the bytes of a book file. The same book always gives the same
// bytes.
func (bk *Book) Encode() []byte {
	keys := bk.sortedKeys()
	var m int
	for _, k := range keys {
		m += bk.nodes[k].knownMoves()
	}
	data := make([]byte, headerSize+len(keys)*nodeRecordSize+m*moveRecordSize)
	le := binary.LittleEndian
	copy(data, magic)
	le.PutUint32(data[8:], fileVersion)
	le.PutUint32(data[12:], uint32(len(keys)))
	le.PutUint32(data[16:], uint32(m))
	movesAt := headerSize + len(keys)*nodeRecordSize
	next := 0
	for i, k := range keys {
		nd := bk.nodes[k]
		r := data[headerSize+i*nodeRecordSize:]
		le.PutUint64(r, k.P)
		le.PutUint64(r[8:], k.O)
		le.PutUint16(r[16:], uint16(nd.score))
		r[18] = nd.depth
		if nd.known {
			r[19] = flagKnown
		}
		le.PutUint32(r[20:], nd.wins)
		le.PutUint32(r[24:], nd.draws)
		le.PutUint32(r[28:], nd.losses)
		le.PutUint32(r[32:], uint32(next))
		r[36] = uint8(nd.knownMoves())
		for _, mv := range nd.moves {
			if mv.depth == unknownDepth {
				continue
			}
			mr := data[movesAt+next*moveRecordSize:]
			mr[0] = mv.sq
			if mv.inBook {
				mr[0] |= inBookBit
			}
			mr[1] = mv.depth
			le.PutUint16(mr[2:], uint16(mv.value))
			next++
		}
	}
	le.PutUint32(data[20:], crc32.Checksum(data[headerSize:], crcTable))
	return data
}

// Save writes the book to path atomically (internal/atomicfile): to a temporary file in the
// same directory, synced, then renamed over path. A crash or an error at any point leaves the
// previous file intact.
func (bk *Book) Save(path string) error {
	return writeAtomic(path, bk.Encode(), nil)
}

// writeAtomic writes data to path through a temporary file; wrap, when not nil, wraps the
// temporary file's writer (tests use it to fail a write midway).
func writeAtomic(path string, data []byte, wrap func(io.Writer) io.Writer) error {
	err := atomicfile.Write(path, 0o644, func(w io.Writer) error {
		if wrap != nil {
			w = wrap(w)
		}
		_, err := io.Copy(w, bytes.NewReader(data))
		return err
	})
	if err != nil {
		return fmt.Errorf("book: writing %s: %w (the previous book, if any, is untouched)", path, err)
	}
	return nil
}
