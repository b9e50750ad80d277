package match

import (
	"bytes"
	"context"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
	"github.com/othellogo/othello/train"
)

// shippedOpenings is the opening set the README's match examples use, made by
// othello openings (its header says how).
const shippedOpenings = "testdata/balanced-8.txt"

func smallGenerate(seed uint64, workers int) GenerateConfig {
	return GenerateConfig{N: 30, Plies: 6, Depth: 3, MaxAbs: 2, Seed: seed, Workers: workers, TTMiB: 1}
}

// positionKey is a line's final position up to symmetry, replayed from its moves.
func positionKey(t *testing.T, moves []board.Square) [2]uint64 {
	t.Helper()
	b := board.Start()
	for i, m := range moves {
		if !b.IsLegal(m) {
			t.Fatalf("%s: move %d (%v) is illegal", board.Transcript(moves), i+1, m)
		}
		b.Make(m)
	}
	if b.LegalMoves() == 0 {
		t.Errorf("%s: the side to move has to pass", board.Transcript(moves))
	}
	p, o, _ := board.Canonical(b.P, b.O)
	return [2]uint64{p, o}
}

// A generated set: the lines are legal, of the plies asked, begin with f5 and reach no
// position twice up to symmetry; every kept value is within the bound and is the value a
// search of the position gives on its own; some candidates were rejected by the bound; the
// same seed gives the same set whatever the number of workers, another seed another set.
func TestGenerateOpenings(t *testing.T) {
	cfg := smallGenerate(7, 1)
	calls := 0
	opens, st, err := GenerateOpenings(context.Background(), cfg, func() { calls++ })
	if err != nil || len(opens) != cfg.N || calls != cfg.N || st.Kept != cfg.N {
		t.Fatalf("%d openings, %d calls, %+v, %v", len(opens), calls, st, err)
	}
	if st.Searched <= st.Kept || st.Drawn < st.Searched+st.Duplicates+st.Unplayable {
		t.Errorf("stats %+v: want rejected candidates and every drawn line accounted for", st)
	}
	seen := map[[2]uint64]string{}
	for _, o := range opens {
		tr := board.Transcript(o.Moves)
		if len(o.Moves) != cfg.Plies || o.Moves[0] != board.F5 {
			t.Errorf("%s: want %d plies from f5", tr, cfg.Plies)
		}
		k := positionKey(t, o.Moves)
		if prev, dup := seen[k]; dup {
			t.Errorf("%s and %s reach the same position up to symmetry", prev, tr)
		}
		seen[k] = tr
		if math.Abs(o.Value) > cfg.MaxAbs {
			t.Errorf("%s: value %v beyond %v", tr, o.Value, cfg.MaxAbs)
		}
		_, b, _ := board.ParseTranscript(tr)
		res := search.NewEngine(search.Config{TTMiB: 1, SolverMiB: 1}).Search(context.Background(), b, search.Limits{Depth: cfg.Depth}, nil)
		if v := res.Score; b.BlackToMove && v != o.Value || !b.BlackToMove && -v != o.Value {
			t.Errorf("%s: kept with value %v, a search of it gives %v for the side to move", tr, o.Value, v)
		}
	}
	for _, c := range []GenerateConfig{smallGenerate(7, 3), smallGenerate(7, 1)} {
		again, _, err := GenerateOpenings(context.Background(), c, nil)
		if err != nil || !reflect.DeepEqual(again, opens) {
			t.Errorf("seed 7 with %d workers: a different set (%v)", c.Workers, err)
		}
	}
	other, _, err := GenerateOpenings(context.Background(), smallGenerate(8, 2), nil)
	if err != nil || reflect.DeepEqual(other, opens) {
		t.Errorf("seeds 7 and 8 gave the same set (%v)", err)
	}

	// A tighter bound keeps fewer of the candidates, each within it.
	tight := smallGenerate(7, 2)
	tight.MaxAbs, tight.N = 0.5, 10
	few, st2, err := GenerateOpenings(context.Background(), tight, nil)
	if err != nil || len(few) != 10 || float64(st2.Kept)/float64(st2.Searched) >= float64(st.Kept)/float64(st.Searched) {
		t.Errorf("max-abs 0.5: %d openings, %+v against %+v, %v", len(few), st2, st, err)
	}
	for _, o := range few {
		if math.Abs(o.Value) > 0.5 {
			t.Errorf("%s: value %v beyond 0.5", board.Transcript(o.Moves), o.Value)
		}
	}

	// What is written is what match reads.
	var buf bytes.Buffer
	if err := WriteOpenings(&buf, []string{"made by a test"}, opens); err != nil {
		t.Fatal(err)
	}
	read, err := train.ReadOpenings(strings.NewReader(buf.String()), 0, 0)
	if err != nil || len(read) != len(opens) || !strings.HasPrefix(buf.String(), "# made by a test\n") {
		t.Fatalf("read back %d openings, %v:\n%s", len(read), err, buf.String())
	}
	for i := range read {
		if !reflect.DeepEqual(read[i], opens[i].Moves) {
			t.Errorf("opening %d read back as %s, written %s", i, board.Transcript(read[i]), board.Transcript(opens[i].Moves))
		}
	}
}

