package uct

import (
	"context"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

// benchPosition is a midgame position (20 plies of a fixed game).
func benchPosition(tb testing.TB) board.Board {
	_, b, err := board.ParseTranscript("f5d6c3d3c4f4f6f3e6e7d7c5b6b5a5a6c6b4a4a3")
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

func benchSearch(b *testing.B, cfg Config, playouts uint64) {
	pos := benchPosition(b)
	e, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	var n uint64
	var sig board.Square
	for b.Loop() {
		e.Reset()
		r := e.Search(context.Background(), pos, search.Limits{Nodes: playouts}, nil)
		n += r.Nodes
		sig = r.Move
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(n)/float64(b.N), "playouts/op")
	b.Logf("move %s", sig)
}

func BenchmarkSearchRandom(b *testing.B) { benchSearch(b, Config{Seed: 1}, 10000) }
func BenchmarkSearchRandom2Threads(b *testing.B) {
	benchSearch(b, Config{Seed: 1, Threads: 2}, 10000)
}
func BenchmarkSearchGreedy(b *testing.B) {
	benchSearch(b, Config{Seed: 1, Playout: PlayoutGreedy}, 1000)
}
func BenchmarkSearchSoftmax(b *testing.B) {
	benchSearch(b, Config{Seed: 1, Playout: PlayoutSoftmax}, 1000)
}
func BenchmarkSearchCutoff(b *testing.B) {
	benchSearch(b, Config{Seed: 1, Playout: PlayoutCutoff}, 10000)
}
