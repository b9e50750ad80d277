package train

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/weights"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestReadWTB(t *testing.T) {
	data := readFixture(t, "wth_2023_200.wtb")
	h, games, err := ReadWTB("wth_2023_200.wtb", data)
	if err != nil {
		t.Fatal(err)
	}
	if h.Games != 200 || len(games) != 200 || h.Year != 2023 || h.Depth != 24 {
		t.Fatalf("header %+v, %d games", h, len(games))
	}
	// The first game of WTH_2023 opens f5 d6 c3 (bytes 56 34 43 ... in the file: 0x38 = 56).
	if got := board.Transcript(games[0].Moves[:1]); got != "f5" {
		t.Errorf("first move %s, want f5", got)
	}
	// Every game replays legally and its stored score matches the final board.
	for i, g := range games {
		final, over, err := Replay(g.Moves, nil)
		if err != nil {
			t.Fatalf("game %d: %v", i+1, err)
		}
		if over && BlackDiscDiff(g.Score) != final.BlackScore() {
			t.Errorf("game %d: stored score %d, board gives black %+d", i+1, g.Score, final.BlackScore())
		}
	}
}

func TestReadWTBMalformed(t *testing.T) {
	data := readFixture(t, "wth_2023_200.wtb")
	cases := map[string][]byte{
		"truncated header": data[:10],
		"truncated record": data[:len(data)-5],
		"missing records":  data[:16+68*150],
		"extra bytes":      append(bytes.Clone(data), 1, 2, 3),
	}
	bad := bytes.Clone(data)
	bad[16+8+3] = 99 // game 1, move 4: row 9
	cases["move not a square"] = bad
	bad = bytes.Clone(data)
	bad[16+8+59] = 0
	bad[16+8+58] = 0
	bad[16+8+59] = 44 // a move after the 0 that ends the list
	cases["move after the end"] = bad
	bad = bytes.Clone(data)
	bad[12] = 10
	cases["10x10 board"] = bad
	bad = bytes.Clone(data)
	binary.LittleEndian.PutUint32(bad[4:], 1<<31)
	cases["absurd game count"] = bad
	for name, d := range cases {
		_, _, err := ReadWTB("fixture.wtb", d)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if !strings.Contains(err.Error(), "fixture.wtb") {
			t.Errorf("%s: error %q does not name the file", name, err)
		}
	}
}

func TestReadWTHORNames(t *testing.T) {
	players, err := ReadWTHORNames("wth_12.JOU", readFixture(t, "wth_12.JOU"), 20)
	if err != nil {
		t.Fatal(err)
	}
	if len(players) != 12 || players[0] != "???" {
		t.Errorf("players %q", players)
	}
	tournaments, err := ReadWTHORNames("wth_5.TRN", readFixture(t, "wth_5.TRN"), 26)
	if err != nil {
		t.Fatal(err)
	}
	if len(tournaments) != 5 || tournaments[1] != "World Championship" {
		t.Errorf("tournaments %q", tournaments)
	}
	if _, err := ReadWTHORNames("cut.JOU", readFixture(t, "wth_12.JOU")[:100], 20); err == nil || !strings.Contains(err.Error(), "cut.JOU") {
		t.Errorf("truncated name file: %v", err)
	}
}

