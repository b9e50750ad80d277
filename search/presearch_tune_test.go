package search

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/cputime"
)

// TestPresearchTune measures presearch settings on FFO positions: for each margin of
// PRETUNE (plies short of the end), a fresh presearch and solver per position, the solver's
// nodes, the presearch's nodes and the time of both. It runs only when asked:
//
//	PRETUNE=6,4 PRELEVEL=3 PREFFO=40-49 go test -run PresearchTune -v ./search
//
// PREMAXDEPTH caps the presearch's depth (default PresearchMaxDepth) and PREHASH sets the
// solver's table in MiB (default 256). PREGUESS=off solves without the presearch's guess (its
// hint only), PREGUESS=exact with the known score as the guess (what a perfect guess would
// save). PREITER=5;3 runs probable solves at those levels between the presearch and the exact
// solve (their scores the next guess, their nodes counted with the presearch's). Times are the
// process's CPU time, so two runs side by side, one per core, compare.
func TestPresearchTune(t *testing.T) {
	if os.Getenv("PRETUNE") == "" {
		t.Skip()
	}
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	ps := testdataPositions(t, "fforum-40-59.obf")
	lo, hi := 40, 49
	if r := os.Getenv("PREFFO"); r != "" {
		a, b, _ := strings.Cut(r, "-")
		lo, _ = strconv.Atoi(a)
		hi, _ = strconv.Atoi(b)
	}
	if lo < 40 || hi > 59 || lo > hi {
		t.Fatalf("PREFFO=%q: want a range within 40-59", os.Getenv("PREFFO"))
	}
	level := PresearchLevel
	if l := os.Getenv("PRELEVEL"); l != "" {
		level, _ = strconv.Atoi(l)
	}
	guess := os.Getenv("PREGUESS") != "off"
	var known []endgame.Problem
	if os.Getenv("PREGUESS") == "exact" {
		// The known scores as the guesses: what a perfect guess would save.
		if known, err = endgame.ReadProblemFile("../endgame/testdata/fforum-40-59.obf"); err != nil {
			t.Fatal(err)
		}
	}
	hashMiB := 256
	if h, err := strconv.Atoi(os.Getenv("PREHASH")); err == nil {
		hashMiB = h
	}
	maxDepth := PresearchMaxDepth
	if d := os.Getenv("PREMAXDEPTH"); d != "" {
		maxDepth, _ = strconv.Atoi(d)
	}
	var iter []int
	for _, f := range strings.FieldsFunc(os.Getenv("PREITER"), func(r rune) bool { return r == ';' }) {
		l, _ := strconv.Atoi(f)
		iter = append(iter, l)
	}
	for _, f := range strings.Split(os.Getenv("PRETUNE"), ",") {
		margin, _ := strconv.Atoi(f)
		var solveNodes, preNodes uint64
		var total, preTime time.Duration
		for i := lo; i <= hi; i++ {
			b := ps[i-40]
			so := endgame.DefaultSolverOptions(hashMiB)
			so.Eval = ev
			s := endgame.NewSolverWith(so)
			pre := NewPresearch(ev, 1, 64)
			pre.Margin, pre.Level, pre.MaxDepth = margin, level, maxDepth
			start := cputime.Process()
			r := pre.Presearch(context.Background(), b)
			s.SetMoveHint(r.Hint)
			for _, l := range iter {
				s.SetSelectivity(l)
				pr := s.SolveNear(b.P, b.O, -64, 64, r.Guess)
				r.Guess, r.Nodes = pr.Score, r.Nodes+pr.Nodes
			}
			s.SetSelectivity(0)
			pt := cputime.Process() - start
			var res endgame.SolveResult
			if known != nil {
				r.Guess, _ = known[i-40].Best()
			}
			if guess && r.HasGuess {
				res = s.SolveNear(b.P, b.O, -64, 64, r.Guess)
			} else {
				res = s.Solve(b.P, b.O, -64, 64)
			}
			el := cputime.Process() - start
			t.Logf("#%d score %+d (guess %+d): solve %d nodes, presearch %d nodes in %v; %v in all", i, res.Score, r.Guess, res.Nodes, r.Nodes, pt.Round(time.Millisecond), el.Round(time.Millisecond))
			solveNodes += res.Nodes
			preNodes += r.Nodes
			total += el
			preTime += pt
		}
		t.Logf("margin %d level %d depth <= %d guess %v: %d nodes (solve %d, presearch %d) in %v (presearch %v)", margin, level, maxDepth, guess,
			solveNodes+preNodes, solveNodes, preNodes, total.Round(time.Millisecond), preTime.Round(time.Millisecond))
	}
}

// BenchmarkPresearchFFO solves FFO #41-#47 (22 to 25 empties) exactly with the pattern
// evaluation's ordering, with and without the presearch, in one invocation so that the ratio of
// their times means something on a loaded machine:
//
//	go test -run X -bench PresearchFFO -benchtime 1x ./search
//
// nodes/op counts the presearch's nodes with the solver's.
func BenchmarkPresearchFFO(b *testing.B) {
	ev, err := eval.Default()
	if err != nil {
		b.Fatal(err)
	}
	ps, err := endgame.ReadProblemFile("../endgame/testdata/fforum-40-59.obf")
	if err != nil {
		b.Fatal(err)
	}
	ps = ps[1:8]
	for _, withPre := range []bool{true, false} {
		name := "presearch"
		if !withPre {
			name = "no-presearch"
		}
		b.Run(name, func(b *testing.B) {
			so := endgame.DefaultSolverOptions(64)
			so.Eval = ev
			s := endgame.NewSolverWith(so)
			pre := NewPresearch(ev, 1, 16)
			var nodes uint64
			for b.Loop() {
				for _, pr := range ps {
					s.ClearTable()
					var r endgame.PresearchResult
					if withPre {
						r = pre.Presearch(context.Background(), pr.Board)
					}
					s.SetMoveHint(r.Hint)
					var res endgame.SolveResult
					if r.HasGuess {
						res = s.SolveNear(pr.Board.P, pr.Board.O, -64, 64, r.Guess)
					} else {
						res = s.Solve(pr.Board.P, pr.Board.O, -64, 64)
					}
					if known, ok := pr.Best(); !ok || res.Score != known {
						b.Fatalf("score %d, want %d", res.Score, known)
					}
					nodes += res.Nodes + r.Nodes
				}
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
			b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
		})
	}
}
