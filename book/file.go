package book

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
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
	bk.setOrigin(path, data)
	return bk, nil
}

// LoadRepair reads a book file as Load does, but leaves out the positions no game reaches
// (fewer than 4 discs, or overlapping discs), which earlier versions could write from a bad
// game start and which make Load refuse the whole file. It returns how many it left out; any
// other damage is an error as with Load.
func LoadRepair(path string) (*Book, int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, fmt.Errorf("book: %w", err)
	}
	bk, dropped, err := decode(data, true)
	if err != nil {
		return nil, 0, fmt.Errorf("book %s: %w", path, err)
	}
	bk.setOrigin(path, data)
	return bk, dropped, nil
}

// LoadOrNew loads the book at path, or starts an empty one when the file does not exist (a
// book to create).
func LoadOrNew(path string) (*Book, error) {
	bk, err := Load(path)
	if err != nil && errors.Is(err, os.ErrNotExist) {
		return New(), nil
	}
	return bk, err
}

// Decode reads a book from the bytes of a book file (see Load).
func Decode(data []byte) (*Book, error) {
	bk, _, err := decode(data, false)
	return bk, err
}

// decode reads a book file's bytes; with dropImpossible, positions that no game reaches
// (fewer than 4 discs, overlapping discs: what earlier versions let a bad game start write)
// are left out and counted instead of making the whole file unreadable.
func decode(data []byte, dropImpossible bool) (bk *Book, dropped int, err error) {
	if len(data) < headerSize {
		return nil, 0, corrupt("file is %d bytes, shorter than the %d-byte header (truncated or not a book)", len(data), headerSize)
	}
	if string(data[:8]) != magic {
		return nil, 0, corrupt("not a GoThello book (magic %q, want %q)", data[:8], magic)
	}
	le := binary.LittleEndian
	if v := le.Uint32(data[8:]); v != fileVersion {
		return nil, 0, corrupt("version %d, this program reads version %d", v, fileVersion)
	}
	for _, c := range data[24:headerSize] {
		if c != 0 {
			return nil, 0, corrupt("reserved header bytes are not zero")
		}
	}
	n, m := uint64(le.Uint32(data[12:])), uint64(le.Uint32(data[16:]))
	want := headerSize + n*nodeRecordSize + m*moveRecordSize
	if uint64(len(data)) != want {
		return nil, 0, corrupt("file is %d bytes, the header's %d positions and %d moves need %d (truncated or padded)", len(data), n, m, want)
	}
	if sum := crc32.Checksum(data[headerSize:], crcTable); sum != le.Uint32(data[20:]) {
		return nil, 0, corrupt("checksum mismatch (stored %08x, computed %08x): the file was damaged", le.Uint32(data[20:]), sum)
	}
	bk = &Book{nodes: make(map[Key]*node, n)}
	movesAt := headerSize + n*nodeRecordSize
	allMoves := make([]move, m)
	var next uint64 // the next move record a position must start at
	var prev Key
	for i := uint64(0); i < n; i++ {
		r := data[headerSize+i*nodeRecordSize:]
		k := Key{le.Uint64(r), le.Uint64(r[8:])}
		if i > 0 && (k.P < prev.P || k.P == prev.P && k.O <= prev.O) {
			return nil, 0, corrupt("position %d is out of order", i)
		}
		prev = k
		nd := &node{score: value(int16(le.Uint16(r[16:]))), depth: r[18], known: r[19]&flagKnown != 0,
			wins: le.Uint32(r[20:]), draws: le.Uint32(r[24:]), losses: le.Uint32(r[28:])}
		if r[19]&^flagKnown != 0 || r[37]|r[38]|r[39] != 0 {
			return nil, 0, corrupt("position %d has reserved bits set", i)
		}
		first, count := uint64(le.Uint32(r[32:])), uint64(r[36])
		if first != next || first+count > m {
			return nil, 0, corrupt("position %d has move records %d..%d, want them to start at %d within %d", i, first, first+count, next, m)
		}
		next = first + count
		if err := checkPosition(k.P, k.O); err != nil {
			if dropImpossible {
				dropped++
				continue
			}
			return nil, 0, corrupt("position %d is impossible: %v", i, err)
		}
		nd.moves = allMoves[first:next:next]
		for j := range nd.moves {
			mr := data[movesAt+(first+uint64(j))*moveRecordSize:]
			nd.moves[j] = move{sq: mr[0] &^ inBookBit, inBook: mr[0]&inBookBit != 0, depth: mr[1], value: value(int16(le.Uint16(mr[2:])))}
			if nd.moves[j].depth == unknownDepth {
				return nil, 0, corrupt("position %d has a move of depth %d, which marks a value never searched", i, unknownDepth)
			}
		}
		if err := checkNode(k, nd); err != nil {
			return nil, 0, corrupt("position %d %v", i, err)
		}
		bk.nodes[k] = nd
	}
	if next != m {
		return nil, 0, corrupt("%d move records belong to no position", m-next)
	}
	return bk, dropped, nil
}

