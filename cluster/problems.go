package cluster

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
)

// ProblemRun is a run of solve --redis: the selected positions of an .obf file solved
// by the workers, with the paper's overheads against a single-process run when Base is set.
type ProblemRun struct {
	Path     string
	Problems []endgame.Problem
	Selected []int // indexes into Problems
	First    int   // the number of Problems[0]
	Cluster  Cluster
	Delay    time.Duration
	Flush    bool // empty the global table before each position (measurement)
	Base     map[int]BaseRun
	BasePath string
	Workers  int // N of the overheads (0: the workers that answered)
	Options  ControllerOptions
}

// SolveProblems solves the run's positions, writes a table of them and the totals to w, and
// returns how many scores disagree with the file.
func SolveProblems(ctx context.Context, w io.Writer, r ProblemRun) (int, error) {
	list := r.Cluster.Servers
	q, err := NewRedisQueue(ctx, QueueOptions{Server: list[0], Key: r.Cluster.Key, Logf: r.Options.Logf, Delay: r.Delay})
	if err != nil {
		return 0, err
	}
	defer q.Close()
	c := NewController(q, r.Options)
	sp := r.Options.Split
	mode := sp.String()
	if sp == PVSplit {
		mode = fmt.Sprintf("pvsplit depth %d", r.Options.PVDepth)
		if r.Options.Strict {
			mode += " strict"
		}
	}
	fmt.Fprintf(w, "%s: %d positions, exact, %s, tasks from %d empties, queue on %s, %d Redis server(s), %s\n", r.Path, len(r.Selected), mode, r.Options.TaskEmpties, list[0], len(list), keyNote(r.Cluster.Key))
	fmt.Fprintf(w, "%4s %3s %4s %6s %6s %14s %9s %8s %6s %3s  %s\n", "#", "emp", "move", "score", "known", "nodes", "time s", "Mn/s", "tasks", "wk", "PV")
	var tot Stats
	var baseNodes uint64
	var baseTime time.Duration
	wrong := 0
	for _, i := range r.Selected {
		pr := &r.Problems[i]
		if r.Flush {
			if err := FlushTable(ctx, list); err != nil {
				return wrong, err
			}
		}
		out, err := c.Solve(ctx, pr.Board.P, pr.Board.O, -64, 64)
		if err != nil {
			return wrong, fmt.Errorf("position %d: %w", r.First+i, err)
		}
		tot.Add(out.Stats)
		if b, ok := r.Base[r.First+i]; ok {
			baseNodes += b.Nodes
			baseTime += b.Time
		}
		knownText, verdict := "-", ""
		if known, ok := pr.Best(); ok {
			knownText = fmt.Sprintf("%+d", known)
			if out.Score != known {
				wrong++
				verdict = "  WRONG"
			}
		}
		sec := out.Wall.Seconds()
		fmt.Fprintf(w, "%4d %3d %4v %+6d %6s %14d %9.3f %8.1f %6d %3d  %s%s\n", r.First+i, pr.Board.NumEmpties(), out.Move, out.Score, knownText, out.Nodes, sec, float64(out.Nodes)/sec/1e6, out.Tasks, out.Workers, pvText(out.PV), verdict)
	}
	sec := tot.Wall.Seconds()
	fmt.Fprintf(w, "total: %d positions, %d nodes, %.3f s, %.1f Mn/s, %d wrong\n", len(r.Selected), tot.Nodes, sec, float64(tot.Nodes)/sec/1e6, wrong)
	fmt.Fprintf(w, "tasks: %d in %d windows (%d withdrawn with %d nodes, %d taken over from silent workers, %d solved twice, %d answered by the global table); workers %.3f s solving\n",
		tot.Tasks, tot.Windows, tot.Withdrawn, tot.WithdrawnNodes, tot.Reclaimed, tot.Duplicates, tot.FromTable, tot.Search.Seconds())
	fmt.Fprintf(w, "communication: %.3f s in %d global probes (%d hits), %.3f s fetching tasks, %.3f s posting results, controller %.3f s making tasks and %.3f s in queue calls; %.3f s blocked waiting for tasks\n",
		tot.Probe.Seconds(), tot.Probes, tot.Hits, tot.Fetch.Seconds(), tot.Post.Seconds(), tot.Split.Seconds(), tot.Queue.Seconds(), tot.Idle.Seconds())
	if n := q.Dropped(); n > 0 || tot.Dropped > 0 || tot.Lost > 0 {
		fmt.Fprintf(w, "untrusted input: %d queue entries dropped (malformed, unsigned, another job), %d results dropped (not true to their task); the server lost the queue %d time(s), %d task(s) submitted again\n", n, tot.Dropped, tot.Lost, tot.Resubmitted)
	}
	if ig := c.Ignored(); len(ig) > 0 {
		fmt.Fprintf(w, "workers ignored (%d results): %s\n", tot.Ignored, strings.Join(ig, "; "))
	}
	if r.Base != nil && baseTime > 0 {
		n := r.Workers
		if n <= 0 {
			n = tot.Workers
		}
		ov := Overheads(tot, baseNodes, baseTime, n)
		fmt.Fprintf(w, "overheads against %s (N = %d, T1 = %.3f s, S1 = %d nodes): speedup %.2f, TO %+.1f%%, SO %+.1f%%, CO %.1f%%, SY %+.1f%%\n",
			r.BasePath, n, baseTime.Seconds(), baseNodes, ov.Speedup, 100*ov.TO, 100*ov.SO, 100*ov.CO, 100*ov.SY)
	}
	return wrong, nil
}

// Overhead is the paper's decomposition of the time overhead: TO = T_N / (T_1/N) - 1,
// SO = S_N / S_1 - 1, CO = communication time over the ideal time, SY = TO - CO - SO. The
// communication time is the workers' summed time in Redis calls divided by N (the
// per-worker mean, so that the four add up) plus the controller's time making and handing
// out tasks.
type Overhead struct{ Speedup, TO, SO, CO, SY float64 }

// Overheads computes the Overhead of a run of n workers against a single process that
// searched baseNodes in baseTime.
func Overheads(st Stats, baseNodes uint64, baseTime time.Duration, n int) Overhead {
	ideal := baseTime.Seconds() / float64(n)
	var o Overhead
	o.Speedup = baseTime.Seconds() / st.Wall.Seconds()
	o.TO = st.Wall.Seconds()/ideal - 1
	o.SO = float64(st.Nodes)/float64(baseNodes) - 1
	o.CO = (st.WorkerComm().Seconds()/float64(n) + st.ControllerComm().Seconds()) / ideal
	o.SY = o.TO - o.CO - o.SO
	return o
}

// BaseRun is one position of the single-process reference run.
type BaseRun struct {
	Nodes uint64
	Time  time.Duration
}

// ReadBase reads the per-position lines of an "othello solve" output: number, empties,
// move, score, known, nodes, seconds, ...
func ReadBase(path string) (map[int]BaseRun, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[int]BaseRun{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var num, emp int
		var move, score, known string
		var nodes uint64
		var sec float64
		if n, _ := fmt.Sscan(sc.Text(), &num, &emp, &move, &score, &known, &nodes, &sec); n == 7 {
			out[num] = BaseRun{nodes, time.Duration(sec * float64(time.Second))}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no position lines of \"othello solve\"", path)
	}
	return out, sc.Err()
}

// pvText is a principal variation as words ("pa" for a pass).
func pvText(pv []board.Square) string {
	w := make([]string, len(pv))
	for i, sq := range pv {
		w[i] = sq.String()
	}
	return strings.Join(w, " ")
}
