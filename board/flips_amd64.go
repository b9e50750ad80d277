package board

import "os"

// On x86-64 processors with AVX-512 (the CD and VL extensions), Flips looks along the eight
// directions from the move at once, four in each of two vector registers (flips_amd64.s).
// Towards higher squares the first square of a ray that is not the opponent's is its lowest
// bit (x & -x); towards lower squares its highest, found by the vector leading-zero count that
// only AVX-512 has. A ray flips when that square is the mover's. flipsGo is the twin, used
// elsewhere, and the two are tested against each other (TestFlipsAVX512).

// hasAVX512 is set once at start-up, like hasAVX2 (GODEBUG cpu.avx512f=off or cpu.all=off
// turns it off).
var hasAVX512 = cpuHasAVX512() && !godebugOff(os.Getenv("GODEBUG"), "avx512f")

// flipRays[sq] holds the rays from sq, sq excluded: lanes 0-3 towards higher squares (+1, +8,
// +7, +9), lanes 4-7 towards lower ones (-1, -8, -7, -9).
var flipRays [64][8]uint64

func init() {
	dirs := [8][2]int{{1, 0}, {0, 1}, {-1, 1}, {1, 1}, {-1, 0}, {0, -1}, {1, -1}, {-1, -1}}
	for sq := 0; sq < 64; sq++ {
		for i, d := range dirs {
			for c, r := sq&7+d[0], sq>>3+d[1]; c >= 0 && c < 8 && r >= 0 && r < 8; c, r = c+d[0], r+d[1] {
				flipRays[sq][i] |= 1 << uint(r*8+c)
			}
		}
	}
}

func cpuHasAVX512() bool

//go:noescape
func flipsAVX512(p, o uint64, sq Square) uint64

// Flips returns the discs of o that turn over when the side owning p plays on sq (an empty
// square). It is zero when the move is illegal.
func Flips(p, o uint64, sq Square) uint64 {
	if hasAVX512 {
		return flipsAVX512(p, o, sq)
	}
	return flipsGo(p, o, sq)
}
