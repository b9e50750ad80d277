package protocol

import (
	"fmt"
	"io"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

// The text of the analyze command: a position's moves, best first, with their values and
// principal variations.

// PVWords writes a principal variation for people: "f5 d6 c3", "pa" for a pass.
func PVWords(pv []board.Square) string { return pvWords(pv) }

// AnalysisProgress is the line printed after each iteration of an analysis: its best move.
func AnalysisProgress(w io.Writer) func([]search.MoveScore) {
	return func(ms []search.MoveScore) {
		m := ms[0]
		fmt.Fprintf(w, "%-10s %-4s %+7.2f  %11d nodes  %7.2f s  %s\n", DepthLabel(m.Info), m.Move, m.Score, m.Nodes, m.Elapsed.Seconds(), pvWords(m.PV))
	}
}

// WriteAnalysis prints the result of an analysis that took el with the evaluation evalName:
// a summary line, then every move, the first n (all when n <= 0) with values and the others
// with the bounds that put them below.
func WriteAnalysis(w io.Writer, ms []search.MoveScore, n int, evalName string, el time.Duration) {
	fmt.Fprintf(w, "eval %s, %s, %d nodes, %.2f s, %.2f M nodes/s\n", evalName, DepthLabel(ms[0].Info), ms[0].Nodes, el.Seconds(), float64(ms[0].Nodes)/el.Seconds()/1e6)
	for i, m := range ms {
		// A move beyond the n best is a bound unless the engine says it has its value.
		bound := m.Bound || !m.Exact && !m.WLD && n > 0 && i >= n
		kind := "value"
		switch {
		case bound, m.Lower:
			kind = "bound"
		case m.Exact:
			kind = "exact"
		case m.WLD:
			kind = "wld"
		}
		score := fmt.Sprintf("%+7.2f", m.Score)
		switch {
		case m.WLD:
			score = fmt.Sprintf("%6s", scoreWords(m.Info, false))
		case bound:
			score = fmt.Sprintf("<=%+5.1f", m.Score)
		case m.Lower:
			score = fmt.Sprintf(">=%+5.1f", m.Score)
		}
		fmt.Fprintf(w, "%2d  %-4s %s  %-5s  %s\n", i+1, m.Move, score, kind, pvWords(m.PV))
	}
}

// DepthLabel is the depth of a search result in short: "depth 12", "depth 12@73%", "wld 20",
// "exact 20".
func DepthLabel(in search.Info) string {
	switch {
	case in.MonteCarlo:
		return "uct"
	case in.Exact:
		return fmt.Sprintf("exact %d", in.Depth)
	case in.WLD && in.Selectivity > 0 && in.Selectivity < 100:
		return fmt.Sprintf("wld %d@%d%%", in.Depth, in.Selectivity)
	case in.WLD:
		return fmt.Sprintf("wld %d", in.Depth)
	case in.Selectivity < 100:
		return fmt.Sprintf("depth %d@%d%%", in.Depth, in.Selectivity)
	}
	return fmt.Sprintf("depth %d", in.Depth)
}
