// Package weights owns the evaluation's weight file: a versioned, checksummed binary format,
// and the trained file embedded in the binary with go:embed (Embedded).
//
// A file is little-endian:
//
//	magic     8 bytes  "GOTHWGT\x1a"
//	version   uint16   1
//	stages    uint16   number of stages
//	scale     uint16   fixed-point units per disc of the weights
//	patterns  uint16   number of patterns, then for each:
//	  name    uint8 length + bytes
//	  squares uint8 count + one byte per square (0 = a1 .. 63 = h8), in digit order
//	  packed  uint32   number of weights per stage (canonical configurations, or feature values)
//	weights   int16 × stages × sum(packed): stage 0 first, patterns in order
//	sections  uint16 count, then for each: tag (4 bytes), uint32 length, data
//	crc32     uint32   IEEE CRC-32 of every byte before it
//
// The tagged sections carry data fitted with the weights that is not part of them, e.g. the
// search's Multi-ProbCut parameters or the training run's summary; readers skip sections they
// do not know, so adding one is no format break.
package weights

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"

	"github.com/othellogo/othello/internal/atomicfile"
)

// Magic starts every weight file.
const Magic = "GOTHWGT\x1a"

// Version is the format version this package reads and writes.
const Version = 1

// Pattern describes one weight table of a file.
type Pattern struct {
	Name    string
	Squares []uint8 // in digit order; empty for a scalar feature
	Packed  int     // weights per stage
}

// Section is one tagged extra section.
type Section struct {
	Tag  string // exactly 4 bytes
	Data []byte
}

// File is the content of a weight file.
type File struct {
	Stages   int
	Scale    int // fixed-point units per disc
	Patterns []Pattern
	// Weights[s] holds stage s's weights: the packed weights of each pattern in order.
	Weights  [][]int16
	Sections []Section
}

// PerStage returns the number of weights of one stage.
func (f *File) PerStage() int {
	n := 0
	for _, p := range f.Patterns {
		n += p.Packed
	}
	return n
}

// Section returns the data of the section with the given tag.
func (f *File) Section(tag string) ([]byte, bool) {
	for _, s := range f.Sections {
		if s.Tag == tag {
			return s.Data, true
		}
	}
	return nil, false
}

// SetSection adds or replaces the section with the given tag, which must be 4 bytes long.
func (f *File) SetSection(tag string, data []byte) error {
	if len(tag) != 4 {
		return fmt.Errorf("weights: section tag %q: want 4 bytes", tag)
	}
	for i := range f.Sections {
		if f.Sections[i].Tag == tag {
			f.Sections[i].Data = data
			return nil
		}
	}
	f.Sections = append(f.Sections, Section{tag, data})
	return nil
}

// Encode writes the file in the binary format. It fails on inconsistent content.
func (f *File) Encode() ([]byte, error) {
	if f.Stages <= 0 || f.Stages > 64 || len(f.Weights) != f.Stages {
		return nil, fmt.Errorf("weights: %d stages with %d weight vectors", f.Stages, len(f.Weights))
	}
	if f.Scale <= 0 || f.Scale > 65535 {
		return nil, fmt.Errorf("weights: scale %d out of range", f.Scale)
	}
	var buf bytes.Buffer
	le := binary.LittleEndian
	buf.WriteString(Magic)
	buf.Write(le.AppendUint16(nil, Version))
	buf.Write(le.AppendUint16(nil, uint16(f.Stages)))
	buf.Write(le.AppendUint16(nil, uint16(f.Scale)))
	buf.Write(le.AppendUint16(nil, uint16(len(f.Patterns))))
	for _, p := range f.Patterns {
		if len(p.Name) > 255 || len(p.Squares) > 64 || p.Packed < 0 {
			return nil, fmt.Errorf("weights: pattern %q does not fit the format", p.Name)
		}
		buf.WriteByte(byte(len(p.Name)))
		buf.WriteString(p.Name)
		buf.WriteByte(byte(len(p.Squares)))
		buf.Write(p.Squares)
		buf.Write(le.AppendUint32(nil, uint32(p.Packed)))
	}
	per := f.PerStage()
	w := make([]byte, 0, 2*per)
	for s, ws := range f.Weights {
		if len(ws) != per {
			return nil, fmt.Errorf("weights: stage %d has %d weights, want %d", s, len(ws), per)
		}
		w = w[:0]
		for _, x := range ws {
			w = le.AppendUint16(w, uint16(x))
		}
		buf.Write(w)
	}
	buf.Write(le.AppendUint16(nil, uint16(len(f.Sections))))
	for _, s := range f.Sections {
		if len(s.Tag) != 4 {
			return nil, fmt.Errorf("weights: section tag %q: want 4 bytes", s.Tag)
		}
		buf.WriteString(s.Tag)
		buf.Write(le.AppendUint32(nil, uint32(len(s.Data))))
		buf.Write(s.Data)
	}
	buf.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(buf.Bytes())))
	return buf.Bytes(), nil
}

