package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/endgame"
	"github.com/othellogo/othello/search"
)

// solveOutcome is one solved problem, ready to print.
type solveOutcome struct {
	index   int
	res     endgame.SolveResult
	elapsed time.Duration
	cpu     time.Duration            // CPU time of the whole process meanwhile (see cpuTime)
	moves   []endgame.MoveScoreKnown // with --all-moves: every move's exact score, best first
}

func cmdSolve(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "solve")
	wld := fs.Bool("wld", false, "prove only win/loss/draw (window -1..1)")
	threads := fs.Int("threads", 1, "solve this many positions at once, one solver each (no parallel search within a position)")
	hashMiB := fs.Int("hash", 256, "transposition table size per solver, MiB")
	first := fs.Int("first", 0, "number of the file's first position (0: from a name like fforum-40-59.obf, else 1)")
	only := fs.String("only", "", "solve only these positions, by number: e.g. 40-45,48")
	progress := fs.Duration("progress", 2*time.Second, "interval of the progress line on stderr (0: none)")
	evalName := fs.String("eval", "default", "move ordering far from the leaves: "+evalFlagHelp)
	noTable := fs.Bool("no-table", false, "measurement: no transposition table")
	noStab := fs.Bool("no-stability", false, "measurement: no stability cutoffs")
	noParity := fs.Bool("no-parity", false, "measurement: no parity in the move order")
	noLast4 := fs.Bool("no-last4", false, "measurement: the generic search down to the last empty square")
	sel := fs.Int("sel", 0, fmt.Sprintf("probable solve: endgame Multi-ProbCut at selectivity level 1-%d (0: exact; needs the pattern evaluation); scores that differ from the file are counted, not failed", search.MaxSelectivity))
	noAsp := fs.Bool("no-aspiration", false, "measurement: no aspiration windows at the root")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the solves to this file (go tool pprof)")
	allMoves := fs.String("all-moves", "", "also solve every legal move of each position exactly, check them against the file's move scores, and write the positions with all their move scores (best first, Edax's .obf form) to this file")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello solve [options] FILE.obf\n\nSolves every position of an .obf file exactly (or win/loss/draw with --wld) and\ncompares with the scores the file gives; exits with status 3 if any disagrees. Options:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	// Flags may also follow the file name.
	var files []string
	for fs.NArg() > 0 {
		files = append(files, fs.Arg(0))
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			return exitError{2, err}
		}
	}
	if len(files) != 1 {
		fs.Usage()
		return exitError{2, fmt.Errorf("want one FILE.obf argument")}
	}
	path := files[0]
	if *threads < 1 || *threads > 256 {
		return exitError{2, fmt.Errorf("--threads %d: want 1 to 256", *threads)}
	}
	if *hashMiB < 0 || *hashMiB > 1<<16 {
		return exitError{2, fmt.Errorf("--hash %d: want 0 to 65536 MiB", *hashMiB)}
	}
	if !*noTable {
		// Every thread has its own solver and table.
		flag := fmt.Sprintf("-hash %d", *hashMiB)
		if *threads > 1 {
			flag += fmt.Sprintf(" with -threads %d", *threads)
		}
		if err := checkTableMemory(flag, mibBytes(*hashMiB, *threads)); err != nil {
			return err
		}
	}
	problems, err := readProblems(path)
	if err != nil {
		return err
	}
	if len(problems) == 0 {
		return exitError{2, fmt.Errorf("%s: no positions to solve (want .obf lines: 64 squares and the side to move)", path)}
	}
	if *first <= 0 {
		*first = firstNumber(path)
	}
	selected, err := selectProblems(*only, *first, len(problems))
	if err != nil {
		return exitError{2, err}
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	if *sel < 0 || *sel > search.MaxSelectivity {
		return exitError{2, fmt.Errorf("--sel %d: want 0 to %d", *sel, search.MaxSelectivity)}
	}
	if *sel > 0 && ev.ev == nil {
		return exitError{2, fmt.Errorf("--sel needs the pattern evaluation (--eval default or a weights file)")}
	}
	opt := endgame.DefaultSolverOptions(*hashMiB)
	opt.Eval = ev.ev
	opt.Table = opt.Table && !*noTable
	opt.Stability = !*noStab
	opt.Parity = !*noParity
	opt.Last4 = !*noLast4
	opt.Aspiration = !*noAsp

	if *allMoves != "" && (*wld || *sel > 0) {
		return exitError{2, fmt.Errorf("--all-moves solves exactly: not with --wld or --sel")}
	}
	var movesOut *os.File
	if *allMoves != "" {
		if movesOut, err = os.Create(*allMoves); err != nil {
			return exitError{2, err}
		}
		defer movesOut.Close()
	}
	stopProfile, err := startCPUProfile(*cpuProfile)
	if err != nil {
		return err
	}
	defer stopProfile()

	alpha, beta := -64, 64
	if *wld {
		alpha, beta = -1, 1
	}
	mode := "exact"
	if *wld {
		mode = "win/loss/draw"
	}
	if *sel > 0 {
		mode = fmt.Sprintf("probable (%d%% cuts) %s", search.SelectivityPercent(*sel), mode)
	}
	fmt.Fprintf(env.stdout, "%s: %d positions, %s, %d thread(s), table %d MiB per solver, %s ordering\n", path, len(selected), mode, *threads, *hashMiB, ev.name)
	fmt.Fprintf(env.stdout, "%4s %3s %4s %6s %6s %14s %9s %8s %8s  %s\n", "#", "emp", "move", "score", "known", "nodes", "time s", "Mn/s", "cpu s", "PV")

	// Workers take positions in order; results are printed in order as they complete.
	jobs := make(chan int)
	results := make([]chan solveOutcome, len(selected))
	for i := range results {
		results[i] = make(chan solveOutcome, 1)
	}
	var wg sync.WaitGroup
	for w := 0; w < *threads; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := endgame.NewSolverWith(opt)
			s.SetSelectivity(*sel)
			for i := range jobs {
				pr := &problems[selected[i]]
				done := make(chan struct{})
				if *progress > 0 {
					go reportProgress(env, s, *first+selected[i], pr.Board.NumEmpties(), *progress, done)
				}
				start, cpu := time.Now(), cpuTime()
				res := s.Solve(pr.Board.P, pr.Board.O, alpha, beta)
				var moves []endgame.MoveScoreKnown
				if movesOut != nil {
					var nodes uint64
					moves, nodes = solveAllMoves(s, pr.Board)
					res.Nodes += nodes
				}
				el, cpuEl := time.Since(start), cpuTime()-cpu
				close(done)
				results[i] <- solveOutcome{index: selected[i], res: res, elapsed: el, cpu: cpuEl, moves: moves}
			}
		}()
	}
	go func() {
		for i := range selected {
			jobs <- i
		}
		close(jobs)
	}()

	var totalNodes uint64
	var totalTime, totalCPU time.Duration
	wrong := 0
	for i := range selected {
		out := <-results[i]
		pr := &problems[out.index]
		res := out.res
		totalNodes += res.Nodes
		totalTime += out.elapsed
		totalCPU += out.cpu
		known, hasKnown := pr.Best()
		knownText := "-"
		verdict := ""
		if hasKnown {
			knownText = fmt.Sprintf("%+d", known)
			if *wld {
				knownText = wldText(known)
			}
			if !scoreAgrees(res.Score, known, *wld) {
				wrong++
				verdict = "  WRONG"
			}
		}
		if movesOut != nil {
			if bad := movesDisagree(out.moves, pr.Scores); bad != "" && verdict == "" {
				wrong++
				verdict = "  WRONG " + bad
			}
			if _, err := fmt.Fprintln(movesOut, obfWithMoves(pr.Board, out.moves)); err != nil {
				return exitError{2, err}
			}
		}
		scoreText := fmt.Sprintf("%+d", res.Score)
		if *wld {
			scoreText = wldText(res.Score)
		}
		sec := out.elapsed.Seconds()
		fmt.Fprintf(env.stdout, "%4d %3d %4v %6s %6s %14d %9.3f %8.1f %8.3f  %s%s\n", *first+out.index, pr.Board.NumEmpties(), res.Move, scoreText, knownText, res.Nodes, sec, float64(res.Nodes)/sec/1e6, out.cpu.Seconds(), pvText(res.PV), verdict)
	}
	wg.Wait()
	fmt.Fprintf(env.stdout, "total: %d positions, %d nodes, %.3f s solver time, %.1f Mn/s, %.3f s cpu, %d wrong\n",
		len(selected), totalNodes, totalTime.Seconds(), float64(totalNodes)/totalTime.Seconds()/1e6, totalCPU.Seconds(), wrong)
	if wrong > 0 && *sel > 0 {
		fmt.Fprintf(env.stdout, "%d probable score(s) differ from the file\n", wrong)
		return nil
	}
	if wrong > 0 {
		return exitError{3, fmt.Errorf("%d score(s) disagree with the file", wrong)}
	}
	return nil
}

