package weights

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func sample() *File {
	r := rand.New(rand.NewPCG(7, 7))
	f := &File{
		Stages: 3,
		Scale:  256,
		Patterns: []Pattern{
			{Name: "row", Squares: []uint8{0, 1, 2}, Packed: 18},
			{Name: "parity", Packed: 2},
		},
	}
	for s := 0; s < f.Stages; s++ {
		ws := make([]int16, f.PerStage())
		for i := range ws {
			ws[i] = int16(r.IntN(65536) - 32768)
		}
		f.Weights = append(f.Weights, ws)
	}
	f.SetSection("MPC1", []byte("some parameters"))
	f.SetSection("NOTE", nil)
	return f
}

func TestRoundTrip(t *testing.T) {
	f := sample()
	data, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	g, err := Decode("sample", data)
	if err != nil {
		t.Fatal(err)
	}
	// An empty section decodes as nil data.
	f.Sections[1].Data = []byte{}
	g.Sections[1].Data = []byte{}
	if !reflect.DeepEqual(f, g) {
		t.Fatalf("round trip changed the file:\n%+v\n%+v", f, g)
	}
	if d, ok := g.Section("MPC1"); !ok || string(d) != "some parameters" {
		t.Errorf("section MPC1 = %q, %v", d, ok)
	}
	if _, ok := g.Section("NONE"); ok {
		t.Error("found a section never written")
	}
	// Replacing a section keeps one copy.
	g.SetSection("MPC1", []byte("v2"))
	data2, _ := g.Encode()
	h, err := Decode("sample", data2)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := h.Section("MPC1"); string(d) != "v2" || len(h.Sections) != 2 {
		t.Errorf("after replacement: %q, %d sections", d, len(h.Sections))
	}
	if err := g.SetSection("TOOLONG", nil); err == nil {
		t.Error("a 7-byte tag was accepted")
	}
}

func TestFileRoundTripAndErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.gtw")
	if err := sample().WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err != nil {
		t.Fatal(err)
	}
	_, err := ReadFile(filepath.Join(dir, "missing.gtw"))
	if err == nil || !strings.Contains(err.Error(), "missing.gtw") {
		t.Errorf("missing file: error %v does not name the file", err)
	}
}

// Every corruption must be detected and reported with the file's name: every truncation,
// and a flipped bit anywhere.
func TestCorruptionDetected(t *testing.T) {
	data, err := sample().Encode()
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(data); n++ {
		if _, err := Decode("cut.gtw", data[:n]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: no error", n, len(data))
		} else if !strings.Contains(err.Error(), "cut.gtw") {
			t.Fatalf("error %q does not name the file", err)
		}
	}
	for i := 0; i < len(data); i++ {
		for bit := 0; bit < 8; bit += 3 {
			bad := bytes.Clone(data)
			bad[i] ^= 1 << bit
			if _, err := Decode("bad.gtw", bad); err == nil {
				t.Fatalf("bit %d of byte %d flipped: no error", bit, i)
			}
		}
	}
	if _, err := Decode("long.gtw", append(bytes.Clone(data), 0)); err == nil {
		t.Error("a trailing byte went unnoticed")
	}
}

func TestEmbeddedDecodes(t *testing.T) {
	f, err := Decode(EmbeddedName, Embedded())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("embedded: %d bytes, %d stages, %d weights per stage, %d sections", len(Embedded()), f.Stages, f.PerStage(), len(f.Sections))
}

func FuzzDecode(f *testing.F) {
	data, _ := sample().Encode()
	f.Add(data)
	f.Add(data[:40])
	f.Add([]byte(Magic))
	if b, err := os.ReadFile("default.gtw"); err == nil && len(b) < 1<<16 {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := Decode("fuzz", b)
		if err != nil {
			return
		}
		// What decodes must encode back to the same bytes.
		out, err := g.Encode()
		if err != nil {
			t.Fatalf("decoded file does not encode: %v", err)
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("re-encoding changed the bytes")
		}
	})
}

// WriteFile replaces the file whole (internal/atomicfile) instead of truncating and rewriting
// it in place: an engine that opened the weights before training rewrote them reads the old
// file complete, and no temporary file is left.
func TestWriteFileReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.gtw")
	old := sample()
	if err := old.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	r, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	next := sample()
	next.SetSection("NOTE", []byte("retrained"))
	if err := next.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	want, _ := old.Encode()
	if data, _ := io.ReadAll(r); !bytes.Equal(data, want) {
		_, err := Decode("opened before", data)
		t.Fatalf("a reader that opened the file before the write read %d bytes, not the old file's %d (%v)", len(data), len(want), err)
	}
	got, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := got.Section("NOTE"); string(d) != "retrained" {
		t.Fatalf("the new file has NOTE %q", d)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("%d files in the directory, want the weights alone", len(entries))
	}
}