// Too few distinct positions is an error with the openings found; a cancelled context returns
// its error; bad settings are refused.
func TestGenerateOpeningsLimits(t *testing.T) {
	// After one ply there is one position up to symmetry.
	c := GenerateConfig{N: 3, Plies: 1, Depth: 1, MaxAbs: 64, Workers: 2, TTMiB: 1, MaxDuplicates: 50}
	opens, st, err := GenerateOpenings(context.Background(), c, nil)
	if err == nil || !strings.Contains(err.Error(), "only 1 openings of 3") || len(opens) != 1 || board.Transcript(opens[0].Moves) != "f5" || st.Duplicates != 50 {
		t.Errorf("one ply: %d openings, %+v, %v", len(opens), st, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := GenerateOpenings(ctx, smallGenerate(1, 2), nil); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
	for _, bad := range []GenerateConfig{
		{N: 0, Plies: 8, Depth: 4, MaxAbs: 1},
		{N: 1, Plies: 0, Depth: 4, MaxAbs: 1},
		{N: 1, Plies: 8, Depth: 0, MaxAbs: 1},
		{N: 1, Plies: 8, Depth: 4, MaxAbs: -1},
		{N: 1, Plies: 8, Depth: 4, MaxAbs: math.NaN()},
		{N: 1, Plies: 8, Depth: 4, MaxAbs: 1, Selectivity: 9},
		{N: 1, Plies: 8, Depth: 4, MaxAbs: 1, Workers: -1},
	} {
		if _, _, err := GenerateOpenings(context.Background(), bad, nil); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// The shipped set is what the README says: XOT-like lines of 8 plies from f5, legal, no
// position twice up to symmetry, thousands of them, readable by match.
func TestShippedOpenings(t *testing.T) {
	data, err := os.ReadFile(shippedOpenings)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "# ") || !strings.Contains(strings.SplitN(string(data), "\n", 2)[0], "othello openings ") {
		t.Errorf("%s: want a header naming the command that made it", shippedOpenings)
	}
	opens, err := Openings(shippedOpenings, 0, 0, 0, 1)
	if err != nil || len(opens) < 2000 {
		t.Fatalf("%s: %d openings, %v", shippedOpenings, len(opens), err)
	}
	seen := map[[2]uint64]int{}
	for i, o := range opens {
		if len(o) != 8 || o[0] != board.F5 {
			t.Errorf("opening %d: %s: want 8 plies from f5", i+1, board.Transcript(o))
		}
		k := positionKey(t, o)
		if j, dup := seen[k]; dup {
			t.Errorf("openings %d and %d reach the same position up to symmetry", j+1, i+1)
		}
		seen[k] = i
	}
}