// readProblems reads an .obf file of positions with their optional move scores; errors are
// usage errors (exit status 2) naming the file.
func readProblems(path string) ([]endgame.Problem, error) {
	ps, err := endgame.ReadProblemFile(path)
	if err != nil {
		return nil, exitError{2, err}
	}
	return ps, nil
}

// solveAllMoves solves every legal move of b exactly (a forced pass as one move, board.NoSquare)
// and returns the scores from b's side, best first, with the nodes spent.
func solveAllMoves(s *endgame.Solver, b board.Board) ([]endgame.MoveScoreKnown, uint64) {
	if b.GameOver() {
		return nil, 0
	}
	moves := b.LegalMoves()
	if moves == 0 {
		r := s.Solve(b.P, b.O, -64, 64)
		return []endgame.MoveScoreKnown{{Move: board.NoSquare, Score: r.Score}}, r.Nodes
	}
	var out []endgame.MoveScoreKnown
	var nodes uint64
	for m := moves; m != 0; m &= m - 1 {
		sq := board.FirstSquare(m)
		child := b
		child.Make(sq)
		r := s.Solve(child.P, child.O, -64, 64)
		nodes += r.Nodes
		out = append(out, endgame.MoveScoreKnown{Move: sq, Score: -r.Score})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Score > out[j].Score })
	return out, nodes
}

