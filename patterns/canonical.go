package patterns

import "github.com/othellogo/othello/board"

// PackedOffset[p] is where pattern p's canonical configurations start in the packed weight
// vector of one stage, which has PackedSize entries.
var PackedOffset [NumPatterns + 1]int

// PackedSize is the number of packed (canonical) weights of one stage.
var PackedSize int

// packed[x] is the packed index of flat table index x (0 <= x < TableSize): symmetric
// configurations of a pattern share one packed index.
var packed []uint32

// Packed returns the packed index of flat table index x.
func Packed(x uint32) uint32 { return packed[x] }

// selfSymmetries returns, for pattern p, the permutations of its squares induced by the board
// symmetries that map its square set onto itself: perm[i] is where square i goes.
func selfSymmetries(p int) [][]int {
	sqs := Patterns[p].Squares
	pos := map[board.Square]int{}
	for i, s := range sqs {
		pos[s] = i
	}
	var perms [][]int
	for k := 0; k < 8; k++ {
		perm := make([]int, len(sqs))
		ok := true
		for i, s := range sqs {
			j, in := pos[board.TransformSquare(s, k)]
			if !in {
				ok = false
				break
			}
			perm[i] = j
		}
		if ok {
			perms = append(perms, perm)
		}
	}
	return perms
}

// permute applies perm to the digits of configuration x of n squares.
func permute(x int, perm []int) int {
	y := 0
	for i := range perm {
		y += (x % 3) * pow3(perm[i])
		x /= 3
	}
	return y
}

// Canonical returns the canonical form of configuration x of pattern p: the smallest of its
// images under the pattern's self-symmetries.
func Canonical(p int, x int) int {
	best := x
	for _, perm := range selfSymmetries(p) {
		if y := permute(x, perm); y < best {
			best = y
		}
	}
	return best
}

func initCanonical() {
	packed = make([]uint32, TableSize)
	n := 0
	for p := range Patterns {
		PackedOffset[p] = n
		perms := selfSymmetries(p)
		size := Patterns[p].Size()
		rank := make([]int32, size)
		for x := range rank {
			rank[x] = -1
		}
		for x := 0; x < size; x++ {
			best := x
			for _, perm := range perms {
				if y := permute(x, perm); y < best {
					best = y
				}
			}
			if rank[best] < 0 {
				rank[best] = int32(n)
				n++
			}
			packed[Offset[p]+x] = uint32(rank[best])
		}
	}
	PackedOffset[NumPatterns] = n
	PackedSize = n
}

// Unpack expands one stage's packed weights (PackedSize entries) into a full table
// (TableSize entries).
func Unpack[T any](dst []T, src []T) {
	for x := range dst[:TableSize] {
		dst[x] = src[packed[x]]
	}
}
