package eval

import (
	"testing"

	"github.com/othellogo/othello/patterns"
)

// The checksum is the same for the same weights and changes with one weight.
func TestChecksum(t *testing.T) {
	a, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	if a.Checksum() != b.Checksum() || len(a.Checksum()) != 16 {
		t.Fatalf("checksums %q and %q of the same weights", a.Checksum(), b.Checksum())
	}
	c := *b
	c.w = append([]patterns.Table(nil), b.w...)
	c.w[3].W[100]++
	if c.Checksum() == a.Checksum() {
		t.Fatal("a changed weight kept the checksum")
	}
}