// movesDisagree names the first move whose score in known differs from the solved ones
// ("" when they all agree).
func movesDisagree(solved, known []endgame.MoveScoreKnown) string {
	for _, k := range known {
		for _, m := range solved {
			if m.Move == k.Move && m.Score != k.Score {
				return fmt.Sprintf("%v %+d (file %+d)", m.Move, m.Score, k.Score)
			}
		}
	}
	return ""
}

// obfWithMoves is b in .obf form followed by its move scores: "...; G8:+18; H1:+12;".
func obfWithMoves(b board.Board, moves []endgame.MoveScoreKnown) string {
	var sb strings.Builder
	sb.WriteString(b.OBF())
	sb.WriteString(";")
	for _, m := range moves {
		name := "PA"
		if m.Move != board.NoSquare {
			name = strings.ToUpper(m.Move.String())
		}
		fmt.Fprintf(&sb, " %s:%+d;", name, m.Score)
	}
	return sb.String()
}

// reportProgress writes a progress line on stderr every interval until done is closed.
func reportProgress(env *cmdEnv, s *endgame.Solver, number, empties int, interval time.Duration, done chan struct{}) {
	start := time.Now()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			el := time.Since(start).Seconds()
			n := s.Progress()
			fmt.Fprintf(env.stderr, "  ... #%d (%d empties): %d nodes, %.0f s, %.1f Mn/s\n", number, empties, n, el, float64(n)/el/1e6)
		}
	}
}

func scoreAgrees(score, known int, wld bool) bool {
	if wld {
		return sign(score) == sign(known)
	}
	return score == known
}

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

func wldText(x int) string {
	switch sign(x) {
	case 1:
		return "win"
	case -1:
		return "loss"
	}
	return "draw"
}

func pvText(pv []board.Square) string {
	var b strings.Builder
	for i, sq := range pv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sq.String())
	}
	return b.String()
}

// selectProblems turns --only ("40-45,48") into indexes into the file, numbered from first.
func selectProblems(only string, first, n int) ([]int, error) {
	if only == "" {
		sel := make([]int, n)
		for i := range sel {
			sel[i] = i
		}
		return sel, nil
	}
	var sel []int
	for _, part := range strings.Split(only, ",") {
		var lo, hi int
		if a, b, ok := strings.Cut(part, "-"); ok {
			if _, err := fmt.Sscan(a, &lo); err != nil {
				return nil, fmt.Errorf("--only %q: bad range %q", only, part)
			}
			if _, err := fmt.Sscan(b, &hi); err != nil {
				return nil, fmt.Errorf("--only %q: bad range %q", only, part)
			}
		} else {
			if _, err := fmt.Sscan(part, &lo); err != nil {
				return nil, fmt.Errorf("--only %q: bad number %q", only, part)
			}
			hi = lo
		}
		if lo > hi || lo < first || hi >= first+n {
			return nil, fmt.Errorf("--only %q: %q is outside the file's positions %d-%d", only, part, first, first+n-1)
		}
		for k := lo; k <= hi; k++ {
			sel = append(sel, k-first)
		}
	}
	return sel, nil
}

// firstNumber reads the first position's number from a file name such as fforum-40-59.obf
// (the FFO files' convention); 1 when the name has no such range.
func firstNumber(path string) int {
	name := path[strings.LastIndexByte(path, '/')+1:]
	name = strings.TrimSuffix(name, ".obf")
	parts := strings.Split(name, "-")
	if len(parts) < 3 {
		return 1
	}
	var lo, hi int
	if _, err := fmt.Sscan(parts[len(parts)-2], &lo); err != nil || lo < 1 {
		return 1
	}
	if _, err := fmt.Sscan(parts[len(parts)-1], &hi); err != nil || hi < lo {
		return 1
	}
	return lo
}
