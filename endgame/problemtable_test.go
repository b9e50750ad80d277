package endgame

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
)

func TestSelectProblems(t *testing.T) {
	for _, c := range []struct {
		only string
		want []int
	}{
		{"", []int{0, 1, 2, 3, 4, 5}},
		{"40-42,45", []int{0, 1, 2, 5}},
		{"44", []int{4}},
	} {
		if got, err := SelectProblems(c.only, 40, 6); err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %v, %v; want %v", c.only, got, err, c.want)
		}
	}
	for _, bad := range []string{"39", "46", "42-41", "x", "40-y", "40,", "a-45"} {
		if _, err := SelectProblems(bad, 40, 6); err == nil || !strings.Contains(err.Error(), "--only") {
			t.Errorf("%q: %v; want an error", bad, err)
		}
	}
}

// A row shows the number, empties, move, score, the file's score and the verdict; with WLD
// scores are results; the totals line and the parallel line when the search split.
func TestProblemTable(t *testing.T) {
	pr, err := ParseProblems(strings.NewReader("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;\n"))
	if err != nil {
		t.Fatal(err)
	}
	g8, _ := board.ParseSquare("g8")
	var w bytes.Buffer
	table := ProblemTable{W: &w, First: 40}
	table.Header()
	r := ProblemResult{Index: 0, Elapsed: time.Second}
	r.Move, r.Score, r.Nodes, r.PV = g8, 16, 1000, []board.Square{g8, board.NoSquare}
	r.Wrong, r.BadMove = true, "h1 +12 (file +14)"
	table.Row(&pr[0], r)
	table.WLD = true
	r.Wrong, r.BadMove = false, ""
	table.Row(&pr[0], r)
	table.Totals(ProblemTotals{Positions: 2, Nodes: 2000, Time: 2 * time.Second, Wrong: 1})
	want := "   # emp move  score  known          nodes    time s     Mn/s    cpu s  PV\n" +
		"  40  14   g8    +16    +18           1000     1.000      0.0    0.000  g8 pa  WRONG h1 +12 (file +14)\n" +
		"  40  14   g8    win    win           1000     1.000      0.0    0.000  g8 pa\n" +
		"total: 2 positions, 2000 nodes, 2.000 s solver time, 0.0 Mn/s, 0.000 s cpu, 1 wrong\n"
	if w.String() != want {
		t.Errorf("got\n%s\nwant\n%s", w.String(), want)
	}
}

// SolveFile prints the header, a row per problem and the totals, writes the positions with
// every move's score, and reports unusable files and options as InputErrors.
func TestSolveFile(t *testing.T) {
	dir := t.TempDir()
	path, all := dir+"/p.obf", dir+"/all.obf"
	os.WriteFile(path, []byte("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;\n"), 0o644)
	var w bytes.Buffer
	s := SolveFile{Path: path, AllMoves: all, EvalName: "mobility", Out: &w,
		Run: ProblemOptions{Solver: DefaultSolverOptions(8), Jobs: 1, AllMoves: true}}
	s.Run.Solver.Threads = 1
	tot, err := s.Solve()
	if err != nil || tot.Positions != 1 || tot.Wrong != 0 || !strings.HasPrefix(w.String(), path+": 1 positions, exact, 1 thread(s) per position, 1 at once, table 8 MiB per solver, mobility ordering\n") ||
		!strings.Contains(w.String(), "   1  14   g8    +18    +18 ") || !strings.Contains(w.String(), "total: 1 positions") {
		t.Fatalf("%+v, %v\n%s", tot, err, w.String())
	}
	if data, _ := os.ReadFile(all); !strings.HasSuffix(string(data), " X; G8:+18; H1:+12; A2:+6; H7:+6; A3:+4; B1:-4; A4:-22; G2:-24;\n") {
		t.Errorf("all moves: %q", data)
	}
	empty := dir + "/empty.obf"
	os.WriteFile(empty, []byte("\n"), 0o644)
	for name, change := range map[string]func(*SolveFile){
		"missing file":          func(s *SolveFile) { s.Path = dir + "/absent.obf" },
		"no positions":          func(s *SolveFile) { s.Path = empty },
		"--only out of range":   func(s *SolveFile) { s.Only = "5" },
		"--all-moves and --wld": func(s *SolveFile) { s.Run.WLD = true },
		"--all-moves elsewhere": func(s *SolveFile) { s.AllMoves = dir + "/no/such/dir/x" },
	} {
		c := s
		change(&c)
		if _, err := c.Solve(); !errors.As(err, &InputError{}) {
			t.Errorf("%s: %v; want an InputError", name, err)
		}
	}
}