func TestLoadFileCountsUnfinished(t *testing.T) {
	games, st, err := LoadFile(filepath.Join("testdata", "playok_60.wtb"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Read != 60 || st.Used+st.Unfinished+st.Illegal != 60 || st.Unfinished == 0 || len(games) != st.Used {
		t.Errorf("stats %+v, %d games", st, len(games))
	}
	for _, g := range games {
		if _, over, _ := Replay(g.Moves, nil); !over {
			t.Fatal("an unfinished game was kept")
		}
		if g.TheoDepth != 0 {
			t.Fatal("PlayOK has no theoretical scores (depth 0), yet one was kept")
		}
	}
	// An illegal move in an otherwise good file is counted, not fatal.
	data := readFixture(t, "wth_2023_200.wtb")
	data[16+8+1] = 11 // game 1, move 2: a1
	path := filepath.Join(t.TempDir(), "illegal.wtb")
	os.WriteFile(path, data, 0o644)
	_, st, err = LoadFile(path)
	if err != nil || st.Illegal != 1 {
		t.Errorf("illegal move: stats %+v, err %v", st, err)
	}
}

func TestReadTranscripts(t *testing.T) {
	games, err := ReadTranscripts("selfplay_30.txt", bytes.NewReader(readFixture(t, "selfplay_30.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 30 {
		t.Fatalf("%d games, want 30", len(games))
	}
	for _, g := range games {
		final, over, err := Replay(g.Moves, nil)
		if err != nil || !over {
			t.Fatalf("line %d: over %v, %v", g.Line, over, err)
		}
		if sign(final.BlackScore()) != g.Result {
			t.Errorf("line %d: result %d, board black %+d", g.Line, g.Result, final.BlackScore())
		}
	}
	for _, bad := range []string{"f5d6 2\n", "f5d6\n", "f5d 1\n", "f5z9 1\n", "f5d6 1 extra\n", "f5d6 x\n"} {
		if _, err := ReadTranscripts("bad.txt", strings.NewReader("f5d6c3 1\n"+bad)); err == nil || !strings.Contains(err.Error(), "bad.txt:2") {
			t.Errorf("%q: error %v does not name bad.txt:2", bad, err)
		}
	}
}

func TestReadXOT(t *testing.T) {
	xot, err := ReadXOT("xot_20.txt", bytes.NewReader(readFixture(t, "xot_20.txt")))
	if err != nil {
		t.Fatal(err)
	}
	if len(xot) != 20 {
		t.Fatalf("%d openings", len(xot))
	}
	for _, o := range xot {
		if len(o.Moves) != 8 || o.Board.NumEmpties() != 52 || !o.Board.BlackToMove {
			t.Fatalf("opening %v: %d empties", o.Moves, o.Board.NumEmpties())
		}
	}
	if _, err := ReadXOT("bad.txt", strings.NewReader("f5d6c4d3c2b3b4b5\nf5f5c4d3c2b3b4b5\n")); err == nil || !strings.Contains(err.Error(), "bad.txt:2") {
		t.Errorf("illegal opening: %v", err)
	}
}

func TestLabel(t *testing.T) {
	g := Game{BlackDiff: 10, TheoDepth: 24, Theoretical: -4}
	b := board.Start()
	if got := Label(&g, &b); got != -4 {
		t.Errorf("60 empties: label %v, want the theoretical -4", got)
	}
	late := board.FromColors(0xFFFFFFFF00, 0xFF, false) // 24 empties, white to move
	if got := Label(&g, &late); got != 4 {
		t.Errorf("24 empties, white to move: label %v, want 4", got)
	}
	late = board.FromColors(0xFFFFFFFF00, 0x0F00000000FF, true) // 20 empties
	if got := Label(&g, &late); got != 10 {
		t.Errorf("20 empties: label %v, want the final 10", got)
	}
}

// The training error must fall on a small data set, and the weights must then evaluate
// the training positions better than all-zero weights do.
func TestFitErrorFalls(t *testing.T) {
	games := fixtureGames(t)
	cfg := DefaultConfig()
	cfg.Epochs = 15
	res, err := Fit(games[:150], games[150:], cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for s := 0; s < eval.NumStages; s++ {
		first, last := res.Log[s*cfg.Epochs], res.Log[(s+1)*cfg.Epochs-1]
		if !(last.TrainRMSE < first.TrainRMSE) {
			t.Errorf("stage %d: training RMSE %.3f after %d epochs, %.3f at the start", s, last.TrainRMSE, cfg.Epochs, first.TrainRMSE)
		}
	}
	f, err := eval.NewFile(Quantize(res.Weights))
	if err != nil {
		t.Fatal(err)
	}
	e, err := eval.FromFile("fit", f)
	if err != nil {
		t.Fatal(err)
	}
	trained := Evaluate(e, games[:150])
	zf := Quantize(res.Weights)
	for s := range zf {
		clear(zf[s])
	}
	zfile, _ := eval.NewFile(zf)
	ze, _ := eval.FromFile("zero", zfile)
	untrained := Evaluate(ze, games[:150])
	if !(trained.All.RMSE < untrained.All.RMSE) {
		t.Errorf("trained weights: RMSE %.2f on their training games, zero weights %.2f", trained.All.RMSE, untrained.All.RMSE)
	}
	t.Logf("training games: RMSE %.2f trained, %.2f untrained", trained.All.RMSE, untrained.All.RMSE)
}

// A run is reproducible from its seed.
func TestFitReproducible(t *testing.T) {
	games := fixtureGames(t)
	cfg := DefaultConfig()
	cfg.Epochs = 3
	a, _ := Fit(games[:60], nil, cfg, nil)
	b, _ := Fit(games[:60], nil, cfg, nil)
	for s := range a.Weights {
		for i := range a.Weights[s] {
			if a.Weights[s][i] != b.Weights[s][i] {
				t.Fatalf("stage %d weight %d: %v then %v", s, i, a.Weights[s][i], b.Weights[s][i])
			}
		}
	}
}

func TestBackoff(t *testing.T) {
	w := [][]float32{{1, 0}, {0, 0}, {0, 0}, {3, 5}}
	seen := [][]uint32{{1, 0}, {0, 0}, {0, 0}, {1, 1}}
	backoff(w, seen)
	want := [][]float32{{1, 5}, {1, 5}, {3, 5}, {3, 5}}
	for s := range w {
		for i := range w[s] {
			if w[s][i] != want[s][i] {
				t.Fatalf("after backoff %v, want %v", w, want)
			}
		}
	}
}

// The counts of the real WTHOR files are those SOURCES.md states.
func TestSharedWTHORCounts(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "data", "wthor")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("../shared/data absent")
	}
	if testing.Short() {
		t.Skip("reads 131,737 games")
	}
	_, st, err := LoadGames([]string{dir}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Read != 131737 || st.Unfinished != 413 || st.Illegal != 0 {
		t.Errorf("%v; SOURCES.md says 131737 games, 413 stopping early, none illegal", st)
	}
}

func FuzzReadWTB(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "wth_2023_200.wtb"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data[:16+68*3])
	f.Add(data[:30])
	f.Fuzz(func(t *testing.T, b []byte) {
		_, games, err := ReadWTB("fuzz", b)
		if err != nil {
			return
		}
		for _, g := range games {
			Replay(g.Moves, nil) // must not panic on any move list
		}
	})
}

func FuzzReadTranscripts(f *testing.F) {
	f.Add([]byte("f5d6c3d3c4f4f6f3e6e7 1\n"))
	f.Add([]byte("f5f4e3f6d3e2f3d2g4g5 -1\n\nf5d6 0"))
	f.Add([]byte("pa 1\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		games, err := ReadTranscripts("fuzz", bytes.NewReader(b))
		if err != nil {
			return
		}
		for _, g := range games {
			Replay(g.Moves, nil)
		}
	})
}

func FuzzReadXOT(f *testing.F) {
	f.Add([]byte("f5d6c4d3c2b3b4b5\nf5f4g3g6f3g4e3e2\n"))
	f.Add([]byte("f5d6c4\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ReadXOT("fuzz", bytes.NewReader(b))
	})
}

func FuzzReadWTHORNames(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "wth_5.TRN"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data, 26)
	f.Fuzz(func(t *testing.T, b []byte, size int) {
		if size < 1 || size > 64 {
			return
		}
		ReadWTHORNames("fuzz", b, size)
	})
}

// negamax is a plain minimax solver, the independent truth for Relabel on few empties.
func negamax(p, o uint64) int {
	moves := board.LegalMoves(p, o)
	if moves == 0 {
		if board.LegalMoves(o, p) == 0 {
			return board.DiscDiff(p, o)
		}
		return -negamax(o, p)
	}
	best := -65
	for moves != 0 {
		sq := board.FirstSquare(moves)
		moves &= moves - 1
		f := board.Flips(p, o, sq)
		if v := -negamax(o^f, p|f|sq.Bit()); v > best {
			best = v
		}
	}
	return best
}

func TestRelabelMatchesMinimax(t *testing.T) {
	games := fixtureGames(t)
	games = games[:40]
	const depth = 7
	if err := Relabel(games, depth, 2, 1, nil); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for i := range games {
		g := &games[i]
		if g.ExactDepth != depth {
			continue
		}
		Replay(g.Moves, func(b *board.Board) {
			e := b.NumEmpties()
			if e > depth {
				return
			}
			want := negamax(b.P, b.O)
			if !b.BlackToMove {
				want = -want
			}
			if int(g.Exact[e]) != want {
				t.Fatalf("game %d, %d empties: relabelled %d, minimax %d", i, e, g.Exact[e], want)
			}
			checked++
			// The label of the position is its exact score.
			if got := Label(g, b); b.BlackToMove && got != float32(want) || !b.BlackToMove && got != float32(-want) {
				t.Fatalf("game %d, %d empties: label %v, exact %d (black)", i, e, got, want)
			}
		})
		// Before the relabelled part, outside WTHOR's theoretical range, the label is the
		// exact score at depth empties.
		Replay(g.Moves, func(b *board.Board) {
			if e := b.NumEmpties(); e > depth && e < g.TheoDepth {
				want := float32(g.Exact[depth])
				if !b.BlackToMove {
					want = -want
				}
				if got := Label(g, b); got != want {
					t.Fatalf("game %d, %d empties: label %v, want %v", i, e, got, want)
				}
			}
		})
	}
	if checked < 100 {
		t.Fatalf("only %d positions checked", checked)
	}
	if err := Relabel(games, MaxExactDepth+1, 1, 1, nil); err == nil {
		t.Error("a relabelling depth beyond MaxExactDepth was accepted")
	}
}

// The experimental features (mobility, an extra pattern) train too.
func TestFitExperimentalFeatures(t *testing.T) {
	games := fixtureGames(t)
	cfg := DefaultConfig()
	cfg.Epochs = 10
	cfg.Mobility = true
	for _, s := range []string{"a1", "b1", "c1", "d1", "a2", "b2", "c2", "a3", "b3", "a4"} {
		sq, _ := board.ParseSquare(s)
		cfg.Extra = append(cfg.Extra, sq)
	}
	if n := len(extraInstances(cfg.Extra)); n != 4 {
		t.Fatalf("the corner triangle has %d instances, want 4", n)
	}
	res, err := Fit(games[:100], nil, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Weights[0]) != numWeights(cfg) {
		t.Fatalf("%d weights per stage, want %d", len(res.Weights[0]), numWeights(cfg))
	}
	for s := 0; s < eval.NumStages; s++ {
		first, last := res.Log[s*cfg.Epochs], res.Log[(s+1)*cfg.Epochs-1]
		if !(last.TrainRMSE < first.TrainRMSE) {
			t.Errorf("stage %d: training RMSE %.3f, %.3f at the start", s, last.TrainRMSE, first.TrainRMSE)
		}
	}
}

// TestFitPotMobility trains the potential mobility features along with the mobility ones and
// checks that the weight file's evaluation agrees with the trainer's own prediction (the sum of
// the features' weights) on the training positions, up to the int16 rounding; potential
// mobility without mobility is refused.
func TestFitPotMobility(t *testing.T) {
	games := fixtureGames(t)
	cfg := DefaultConfig()
	cfg.Epochs = 10
	cfg.PotMobility = true
	if _, err := Fit(games[:10], nil, cfg, nil); err == nil {
		t.Fatal("potential mobility without mobility was accepted")
	}
	cfg.Mobility = true
	res, err := Fit(games[:100], nil, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := eval.NewFile(Quantize(res.Weights))
	if err != nil {
		t.Fatal(err)
	}
	e, err := eval.FromFile("fit", f)
	if err != nil {
		t.Fatal(err)
	}
	if !e.HasMobility() || !e.HasPotMobility() {
		t.Fatalf("HasMobility %v, HasPotMobility %v", e.HasMobility(), e.HasPotMobility())
	}
	n, potWeight := 0, 0.0
	for _, g := range games[:100] {
		Replay(g.Moves, func(b *board.Board) {
			w := res.Weights[eval.Stage(b.NumEmpties())]
			s := newSampleSet(cfg)
			s.add(b, 0)
			var want float64
			for k, x := range s.idx {
				want += float64(w[s.off[k]+uint32(x)])
			}
			got := float64(e.Eval(b)) / eval.Scale
			if math.Abs(want) < 60 && math.Abs(got-want) > 0.15 {
				t.Fatalf("%s: evaluation %.3f, trainer %.3f", b.OBF(), got, want)
			}
			pp, po := eval.PotMobility(b)
			potWeight += math.Abs(float64(w[s.off[s.k-2]+uint32(pp)])) + math.Abs(float64(w[s.off[s.k-1]+uint32(po)]))
			n++
		})
	}
	if potWeight == 0 {
		t.Fatal("the potential mobility weights stayed zero")
	}
	t.Logf("%d positions; mean |potential mobility weights| %.2f discs", n, potWeight/float64(n))
}

// TestRelabelCache checks that the cache gives back the labels of the solves, and refuses
// another depth, other games and damaged files without touching the games.
func TestRelabelCache(t *testing.T) {
	games := fixtureGames(t)
	games = games[:30]
	solved := append([]Game(nil), games...)
	if err := Relabel(solved, 8, 2, 1, nil); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteRelabelCache(&buf, solved, 8); err != nil {
		t.Fatal(err)
	}
	fresh := func() []Game { return append([]Game(nil), games...) }
	got := fresh()
	if err := ReadRelabelCache(bytes.NewReader(buf.Bytes()), got, 8); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i].ExactDepth != solved[i].ExactDepth || got[i].Exact != solved[i].Exact {
			t.Fatalf("game %d: cached labels %d %v, solved %d %v", i, got[i].ExactDepth, got[i].Exact, solved[i].ExactDepth, solved[i].Exact)
		}
	}
	other := fresh()
	other[3].Moves = other[3].Moves[:len(other[3].Moves)-1]
	damaged := append([]byte(nil), buf.Bytes()...)
	damaged[25] = 100 // a score out of range
	for name, c := range map[string]struct {
		data  []byte
		games []Game
		depth int
	}{
		"depth":     {buf.Bytes(), fresh(), 10},
		"games":     {buf.Bytes(), other, 8},
		"fewer":     {buf.Bytes(), fresh()[:29], 8},
		"truncated": {buf.Bytes()[:buf.Len()-1], fresh(), 8},
		"score":     {damaged, fresh(), 8},
		"magic":     {[]byte("GTW1 not a cache at all"), fresh(), 8},
	} {
		before := append([]Game(nil), c.games...)
		if err := ReadRelabelCache(bytes.NewReader(c.data), c.games, c.depth); err == nil {
			t.Errorf("%s: accepted", name)
		}
		for i := range before {
			if before[i].ExactDepth != c.games[i].ExactDepth || before[i].Exact != c.games[i].Exact {
				t.Fatalf("%s: game %d changed", name, i)
			}
		}
	}
}

// TestEmptiesBias: with the measured correction stored in the weights, the evaluation's mean
// error at every number of empties on the same games is zero up to the fixed-point rounding
// and the clamp of extreme values.
func TestEmptiesBias(t *testing.T) {
	games := fixtureGames(t)
	f, err := weights.Decode(weights.EmbeddedName, weights.Embedded())
	if err != nil {
		t.Fatal(err)
	}
	e, err := eval.FromFile("embedded", f)
	if err != nil {
		t.Fatal(err)
	}
	bias, n := EmptiesBias(e, games)
	total := e.EmptiesBias()
	moved := 0.0
	for k := range bias {
		total[k] += bias[k]
		moved = max(moved, math.Abs(bias[k]))
	}
	if n[30] != len(games) || moved < 0.5 {
		t.Fatalf("%d positions at 30 empties of %d games, largest correction %.2f", n[30], len(games), moved)
	}
	if err := f.SetSection(eval.EmptiesBiasSection, eval.EncodeEmptiesBias(total)); err != nil {
		t.Fatal(err)
	}
	e2, err := eval.FromFile("corrected", f)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := EmptiesBias(e2, games)
	for k, x := range after {
		if n[k] > 0 && math.Abs(x) > 0.05 { // rounding, and the clamp at 64 discs
			t.Errorf("%d empties: mean error %.4f after the correction (%.3f before)", k, x, bias[k])
		}
	}
}

// fixtureGames loads the 200 WTH_2023 games of testdata.
func fixtureGames(t testing.TB) []Game {
	t.Helper()
	games, _, err := LoadFile(filepath.Join("testdata", "wth_2023_200.wtb"))
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// Validate names every setting out of its range in words; Fit refuses such a configuration.
func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default configuration: %v", err)
	}
	for want, change := range map[string]func(*Config){
		"epochs 0":            func(c *Config) { c.Epochs = 0 },
		"rate -5":             func(c *Config) { c.Rate = -5 },
		"rate NaN":            func(c *Config) { c.Rate = math.NaN() },
		"momentum 1.5":        func(c *Config) { c.Momentum = 1.5 },
		"momentum NaN":        func(c *Config) { c.Momentum = math.NaN() },
		"ridge -1":            func(c *Config) { c.Ridge = -1 },
		"smooth 61":           func(c *Config) { c.Smooth = 61 },
		"workers -1":          func(c *Config) { c.Workers = -1 },
		"potmobility":         func(c *Config) { c.PotMobility, c.Mobility = true, false },
		"positions-weight -2": func(c *Config) { c.PositionWeight = -2 },
		"square 70":           func(c *Config) { c.Extra = []board.Square{1, 70} },
		"interpolate with potmobility": func(c *Config) {
			c.Interpolate, c.Mobility, c.PotMobility = true, true, true
		},
	} {
		cfg := DefaultConfig()
		change(&cfg)
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "{") {
			t.Errorf("%s: %v", want, err)
		}
		if _, ferr := Fit(nil, nil, cfg, nil); ferr == nil || !strings.Contains(ferr.Error(), want) {
			t.Errorf("Fit with %s: %v", want, ferr)
		}
	}
	cfg := DefaultConfig()
	cfg.Rate, cfg.Epochs = -1, -1
	if err := cfg.Validate(); err == nil || !strings.Contains(err.Error(), "rate -1") || !strings.Contains(err.Error(), "epochs -1") {
		t.Errorf("two bad settings: %v, want both named", err)
	}
}
