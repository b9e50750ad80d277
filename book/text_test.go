package book

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
)

func TestExportImportRoundTrip(t *testing.T) {
	bk, _ := buildFull(t, 2, 1)
	moves, _, _ := board.ParseTranscript("f5d6c3d3c4f4f6")
	if _, _, err := bk.Learn(context.Background(), &fakeSearcher{}, Game{Start: board.Start(), Moves: moves, Result: -8, HasResult: true}, 7, Options{Depth: 1}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	lines, unreachable, err := bk.Export(&buf)
	if err != nil || unreachable != 0 || lines == 0 {
		t.Fatalf("export: %d lines, %d unreachable, %v", lines, unreachable, err)
	}
	again := New()
	n, err := again.Import(strings.NewReader(buf.String()))
	if err != nil || n != lines {
		t.Fatalf("import: %d lines of %d, %v", n, lines, err)
	}
	checkInvariants(t, again)
	// The start position's own game counts are not part of the text form.
	k, _ := keyOf(board.Start().P, board.Start().O)
	bk.nodes[k].wins, bk.nodes[k].draws, bk.nodes[k].losses = 0, 0, 0
	if !bytes.Equal(again.Encode(), bk.Encode()) {
		var b2 bytes.Buffer
		again.Export(&b2)
		t.Fatalf("round trip differs:\n%s\n---\n%s", buf.String(), b2.String())
	}
	found := false
	for k := 0; k < 8; k++ {
		var tr []board.Square
		for _, m := range moves {
			tr = append(tr, board.TransformSquare(m, k))
		}
		found = found || strings.Contains(buf.String(), board.Transcript(tr)+" ")
	}
	if !found {
		t.Error("the learned line is not in the export in any orientation")
	}
}

func TestImportErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"f5 +1.00\n", "line 1"},
		{"f5 +1.00 3\nf5a1 0 3\n", "line 2"},
		{"f5 abc 3\n", "value"},
		{"f5 100 3\n", "value"},
		{"f5 NaN 3\n", "value"},
		{"f5 1 deep\n", "depth"},
		{"f5 1 61\n", "depth"},
		{"f5 1 3 1/2\n", "wins/draws/losses"},
		{"f5 1 3 1/x/2\n", "whole numbers"},
		{"f5 1 3 1/2/3 extra\n", "line 1"},
		{"f5d 1 3\n", "cut short"},
	} {
		_, err := New().Import(strings.NewReader(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one mentioning %q", tc.text, err, tc.want)
		}
	}
}

func FuzzImport(f *testing.F) {
	bk, _ := func() (*Book, error) {
		bk := New()
		bk.Import(strings.NewReader("f5 +1.00 3 1/0/2\nf5d6 -1 exact\nf5f6 0.5 4\n"))
		return bk, nil
	}()
	var buf bytes.Buffer
	bk.Export(&buf)
	f.Add(buf.String())
	f.Add("f5 1 3\n# c\n\nf5d6c3 -2.5 exact 0/0/1\n")
	f.Add("f5 1 3 1/2")
	f.Fuzz(func(t *testing.T, s string) {
		bk := New()
		bk.Import(strings.NewReader(s))
		data := bk.Encode()
		again, err := Decode(data)
		if err != nil {
			t.Fatalf("an imported book does not decode: %v", err)
		}
		if !bytes.Equal(again.Encode(), data) {
			t.Fatal("round trip differs")
		}
	})
}

func FuzzDecode(f *testing.F) {
	bk := New()
	bk.Import(strings.NewReader("f5 +1.00 3 1/0/2\nf5d6 -1 exact\nf5f6 0.5 4\nf5f6e6 2 2\n"))
	f.Add(bk.Encode())
	f.Add(New().Encode())
	f.Add([]byte("GOTHBOOK"))
	f.Fuzz(func(t *testing.T, data []byte) {
		bk, err := Decode(data)
		if err != nil {
			return
		}
		// A file the loader accepts is in the canonical form the encoder writes.
		if !bytes.Equal(bk.Encode(), data) {
			t.Fatal("an accepted file does not re-encode to itself")
		}
		bk.Lookup(board.Start())
		bk.Fix()
	})
}

// ExportFile writes what Export writes, and replaces an existing file by a rename instead of
// rewriting it: a hard link to the old file keeps the old text.
func TestExportFileAtomic(t *testing.T) {
	bk, _ := buildFull(t, 2, 1)
	var want bytes.Buffer
	if _, _, err := bk.Export(&want); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path, old := filepath.Join(dir, "book.txt"), filepath.Join(dir, "old.txt")
	os.WriteFile(path, []byte("old text"), 0o644)
	if err := os.Link(path, old); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	if lines, _, err := bk.ExportFile(path); err != nil || lines == 0 {
		t.Fatalf("ExportFile: %d lines, %v", lines, err)
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want.Bytes()) {
		t.Errorf("the file differs from Export's text")
	}
	if got, _ := os.ReadFile(old); string(got) != "old text" {
		t.Errorf("the old file was rewritten in place")
	}
	if _, _, err := bk.ExportFile(filepath.Join(dir, "no", "such", "dir", "b.txt")); err == nil {
		t.Error("an export into a missing directory: no error")
	}
}
