//go:build !amd64

package board

// LegalMoves returns the squares where the side owning p may play against o.
func LegalMoves(p, o uint64) uint64 { return legalMovesGo(p, o) }

// MoveGeneration names the move generation in use: "Go" on this architecture.
func MoveGeneration() string { return "Go" }

// Flips returns the discs of o that turn over when the side owning p plays on sq (an empty
// square). It is zero when the move is illegal.
func Flips(p, o uint64, sq Square) uint64 { return flipsGo(p, o, sq) }

// LegalMovesBoth returns LegalMoves(p, o) and LegalMoves(o, p).
func LegalMovesBoth(p, o uint64) (pm, om uint64) { return legalMovesBothGo(p, o) }
