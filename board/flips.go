package board

// flipRays[sq] holds the rays from sq, sq excluded: lanes 0-3 towards higher squares (+1, +8,
// +7, +9), lanes 4-7 towards lower ones (-1, -8, -7, -9), for the vector flips
// (flips_amd64.s) and the tests.
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
