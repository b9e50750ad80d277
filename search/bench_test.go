package search

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
)

func TestMoveLoss(t *testing.T) {
	d3, _ := board.ParseSquare("d3")
	c4, _ := board.ParseSquare("c4")
	f5, _ := board.ParseSquare("f5")
	vs := []MoveScore{{Move: d3, Info: Info{Score: 2}}, {Move: c4, Info: Info{Score: -1.5}}, {Move: f5, Info: Info{Score: 2}}}
	for _, c := range []struct {
		move board.Square
		want float64
	}{{d3, 0}, {f5, 0}, {c4, 3.5}, {board.NoSquare, 0}} {
		if got := moveLoss(vs, c.move); got != c.want {
			t.Errorf("moveLoss(%s) = %v, want %v", c.move, got, c.want)
		}
	}
}

// benchNegamax is a plain fixed-depth minimax over the pattern evaluation, in evaluation
// units, written apart from the search so that the bench's reference is checked
// independently.
func benchNegamax(ev *eval.Evaluator, b *board.Board, depth int) int {
	moves := b.LegalMoves()
	if moves == 0 {
		if board.LegalMoves(b.O, b.P) == 0 {
			return board.DiscDiff(b.P, b.O) * eval.Scale
		}
		u := b.Pass()
		v := -benchNegamax(ev, b, depth)
		b.Unmake(u)
		return v
	}
	if depth == 0 {
		return ev.Eval(b)
	}
	best := math.MinInt
	for m := moves; m != 0; m &= m - 1 {
		u := b.Make(board.FirstSquare(m))
		best = max(best, -benchNegamax(ev, b, depth-1))
		b.Unmake(u)
	}
	return best
}

// TestBenchLoss checks the bench's loss against losses recomputed here by plain minimax: the
// move each position's selective search chose is valued against the best.
func TestBenchLoss(t *testing.T) {
	const depth = 4
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	positions := BenchPositions()
	cfg := Config{TTMiB: 1, Eval: ev}
	refs := BenchReference(cfg, positions, depth)
	chosen := make([]board.Square, len(positions))
	var nodes uint64
	res := RunBench(BenchVariant{Config: cfg, Selectivity: 5}, positions, depth, refs, func(i int, r Result, _ time.Duration) {
		chosen[i] = r.Move
		nodes += r.Nodes
	})
	if res.Nodes != nodes || res.Time <= 0 {
		t.Errorf("bench result %+v, %d nodes in its positions", res, nodes)
	}
	var lost float64
	worse := 0
	for i, b := range positions {
		best, got := math.MinInt, math.MinInt
		for mv := b.LegalMoves(); mv != 0; mv &= mv - 1 {
			sq := board.FirstSquare(mv)
			u := b.Make(sq)
			v := -benchNegamax(ev, &b, depth-1)
			b.Unmake(u)
			best = max(best, v)
			if sq == chosen[i] {
				got = v
			}
		}
		if got == math.MinInt {
			t.Fatalf("position %d: the bench played %v, not a legal move", i+1, chosen[i])
		}
		l := float64(best-got) / eval.Scale
		lost += l
		if l > 0 {
			worse++
		}
	}
	if want := lost / float64(len(positions)); math.Abs(res.Loss-want) > 1e-9 || res.Worse != worse {
		t.Fatalf("bench loss %.3f discs/move, %d worse; minimax gives %.3f, %d worse", res.Loss, res.Worse, want, worse)
	}
	t.Logf("level 5, depth %d: %.3f discs/move, %d of %d worse", depth, res.Loss, worse, len(positions))
}

// The bench's node count is its signature: the same on every run.
func TestBenchSignature(t *testing.T) {
	positions := BenchPositions()[:4]
	a := RunBench(BenchVariant{Config: Config{TTMiB: 1}}, positions, 5, nil, nil)
	b := RunBench(BenchVariant{Config: Config{TTMiB: 1}}, positions, 5, nil, nil)
	if a.Nodes == 0 || a.Nodes != b.Nodes || a.Loss != 0 || a.Worse != 0 {
		t.Fatalf("two runs: %+v and %+v", a, b)
	}
}

