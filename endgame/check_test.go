package endgame

import (
	"strings"
	"testing"

	"github.com/othellogo/othello/eval"
)

// The solve command's checks refuse each setting out of its range with a message naming the
// flag, and accept the limits of the ranges; TableBytes counts a table per job.
func TestProblemOptionsCheck(t *testing.T) {
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	good := ProblemOptions{Solver: DefaultSolverOptions(256), Jobs: 1}
	good.Solver.Threads = 1
	for _, c := range []struct {
		change func(*ProblemOptions)
		want   string // "" for no error
	}{
		{func(o *ProblemOptions) {}, ""},
		{func(o *ProblemOptions) { o.Solver.Threads, o.Jobs = MaxThreads, MaxThreads }, ""},
		{func(o *ProblemOptions) { o.Solver.TableMiB = 0 }, ""},
		{func(o *ProblemOptions) { o.Solver.TableMiB = 1 << 16 }, ""},
		{func(o *ProblemOptions) { o.Selectivity, o.Solver.Eval = MaxSelectivity, ev }, ""},
		{func(o *ProblemOptions) { o.Solver.Threads = 0 }, "--threads 0: want 1 to 256"},
		{func(o *ProblemOptions) { o.Solver.Threads = 257 }, "--threads 257: want 1 to 256"},
		{func(o *ProblemOptions) { o.Jobs = 0 }, "--jobs 0: want 1 to 256"},
		{func(o *ProblemOptions) { o.Jobs = 257 }, "--jobs 257"},
		{func(o *ProblemOptions) { o.Solver.TableMiB = -1 }, "--hash -1: want 0 to 65536 MiB"},
		{func(o *ProblemOptions) { o.Solver.TableMiB = 1<<16 + 1 }, "--hash 65537"},
		{func(o *ProblemOptions) { o.Selectivity, o.Solver.Eval = 9, ev }, "--sel 9: want 0 to 5"},
		{func(o *ProblemOptions) { o.Selectivity = -1 }, "--sel -1"},
		{func(o *ProblemOptions) { o.Selectivity = 3 }, "--sel needs the pattern evaluation"},
	} {
		o := good
		c.change(&o)
		if err := o.Check(); (err == nil) != (c.want == "") || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", o, err, c.want)
		}
	}
	o := good
	o.Solver.TableMiB, o.Jobs = 8, 3
	if got := o.TableBytes(); got != 3*8<<20 {
		t.Errorf("TableBytes %d, want 3 tables of 8 MiB", got)
	}
	if o.Solver.Table = false; o.TableBytes() != 0 {
		t.Errorf("TableBytes without a table: %d", o.TableBytes())
	}
}
