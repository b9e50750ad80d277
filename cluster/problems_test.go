package cluster

import (
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The paper's overheads add up (TO = SO + CO + SY), and the reference run is read from the
// lines of "othello solve".
func TestOverheadsAndBase(t *testing.T) {
	st := Stats{Wall: 6 * time.Second, Nodes: 1100}
	o := Overheads(st, 1000, 10*time.Second, 2)
	if math.Abs(o.Speedup-10.0/6) > 1e-9 || math.Abs(o.TO-0.2) > 1e-9 || math.Abs(o.SO-0.1) > 1e-9 || math.Abs(o.TO-o.SO-o.CO-o.SY) > 1e-9 {
		t.Fatalf("%+v", o)
	}
	path := filepath.Join(t.TempDir(), "solve1.txt")
	text := "x.obf: 2 positions, exact\n   #  emp move  score  known          nodes    time s\n  40  20   a2    +38    +38       20189743     0.380     53.2\n  41  22   h4     +0     +0       26828966     0.682     39.3\ntotal: ...\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := ReadBase(path)
	if err != nil || len(b) != 2 || b[41].Nodes != 26828966 || b[40].Time != 380*time.Millisecond {
		t.Fatalf("%v %v", b, err)
	}
	if err := os.WriteFile(path, []byte("nothing\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadBase(path); err == nil {
		t.Fatal("a file without position lines was read")
	}
}
