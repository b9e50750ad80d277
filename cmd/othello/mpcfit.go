package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"
	"sync"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
	"github.com/othellogo/othello/train"
	"github.com/othellogo/othello/weights"
)

// cmdMpcfit fits the Multi-ProbCut regressions of an evaluation: positions from openings
// continued by quick engine play (with some random moves for variety) are searched by
// iterative deepening, and the root values at each height are regressed on the shallow ones.
func cmdMpcfit(env *cmdEnv, args []string) error {
	fs := newFlagSet(env, "mpcfit")
	openings := fs.String("openings", "", "file of opening transcripts (XOT style) to sample positions from")
	posFile := fs.String("positions", "", "take the positions from this file (.obf-style lines, as othello label writes) instead of sampling them from -openings")
	nPos := fs.Int("n", 600, "number of positions")
	maxHeight := fs.Int("depth", 10, "deepest height fitted")
	evalName := fs.String("eval", "default", evalFlagHelp)
	out := fs.String("out", "", "write the regressions here (default: stdout)")
	store := fs.String("store", "", "also store the regressions in this weight file (section "+search.MPCSection+"), where the engine looks for them")
	from := fs.String("from", "", "take the regressions from this text file (as -out writes) instead of fitting; use with -store")
	seed := fs.Uint64("seed", 1, "seed of the position sampling")
	concurrency := fs.Int("concurrency", 1, "positions searched at the same time")
	minSamples := fs.Int("min-samples", 30, "fewest samples for a (stage, height) regression")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: othello mpcfit -openings FILE [options]\n\nFits the Multi-ProbCut regressions (value at height h ~ a * value at the shallow height + b)\nper game stage, and writes them as text (search.WriteMPC); -store puts them in a weight file.\nOptions:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(env, fs, args); err != nil {
		return err
	}
	if *from != "" {
		if fs.NArg() != 0 || *store == "" {
			return exitError{2, fmt.Errorf("-from needs -store and no arguments")}
		}
		data, err := os.ReadFile(*from)
		if err != nil {
			return exitError{2, err}
		}
		if _, err := search.ParseMPC(bytes.NewReader(data)); err != nil {
			return exitError{2, fmt.Errorf("%s: %v", *from, err)}
		}
		return storeMPC(*store, data)
	}
	if (*openings == "") == (*posFile == "") || fs.NArg() != 0 {
		fs.Usage()
		return exitError{2, fmt.Errorf("want one of -openings FILE and -positions FILE, and no arguments")}
	}
	if *nPos < 1 || *maxHeight < 2 || *maxHeight > 16 || *concurrency < 1 {
		return exitError{2, fmt.Errorf("want n >= 1, depth 2-16, concurrency >= 1")}
	}
	ev, err := loadEvaluator(*evalName)
	if err != nil {
		return exitError{2, err}
	}
	cfg := search.Config{TTMiB: 16, NoMPC: true}
	ev.configure(&cfg)
	var positions []board.Board
	if *posFile != "" {
		if positions, err = readFitPositions(*posFile, *nPos, *maxHeight); err != nil {
			return exitError{2, err}
		}
	} else {
		f, err := os.Open(*openings)
		if err != nil {
			return exitError{2, err}
		}
		opens, err := train.ReadOpenings(f, 0, 0)
		f.Close()
		if err != nil {
			return exitError{2, fmt.Errorf("%s: %v", *openings, err)}
		}
		if len(opens) == 0 {
			return exitError{2, fmt.Errorf("%s: no openings", *openings)}
		}
		positions = samplePositions(cfg, opens, *nPos, *maxHeight, *seed)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bar := newBar(env, len(positions), "mpcfit")
	samples := make([]search.MPCSample, len(positions))
	ok := make([]bool, len(positions))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < *concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := search.NewEngine(cfg)
			for i := range jobs {
				samples[i], ok[i] = e.SampleMPC(ctx, positions[i], *maxHeight)
				bar.Add(1)
			}
		}()
	}
	for i := range positions {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	bar.Finish()
	var good []search.MPCSample
	for i := range samples {
		if ok[i] {
			good = append(good, samples[i])
		}
	}
	params := search.FitMPC(ev.name, good, *minSamples)
	env.log.Info().Int("positions", len(good)).Msg("mpcfit: fitted")
	var text bytes.Buffer
	if err := search.WriteMPC(&text, params); err != nil {
		return err
	}
	if *store != "" {
		if err := storeMPC(*store, text.Bytes()); err != nil {
			return err
		}
	}
	if *out != "" {
		return os.WriteFile(*out, text.Bytes(), 0o644)
	}
	_, err = env.stdout.Write(text.Bytes())
	return err
}

// storeMPC writes regressions (WriteMPC's text) into a weight file's MPC section.
func storeMPC(path string, text []byte) error {
	f, err := weights.ReadFile(path)
	if err != nil {
		return err
	}
	if err := f.SetSection(search.MPCSection, text); err != nil {
		return err
	}
	return f.WriteFile(path)
}

// readFitPositions reads up to n positions from an .obf-style file (anything after the side to
// move is ignored), keeping those with a move to play and more than maxHeight+1 empties, so
// that every height up to maxHeight is a midgame search. The same file gives every evaluation
// the same positions, for comparing their fits.
func readFitPositions(path string, n, maxHeight int) ([]board.Board, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []board.Board
	sc := bufio.NewScanner(f)
	line := 0
	for sc.Scan() && len(out) < n {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || t[0] == '%' || t[0] == '#' {
			continue
		}
		b, _, err := board.ParseOBF(t)
		if err != nil {
			return nil, fmt.Errorf("%s line %d: %v", path, line, err)
		}
		if b.NumEmpties() > maxHeight+1 && b.LegalMoves() != 0 {
			out = append(out, b)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no position with a move to play and more than %d empties", path, maxHeight+1)
	}
	return out, nil
}

// samplePositions continues random openings with depth-4 play of the engine, a random move one
// time in 25, and keeps one position per game at a random number of empties that leaves room
// for a search to maxHeight. The positions should look like those the engine meets: with
// depth-2 play and a random move one time in five the midgame residuals came out 15-30%
// larger (wilder positions), so the cuts were more timid than they needed to be.
func samplePositions(cfg search.Config, opens [][]board.Square, n, maxHeight int, seed uint64) []board.Board {
	rng := rand.New(rand.NewPCG(seed, 0x3fc))
	e := search.NewEngine(cfg)
	var out []board.Board
	for tries := 0; len(out) < n && tries < 20*n; tries++ {
		open := opens[rng.IntN(len(opens))]
		b := board.Start()
		for _, m := range open {
			if m == board.NoSquare {
				b.Pass()
			} else {
				b.Make(m)
			}
		}
		target := maxHeight + 2 + rng.IntN(max(1, 49-maxHeight))
		for b.NumEmpties() > target && !b.GameOver() {
			moves := b.LegalMoves()
			if moves == 0 {
				b.Pass()
				continue
			}
			var sq board.Square
			if rng.IntN(25) == 0 {
				k := rng.IntN(board.Count(moves))
				for ; k > 0; k-- {
					moves &= moves - 1
				}
				sq = board.FirstSquare(moves)
			} else {
				sq = e.Search(context.Background(), b, search.Limits{Depth: 4}, nil).Move
			}
			b.Make(sq)
		}
		if b.NumEmpties() == target && b.LegalMoves() != 0 {
			out = append(out, b)
		}
	}
	return out
}
