package cluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A key file shorter than minKeyLen is refused, white space around the secret does not
// count, and a MAC is valid only for its domain, parts and key.
func TestKey(t *testing.T) {
	dir := t.TempDir()
	short, good := filepath.Join(dir, "short"), filepath.Join(dir, "good")
	os.WriteFile(short, []byte("  tooshort\n"), 0o600)
	os.WriteFile(good, []byte("0123456789abcdef0123\n"), 0o600)
	if _, err := ReadKey(short); err == nil || !strings.Contains(err.Error(), "at least") {
		t.Fatalf("short key: %v", err)
	}
	if _, err := ReadKey(filepath.Join(dir, "none")); err == nil {
		t.Fatal("missing key file accepted")
	}
	k, err := ReadKey(good)
	if err != nil {
		t.Fatal(err)
	}
	same, other := NewKey([]byte("0123456789abcdef0123")), NewKey([]byte("0123456789abcdef0124"))
	m := k.mac(nil, macTask, []byte("job"), []byte("content"))
	if len(m) != macLen || !same.verify(m, macTask, []byte("job"), []byte("content")) {
		t.Fatal("a MAC does not verify with the same key")
	}
	for _, bad := range []bool{
		other.verify(m, macTask, []byte("job"), []byte("content")),
		k.verify(m, macResult, []byte("job"), []byte("content")),
		k.verify(m, macTask, []byte("job"), []byte("contenu")),
		k.verify(m[:macLen-1], macTask, []byte("job"), []byte("content")),
	} {
		if bad {
			t.Fatal("a MAC verified with another key, domain, content or length")
		}
	}
}

// BenchmarkMAC is the cost of one entry's MAC (a global table half: position and 3
// bytes), to set against a Redis round trip.
func BenchmarkMAC(b *testing.B) {
	k := NewKey([]byte("0123456789abcdef0123"))
	var pos [16]byte
	var buf [macLen]byte
	b.ReportAllocs()
	for b.Loop() {
		k.mac(buf[:0], macLower, pos[:], []byte{1, 2, 3})
	}
}
