package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestAppenderKeepsOldContentAndRecords(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "games.ggf")
	if err := os.WriteFile(path, []byte("old 1\nold 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := OpenAppender(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		fmt.Fprintf(a, "new %d\n", i)
		// After each record the file on disk holds every record so far and nothing more.
		want := "old 1\nold 2\n"
		for j := 0; j <= i; j++ {
			want += fmt.Sprintf("new %d\n", j)
		}
		if got := readString(t, path); got != want {
			t.Fatalf("after record %d: %q, want %q", i, got, want)
		}
	}
	if got, want := a.Size(), len(readString(t, path)); got != want {
		t.Errorf("Size %d, file %d bytes", got, want)
	}
	if n := names(t, dir); len(n) != 1 {
		t.Errorf("files left in the directory: %v", n)
	}
}

func TestAppenderNewFileAndConcurrentRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.txt")
	a, err := OpenAppender(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fmt.Fprintf(a, "record %d\n", i)
		}()
	}
	wg.Wait()
	got := readString(t, path)
	for i := 0; i < 8; i++ {
		if want := fmt.Sprintf("record %d\n", i); !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if len(got) != 8*len("record 0\n") {
		t.Errorf("%d bytes, want %d", len(got), 8*len("record 0\n"))
	}
}

func TestAppenderFailedWriteKeepsRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	a, err := OpenAppender(path, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Write([]byte("one\n")); err != nil {
		t.Fatal(err)
	}
	// A directory in the file's place makes the rename fail, for root too.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Write([]byte("two\n")); err == nil {
		t.Fatal("a record written over a directory")
	}
	if a.Size() != 4 {
		t.Errorf("Size %d after a failed record, want 4", a.Size())
	}
	os.Remove(path)
	if _, err := a.Write([]byte("three\n")); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, path); got != "one\nthree\n" {
		t.Errorf("after a failed record and a good one: %q", got)
	}
}

func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	os.WriteFile(a, []byte("x"), 0o644)
	link := filepath.Join(dir, "l")
	if err := os.Symlink("a", link); err != nil {
		t.Fatal(err)
	}
	b := filepath.Join(dir, "b")
	os.WriteFile(b, []byte("x"), 0o644)
	for _, c := range []struct {
		x, y string
		want bool
	}{
		{a, a, true},
		{a, filepath.Join(dir, ".", "a"), true},
		{a, link, true},
		{a, b, false},
		{a, filepath.Join(dir, "missing"), false},
		{filepath.Join(dir, "missing"), filepath.Join(dir, "missing"), false},
	} {
		if got := SameFile(c.x, c.y); got != c.want {
			t.Errorf("SameFile(%s, %s) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
}