// errTruncated marks a file that ends early.
var errTruncated = errors.New("file is truncated")

// reader walks the bytes of a file, remembering the first error.
type reader struct {
	data []byte
	pos  int
	err  error
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.data)-r.pos {
		r.err = fmt.Errorf("%w at byte %d (wanted %d more bytes, %d left)", errTruncated, r.pos, n, len(r.data)-r.pos)
		return nil
	}
	b := r.data[r.pos : r.pos+n]
	r.pos += n
	return b
}

func (r *reader) u8() int {
	b := r.take(1)
	if b == nil {
		return 0
	}
	return int(b[0])
}

func (r *reader) u16() int {
	b := r.take(2)
	if b == nil {
		return 0
	}
	return int(binary.LittleEndian.Uint16(b))
}

func (r *reader) u32() int {
	b := r.take(4)
	if b == nil {
		return 0
	}
	return int(binary.LittleEndian.Uint32(b))
}

// Decode parses a weight file; name (a path, or "embedded weights") prefixes every error.
// The checksum is verified before anything else is trusted.
func Decode(name string, data []byte) (*File, error) {
	fail := func(format string, args ...any) (*File, error) {
		return nil, fmt.Errorf("weights %s: "+format, append([]any{name}, args...)...)
	}
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		return fail("not a weight file (bad magic)")
	}
	if len(data) < len(Magic)+4+4 {
		return fail("file is truncated (%d bytes)", len(data))
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if got := crc32.ChecksumIEEE(body); got != sum {
		return fail("checksum mismatch (file says %08x, content gives %08x): the file is corrupt or truncated", sum, got)
	}
	r := &reader{data: body, pos: len(Magic)}
	if v := r.u16(); v != Version {
		return fail("format version %d, this engine reads version %d", v, Version)
	}
	f := &File{Stages: r.u16(), Scale: r.u16()}
	if r.err == nil && (f.Stages == 0 || f.Stages > 64) {
		return fail("%d stages", f.Stages)
	}
	if r.err == nil && f.Scale == 0 {
		return fail("scale 0")
	}
	np := r.u16()
	for i := 0; i < np && r.err == nil; i++ {
		var p Pattern
		p.Name = string(r.take(r.u8()))
		p.Squares = append([]uint8(nil), r.take(r.u8())...)
		p.Packed = r.u32()
		for _, s := range p.Squares {
			if s > 63 {
				return fail("pattern %q: square %d out of range", p.Name, s)
			}
		}
		f.Patterns = append(f.Patterns, p)
	}
	if r.err != nil {
		return fail("%v", r.err)
	}
	per := f.PerStage()
	if per <= 0 || per > (len(body)-r.pos)/2/f.Stages {
		return fail("%d weights per stage × %d stages do not fit in %d bytes", per, f.Stages, len(body)-r.pos)
	}
	f.Weights = make([][]int16, f.Stages)
	for s := range f.Weights {
		raw := r.take(2 * per)
		ws := make([]int16, per)
		for i := range ws {
			ws[i] = int16(binary.LittleEndian.Uint16(raw[2*i:]))
		}
		f.Weights[s] = ws
	}
	ns := r.u16()
	for i := 0; i < ns && r.err == nil; i++ {
		tag := string(r.take(4))
		d := r.take(r.u32())
		if r.err == nil {
			f.Sections = append(f.Sections, Section{tag, append([]byte(nil), d...)})
		}
	}
	if r.err != nil {
		return fail("%v", r.err)
	}
	if r.pos != len(body) {
		return fail("%d unexpected bytes after the last section", len(body)-r.pos)
	}
	return f, nil
}

// ReadFile reads and decodes a weight file.
func ReadFile(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	return Decode(path, data)
}

// WriteFile encodes f and writes it to path atomically (internal/atomicfile): a crash or a
// kill during the write leaves the previous file whole, never a truncated one.
func (f *File) WriteFile(path string) error {
	data, err := f.Encode()
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("weights: %w", err)
	}
	return nil
}

//go:embed default.gtw
var embedded []byte

// EmbeddedName names the embedded file in errors.
const EmbeddedName = "embedded default.gtw"

// Embedded returns the bytes of the weight file built into the binary.
func Embedded() []byte { return embedded }
