package board

import "os"

// On x86-64 processors with AVX-512 (the CD and VL extensions), Flips looks along the eight
// directions from the move at once, four in each of two vector registers (flips_amd64.s).
// Towards higher squares the first square of a ray that is not the opponent's is its lowest
// bit (x & -x); towards lower squares its highest, found by the vector leading-zero count that
// only AVX-512 has. A ray flips when that square is the mover's. With AVX2 but not AVX-512
// (flipsAVX2) each lower ray's mover discs are spread down the ray instead (three shifts),
// and the squares above the highest of them flip when it lies above the highest empty square
// of the ray (a signed compare: lower rays never reach bit 63), the idea of Edax's
// flip_avx_acepck; docs/board.md has the timings. flipsGo is the twin of both, used
// elsewhere, and they are tested against it (TestFlipsAVX512, TestFlipsAVX2).

// hasAVX512 is set once at start-up, like hasAVX2 (GODEBUG cpu.avx512f=off or cpu.all=off
// turns it off).
var hasAVX512 = cpuHasAVX512() && !godebugOff(os.Getenv("GODEBUG"), "avx512f")

func cpuHasAVX512() bool

//go:noescape
func flipsAVX512(p, o uint64, sq Square) uint64

//go:noescape
func flipsAVX2(p, o uint64, sq Square) uint64

// Flips returns the discs of o that turn over when the side owning p plays on sq (an empty
// square). It is zero when the move is illegal.
func Flips(p, o uint64, sq Square) uint64 { return flipsBest(p, o, sq) }

// flipsBest jumps to flipsAVX512, flipsAVX2 or flipsGo by hasAVX512 and hasAVX2: one call
// from Flips instead of two (a Go function with two calls is not inlined).
//
//go:noescape
func flipsBest(p, o uint64, sq Square) uint64
