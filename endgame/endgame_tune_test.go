//go:build unix

package endgame

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/internal/cputime"
)

// TestTune compares solver knobs on FFO #26-#37 and #40-#42, or with TUNESET=features on the
// positions of BenchmarkSolverFeatures (nodes and process CPU time, which is steadier than the
// wall clock on a loaded machine). It runs only when asked:
//
//	TUNE=base,tt12,etc14 go test -run Tune -v ./endgame
//	TUNESET=features TUNE=base,no-table,no-stability,no-parity,no-last4,no-aspiration go test -run Tune -v ./endgame
//
// TUNESET=ffo40e solves FFO #40-#44 with the pattern evaluation's ordering (as `othello solve`
// does), ffo45 #45-#49, ffo40x #40-#49 and ffo5N the single position #5N, the same way; a name
// may join variants with '+' (TUNE=tt8+mo6). Other settings: TUNEHASH (table MiB),
// TUNEDEADLINE (a duration: stop each solve then, for profiles of long positions), and
// TUNEITER (levels such as "5;3": variant names starting with "iter" first run probable solves
// at those levels, as Edax does before its exact solve). Two variants can be compared side by
// side, one per core, by running two test processes at once: their CPU times then share the
// machine's state.
func TestTune(t *testing.T) {
	if os.Getenv("TUNE") == "" {
		t.Skip()
	}
	ps := ffoProblems(t, "20-39")
	ps2 := ffoProblems(t, "40-59")
	set := []Problem{}
	if os.Getenv("TUNESET") == "ffo40" {
		for _, n := range []int{40, 41, 42, 43, 44, 46, 47} {
			set = append(set, ps2[n-40])
		}
	} else if os.Getenv("TUNESET") == "ffo40e" {
		for _, n := range []int{40, 41, 42, 43, 44} {
			set = append(set, ps2[n-40])
		}
	} else if os.Getenv("TUNESET") == "ffo40x" {
		for n := 40; n <= 49; n++ {
			set = append(set, ps2[n-40])
		}
	} else if os.Getenv("TUNESET") == "ffo45" {
		for _, n := range []int{45, 46, 47, 48, 49} {
			set = append(set, ps2[n-40])
		}
	} else if strings.HasPrefix(os.Getenv("TUNESET"), "ffo5") {
		n, _ := strconv.Atoi(os.Getenv("TUNESET")[3:])
		set = append(set, ps2[n-40])
	} else if os.Getenv("TUNESET") == "features" {
		// The positions of BenchmarkSolverFeatures.
		for _, n := range []int{21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31} {
			set = append(set, ps[n-20])
		}
	} else {
		for _, n := range []int{26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37} {
			set = append(set, ps[n-20])
		}
		for _, n := range []int{40, 41, 42} {
			set = append(set, ps2[n-40])
		}
	}
	base := DefaultSolverOptions(64)
	if os.Getenv("TUNESET") == "ffo40e" || strings.HasPrefix(os.Getenv("TUNESET"), "ffo4") || strings.HasPrefix(os.Getenv("TUNESET"), "ffo5") {
		mib := 256
		if h, err := strconv.Atoi(os.Getenv("TUNEHASH")); err == nil {
			mib = h
		}
		base = DefaultSolverOptions(mib)
		base.Eval = testEval(t)
	}
	variants := map[string]func(*SolverOptions){
		"base":          func(o *SolverOptions) {},
		"iter":          func(o *SolverOptions) {},
		"tt10":          func(o *SolverOptions) { o.TableEmpties = 10 },
		"tt12":          func(o *SolverOptions) { o.TableEmpties = 12 },
		"tt13":          func(o *SolverOptions) { o.TableEmpties = 13 },
		"mo6":           func(o *SolverOptions) { o.midOrderEmpties = 6 },
		"mo8":           func(o *SolverOptions) { o.midOrderEmpties = 8 },
		"asp2":          func(o *SolverOptions) { o.aspStep = 2 },
		"asp4":          func(o *SolverOptions) { o.aspStep = 4 },
		"s14d1":         func(o *SolverOptions) { o.sortDeep, o.sortDepth = 14, 1 },
		"s14d2":         func(o *SolverOptions) { o.sortDeep, o.sortDepth = 14, 2 },
		"s16d2":         func(o *SolverOptions) { o.sortDeep, o.sortDepth = 16, 2 },
		"s18d3":         func(o *SolverOptions) { o.sortDeep, o.sortDepth = 18, 3 },
		"s17d3":         func(o *SolverOptions) { o.sortDeep, o.sortDepth = 17, 3 },
		"s19d3":         func(o *SolverOptions) { o.sortDeep, o.sortDepth = 19, 3 },
		"s20d3":         func(o *SolverOptions) { o.sortDeep, o.sortDepth = 20, 3 },
		"s22d3":         func(o *SolverOptions) { o.sortDeep, o.sortDepth = 22, 3 },
		"s15d3":         func(o *SolverOptions) { o.sortDeep, o.sortDepth = 15, 3 },
		"s16d3":         func(o *SolverOptions) { o.sortDeep, o.sortDepth = 16, 3 },
		"s12d2":         func(o *SolverOptions) { o.sortDeep, o.sortDepth = 12, 2 },
		"etc14":         func(o *SolverOptions) { o.etcEmpties = 14 },
		"etc16":         func(o *SolverOptions) { o.etcEmpties = 16 },
		"etc13":         func(o *SolverOptions) { o.etcEmpties = 13 },
		"etc12":         func(o *SolverOptions) { o.etcEmpties = 12 },
		"pot8":          func(o *SolverOptions) { o.wMob, o.wPot, o.wPar = 64, 8, 24 },
		"pot24":         func(o *SolverOptions) { o.wMob, o.wPot, o.wPar = 64, 24, 24 },
		"pot32":         func(o *SolverOptions) { o.wMob, o.wPot, o.wPar = 64, 32, 24 },
		"pot0":          func(o *SolverOptions) { o.wMob, o.wPot, o.wPar = 64, 1, 24 },
		"par48":         func(o *SolverOptions) { o.wMob, o.wPot, o.wPar = 64, 8, 48 },
		"par8":          func(o *SolverOptions) { o.wMob, o.wPot, o.wPar = 64, 8, 8 },
		"mob32":         func(o *SolverOptions) { o.wMob, o.wPot, o.wPar = 32, 8, 24 },
		"ev2":           func(o *SolverOptions) { o.Eval = testEval(t); o.sortDepth = 2 },
		"ev3":           func(o *SolverOptions) { o.Eval = testEval(t); o.sortDepth = 3 },
		"ev4":           func(o *SolverOptions) { o.Eval = testEval(t); o.sortDepth = 4 },
		"ev3s14":        func(o *SolverOptions) { o.Eval = testEval(t); o.sortDepth = 3; o.sortDeep = 14 },
		"ev2s12":        func(o *SolverOptions) { o.Eval = testEval(t); o.sortDepth = 2; o.sortDeep = 12 },
		"ev4s14":        func(o *SolverOptions) { o.Eval = testEval(t); o.sortDepth = 4; o.sortDeep = 14 },
		"ev2s14":        func(o *SolverOptions) { o.Eval = testEval(t); o.sortDepth = 2; o.sortDeep = 14 },
		"no-table":      func(o *SolverOptions) { o.Table = false },
		"no-stability":  func(o *SolverOptions) { o.Stability = false },
		"no-parity":     func(o *SolverOptions) { o.Parity = false },
		"no-last4":      func(o *SolverOptions) { o.Last4 = false },
		"no-aspiration": func(o *SolverOptions) { o.Aspiration = false },
		"no-etc":        func(o *SolverOptions) { o.etcEmpties = 99 },
		"no-sort":       func(o *SolverOptions) { o.sortDeep = 99 },
		"eval":          func(o *SolverOptions) { o.Eval = testEval(t) },
		"asp16":         func(o *SolverOptions) { o.aspStep = 16 },
		"step2":         func(o *SolverOptions) { o.sortStep = 2 },
		"step3":         func(o *SolverOptions) { o.sortStep = 3 },
		"step4":         func(o *SolverOptions) { o.sortStep = 4 },
		"tt9":           func(o *SolverOptions) { o.TableEmpties = 9 },
		"tt8":           func(o *SolverOptions) { o.TableEmpties = 8 },
		"mo5":           func(o *SolverOptions) { o.midOrderEmpties = 5 },
		"no-bad":        func(o *SolverOptions) { o.wBad = -1 },
		"bad32":         func(o *SolverOptions) { o.wBad = 32 },
		"no-badorder":   func(o *SolverOptions) { o.noBadOrder = true },
		"bad24":         func(o *SolverOptions) { o.wBad = 24 },
		"bad12":         func(o *SolverOptions) { o.wBad = 12 },
		"cor24":         func(o *SolverOptions) { o.wCorner = 24 },
		"cor40":         func(o *SolverOptions) { o.wCorner = 40 },
		"no-corner":     func(o *SolverOptions) { o.wCorner = -1 },
		"cor16":         func(o *SolverOptions) { o.wCorner = 16 },
		"cor9":          func(o *SolverOptions) { o.cornerEmpties = 9 },
		"cor11":         func(o *SolverOptions) { o.cornerEmpties = 11 },
		"etc10":         func(o *SolverOptions) { o.etcEmpties = 10 },
		"etc9":          func(o *SolverOptions) { o.etcEmpties = 9 },
		"mo7":           func(o *SolverOptions) { o.midOrderEmpties = 7 },
		"sc8":           func(o *SolverOptions) { o.stabAlpha = 8 },
		"sc2":           func(o *SolverOptions) { o.stabAlpha = 2 },
		"scm1":          func(o *SolverOptions) { o.stabAlpha = -1 },
		"scall":         func(o *SolverOptions) { o.stabAlpha = -64 },
		"sd14":          func(o *SolverOptions) { o.sortDeep = 14 },
		"sd15":          func(o *SolverOptions) { o.sortDeep = 15 },
		"sd17":          func(o *SolverOptions) { o.sortDeep = 17 },
		"sd18":          func(o *SolverOptions) { o.sortDeep = 18 },
		"ds20":          func(o *SolverOptions) { o.sortDeeper = 20 },
		"ds22":          func(o *SolverOptions) { o.sortDeeper = 22 },
		"ds24":          func(o *SolverOptions) { o.sortDeeper = 24 },
		"w0":            func(o *SolverOptions) { o.sortMargin = -1 },
		"w1":            func(o *SolverOptions) { o.sortMargin = 256 },
		"w2":            func(o *SolverOptions) { o.sortMargin = 512 },
		"w4":            func(o *SolverOptions) { o.sortMargin = 1024 },
		"w8":            func(o *SolverOptions) { o.sortMargin = 2048 },
	}
	for _, name := range strings.Split(os.Getenv("TUNE"), ",") {
		opt := base
		for _, v := range strings.Split(name, "+") {
			variants[v](&opt)
		}
		s := NewSolverWith(opt)
		if d, err := time.ParseDuration(os.Getenv("TUNEDEADLINE")); err == nil {
			s.SetDeadline(time.Now().Add(d))
		}
		var nodes, exactNodes uint64
		start := cputime.Process()
		for _, pr := range set {
			s.ClearTable()
			if it := os.Getenv("TUNEITER"); it != "" && strings.HasPrefix(name, "iter") {
				for _, l := range strings.Split(it, ";") {
					lv, _ := strconv.Atoi(l)
					s.SetSelectivity(lv)
					r := s.Solve(pr.Board.P, pr.Board.O, -64, 64)
					nodes += r.Nodes
				}
				s.SetSelectivity(0)
			}
			res := s.Solve(pr.Board.P, pr.Board.O, -64, 64)
			if w, _ := pr.Best(); w != res.Score && !res.Interrupted {
				t.Fatal("wrong")
			}
			nodes += res.Nodes
			exactNodes += res.Nodes
		}
		el := cputime.Process() - start
		if exactNodes != nodes {
			t.Logf("exact passes %d nodes", exactNodes)
		}
		t.Logf("%-8s %12d nodes %7.2f cpu s %6.1f Mn/s %d ordering nodes", name, nodes, el.Seconds(), float64(nodes)/el.Seconds()/1e6, s.evalNodes)
	}
}

func testEval(t *testing.T) *eval.Evaluator {
	e, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	return e
}
