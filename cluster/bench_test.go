package cluster

import (
	"fmt"
	"testing"

	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/eval"
)

// BenchmarkControllerNodes solves FFO #40-#44 with 1, 2 and 8 workers running in goroutines
// (each with its own solver and 256 MiB table, the global table on one Redis server) and
// reports the nodes, which docs/distributed.md compares with the sequential solver's
// 177,945,496:
//
//	go test -run X -bench ControllerNodes -benchtime 1x ./cluster
func BenchmarkControllerNodes(b *testing.B) {
	ev, err := eval.Default()
	if err != nil {
		b.Fatal(err)
	}
	ps := ffo(b, "40-59")[:5]
	for _, n := range []int{1, 2, 8} {
		b.Run(fmt.Sprintf("workers=%d", n), func(b *testing.B) {
			for range b.N {
				rs := startRedis(b)
				wo := WorkerOptions{}
				wo.Solver = endgame.DefaultSolverOptions(256)
				wo.Solver.Eval = ev
				tc := newTestCluster(b, endpoint(rs), endpoints(rs), n, wo)
				c := NewController(tc.q, ControllerOptions{Eval: ev})
				var st Stats
				for _, pr := range ps {
					out, err := c.Solve(b.Context(), pr.Board.P, pr.Board.O, -64, 64)
					if best, _ := pr.Best(); err != nil || out.Score != best {
						b.Fatalf("score %d, %v; want %d", out.Score, err, best)
					}
					st.Add(out.Stats)
				}
				tc.stop()
				b.ReportMetric(float64(st.Nodes), "nodes")
				b.ReportMetric(float64(st.Tasks), "tasks")
				b.ReportMetric(float64(st.Nodes)/st.Wall.Seconds(), "nodes/s")
			}
		})
	}
}
