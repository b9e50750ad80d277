package eval

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// Checksum identifies the evaluation's weights: the SHA-256 of every table it reads, in
// hex, the first 16 digits. Two processes with the same checksum evaluate alike (the
// distributed search refuses a worker whose weights differ from its controller's).
func (e *Evaluator) Checksum() string {
	h := sha256.New()
	var buf []byte
	for st := range e.w {
		buf = binary.LittleEndian.AppendUint16(buf[:0], uint16(st))
		for _, v := range e.w[st].W {
			buf = binary.LittleEndian.AppendUint16(buf, uint16(v))
		}
		for _, v := range e.mob[st] {
			buf = binary.LittleEndian.AppendUint16(buf, uint16(v))
		}
		for _, v := range e.pot[min(st, NumStages-1)] {
			buf = binary.LittleEndian.AppendUint16(buf, uint16(v))
		}
		h.Write(buf)
	}
	buf = buf[:0]
	for _, v := range e.bias {
		buf = binary.LittleEndian.AppendUint16(buf, uint16(v))
	}
	flags := byte(0)
	if e.mobility {
		flags |= 1
	}
	if e.potMobility {
		flags |= 2
	}
	h.Write(append(buf, flags))
	return hex.EncodeToString(h.Sum(nil))[:16]
}
