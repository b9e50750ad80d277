package train

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/ggf"
)

func TestPositionFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	ps := []Position{{Board: board.Start(), Score: 1.5}, {Board: board.Start(), Score: -3}}
	if err := WritePositionsFile(a, ps); err != nil {
		t.Fatal(err)
	}
	if err := WritePositionsFile(b, ps[:1]); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	got, err := ReadPositionFiles([]string{a, " ", " " + b}, func(path string, n int) { counts[path] = n })
	if err != nil || len(got) != 3 || got[1].Score != -3 || counts[a] != 2 || counts[b] != 1 {
		t.Fatalf("%d positions %v, counts %v, %v", len(got), got, counts, err)
	}
	if ps, err := ReadPositionFiles([]string{""}, nil); err != nil || len(ps) != 0 {
		t.Errorf("no files: %d positions, %v", len(ps), err)
	}
	os.WriteFile(b, []byte("garbage; 1\n"), 0o644)
	if _, err := ReadPositionFiles([]string{a, b}, nil); err == nil || !strings.Contains(err.Error(), "b.txt: line 1") {
		t.Errorf("malformed file: %v", err)
	}
	if _, err := ReadPositionFiles([]string{filepath.Join(dir, "absent.txt")}, nil); err == nil {
		t.Error("absent file: no error")
	}
	if err := WritePositionsFile(filepath.Join(dir, "no", "such", "dir"), ps); err == nil {
		t.Error("unwritable file: no error")
	}
}

// The cache file holds what the in-memory cache holds; no file is no cache, and a cache for
// another depth is refused with the games unchanged. Only no file or a cache of the same
// games may be replaced by a new cache.
func TestRelabelCacheFile(t *testing.T) {
	games := fixtureGames(t)[:20]
	solved := append([]Game(nil), games...)
	if err := Relabel(solved, 6, 2, 1, nil); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "labels.gtx")
	if ok, repl, err := ReadRelabelCacheFile(path, append([]Game(nil), games...), 6); ok || !repl || err != nil {
		t.Fatalf("no file: %v, %v, %v; want false, true, nil", ok, repl, err)
	}
	if err := WriteRelabelCacheFile(path, solved, 6); err != nil {
		t.Fatal(err)
	}
	got := append([]Game(nil), games...)
	if ok, _, err := ReadRelabelCacheFile(path, got, 6); !ok || err != nil {
		t.Fatalf("cache: %v, %v", ok, err)
	}
	for i := range got {
		if got[i].ExactDepth != solved[i].ExactDepth || got[i].Exact != solved[i].Exact {
			t.Fatalf("game %d: labels differ from the solved ones", i)
		}
	}
	other := append([]Game(nil), games...)
	if ok, repl, err := ReadRelabelCacheFile(path, other, 7); ok || !repl || err == nil || other[0].ExactDepth != games[0].ExactDepth {
		t.Errorf("another depth: %v, %v, %v", ok, repl, err)
	}
	if ok, repl, err := ReadRelabelCacheFile(path, other[1:], 6); ok || repl || err == nil {
		t.Errorf("other games: %v, %v, %v; want not replaceable", ok, repl, err)
	}
	text := filepath.Join(filepath.Dir(path), "notes.txt")
	os.WriteFile(text, []byte("not a cache"), 0o644)
	if ok, repl, err := ReadRelabelCacheFile(text, other, 6); ok || repl || err == nil {
		t.Errorf("a text file: %v, %v, %v; want not replaceable", ok, repl, err)
	}
	if err := WriteRelabelCacheFile(filepath.Join(path, "x"), solved, 6); err == nil {
		t.Error("unwritable cache: no error")
	}
}

