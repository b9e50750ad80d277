package patterns

import (
	"os"
	"strings"

	"github.com/othellogo/othello/board"
)

// On x86-64 processors with AVX-512 BW, Table.Sum derives the 46 instance indices in three
// vector registers and reads their weights with three gathers (sum_amd64.s); elsewhere, and
// with GODEBUG cpu.avx512bw=off (or cpu.avx512f=off, cpu.all=off), it runs Sum, its pure-Go
// twin, and the tests compare the two.
var hasAVX512BW = cpuHasAVX512BW() && !godebugOff(os.Getenv("GODEBUG"), "avx512bw") &&
	!godebugOff(os.Getenv("GODEBUG"), "avx512f")

func cpuHasAVX512BW() bool

//go:noescape
func sumAVX512(w *int16, lines *uint16, black bool) int

// SumKind names the pattern sum in use: "AVX-512" or "Go".
func SumKind() string {
	if hasAVX512BW {
		return "AVX-512"
	}
	return "Go"
}

// Sum adds up the instance weights of b in t, as Sum does with t.W.
func (t *Table) Sum(b *board.Board) int {
	if hasAVX512BW {
		return sumAVX512(&t.W[0], &b.Lines[0], b.BlackToMove)
	}
	return Sum(&t.W, b)
}

// godebugOff reports whether a GODEBUG setting turns the processor feature off, as the board
// package reads it.
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
