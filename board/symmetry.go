package board

// The 8 symmetries of the square (the dihedral group D4), as bitboard transforms. Symmetry k
// applies FlipDiagonal if k&4, then FlipHorizontal (mirror files) if k&2, then FlipVertical
// (mirror ranks) if k&1. Symmetry 0 is the identity.

// FlipVertical mirrors ranks (a1 <-> a8).
func FlipVertical(x uint64) uint64 {
	x = (x>>8)&0x00FF00FF00FF00FF | (x&0x00FF00FF00FF00FF)<<8
	x = (x>>16)&0x0000FFFF0000FFFF | (x&0x0000FFFF0000FFFF)<<16
	return x>>32 | x<<32
}

// FlipHorizontal mirrors files (a1 <-> h1).
func FlipHorizontal(x uint64) uint64 {
	x = (x>>1)&0x5555555555555555 | (x&0x5555555555555555)<<1
	x = (x>>2)&0x3333333333333333 | (x&0x3333333333333333)<<2
	return (x>>4)&0x0F0F0F0F0F0F0F0F | (x&0x0F0F0F0F0F0F0F0F)<<4
}

// FlipDiagonal mirrors along the a1-h8 diagonal (b1 <-> a2).
func FlipDiagonal(x uint64) uint64 {
	t := 0x0F0F0F0F00000000 & (x ^ x<<28)
	x ^= t ^ t>>28
	t = 0x3333000033330000 & (x ^ x<<14)
	x ^= t ^ t>>14
	t = 0x5500550055005500 & (x ^ x<<7)
	x ^= t ^ t>>7
	return x
}

// Transform applies symmetry k (0..7) to a bitboard.
func Transform(x uint64, k int) uint64 {
	if k&4 != 0 {
		x = FlipDiagonal(x)
	}
	if k&2 != 0 {
		x = FlipHorizontal(x)
	}
	if k&1 != 0 {
		x = FlipVertical(x)
	}
	return x
}

// TransformSquare applies symmetry k to a square.
func TransformSquare(sq Square, k int) Square {
	if sq == NoSquare {
		return sq
	}
	return FirstSquare(Transform(sq.Bit(), k))
}

// InverseSymmetry returns the symmetry that undoes k.
func InverseSymmetry(k int) int {
	// The pure mirrors and the half turn are their own inverses; the two quarter turns
	// (diagonal mirror followed by one file or rank mirror) swap.
	switch k {
	case 5:
		return 6
	case 6:
		return 5
	}
	return k
}

// Transformed returns the board under symmetry k, line indices recomputed.
func (b *Board) Transformed(k int) Board {
	return FromColors(Transform(b.Black(), k), Transform(b.White(), k), b.BlackToMove)
}

// Canonical returns the smallest (P, O) pair over the 8 symmetries and the symmetry that
// produces it: the key of a position up to symmetry (book, training).
func Canonical(p, o uint64) (cp, co uint64, sym int) {
	cp, co = p, o
	for k := 1; k < 8; k++ {
		tp, to := Transform(p, k), Transform(o, k)
		if tp < cp || tp == cp && to < co {
			cp, co, sym = tp, to, k
		}
	}
	return cp, co, sym
}
