package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime/pprof"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

// benchPositions are midgame positions (XOT starts continued by fixed random moves) with 44 to
// 24 empties. Changing them changes every bench signature.
var benchPositions = []string{
	"f5d6c4d3c2b3b4b5c7e2c6d7b7f4a4b1",
	"f5f6c4f4g4c3e6f3e2b4b2h3h4a1f7e3d3e1f2g8",
	"f5f4d3c4g3g4f3f6e6d6d7c6h4c3c7g2e7f7g6e3g8h3",
	"f5d6c6f6f7b6d7f3f4f8a6c7b7a8e6e7e8c5d3c8g4h5h4c2",
	"f5f6d3c5c6f4g5h4g7c7b7f7c4h8g4h3h5b4b3c3b5d6g3b6d7g6",
	"f5f4e3f6d3e2g5c4e7h6b3b4c2b2h4d1g4d2b1e6d7h5f1f2g2g3h7g1",
	"f5f4g3c6e3g5e6f3h6d3d2f7c3g4d6h5e7c2b6b3g2c1h4f2d1d7e2f1c8c4",
	"f5f4d3f6g4c2d2h3g6e6h4e2b1b2f7d7f1h5b3d6c6f8c8b6b5h7b7c4e7d8g5a2",
	"f5f4f3g4e3e6g3f2e1g2c4b4b3f1c3a2d6d2e2f6c5c7a5c6b6d3g5a4d7g6c8e7h6c2",
	"f5f6d3g5g6e3f7h7h5c4b3b4b5c2c3e6f4a3d7c5d2f2a4e1e2g3d1c1g1g7e7g4b2a1b6d6",
	"f5d6c6f4e6c7d3g5f6d7g4d2e7b6c8e8c3b3h6h3",
	"f5d6c4g5c6c5f6f4g4g3h4c3e6f7d3g7g6h5g2f3h3e3h7e7",
}

// benchVariant is one engine configuration of the on/off table.
type benchVariant struct {
	name string
	cfg  search.Config
	sel  int
}

