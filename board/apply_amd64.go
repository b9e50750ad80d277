package board

import "os"

// On x86-64 processors with AVX-512 BW, make/undo update the 38 line and 16 extra indices in
// two vector registers (apply_amd64.s): one vector of weights per changed square instead of
// up to nine scalar adds. applyGo is its twin, used elsewhere and with GODEBUG
// cpu.avx512bw=off (or cpu.avx512f=off, cpu.all=off); the tests compare them.
var hasAVX512BW = cpuHasAVX512BW() && !godebugOff(os.Getenv("GODEBUG"), "avx512bw") &&
	!godebugOff(os.Getenv("GODEBUG"), "avx512f")

func cpuHasAVX512BW() bool

//go:noescape
func applyAVX512(lines *uint16, sq Square, f uint64, neg bool)

// apply adds (sign 1) or removes (sign -1) the index changes of the side to move placing sq
// and flipping f (see applyGo).
func (b *Board) apply(sq Square, f uint64, sign int) {
	if hasAVX512BW {
		applyAVX512(&b.Lines[0], sq, f, (sign < 0) == b.BlackToMove)
		return
	}
	b.applyGo(sq, f, sign)
}
