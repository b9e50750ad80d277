package endgame

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// startOBF is the start position (60 empties).
const startOBF = "---------------------------OX------XO--------------------------- X\n"

// A solve of more than MaxSolveEmpties empties is refused, before anything is solved, with
// the reason, an estimate and the option that forces it; MaxSolveEmpties itself is not.
func TestSolveFileRefusesManyEmpties(t *testing.T) {
	path := filepath.Join(t.TempDir(), "start.obf")
	if err := os.WriteFile(path, []byte(startOBF), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	_, err := SolveFile{Path: path, Out: &out, Run: ProblemOptions{Solver: DefaultSolverOptions(1)}}.Solve()
	var ie InputError
	if !errors.As(err, &ie) {
		t.Fatalf("solve of 60 empties: %v, want an InputError", err)
	}
	for _, want := range []string{"60 empties", "too many", "years", "--force", "Ctrl-C"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not say %q", err, want)
		}
	}
	if out.Len() != 0 {
		t.Errorf("a refused solve printed %q", out.String())
	}
	if err := TooManyEmpties(MaxSolveEmpties+1, "x"); !strings.Contains(err.Error(), "minutes") && !strings.Contains(err.Error(), "hours") {
		t.Errorf("estimate at %d empties: %v", MaxSolveEmpties+1, err)
	}
}

// Forced, a solve of the start position stops when its context ends: the row says
// interrupted, the run says so, and the nodes are those the solver searched, at least as many
// as its last progress report, not those of a finished phase.
func TestForcedSolveInterrupted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "start.obf")
	if err := os.WriteFile(path, []byte(startOBF), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen uint64
	run := ProblemOptions{Solver: DefaultSolverOptions(1), Context: ctx, ProgressInterval: 1}
	run.Progress = func(_ int, p ProblemProgress) {
		if p.Nodes > 200000 && seen == 0 {
			seen = p.Nodes
			cancel()
		}
	}
	var out bytes.Buffer
	tot, err := SolveFile{Path: path, Out: &out, Run: run, Force: true}.Solve()
	if err != nil {
		t.Fatal(err)
	}
	if !tot.Interrupted || tot.Positions != 1 || tot.Wrong != 0 || seen == 0 || tot.Nodes < seen {
		t.Fatalf("interrupted solve: %+v, last progress %d nodes\n%s", tot, seen, out.String())
	}
	if s := out.String(); !strings.Contains(s, "interrupted") {
		t.Fatalf("no interrupted row in\n%s", s)
	}
}
