package treesim

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestRunOptionsCheck(t *testing.T) {
	ok := RunOptions{B: 3, Depth: 4, Trees: 2, IDStep: 2, Procs: "1, 4", Orders: "method,ybwc"}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	if c := ok.Config(); len(c.Procs) != 2 || c.Procs[1] != 4 || len(c.Orders) != 2 || c.B != 3 {
		t.Fatalf("config %+v", c)
	}
	for _, bad := range []struct {
		o    RunOptions
		want string
	}{
		{RunOptions{B: 3, Depth: 4, Trees: 2, Procs: "0", Orders: "method"}, `-procs: "0"`},
		{RunOptions{B: 3, Depth: 4, Trees: 2, Procs: "1", Orders: "frob"}, "-orders:"},
		{RunOptions{B: 1, Depth: 4, Trees: 2, Procs: "1", Orders: "method"}, "want -b 2-30"},
		{RunOptions{B: 3, Depth: 4, Trees: 2, IDStep: -1, Procs: "1", Orders: "method"}, "-idstep"},
		{RunOptions{B: 5, Depth: 13, Trees: 2, Procs: "1", Orders: "method", Othello: "bench"}, "-d 13"},
		{RunOptions{B: 5, Depth: 6, Trees: 2, Procs: "1", Orders: "exact", Othello: "bench"}, "exact is for artificial"},
		{RunOptions{B: 5, Depth: 6, Trees: 2, Procs: "1", Orders: "method", FreeLeaves: true, Othello: "bench"}, "-freeleaves"},
	} {
		if err := bad.o.Check(); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%+v: %v, want %q", bad.o, err, bad.want)
		}
	}
}

func TestReportWrite(t *testing.T) {
	o := RunOptions{B: 3, Depth: 4, Trees: 2, IDStep: 2, Seed: 1, Workers: 1, Procs: "1,4", Orders: "method,ybwc"}
	rep, err := Run(context.Background(), o.Config(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	rep.Write(&b)
	for _, want := range []string{
		"treesim: branching 3, depth 4, 2 trees from seed 1; shallow searches 2 plies shallower; a leaf is a task\n",
		"\nsteps  P =               1         4\nmethod ",
		"\nnodes  P =", "\noverhead  P =", "(search overhead: nodes searched beyond the sequential search's)\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	for x, want := range map[float64]string{-1: "-", 1016: "1016", 20.66: "20.7", 2.833: "2.83"} {
		if got := num(x); got != want {
			t.Errorf("num(%v) = %q, want %q", x, got, want)
		}
	}
}
