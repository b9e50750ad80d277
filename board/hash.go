package board

import "math/bits"

// Transposition-table keys.
//
// The exact key of a position is its pair of side-relative bitboards (128 bits): two positions
// with the same key are the same position with the same side to move, so a table that stores
// the key has no false hits.
//
// Hash spreads that key over 64 bits to pick a table slot. It multiplies each bitboard by an odd
// constant drawn from a fixed seed, folds the 128-bit products (so every input bit reaches the
// high half) and finishes with the murmur3 64-bit avalanche. Every input bit then influences
// every output bit with probability close to 1/2; slot collisions on real positions match those
// of an ideal random function (TestHashCollisions measures it on positions from random and real
// games, against the birthday-bound expectation and against Thell's sum(index[i]*17^i) over the
// 8 column indices, which clusters because nearby positions have nearby indices).

// hashSeed is the fixed seed of the multipliers, so node counts are reproducible run to run.
const hashSeed = 0x9E3779B97F4A7C15

var hashMulP, hashMulO = seededOdd(hashSeed, 1), seededOdd(hashSeed, 2)

// seededOdd derives an odd 64-bit multiplier from the seed with splitmix64.
func seededOdd(seed uint64, n uint64) uint64 {
	z := seed + n*0x9E3779B97F4A7C15
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return (z ^ z>>31) | 1
}

// Hash returns a well-mixed 64-bit hash of the exact key (p, o).
func Hash(p, o uint64) uint64 {
	hp, lp := bits.Mul64(p, hashMulP)
	ho, lo := bits.Mul64(o, hashMulO)
	h := (hp ^ lo) + (lp ^ bits.RotateLeft64(ho, 29))
	h ^= h >> 33
	h *= 0xFF51AFD7ED558CCD
	h ^= h >> 33
	h *= 0xC4CEB9FE1A85EC53
	h ^= h >> 33
	return h
}

// ThellHash is the classic sum(column_index[i] * 17^i) over the 8 column line indices, kept as
// the baseline the collision test compares Hash against.
func ThellHash(lines *[NumLines]uint16) uint64 {
	var h uint64
	m := uint64(1)
	for c := 0; c < 8; c++ {
		h += uint64(lines[FirstCol+c]) * m
		m *= 17
	}
	return h
}
