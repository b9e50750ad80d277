package book

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/othellogo/othello/board"
)

// learnLines are games that share their first move and then part ways.
var learnLines = []string{"f5f6e6f4e3c5c4", "f5d6c3d3c4f4f6", "f5d6c5f4e3f6d3", "f5f4e3f6d3", "f5d6c4d3c3", "f5f6e6d6e7", "f5d6c3d3c4b3", "f5f4e3d6c5"}

// Engines that each learn a game into the same book file, from books read before any of them
// saved, all keep their game: each save re-reads the file under the lock and merges.
func TestConcurrentLearnKeepsEveryGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.book")
	base, _ := buildFull(t, 1, 1)
	if err := base.Save(path); err != nil {
		t.Fatal(err)
	}
	books := make([]*Book, len(learnLines))
	for i := range books {
		var err error
		if books[i], err = Load(path); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, len(books))
	for i, bk := range books {
		wg.Add(1)
		go func() {
			defer wg.Done()
			moves, _, _ := board.ParseTranscript(learnLines[i])
			g := Game{Start: board.Start(), Moves: moves, Result: 2, HasResult: true}
			if _, _, err := bk.Learn(context.Background(), &fakeSearcher{}, g, 60, Options{Depth: 1}); err != nil {
				errs[i] = err
				return
			}
			errs[i] = bk.Save(path)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("engine %d: %v", i, err)
		}
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range learnLines {
		moves, _, _ := board.ParseTranscript(line)
		b := board.Start()
		for _, m := range moves {
			b.Make(m)
		}
		if e, ok := got.Lookup(b); !ok || !e.Known {
			t.Errorf("the end of %s is not in the book", line)
		}
	}
	if e, _ := got.Lookup(board.Start()); e.Wins != len(learnLines) {
		t.Errorf("start position: %d games won by black, want %d", e.Wins, len(learnLines))
	}
	checkInvariants(t, got)
	// The merges give the book one engine learning the games one after the other gives.
	one, _ := buildFull(t, 1, 1)
	for _, line := range learnLines {
		moves, _, _ := board.ParseTranscript(line)
		one.Learn(context.Background(), &fakeSearcher{}, Game{Start: board.Start(), Moves: moves, Result: 2, HasResult: true}, 60, Options{Depth: 1})
	}
	if !bytes.Equal(got.Encode(), one.Encode()) {
		t.Error("the merged book differs from the book learning the games in turn")
	}
}

// A book saved over a file that is not a book (a mistyped path) does not overwrite it.
func TestSaveKeepsAFileThatIsNotABook(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.txt")
	os.WriteFile(path, []byte("f5d6c3\n"), 0o644)
	bk, _ := buildFull(t, 1, 1)
	if err := bk.Save(path); err == nil || !strings.Contains(err.Error(), "not overwritten") {
		t.Errorf("Save over a text file: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "f5d6c3\n" {
		t.Errorf("the text file became %q", data)
	}
}
