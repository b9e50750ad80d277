package search

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
)

func TestZZSeq(t *testing.T) {
	if os.Getenv("ZZSEQ") == "" {
		t.Skip()
	}
	f, _ := os.Open(os.Getenv("ZZSEQ"))
	ev := testEval(t)
	var levels []int
	for _, x := range strings.Split(os.Getenv("ZZLV"), ",") {
		l, _ := strconv.Atoi(x)
		levels = append(levels, l)
	}
	wld := os.Getenv("ZZWLD") != ""
	opt := DefaultSolverOptions(64)
	opt.Eval = ev
	if os.Getenv("ZZNOEV") != "" {
		opt.Eval = nil
	}
	opt.Aspiration = os.Getenv("ZZNOASP") == ""
	if v := os.Getenv("ZZSD"); v != "" {
		fmt.Sscanf(v, "%d,%d", &opt.sortDeep, &opt.sortDepth)
	}
	if v := os.Getenv("ZZTT"); v != "" {
		fmt.Sscanf(v, "%d", &opt.TableEmpties)
	}
	if v := os.Getenv("ZZMO"); v != "" {
		fmt.Sscanf(v, "%d", &opt.midOrderEmpties)
	}
	if v := os.Getenv("ZZW"); v != "" {
		fmt.Sscanf(v, "%d,%d,%d", &opt.wMob, &opt.wPot, &opt.wPar)
	}
	s := NewSolverWith(opt)
	sc := bufio.NewScanner(f)
	var tot time.Duration
	var nodes uint64
	n := 0
	var times []float64
	for sc.Scan() {
		b, _, err := board.ParseOBF(sc.Text())
		if err != nil {
			continue
		}
		s.ClearTable()
		st := time.Now()
		for _, l := range levels {
			s.SetSelectivity(l)
			lo, hi := -64, 64
			if wld {
				lo, hi = -1, 1
			}
			r := s.Solve(b.P, b.O, lo, hi)
			nodes += r.Nodes
		}
		el := time.Since(st)
		times = append(times, el.Seconds()*1000)
		tot += el
		n++
	}
	fmt.Printf("levels %v: n %d mean %.1f ms, nodes %d\n", levels, n, tot.Seconds()*1000/float64(n), nodes/uint64(n))
}

func TestZZSolveMove(t *testing.T) {
	if os.Getenv("ZZSM") == "" {
		t.Skip()
	}
	f, _ := os.Open(os.Getenv("ZZSM"))
	ev := testEval(t)
	e := NewEngine(Config{Eval: ev, TTMiB: 64})
	sc := bufio.NewScanner(f)
	var tot time.Duration
	var nodes uint64
	n := 0
	for sc.Scan() {
		b, _, err := board.ParseOBF(sc.Text())
		if err != nil {
			continue
		}
		st := time.Now()
		r := e.Search(context.Background(), b, Limits{ExactEmpties: 30, Selectivity: 5}, nil)
		tot += time.Since(st)
		nodes += r.Nodes
		n++
	}
	fmt.Printf("solve moves: n %d mean %.1f ms, nodes %d\n", n, tot.Seconds()*1000/float64(n), nodes/uint64(n))
}
