//go:build !amd64

package patterns

import "github.com/othellogo/othello/board"

// SumKind names the pattern sum in use: "Go" on this architecture.
func SumKind() string { return "Go" }

// Sum adds up the instance weights of b in t, as Sum does with t.W.
func (t *Table) Sum(b *board.Board) int { return Sum(&t.W, b) }
