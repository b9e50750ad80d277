package search

import (
	"context"
	"testing"

	"github.com/othellogo/othello/eval"
)

// BenchmarkMidgame searches fixed random positions to depth 9; it reports nodes per second
// and the node count per iteration as a signature.
func BenchmarkMidgame(b *testing.B) {
	positions := append(randomPositions(11, 4, 40), randomPositions(12, 4, 30)...)
	e := NewEngine(Config{TTMiB: 16})
	var nodes uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		nodes = 0
		for _, p := range positions {
			nodes += e.Search(context.Background(), p, Limits{Depth: 9}, nil).Nodes
		}
	}
	b.ReportMetric(float64(nodes), "nodes/op")
	b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}

// BenchmarkMidgamePattern is BenchmarkMidgame with the trained pattern evaluation.
func BenchmarkMidgamePattern(b *testing.B) {
	ev, err := eval.Default()
	if err != nil {
		b.Fatal(err)
	}
	positions := append(randomPositions(11, 4, 40), randomPositions(12, 4, 30)...)
	e := NewEngine(Config{TTMiB: 16, Eval: ev})
	var nodes uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		nodes = 0
		for _, p := range positions {
			nodes += e.Search(context.Background(), p, Limits{Depth: 9}, nil).Nodes
		}
	}
	b.ReportMetric(float64(nodes), "nodes/op")
	b.ReportMetric(float64(nodes)*float64(b.N)/b.Elapsed().Seconds(), "nodes/s")
}
