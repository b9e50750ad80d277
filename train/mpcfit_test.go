package train

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/search"
	"github.com/othellogo/othello/weights"
)

func TestReadMPCPositions(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "pos.txt")
	start := board.Start()
	full := "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOOOO---- X" // 4 empties: too few
	text := "% comment\n# comment\n\n" + start.OBF() + "; +1.00\n" + full + "\n" + start.OBF() + "\n" + start.OBF() + "\n"
	os.WriteFile(path, []byte(text), 0o644)
	if ps, err := ReadMPCPositions(path, 10, 6); err != nil || len(ps) != 3 || ps[0] != start {
		t.Errorf("%d positions, %v; want the 3 start positions", len(ps), err)
	}
	if ps, err := ReadMPCPositions(path, 2, 6); err != nil || len(ps) != 2 {
		t.Errorf("n 2: %d positions, %v", len(ps), err)
	}
	for name, c := range map[string]struct {
		text, want string
	}{
		"bad line":   {"# x\nXXO X\n", "line 2"},
		"none deep":  {full + "\n", "no position with a move to play and more than 7 empties"},
		"empty file": {"", "no position"},
	} {
		os.WriteFile(path, []byte(c.text), 0o644)
		if _, err := ReadMPCPositions(path, 10, 6); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
	if _, err := ReadMPCPositions(filepath.Join(dir, "absent.txt"), 10, 6); err == nil {
		t.Error("absent file: no error")
	}
}

// Sampled positions are reproducible from the seed, have a move to play and room for a search
// to maxHeight; searching them gives one sample each, and the fit reads them.
func TestSampleMPC(t *testing.T) {
	opens, err := ReadOpenings(strings.NewReader("f5d6\nf5f6e6\n"), 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg := search.Config{TTMiB: 1, NoMPC: true}
	a := SampleMPCPositions(cfg, opens, 6, 3, 1)
	b := SampleMPCPositions(cfg, opens, 6, 3, 1)
	if len(a) != 6 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("%d positions; reproducible %v", len(a), fmt.Sprint(a) == fmt.Sprint(b))
	}
	for _, p := range a {
		if p.LegalMoves() == 0 || p.NumEmpties() < 5 || p.NumEmpties() > 51 {
			t.Errorf("position with %d empties, moves %v", p.NumEmpties(), p.LegalMoves() != 0)
		}
	}
	var done atomic.Int64 // done is called from every worker
	samples := MPCSamples(context.Background(), cfg, a, 3, 2, func() { done.Add(1) })
	if len(samples) != len(a) || done.Load() != int64(len(a)) {
		t.Fatalf("%d samples, %d done, of %d positions", len(samples), done.Load(), len(a))
	}
	for i, s := range samples {
		if s.Empties != a[i].NumEmpties() || len(s.Values) != 4 {
			t.Errorf("sample %d: %d empties (position %d), %d values", i, s.Empties, a[i].NumEmpties(), len(s.Values))
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if s := MPCSamples(ctx, cfg, a, 3, 1, nil); len(s) != 0 {
		t.Errorf("cancelled: %d samples", len(s))
	}
}

func TestStoreMPC(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.gtw")
	f, err := weights.Decode(weights.EmbeddedName, weights.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	if err := f.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	text := []byte("eval pattern\n")
	if err := StoreMPC(path, text); err != nil {
		t.Fatal(err)
	}
	e, err := eval.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := e.Section(search.MPCSection); !ok || string(got) != string(text) {
		t.Errorf("stored section %q, %v", got, ok)
	}
	if err := StoreMPC(path+".absent", text); err == nil {
		t.Error("absent weight file: no error")
	}
}