// A fit's weight file loads, carries the correction by empties when asked for and the training
// summary with the validation report; the log is one CSV line per epoch.
func TestWriteWeightsAndLog(t *testing.T) {
	games := fixtureGames(t)
	cfg := DefaultConfig()
	cfg.Epochs = 2
	res, err := Fit(games[:100], games[100:], cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, bias := range []bool{false, true} {
		path := filepath.Join(dir, "w.gtw")
		run := Run{Config: cfg, Exact: 0, Paths: []string{"/home/someone/data/train.wtb"}, Validation: []string{"../data/val.wtb"}, FitTime: 3 * time.Second}
		summary, err := WriteWeights(path, res, games[:100], games[100:], bias, run)
		if err != nil {
			t.Fatal(err)
		}
		e, err := eval.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		stored, ok := e.Section("TRN1")
		if !ok || string(stored) != string(summary) {
			t.Errorf("stored summary %q, returned %q", stored, summary)
		}
		for _, want := range []string{"GoThello weights trained ", " in 3s\nconfig {Epochs:2 ", "(paths [train.wtb])", "validation on [val.wtb]:\n"} {
			if !strings.Contains(string(summary), want) {
				t.Errorf("summary lacks %q:\n%s", want, summary)
			}
		}
		if got := e.EmptiesBias() != ([61]float64{}); got != bias {
			t.Errorf("empties bias %v: stored %v", bias, got)
		}
	}
	log := filepath.Join(dir, "w.csv")
	if err := WriteLog(log, res.Log); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(log)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 1+len(res.Log) || lines[0] != "stage,epoch,train_mae,train_rmse,val_mae" || !strings.HasPrefix(lines[1], "0,1,") {
		t.Errorf("log:\n%s", data)
	}
}

// The correction written by WriteEmptiesBias is the total TotalEmptiesBias measures, which
// zeroes the mean error on the games.
func TestWriteEmptiesBias(t *testing.T) {
	games := fixtureGames(t)[:80]
	e, err := eval.Default()
	if err != nil {
		t.Fatal(err)
	}
	total, n := TotalEmptiesBias(e, games)
	out := filepath.Join(t.TempDir(), "b.gtw")
	if err := WriteEmptiesBias("", out, total); err != nil {
		t.Fatal(err)
	}
	e2, err := eval.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	after, _ := EmptiesBias(e2, games)
	for k := range after {
		if n[k] > 0 && math.Abs(after[k]) > 0.05 {
			t.Errorf("%d empties: mean error %.3f after the correction", k, after[k])
		}
	}
	// On top of the correction the weights have: measuring again changes nothing much.
	again, _ := TotalEmptiesBias(e2, games)
	for k := range again {
		if math.Abs(again[k]-total[k]) > 0.05 {
			t.Errorf("%d empties: %.3f measured again, %.3f written", k, again[k], total[k])
		}
	}
	if err := WriteEmptiesBias(filepath.Join(t.TempDir(), "absent.gtw"), out, total); err == nil {
		t.Error("absent source: no error")
	}
}

// Every file a training run writes replaces the old one by a rename (internal/atomicfile)
// instead of rewriting it in place: a hard link to the old file keeps the old content (a
// write truncating the file would have changed it, and a crash in the middle would have left
// half a file), and no temporary file is left beside it.
func TestFilesWrittenAtomically(t *testing.T) {
	games := fixtureGames(t)[:10]
	if err := Relabel(games, 4, 1, 1, nil); err != nil {
		t.Fatal(err)
	}
	log := []EpochStats{{Stage: 0, Epoch: 1, TrainMAE: 5, TrainRMSE: 6, ValMAE: 7}, {Stage: 1, Epoch: 1, TrainMAE: 4, TrainRMSE: 5, ValMAE: math.NaN()}}
	for _, c := range []struct {
		name  string
		write func(path string) error
	}{
		{"positions.txt", func(p string) error { return WritePositionsFile(p, []Position{{Board: board.Start(), Score: 2}}) }},
		{"labels.gtx", func(p string) error { return WriteRelabelCacheFile(p, games, 4) }},
		{"log.csv", func(p string) error { return WriteLog(p, log) }},
		{"plot.png", func(p string) error { return Plot(log, p) }},
	} {
		dir := t.TempDir()
		path, old := filepath.Join(dir, c.name), filepath.Join(dir, "old")
		if err := os.WriteFile(path, []byte("old content"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(path, old); err != nil {
			t.Skipf("no hard links here: %v", err)
		}
		if err := c.write(path); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if data, _ := os.ReadFile(old); string(data) != "old content" {
			t.Errorf("%s was rewritten in place: the old file now holds %q", c.name, clipText(data))
		}
		if data, _ := os.ReadFile(path); len(data) == 0 || string(data) == "old content" {
			t.Errorf("%s: new content %q", c.name, clipText(data))
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 2 {
			t.Errorf("%s: %d files in the directory, want the file and the old link", c.name, len(entries))
		}
	}
}

func clipText(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

// GGF records load as the same games as the WTHOR records they were written from; a game
// from another start position, an unfinished game and a wrong stored result are counted, a
// malformed record is an error naming the file, and a directory lists its .ggf files.
func TestLoadGGF(t *testing.T) {
	want := fixtureGames(t)[:12]
	var text strings.Builder
	for i, g := range want {
		r := ggf.New(board.Start())
		for _, m := range g.Moves {
			if err := r.PlayMove(m); err != nil {
				t.Fatalf("game %d: %v", i, err)
			}
		}
		r.Result = fmt.Sprintf("%+d.000", g.BlackDiff)
		if i == 3 {
			r.Result = fmt.Sprintf("%+d.000", g.BlackDiff+2) // a wrong stored result
		}
		text.WriteString(r.String() + "\n")
	}
	short := ggf.New(board.Start())
	for _, m := range want[0].Moves[:30] {
		short.PlayMove(m)
	}
	other := ggf.New(board.FromColors(board.D4.Bit()|board.E5.Bit(), board.D5.Bit()|board.E4.Bit(), true))
	f4, _ := board.ParseSquare("f4")
	if err := other.PlayMove(f4); err != nil {
		t.Fatal(err)
	}
	text.WriteString(short.String() + "\n" + other.String() + "\n")

	dir := t.TempDir()
	path := filepath.Join(dir, "games.ggf")
	if err := os.WriteFile(path, []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	got, st, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Read != 14 || st.Used != 12 || st.Unfinished != 1 || st.OtherStart != 1 || st.ScoreMismatch != 1 || st.Illegal != 0 {
		t.Errorf("stats %+v", st)
	}
	if !strings.Contains(st.String(), "and 1 unfinished and 1 from another start position") {
		t.Errorf("stats %q", st.String())
	}
	if len(got) != len(want) {
		t.Fatalf("%d games, want %d", len(got), len(want))
	}
	for i := range want {
		if fmt.Sprint(got[i].Moves) != fmt.Sprint(want[i].Moves) || got[i].BlackDiff != want[i].BlackDiff || got[i].TheoDepth != 0 {
			t.Errorf("game %d: %v %+d, want %v %+d", i, got[i].Moves, got[i].BlackDiff, want[i].Moves, want[i].BlackDiff)
		}
	}
	if files, err := GameFiles([]string{dir}); err != nil || len(files) != 1 || files[0] != path {
		t.Errorf("GameFiles(dir) = %v, %v", files, err)
	}

	bad := filepath.Join(dir, "bad.ggf")
	os.WriteFile(bad, []byte(text.String()[:200]), 0o644)
	if _, _, err := LoadFile(bad); err == nil || !strings.Contains(err.Error(), "bad.ggf") {
		t.Errorf("truncated record: %v", err)
	}
}
