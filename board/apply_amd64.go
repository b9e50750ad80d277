package board

import "os"

// On x86-64 processors with AVX-512 BW, make/undo update the 38 line and 16 extra indices in
// two vector registers (apply_amd64.s): one vector of weights per changed square instead of
// up to nine scalar adds. With AVX2 (and BMI1) only, the same sums take four registers
// (applyAVX2). applyGo is their twin, used elsewhere and with GODEBUG cpu.avx512bw=off (or
// cpu.avx512f=off) and cpu.avx2=off (cpu.all=off turns both off); the tests compare them.
var hasAVX512BW = cpuHasAVX512BW() && !godebugOff(os.Getenv("GODEBUG"), "avx512bw") &&
	!godebugOff(os.Getenv("GODEBUG"), "avx512f")

// hasAVX2Apply selects applyAVX2 where AVX-512 BW is absent or turned off.
var hasAVX2Apply = !hasAVX512BW && hasAVX2 && cpuHasBMI1()

func cpuHasAVX512BW() bool

func cpuHasBMI1() bool

//go:noescape
func applyAVX2(lines *uint16, sq Square, f uint64, neg bool)

//go:noescape
func applyAVX512(lines *uint16, sq Square, f uint64, neg bool)

// apply adds (sign 1) or removes (sign -1) the index changes of the side to move placing sq
// and flipping f (see applyGo).
func (b *Board) apply(sq Square, f uint64, sign int) {
	if hasAVX512BW {
		applyAVX512(&b.Lines[0], sq, f, (sign < 0) == b.BlackToMove)
		return
	}
	if hasAVX2Apply {
		applyAVX2(&b.Lines[0], sq, f, (sign < 0) == b.BlackToMove)
		return
	}
	b.applyGo(sq, f, sign)
}

// IndexUpdate names the make/undo index update in use: "AVX-512", "AVX2" or "Go".
func IndexUpdate() string {
	switch {
	case hasAVX512BW:
		return "AVX-512"
	case hasAVX2Apply:
		return "AVX2"
	}
	return "Go"
}
