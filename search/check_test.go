package search

import (
	"strings"
	"testing"
	"time"
)

// The command-line checks accept the limits of their ranges and refuse what lies outside,
// with a message naming the setting (the analyze and bench commands' usage errors).
func TestChecks(t *testing.T) {
	n := len(BenchPositions())
	good := BenchOptions{Depth: 30, Positions: n, FileLimit: 1, Selectivity: MaxSelectivity}
	for _, c := range []struct {
		err  error
		want string // "" for no error
	}{
		{CheckThreads("-threads", 1), ""},
		{CheckThreads("-threads", MaxThreads), ""},
		{CheckThreads("-threads", 0), "-threads 0: want 1 to 256"},
		{CheckThreads("--threads", 257), "--threads 257: want 1 to 256"},
		{Limits{Depth: 60, MoveTime: time.Second, Selectivity: MaxSelectivity}.Check(), ""},
		{Limits{}.Check(), ""},
		{Limits{Depth: 61}.Check(), "want depth 0-60, selectivity 0-5 and a non-negative time"},
		{Limits{Depth: -1}.Check(), "want depth 0-60"},
		{Limits{Selectivity: MaxSelectivity + 1}.Check(), "selectivity 0-5"},
		{Limits{Selectivity: -1}.Check(), "selectivity 0-5"},
		{Limits{MoveTime: -time.Second}.Check(), "non-negative time"},
		{good.Check(), ""},
		{BenchOptions{Depth: 1, Positions: 1, FileLimit: 1}.Check(), ""},
		{BenchOptions{Depth: 0, Positions: 1, FileLimit: 1}.Check(), "want depth 1-30 and positions 1-12"},
		{BenchOptions{Depth: 31, Positions: 1, FileLimit: 1}.Check(), "want depth 1-30"},
		{BenchOptions{Depth: 1, Positions: 0, FileLimit: 1}.Check(), "positions 1-12"},
		{BenchOptions{Depth: 1, Positions: n + 1, FileLimit: 1}.Check(), "positions 1-12"},
		{BenchOptions{Depth: 1, Positions: 1, FileLimit: 0}.Check(), "-n 0: want at least 1 position"},
		{BenchOptions{Depth: 1, Positions: 1, FileLimit: 1, Selectivity: 9}.Check(), "selectivity 9: want 0-5"},
		{BenchOptions{Depth: 1, Positions: 1, FileLimit: 1, Selectivity: -1}.Check(), "selectivity -1: want 0-5"},
	} {
		if (c.err == nil) != (c.want == "") || c.err != nil && !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want %q", c.err, c.want)
		}
	}
}
