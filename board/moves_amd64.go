package board

import (
	"os"
	"strings"
)

// On x86-64 processors with AVX2 (nearly all since 2015) LegalMoves runs the four axis pairs
// of its fill in the four lanes of one vector register (moves_amd64.s): 4.0 ns a call against
// 10.9 for legalMovesGo (BenchmarkLegalMoves), 0.87x the time of `othello bench` and of the
// endgame solver. Elsewhere, and where the processor lacks AVX2, legalMovesGo runs; the two
// are tested against each other (TestLegalMovesAVX2).

// hasAVX2 is set once at start-up: the processor's answer, unless GODEBUG turns AVX2 off the
// way the Go runtime reads it (cpu.avx2=off or cpu.all=off), which also gives a benchmark of
// the Go fill in the same binary.
var hasAVX2 = cpuHasAVX2() && !godebugOff(os.Getenv("GODEBUG"), "avx2")

// godebugOff reports whether a GODEBUG setting turns the processor feature off (cpu.FEATURE=off
// or cpu.all=off, the last setting winning, as the Go runtime reads them).
func godebugOff(godebug, feature string) bool {
	off := false
	for _, kv := range strings.Split(godebug, ",") {
		switch strings.TrimSpace(kv) {
		case "cpu." + feature + "=off", "cpu.all=off":
			off = true
		case "cpu." + feature + "=on":
			off = false
		}
	}
	return off
}

// MoveGeneration names the move generation in use: "AVX2" or "Go".
func MoveGeneration() string {
	if hasAVX2 {
		return "AVX2"
	}
	return "Go"
}

func cpuHasAVX2() bool

//go:noescape
func legalMovesAVX2(p, o uint64) uint64

// LegalMoves returns the squares where the side owning p may play against o.
func LegalMoves(p, o uint64) uint64 { return legalMovesBest(p, o) }

// legalMovesBest jumps to legalMovesAVX2 or legalMovesGo by hasAVX2, so that LegalMoves is
// inlined.
//
//go:noescape
func legalMovesBest(p, o uint64) uint64

//go:noescape
func legalMovesBothAVX2(p, o uint64) (pm, om uint64)

// LegalMovesBoth returns the moves of both sides, LegalMoves(p, o) and LegalMoves(o, p), in
// one call: the evaluation's mobility features need both, and the vector fill runs the two
// interleaved.
func LegalMovesBoth(p, o uint64) (pm, om uint64) { return legalMovesBothBest(p, o) }

//go:noescape
func legalMovesBothBest(p, o uint64) (pm, om uint64)
