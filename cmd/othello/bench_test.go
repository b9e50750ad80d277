package main

import (
	"math"
	"regexp"
	"strconv"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/search"
)

func TestMoveLoss(t *testing.T) {
	d3, _ := board.ParseSquare("d3")
	c4, _ := board.ParseSquare("c4")
	f5, _ := board.ParseSquare("f5")
	vs := []search.MoveScore{{Move: d3, Info: search.Info{Score: 2}}, {Move: c4, Info: search.Info{Score: -1.5}}, {Move: f5, Info: search.Info{Score: 2}}}
	for _, c := range []struct {
		move board.Square
		want float64
	}{{d3, 0}, {f5, 0}, {c4, 3.5}, {board.NoSquare, 0}} {
		if got := moveLoss(vs, c.move); got != c.want {
			t.Errorf("moveLoss(%s) = %v, want %v", c.move, got, c.want)
		}
	}
}

// negamax is a plain fixed-depth minimax over the pattern evaluation, in evaluation units,
// written apart from the search package so the bench's reference is checked independently.
func negamax(ev *eval.Evaluator, b *board.Board, depth int) int {
	moves := b.LegalMoves()
	if moves == 0 {
		if board.LegalMoves(b.O, b.P) == 0 {
			return board.DiscDiff(b.P, b.O) * eval.Scale
		}
		u := b.Pass()
		v := -negamax(ev, b, depth)
		b.Unmake(u)
		return v
	}
	if depth == 0 {
		return ev.Eval(b)
	}
	best := math.MinInt
	for m := moves; m != 0; m &= m - 1 {
		u := b.Make(board.FirstSquare(m))
		best = max(best, -negamax(ev, b, depth-1))
		b.Unmake(u)
	}
	return best
}

// TestBenchLoss checks bench -loss against losses recomputed here by plain minimax: the
// move each position's selective search chose (bench -each) is valued against the best.
func TestBenchLoss(t *testing.T) {
	const depth, n = 4, 12
	code, out, errOut := runCmd(t, "", "bench", "-depth", strconv.Itoa(depth), "-positions", strconv.Itoa(n), "-tt", "1", "-sel", "5", "-loss", "-each")
	if code != 0 {
		t.Fatalf("bench -loss: code %d err %s", code, errOut)
	}
	moves := regexp.MustCompile(`(?m)^ +\d+ +\d+ empties +([a-h][1-8]|--) `).FindAllStringSubmatch(out, -1)
	m := regexp.MustCompile(`loss (\d+\.\d+) discs/move, (\d+) worse`).FindStringSubmatch(out)
	if len(moves) != n || m == nil {
		t.Fatalf("bench -loss output:\n%s", out)
	}
	ev, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	var lost float64
	worse := 0
	for i, tr := range benchPositions[:n] {
		_, b, err := board.ParseTranscript(tr)
		if err != nil {
			t.Fatal(err)
		}
		best, got := math.MinInt, math.MinInt
		for mv := b.LegalMoves(); mv != 0; mv &= mv - 1 {
			sq := board.FirstSquare(mv)
			u := b.Make(sq)
			v := -negamax(ev, &b, depth-1)
			b.Unmake(u)
			best = max(best, v)
			if sq.String() == moves[i][1] {
				got = v
			}
		}
		if got == math.MinInt {
			t.Fatalf("position %d: bench played %s, not a legal move", i+1, moves[i][1])
		}
		l := float64(best-got) / eval.Scale
		lost += l
		if l > 0 {
			worse++
		}
	}
	if want := strconv.FormatFloat(lost/n, 'f', 3, 64); m[1] != want || m[2] != strconv.Itoa(worse) {
		t.Fatalf("bench -loss says %s discs/move, %s worse; minimax gives %s, %d worse\n%s", m[1], m[2], want, worse, out)
	}
	t.Logf("level 5, depth %d: %s discs/move, %d of %d worse", depth, m[1], worse, n)
}