func cmdBench(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "bench")
	depth := fs.Int("depth", 10, "midgame depth of every search")
	ttMiB := fs.Int("tt", 64, "bounds tables size in MiB")
	sel := fs.Int("sel", 0, fmt.Sprintf("Multi-ProbCut selectivity level 0-%d (0: none)", search.MaxSelectivity))
	noMPC := fs.Bool("no-mpc", false, "turn Multi-ProbCut off")
	noPVS := fs.Bool("no-pvs", false, "plain alpha-beta everywhere")
	noPrev := fs.Bool("no-prev", false, "no ordering by the previous iteration's table")
	noKiller := fs.Bool("no-killer", false, "no killer moves in the last plies' order")
	noStatic := fs.Bool("no-static-cut", false, "no Multi-ProbCut tests at heights 1-2 (the static evaluation's prediction)")
	pvsHeight := fs.Int("pvs-height", 0, "height from which PVS is used (0: default)")
	ttHeight := fs.Int("tt-height", 0, "height from which the tables and sorted ordering are used (0: default)")
	orderHeight := fs.Int("order-height", 0, "height from which moves without a table entry are ordered by a shallow search of each child (0: the default, 5; 99: never)")
	screen := fs.Float64("mpc-screen", 0, "Multi-ProbCut screen width in deviations of the static prediction (0: the default; negative: no screen)")
	table := fs.Bool("table", false, "run the feature on/off table: full, no-prev, no-pvs, no-killer, and MPC on (level -sel, default 2) vs off, without killers, the screen or the static cuts")
	npos := fs.Int("positions", len(benchPositions), "use the first N bench positions")
	evalName := fs.String("eval", "default", evalFlagHelp)
	verbose := fs.Bool("each", false, "print every position's result")
	file := fs.String("file", "", "search the positions of this .obf-style file (one per line; anything after the side to move is ignored) instead of the built-in set")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the searches to this file (go tool pprof)")
	maxFile := fs.Int("n", 100, "with -file: use at most this many positions")
	moveTime := fs.Duration("movetime", 0, "with -file whose positions carry every move's exact score (solve -all-moves writes such files): search each position for this time a move with -sel and print the loss of the chosen moves against those scores (mean discs, worse moves, moves that lose a result)")
	loss := fs.Bool("loss", false, "also value every move of each position by a full-width search to the same depth and print each run's mean loss: the best move's value minus the chosen move's, in discs (what the selective cuts cost in move choice)")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello bench [options]\n\nSearches a fixed set of midgame positions to a fixed depth on one thread and prints the\ntotal nodes (a signature that changes only when the search changes), time and nodes/s,\nand the process CPU time (steadier than the wall clock on a loaded machine).\nOptions:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return exitError{2, fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	if *depth < 1 || *depth > 30 || *npos < 1 || *npos > len(benchPositions) {
		return exitError{2, fmt.Errorf("want depth 1-30 and positions 1-%d", len(benchPositions))}
	}
	if *maxFile < 1 {
		return exitError{2, fmt.Errorf("-n %d: want at least 1 position", *maxFile)}
	}
	if *sel < 0 || *sel > search.MaxSelectivity {
		return exitError{2, fmt.Errorf("selectivity %d: want 0-%d", *sel, search.MaxSelectivity)}
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	base := search.Config{TTMiB: *ttMiB, NoMPC: *noMPC, NoPVS: *noPVS, NoPrevOrder: *noPrev, NoKiller: *noKiller, NoStaticCut: *noStatic, PVSHeight: *pvsHeight, TTHeight: *ttHeight, EvalOrderHeight: *orderHeight, MPCScreen: *screen}
	ev.configure(&base)
	// The engines of the variants and of -loss's reference are made one after the other.
	if err := checkTableMemory(fmt.Sprintf("-tt %d", *ttMiB), engineTableBytes(base)); err != nil {
		return err
	}
	if *moveTime != 0 {
		if *file == "" || *moveTime < 0 {
			return exitError{2, fmt.Errorf("-movetime needs a positive time and -file with move scores")}
		}
		return benchMoveQuality(env, base, *file, *maxFile, *moveTime, *sel)
	}
	variants := []benchVariant{{"as given", base, *sel}}
	if *table {
		mpcLevel := *sel
		if mpcLevel == 0 {
			mpcLevel = 2
		}
		full := base
		full.NoMPC, full.NoPVS, full.NoPrevOrder, full.NoKiller, full.NoStaticCut = false, false, false, false, false
		noPrevCfg, noPVSCfg, noKillerCfg, noScreenCfg, noStaticCfg := full, full, full, full, full
		noStaticCfg.NoStaticCut = true
		noPrevCfg.NoPrevOrder = true
		noPVSCfg.NoPVS = true
		noKillerCfg.NoKiller = true
		noScreenCfg.MPCScreen = -1
		variants = []benchVariant{
			{"full, MPC off", full, 0},
			{"no prev-table ordering", noPrevCfg, 0},
			{"no PVS", noPVSCfg, 0},
			{"no killer moves", noKillerCfg, 0},
			{fmt.Sprintf("full, MPC level %d", mpcLevel), full, mpcLevel},
			{fmt.Sprintf("MPC level %d, no killer moves", mpcLevel), noKillerCfg, mpcLevel},
			{fmt.Sprintf("MPC level %d, no screen", mpcLevel), noScreenCfg, mpcLevel},
			{fmt.Sprintf("MPC level %d, no static cuts", mpcLevel), noStaticCfg, mpcLevel},
		}
	}
	var boards []board.Board
	if *file != "" {
		// Positions with a move to play, deep enough that the search is a midgame one.
		boards, err = readFitPositions(*file, *maxFile, *depth)
		if err != nil {
			return exitError{2, err}
		}
	} else {
		for _, t := range benchPositions[:*npos] {
			_, b, err := board.ParseTranscript(t)
			if err != nil {
				return fmt.Errorf("bench position %q: %v", t, err)
			}
			boards = append(boards, b)
		}
	}
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()
	fmt.Fprintf(env.stdout, "bench: %d positions, depth %d, eval %s, tables %d MiB, one thread, %s move generation\n", len(boards), *depth, ev.name, *ttMiB, board.MoveGeneration())
	var refs [][]search.MoveScore
	if *loss {
		refCfg := base
		refCfg.NoMPC = true
		e := search.NewEngine(refCfg)
		start := time.Now()
		for _, b := range boards {
			refs = append(refs, e.Analyze(context.Background(), b, search.Limits{Depth: *depth}, 64, nil))
		}
		fmt.Fprintf(env.stdout, "reference: every move at full width, depth %d, %.3f s\n", *depth, time.Since(start).Seconds())
	}
	var baseNodes uint64
	var baseCPU time.Duration
	for vi, v := range variants {
		e := search.NewEngine(v.cfg)
		var nodes uint64
		var total, cpu time.Duration
		var lost float64
		worse := 0
		for i, b := range boards {
			cpuStart := cpuTime()
			start := time.Now()
			r := e.Search(context.Background(), b, search.Limits{Depth: *depth, Selectivity: v.sel}, nil)
			el := time.Since(start)
			cpu += cpuTime() - cpuStart
			nodes += r.Nodes
			total += el
			if refs != nil {
				l := moveLoss(refs[i], r.Move)
				lost += l
				if l > 0 {
					worse++
				}
			}
			if *verbose {
				fmt.Fprintf(env.stdout, "  %2d  %2d empties  %s %+6.2f  %11d nodes  %7.3f s\n", i+1, b.NumEmpties(), r.Move, r.Score, r.Nodes, el.Seconds())
			}
		}
		nps := float64(nodes) / total.Seconds()
		line := fmt.Sprintf("%-24s nodes %12d  time %8.3f s  %6.2f M nodes/s  cpu %8.3f s  %6.2f M nodes/cpu-s", v.name, nodes, total.Seconds(), nps/1e6,
			cpu.Seconds(), float64(nodes)/cpu.Seconds()/1e6)
		if refs != nil {
			line += fmt.Sprintf("  loss %.3f discs/move, %d worse", lost/float64(len(boards)), worse)
		}
		if *table {
			if vi == 0 {
				baseNodes, baseCPU = nodes, cpu
			} else {
				line += fmt.Sprintf("  nodes x%.2f  cpu x%.2f vs full", float64(nodes)/float64(baseNodes), cpu.Seconds()/baseCPU.Seconds())
			}
		}
		fmt.Fprintln(env.stdout, line)
	}
	return nil
}

// moveLoss is what playing move costs against the best of values (every move's value, in
// discs): 0 for a best move; a move missing from values (a pass) costs nothing.
func moveLoss(values []search.MoveScore, move board.Square) float64 {
	best, got, found := math.Inf(-1), 0.0, false
	for _, v := range values {
		best = math.Max(best, v.Score)
		if v.Move == move {
			got, found = v.Score, true
		}
	}
	if !found {
		return 0
	}
	return best - got
}

// startCPUProfile starts a CPU profile written to path (none when path is empty) and returns
// the function that stops it.
func startCPUProfile(path string) (func(), error) {
	if path == "" {
		return func() {}, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, exitError{2, err}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, exitError{2, err}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// benchMoveQuality searches each position of path that has move scores for moveTime at
// selectivity sel and compares the chosen move with the scores: the mean loss in discs (best
// score minus the chosen move's), the moves that lose discs, and the result errors (a win
// turned into a draw or a loss, a draw into a loss).
func benchMoveQuality(env *cmdEnv, cfg search.Config, path string, n int, moveTime time.Duration, sel int) error {
	problems, err := readProblems(path)
	if err != nil {
		return err
	}
	e := search.NewEngine(cfg)
	class := func(v int) int { return min(max(v, -1), 1) }
	var count, worse, resultErrors int
	var lossSum int
	var elapsed time.Duration
	for _, pr := range problems {
		if count >= n {
			break
		}
		best, ok := pr.Best()
		if !ok || pr.Board.LegalMoves() == 0 {
			continue
		}
		r := e.Search(context.Background(), pr.Board, search.Limits{MoveTime: moveTime, Selectivity: sel}, nil)
		chosen, found := 0, false
		for _, m := range pr.Scores {
			if m.Move == r.Move {
				chosen, found = m.Score, true
			}
		}
		if !found {
			return exitError{2, fmt.Errorf("%s line %d: the file has no score for the chosen move %v (write the file with solve -all-moves)", path, pr.Line, r.Move)}
		}
		count++
		elapsed += r.Elapsed
		lossSum += best - chosen
		if chosen < best {
			worse++
		}
		if class(chosen) < class(best) {
			resultErrors++
		}
	}
	if count == 0 {
		return exitError{2, fmt.Errorf("%s: no position with a move to play and move scores", path)}
	}
	fmt.Fprintf(env.stdout, "move quality: %d positions, %v a move, selectivity %d: mean loss %.3f discs, %d worse moves, %d result errors, %.1f ms a move\n",
		count, moveTime, sel, float64(lossSum)/float64(count), worse, resultErrors, elapsed.Seconds()*1000/float64(count))
	return nil
}
