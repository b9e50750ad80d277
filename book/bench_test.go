package book

import (
	"context"
	"testing"

	"github.com/othellogo/othello/board"
)

// benchBook is every line of 5 moves with its leaves given static values (depth 0): 1,000 or
// so positions, all of which the benchmarks look up in turn, in their game orientation.
func benchBook(b *testing.B) (*Book, []board.Board) {
	bk := New()
	var boards []board.Board
	for _, line := range allLines(5) {
		bk.AddGame(Game{Start: board.Start(), Moves: line}, 5)
		pos := board.Start()
		for _, m := range line {
			pos.Make(m)
		}
		boards = append(boards, pos)
	}
	bk.Evaluate(context.Background(), &fakeSearcher{}, Options{Depth: 0})
	return bk, boards
}

func BenchmarkLookup(b *testing.B) {
	bk, boards := benchBook(b)
	b.ReportMetric(float64(bk.Len()), "positions")
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, ok := bk.Lookup(boards[i%len(boards)]); !ok {
			b.Fatal("missing")
		}
	}
}

func BenchmarkChoose(b *testing.B) {
	bk, boards := benchBook(b)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		bk.Choose(boards[i%len(boards)], 0, nil)
	}
}

// BenchmarkDecode loads the encoded book: the time to open a book file, per position.
func BenchmarkDecode(b *testing.B) {
	bk, _ := benchBook(b)
	data := bk.Encode()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(bk.Len()), "ns/position")
}

// BenchmarkOpenDefault decodes the embedded default book, as a front end does at start.
func BenchmarkOpenDefault(b *testing.B) {
	bk, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(bk.Len()), "positions")
	b.SetBytes(int64(len(defaultBook)))
	for b.Loop() {
		if _, err := Default(); err != nil {
			b.Fatal(err)
		}
	}
}