func TestBenchTable(t *testing.T) {
	base := Config{TTMiB: 3, NoMPC: true, NoKiller: true, MPCScreen: 0.5}
	vs := BenchTable(base, 0)
	if len(vs) != 8 || vs[0].Name != "full, MPC off" || vs[4].Name != "full, MPC level 2" {
		t.Fatalf("table %+v", vs)
	}
	for _, v := range vs {
		c := v.Config
		off := map[string]bool{"prev": c.NoPrevOrder, "PVS": c.NoPVS, "killer": c.NoKiller, "static": c.NoStaticCut, "screen": c.MPCScreen < 0}
		for feature, isOff := range off {
			if isOff != strings.Contains(v.Name, "no "+feature) {
				t.Errorf("%q: %s off is %v", v.Name, feature, isOff)
			}
		}
		if c.NoMPC || c.TTMiB != 3 || (c.MPCScreen >= 0 && c.MPCScreen != 0.5) {
			t.Errorf("%q: config %+v does not keep the base's", v.Name, c)
		}
		if (v.Selectivity != 0) != strings.Contains(v.Name, "MPC level 2") {
			t.Errorf("%q: selectivity %d", v.Name, v.Selectivity)
		}
	}
	if vs := BenchTable(base, 4); vs[7].Name != "MPC level 4, no static cuts" || vs[7].Selectivity != 4 {
		t.Errorf("level 4: %+v", vs[7])
	}
}

// MoveQuality against scores made up so that the loss does not depend on the move chosen:
// every legal move gets the same score and an occupied square the best one.
func TestMoveQuality(t *testing.T) {
	_, b, err := board.ParseTranscript("f5d6c3d3c4")
	if err != nil {
		t.Fatal(err)
	}
	uniform := func(line, legal, best int) endgame.Problem {
		pr := endgame.Problem{Line: line, Board: b}
		for m := b.LegalMoves(); m != 0; m &= m - 1 {
			pr.Scores = append(pr.Scores, endgame.MoveScoreKnown{Move: board.FirstSquare(m), Score: legal})
		}
		pr.Scores = append(pr.Scores, endgame.MoveScoreKnown{Move: board.D4, Score: best}) // d4 is taken
		return pr
	}
	over := b
	for !over.GameOver() {
		if !over.Play(board.FirstSquare(over.LegalMoves())) {
			over.Pass()
		}
	}
	problems := []endgame.Problem{
		{Line: 1, Board: b}, // no scores: skipped
		{Line: 2, Board: over, Scores: []endgame.MoveScoreKnown{{Move: board.NoSquare, Score: 4}}}, // no move: skipped
		uniform(3, 6, 6),  // every move best
		uniform(4, -2, 3), // a win lost: 5 discs
		uniform(5, 0, 1),  // a win drawn: 1 disc
		uniform(6, 4, 6),  // 2 discs, still a win
	}
	q, err := MoveQuality(Config{TTMiB: 1}, problems, 10, time.Millisecond, 0)
	if err != nil || q.Positions != 4 || q.Loss != 2 || q.Worse != 3 || q.ResultErrors != 2 || q.Time <= 0 {
		t.Fatalf("MoveQuality: %+v, %v; want 4 positions, loss 2, 3 worse, 2 result errors", q, err)
	}
	if q, err = MoveQuality(Config{TTMiB: 1}, problems, 2, time.Millisecond, 0); err != nil || q.Positions != 2 || q.Loss != 2.5 {
		t.Fatalf("the first 2: %+v, %v", q, err)
	}
	missing := endgame.Problem{Line: 7, Board: b, Scores: []endgame.MoveScoreKnown{{Move: board.D4, Score: 0}}}
	if _, err = MoveQuality(Config{TTMiB: 1}, []endgame.Problem{missing}, 10, time.Millisecond, 0); err == nil || !strings.HasPrefix(err.Error(), "line 7: the file has no score for the chosen move ") {
		t.Fatalf("a chosen move without a score: %v", err)
	}
}
