package book

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/othellogo/othello/board"
)

func learnGames() []Game {
	var games []Game
	for i, line := range learnLines {
		moves, _, _ := board.ParseTranscript(line)
		games = append(games, Game{Start: board.Start(), Moves: moves, Result: 2*i - 7, HasResult: true})
	}
	return games
}

// job runs a book command's work on the book file at path as the commands do: it starts the
// job, works until ctx ends, and saves (Finish when the work is done). It reports whether the
// work was interrupted.
type job func(t *testing.T, ctx context.Context, path string, opt Options) bool

func runWork(w Work) job {
	return func(t *testing.T, ctx context.Context, path string, opt Options) bool {
		j, err := StartJob(path, w)
		if err != nil {
			t.Fatal(err)
		}
		_, _, runErr := j.Run(ctx, &fakeSearcher{}, opt)
		if runErr == nil {
			err = j.Finish()
		} else {
			err = j.Save()
		}
		if err != nil {
			t.Fatal(err)
		}
		return runErr != nil
	}
}

// An interrupted build, learn or extend, run again, gives byte for byte the book of the run
// that was not interrupted: nothing is added twice, no round is done twice.
func TestResumeGivesUninterruptedBook(t *testing.T) {
	for _, c := range []struct {
		name  string
		run   job
		start func(t *testing.T, path string) // the book file before the command
	}{
		{"learn", runWork(LearnWork(learnGames(), 60)), nil},
		{"build", runWork(BuildWork(learnGames(), 60, 1)), nil},
		{"extend", runWork(ExtendWork(8, 1)), smallBook},
		{"extend 2 rounds", runWork(ExtendWork(8, 2)), smallBook},
		{"deviate", runWork(DeviateWork(3, 8, 0)), smallBook},
	} {
		dir := t.TempDir()
		whole, resumed := filepath.Join(dir, "whole.book"), filepath.Join(dir, "resumed.book")
		if c.start != nil {
			c.start(t, whole)
			c.start(t, resumed)
		}
		searches := 0
		c.run(t, context.Background(), whole, Options{Depth: 1, Progress: func(done, total int) { searches++ }})
		for _, stopAt := range []int{1, searches / 3, searches - 1} {
			os.Remove(resumed)
			if c.start != nil {
				c.start(t, resumed)
			}
			ctx, cancel := context.WithCancel(context.Background())
			n := 0
			interrupted := c.run(t, ctx, resumed, Options{Depth: 1, Progress: func(done, total int) {
				if n++; n == stopAt {
					cancel()
				}
			}})
			cancel()
			if interrupted { // (the last searches may end before the cancellation is seen)
				c.run(t, context.Background(), resumed, Options{Depth: 1})
			}
			if _, err := os.Stat(progressPath(resumed)); !os.IsNotExist(err) {
				t.Errorf("%s: the progress file is left after the work is done (%v)", c.name, err)
			}
			a, _ := os.ReadFile(whole)
			b, _ := os.ReadFile(resumed)
			if !bytes.Equal(a, b) {
				wb, _ := Load(whole)
				rb, _ := Load(resumed)
				we, _ := wb.Lookup(board.Start())
				re, _ := rb.Lookup(board.Start())
				t.Errorf("%s interrupted after %d of %d searches, then run again: %d positions, start %d/%d/%d; uninterrupted: %d positions, start %d/%d/%d",
					c.name, stopAt, searches, rb.Len(), re.Wins, re.Draws, re.Losses, wb.Len(), we.Wins, we.Draws, we.Losses)
			}
		}
	}
}

func smallBook(t *testing.T, path string) {
	bk, _ := buildFull(t, 2, 1)
	if err := bk.Save(path); err != nil {
		t.Fatal(err)
	}
}

// The progress file is written just before the book: when the book's save did not happen
// (a crash in between), the file's hash tells, and the steps are done again, once.
func TestJobProgressWithoutTheBookSave(t *testing.T) {
	dir := t.TempDir()
	resumed := filepath.Join(dir, "resumed.book")
	w := LearnWork(learnGames(), 60)
	smallBook(t, resumed)
	before, _ := os.ReadFile(resumed)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	runWork(w)(t, ctx, resumed, Options{Depth: 1, Progress: func(done, total int) {
		if n++; n == 40 {
			cancel()
		}
	}})
	if j, err := StartJob(resumed, w); err != nil || j.Resumed == 0 {
		t.Fatalf("after an interruption: resumed %d, %v", j.Resumed, err)
	}
	// The save after the interruption "did not happen": the book is as before, the progress
	// record says some games are in it, unless the book is still what it was.
	os.WriteFile(resumed, before, 0o644)
	j, err := StartJob(resumed, w)
	if err != nil || j.Resumed != 0 || j.Replaced != "" {
		t.Fatalf("StartJob: resumed %d, replaced %q, %v; want a fresh start", j.Resumed, j.Replaced, err)
	}
	// Another work on the book forgets the record, and says which.
	if j, err := StartJob(resumed, ExtendWork(8, 1)); err != nil || j.Replaced != w.String() {
		t.Fatalf("another work: replaced %q, %v", j.Replaced, err)
	}
	os.WriteFile(progressPath(resumed), []byte("junk\n"), 0o644)
	if _, err := StartJob(resumed, w); err == nil {
		t.Fatal("a damaged progress file went unnoticed")
	}
}
