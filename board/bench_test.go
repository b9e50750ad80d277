package board

import (
	"math/bits"
	"testing"
)

// benchPositions are midgame positions from the fixture games (after 20 moves).
func benchPositions(b *testing.B) []Board {
	b.Helper()
	games := []string{
		"f5d6c3d3c4f4f6f3g4g3e6b3f2e3e2c5c6e7c7h4",
		"f5f6e6f4g5d6f3g6c5c4d3e3c6c3e2b4b6b5f7g4",
		"f5d6c5f4d3g5e6f6g3f3e3e2g4f2c7h4d2c1e1h3",
		"f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1f3f6",
	}
	var out []Board
	for _, g := range games {
		_, pos, err := ParseTranscript(g)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, pos)
	}
	return out
}

// benchMoveGen times gen on the bench positions.
func benchMoveGen(b *testing.B, gen func(p, o uint64) uint64) {
	pos := benchPositions(b)
	var sink uint64
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p := &pos[i&3]
		sink += gen(p.P, p.O)
	}
	_ = sink
}

func BenchmarkLegalMoves(b *testing.B) { benchMoveGen(b, LegalMoves) }

// BenchmarkLegalMovesByAxis is the fill through a helper per axis pair, LegalMoves' earlier
// form, for comparison.
func BenchmarkLegalMovesByAxis(b *testing.B) { benchMoveGen(b, legalMovesByAxis) }

func BenchmarkLineLegalMoves(b *testing.B) {
	pos := benchPositions(b)
	var sink uint64
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p := &pos[i&3]
		sink += LineLegalMoves(&p.Lines, p.BlackToMove)
	}
	_ = sink
}

// The flip benchmarks compute the flips of every legal move of the position; ns/op is per
// position, and the metric flips/s is per move.
func BenchmarkFlipsBitboard(b *testing.B) { benchFlips(b, Flips) }

func BenchmarkFlipsLineTable(b *testing.B) {
	pos := benchPositions(b)
	var sink uint64
	moves := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p := &pos[i&3]
		for m := LegalMoves(p.P, p.O); m != 0; m &= m - 1 {
			sink += LineFlips(&p.Lines, Square(bits.TrailingZeros64(m)), p.BlackToMove)
			moves++
		}
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds()/1e6, "Mflips/s")
	_ = sink
}

// BenchmarkMakeUnmake plays and takes back every legal move, line indices included.
func BenchmarkMakeUnmake(b *testing.B) {
	pos := benchPositions(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p := &pos[i&3]
		for m := p.LegalMoves(); m != 0; m &= m - 1 {
			u := p.Make(FirstSquare(m))
			p.Unmake(u)
		}
	}
}

func BenchmarkPerft8(b *testing.B) {
	s := Start()
	var n uint64
	b.ReportAllocs()
	for b.Loop() {
		n += Perft(s.P, s.O, 8)
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds()/1e6, "Mleaves/s")
}

// legalMovesByAxis is LegalMoves' earlier form, the fill through a helper per axis pair, kept
// here only as BenchmarkLegalMovesByAxis's baseline.
func legalMovesByAxis(p, o uint64) uint64 {
	empty := ^(p | o)
	inner := o & innerCols
	return (movesDir(p, inner, 1) | movesDir(p, o, 8) | movesDir(p, inner, 7) | movesDir(p, inner, 9)) & empty
}

// movesDir returns the squares that bracket a run of m-discs starting at a p-disc, in both
// directions of one axis (shift s left and right).
func movesDir(p, m uint64, s uint) uint64 {
	fl := m & (p << s)
	fr := m & (p >> s)
	fl |= m & (fl << s)
	fr |= m & (fr >> s)
	pl := m & (m << s)
	pr := pl >> s
	fl |= pl & (fl << (2 * s))
	fr |= pr & (fr >> (2 * s))
	fl |= pl & (fl << (2 * s))
	fr |= pr & (fr >> (2 * s))
	return (fl << s) | (fr >> s)
}

func benchLines(b *testing.B, lines func(black, white uint64) [NumLines]uint16) {
	pos := benchPositions(b)
	var sink uint16
	for i := 0; b.Loop(); i++ {
		p := &pos[i&3]
		l := lines(p.P, p.O)
		sink += l[i%NumLines]
	}
	_ = sink
}

// BenchmarkLinesFromBits against its square-by-square twin: the solver's Multi-ProbCut checks
// and sorting searches build a Board from two bitboards at each node that uses them.
func BenchmarkLinesFromBits(b *testing.B)    { benchLines(b, LinesFromBits) }
func BenchmarkLinesFromSquares(b *testing.B) { benchLines(b, linesFromSquares) }

// BenchmarkFromColors is LinesFromBits plus the extra indices (ExtFromLines): what building a
// Board from two bitboards costs the solver's nodes that evaluate.
func BenchmarkFromColors(b *testing.B) {
	benchLines(b, func(black, white uint64) [NumLines]uint16 {
		x := FromColors(black, white, true)
		x.Lines[0] += x.Ext[0]
		return x.Lines
	})
}
