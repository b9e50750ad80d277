package protocol

import (
	"context"
	"sort"
	"sync/atomic"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

// fakeEngine is a deterministic stand-in for the search: plain negamax on the disc
// difference, iterative deepening to min(Depth, 3) plies (1 when short of time) (to the end, and marked exact, when
// that reaches the last move). A depth of 50 or more is a "deep search": it reports one
// iteration and then waits until its context is cancelled, which makes ping tests exact.
// Elapsed is always zero so transcripts do not depend on the machine.
type fakeEngine struct {
	searches atomic.Int64
	noDeep   bool // never block (fuzz tests have no ping to end a deep search)
}

const fakeDeep = 50

func (f *fakeEngine) Search(ctx context.Context, b board.Board, lim search.Limits, info func(search.Info)) search.Result {
	f.searches.Add(1)
	if lim.Depth >= fakeDeep && !f.noDeep {
		res := fakeSearch(b, 1)
		info(res.Info)
		<-ctx.Done()
		return res
	}
	d := fakeDepth(lim)
	var res search.Result
	for i := 1; i <= d; i++ {
		if ctx.Err() != nil && i > 1 {
			break
		}
		res = fakeSearch(b, i)
		info(res.Info)
		if res.Exact {
			break
		}
	}
	return res
}

// fakeDepth is the depth searched: at most 3, and 1 when a game clock has less than 5 s
// left (so scripts can see the clock reach the engine).
func fakeDepth(lim search.Limits) int {
	if lim.Remaining > 0 && lim.Remaining < 5*time.Second {
		return 1
	}
	if lim.Depth <= 0 || lim.Depth > 3 {
		return 3
	}
	return lim.Depth
}

func (f *fakeEngine) Analyze(ctx context.Context, b board.Board, lim search.Limits, n int, info func([]search.MoveScore)) []search.MoveScore {
	f.searches.Add(1)
	if lim.Depth >= fakeDeep && !f.noDeep {
		ms := fakeAnalyze(b, 1, n)
		info(ms)
		<-ctx.Done()
		return ms
	}
	d := fakeDepth(lim)
	if d > 1 {
		info(fakeAnalyze(b, 1, n))
	}
	return fakeAnalyze(b, d, n)
}

func fakeAnalyze(b board.Board, depth, n int) []search.MoveScore {
	var out []search.MoveScore
	for _, sq := range legalSquares(&b) {
		c := b
		c.Make(sq)
		r := fakeSearch(c, depth-1)
		ms := search.MoveScore{Move: sq, Info: r.Info}
		ms.Score = -r.Score
		ms.Depth = depth
		ms.Exact = depth >= b.NumEmpties()
		ms.PV = append([]board.Square{sq}, r.PV...)
		out = append(out, ms)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// fakeSearch is negamax to depth plies (passes do not count) on the final disc difference
// or, at the horizon, the plain disc difference.
func fakeSearch(b board.Board, depth int) search.Result {
	var nodes uint64
	score, pv := negamax(b.P, b.O, depth, &nodes)
	res := search.Result{Move: board.NoSquare}
	if len(pv) > 0 {
		res.Move = pv[0]
	}
	res.Info = search.Info{Depth: depth, Selectivity: 100, Score: float64(score), Nodes: nodes, PV: pv,
		Exact: depth >= b.NumEmpties()}
	return res
}

func negamax(p, o uint64, depth int, nodes *uint64) (int, []board.Square) {
	*nodes++
	moves := board.LegalMoves(p, o)
	if moves == 0 {
		if board.LegalMoves(o, p) == 0 {
			return board.DiscDiff(p, o), nil
		}
		s, pv := negamax(o, p, depth, nodes)
		return -s, append([]board.Square{board.NoSquare}, pv...)
	}
	if depth <= 0 {
		return board.Count(p) - board.Count(o), nil
	}
	best, bestPV := -1000, []board.Square(nil)
	for m := moves; m != 0; m &= m - 1 {
		sq := board.FirstSquare(m)
		f := board.Flips(p, o, sq)
		s, pv := negamax(o^f, p|f|sq.Bit(), depth-1, nodes)
		if -s > best {
			best, bestPV = -s, append([]board.Square{sq}, pv...)
		}
	}
	return best, bestPV
}