// checkPosition says why a position cannot be in a book: its discs overlap, or it has fewer
// than the 4 discs every game position has. The reader refuses such a record (Decode), the
// writer such a position (Save), and the builder such a game start (AddGame).
func checkPosition(p, o uint64) error {
	if p&o != 0 {
		return errors.New("has overlapping discs")
	}
	if n := board.Count(p | o); n < 4 {
		return fmt.Errorf("has %d discs, fewer than 4 discs (a game starts with 4)", n)
	}
	return nil
}

// checkNode says why the record of position k would be refused by the reader: an impossible
// or non-canonical position, a score out of range, or a move that is not legal, out of order
// or has a value out of range. Moves whose value is not known yet are not written, and not
// checked. Decode and Save both use it, so that a book that is saved can be read back.
func checkNode(k Key, n *node) error {
	if err := checkPosition(k.P, k.O); err != nil {
		return fmt.Errorf("is impossible: it %v", err)
	}
	if ck, _ := keyOf(k.P, k.O); ck != k {
		return errors.New("is not in canonical form")
	}
	if n.score < -6400 || n.score > 6400 {
		return fmt.Errorf("has score %d out of range", n.score)
	}
	legal := legalSquares(k.P, k.O)
	last := -1
	for _, mv := range n.moves {
		if mv.depth == unknownDepth {
			continue
		}
		if !slices.Contains(legal, mv.sq) {
			return fmt.Errorf("has a move on square %d, which is not legal there", mv.sq)
		}
		if int(mv.sq) <= last {
			return errors.New("has its moves out of order")
		}
		last = int(mv.sq)
		if mv.value < -6400 || mv.value > 6400 {
			return fmt.Errorf("has a move value %d out of range", mv.value)
		}
	}
	return nil
}

// check returns an error naming the first position (in file order) the reader would refuse.
func (bk *Book) check() error {
	for _, k := range bk.sortedKeys() {
		if err := checkNode(k, bk.nodes[k]); err != nil {
			b := board.FromColors(k.P, k.O, true)
			return fmt.Errorf("position %s %v", b.OBF(), err)
		}
	}
	return nil
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
// same directory, synced, then renamed over path. A crash or an error at any point leaves the previous file intact.
// A book holding a position the reader would refuse is not written (the error names it).
//
// Several processes may learn into one file (two NBoard engines with the same -book): Save
// holds an advisory lock on path+".lock" while it re-reads the file, merges and writes. When
// the file is no longer what this book was read from (another process saved meanwhile), what
// this book changed since then is merged into what the file holds now: positions are joined,
// game counts added, move values searched here set (where both searched one, the deeper
// value stands), and values re-propagated. A book not read from path merges all it holds. A
// file there that cannot be read as a book is not overwritten. After Save the book in memory
// is what was written.
func (bk *Book) Save(path string) error {
	return bk.save(path, nil, nil)
}

// save is Save; before, when not nil, runs under the lock once the bytes to write are known,
// with the bytes the file holds (nil: none), and can stop the save; after, when not nil, runs
// under the lock once the book is written.
func (bk *Book) save(path string, before func(cur []byte) error, after func() error) error {
	if err := bk.check(); err != nil {
		return fmt.Errorf("book: not saved to %s: %w", path, err)
	}
	unlock, err := lockFile(path + ".lock")
	if err != nil {
		return fmt.Errorf("book: locking %s: %w", path, err)
	}
	defer unlock()
	cur, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("book: %w", err)
	}
	out := bk
	if exists := err == nil; exists {
		var ancestor []byte
		if bk.origin == absPath(path) {
			ancestor = bk.base
		}
		if !bytes.Equal(cur, ancestor) {
			if out, err = bk.mergeInto(cur, ancestor); err != nil {
				return fmt.Errorf("book: %s changed since this book was read and cannot be read as a book now (%w); it is not overwritten", path, err)
			}
		}
	}
	data := out.Encode()
	if before != nil {
		if err := before(cur); err != nil {
			return err
		}
	}
	if err := writeAtomic(path, data, nil); err != nil {
		return err
	}
	bk.nodes = out.nodes
	bk.setOrigin(path, data)
	if after != nil {
		return after()
	}
	return nil
}

// setOrigin records that the book is what path holds: data, its bytes.
func (bk *Book) setOrigin(path string, data []byte) {
	bk.origin, bk.base = absPath(path), data
}

// absPath is path made absolute, so that two spellings of one file compare equal; path itself
// when that fails.
func absPath(path string) string {
	if a, err := filepath.Abs(path); err == nil {
		return a
	}
	return path
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
