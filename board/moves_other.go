//go:build !amd64

package board

// LegalMoves returns the squares where the side owning p may play against o.
func LegalMoves(p, o uint64) uint64 { return legalMovesGo(p, o) }

// MoveGeneration names the move generation in use: "Go" on this architecture.
func MoveGeneration() string { return "Go" }
