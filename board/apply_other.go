//go:build !amd64

package board

// apply adds (sign 1) or removes (sign -1) the index changes of the side to move placing sq
// and flipping f (see applyGo).
func (b *Board) apply(sq Square, f uint64, sign int) { b.applyGo(sq, f, sign) }

// IndexUpdate names the make/undo index update in use: "Go" on this architecture.
func IndexUpdate() string { return "Go" }
