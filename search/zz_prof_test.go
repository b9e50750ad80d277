package search

import (
	"context"
	"testing"

	"github.com/othellogo/othello/eval"
)

func BenchmarkZZSel4(b *testing.B) {
	ev, _ := eval.Default()
	positions := append(randomPositions(11, 6, 40), randomPositions(12, 6, 30)...)
	e := NewEngine(Config{TTMiB: 4, Eval: ev})
	for i := 0; i < b.N; i++ {
		for _, p := range positions {
			e.Search(context.Background(), p, Limits{Depth: 13, Selectivity: 4}, nil)
		}
	}
}
