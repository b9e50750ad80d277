package ggf

import (
	"math/rand"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/othellogo/othello/board"
)

func readFixture(t testing.TB, name string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestParseGGSGame(t *testing.T) {
	games, err := ParseAll(readFixture(t, "games.ggf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 2 {
		t.Fatalf("got %d games, want 2", len(games))
	}
	g := games[0]
	if g.Black != "Saio1200" || g.White != "Saio3000" || g.Result != "+0.000" || g.Place != "GGS/os" {
		t.Errorf("header: %+v", g)
	}
	if len(g.Moves) != 60 {
		t.Errorf("%d moves, want 60", len(g.Moves))
	}
	want := Clock{Main: 5 * time.Minute, Extension: 2 * time.Minute, Set: true}
	if g.Clock != want {
		t.Errorf("clock %+v, want %+v", g.Clock, want)
	}
	f := g.Final()
	if !f.GameOver() || f.BlackScore() != 0 {
		t.Errorf("final position: game over %v, black %+d; want a finished draw (RE +0.000)", f.GameOver(), f.BlackScore())
	}
	if m := g.Moves[7]; m.Square.String() != "d2" || !m.HasEval || m.Eval != 2.39 || m.Time != 10*time.Millisecond || m.Black {
		t.Errorf("move 8 = %+v, want white d2 eval 2.39 time 0.01 s", m)
	}
	if m := g.Moves[0]; m.HasEval || !m.HasTime {
		t.Errorf("move 1 = %+v: empty eval field should leave HasEval false", m)
	}
	// White's clock: 5:00 + 2:00 extension minus the 30 recorded white times.
	left, inc, ok := g.TimeLeft(false)
	var used time.Duration
	for _, m := range g.Moves {
		if !m.Black {
			used += m.Time
		}
	}
	if !ok || inc != 0 || left != 7*time.Minute-used {
		t.Errorf("white time left %v (inc %v, ok %v), want %v", left, inc, ok, 7*time.Minute-used)
	}

	g2 := games[1]
	if g2.Place != "NBoard" || len(g2.Moves) != 3 || g2.Moves[1].Eval != -0.5 || g2.Moves[1].Time != 2*time.Second {
		t.Errorf("NBoard game: %+v", g2)
	}
	if tr := movesTranscript(g2); tr != "f5d6c3" {
		t.Errorf("NBoard game moves %q", tr)
	}
}

func movesTranscript(g *Game) string {
	var sq []board.Square
	for _, m := range g.Moves {
		sq = append(sq, m.Square)
	}
	return board.Transcript(sq)
}

// The same game with passes written as PA, as "-- /0/0", as PASS and left implicit: all four
// must read to the same record, passes made explicit.
func TestPassVariants(t *testing.T) {
	games, err := ParseAll(readFixture(t, "passes.ggf"))
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 4 {
		t.Fatalf("got %d games, want 4", len(games))
	}
	const tr = "f5f6c4c3c2g5d3e3g6b2f7b4c5b6a2e7g4h4d7d2b5c1e2a1a5h6a7g3h7h8g2d8g7a3d6a4d1c7f3f4f2h2e6f1b7g8b1e8f8c8g1h5c6h3e1a6b3b8a8h1"
	for i, g := range games {
		if got := movesTranscript(g); got != tr {
			t.Errorf("game %d: moves %s", i+1, got)
		}
		if len(g.Moves) != 62 {
			t.Errorf("game %d: %d moves with passes, want 62", i+1, len(g.Moves))
		}
		if g.Moves[34].Square != board.NoSquare || !g.Moves[34].Black {
			t.Errorf("game %d: move 35 = %+v, want black's pass", i+1, g.Moves[34])
		}
		f := g.Final()
		if !f.GameOver() || f.BlackScore() != -38 {
			t.Errorf("game %d: final black score %+d, want -38", i+1, f.BlackScore())
		}
		// Black has its own clock (TB 2:00), white uses TI 1:00 + 2 s a move.
		bl, _, _ := g.TimeLeft(true)
		wl, winc, _ := g.TimeLeft(false)
		nb, nw := 0, 0
		for _, m := range g.Moves {
			if m.Black {
				nb++
			} else {
				nw++
			}
		}
		_ = nb
		if winc != 2*time.Second {
			t.Errorf("game %d: white increment %v", i+1, winc)
		}
		if bl >= 2*time.Minute || wl >= time.Minute+time.Duration(nw)*2*time.Second {
			t.Errorf("game %d: clocks not reduced by move times: black %v white %v", i+1, bl, wl)
		}
	}
	if games[0].String() != games[2].String() || games[0].String() != games[3].String() {
		t.Errorf("explicit and implicit passes write differently:\n%s\n%s", games[0], games[2])
	}
}

func TestRoundTrip(t *testing.T) {
	games, err := ParseAll(readFixture(t, "games.ggf") + readFixture(t, "passes.ggf"))
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range games {
		s := g.String()
		g2, rest, err := Parse(s)
		if err != nil {
			t.Fatalf("game %d: reread: %v\n%s", i+1, err, s)
		}
		if strings.TrimSpace(rest) != "" {
			t.Errorf("game %d: rest %q", i+1, rest)
		}
		if g2.String() != s {
			t.Errorf("game %d: not stable:\n%s\n%s", i+1, s, g2)
		}
		if g2.Final() != g.Final() || len(g2.Moves) != len(g.Moves) {
			t.Errorf("game %d: reread game differs", i+1)
		}
	}
}

// Random games with passes, written and read back, end in the same position.
func TestRandomGamesRoundTrip(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for n := 0; n < 200; n++ {
		g := New(board.Start())
		g.Clock = Clock{Main: 10 * time.Minute, Set: true}
		b := board.Start()
		for !b.GameOver() {
			var sq board.Square = board.NoSquare
			if m := b.LegalMoves(); m != 0 {
				var c []board.Square
				for ; m != 0; m &= m - 1 {
					c = append(c, board.FirstSquare(m))
				}
				sq = c[r.Intn(len(c))]
			}
			mv := Move{Square: sq, Black: b.BlackToMove, Time: time.Duration(r.Intn(100000)) * time.Millisecond, HasTime: true}
			if r.Intn(2) == 0 {
				mv.Eval, mv.HasEval = float64(r.Intn(129)-64), true
			}
			if err := g.Play(mv); err != nil {
				t.Fatal(err)
			}
			b.Play(sq)
		}
		g2, _, err := Parse(g.String())
		if err != nil {
			t.Fatalf("%v\n%s", err, g)
		}
		if g2.Final() != b || g2.String() != g.String() {
			t.Fatalf("round trip differs:\n%s\n%s", g, g2)
		}
		for i := range g.Moves {
			if g.Moves[i] != g2.Moves[i] {
				t.Fatalf("move %d: %+v != %+v", i, g.Moves[i], g2.Moves[i])
			}
		}
	}
}

func TestTolerantVariants(t *testing.T) {
	cases := []string{
		// lower-case keys, blanks in BO, X/O letters, '.' empties
		"(;gm[Othello]bo[8 ........ ........ ........ ...OX... ...XO... ........ ........ ........ X]b[f5];)",
		// no board size in BO, newlines between properties
		"(;GM[Othello]\nBO[---------------------------O*------*O--------------------------- *]\nB[F5/0.5]\n;)",
		// unknown properties, "; )" with a blank
		"(;GM[Othello]XX[whatever]KB[B3/2.00/27.23]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[f6]; )",
		// a bare ")" as the end
		"(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *])",
		// time in mm:ss
		"(;GM[Othello]TI[1:00:00]BO[8 ---------------------------O*------*O--------------------------- *]B[f5//1:30];)",
	}
	for _, c := range cases {
		g, _, err := Parse(c)
		if err != nil {
			t.Errorf("%q: %v", c, err)
			continue
		}
		if _, _, err := Parse(g.String()); err != nil {
			t.Errorf("%q: rewritten %q: %v", c, g, err)
		}
	}
	g, _, _ := Parse(cases[4])
	if g.Moves[0].Time != 90*time.Second || g.Clock.Main != time.Hour {
		t.Errorf("mm:ss times: move %v clock %v", g.Moves[0].Time, g.Clock.Main)
	}
}

func TestMalformed(t *testing.T) {
	start := "BO[8 ---------------------------O*------*O--------------------------- *]"
	cases := map[string]string{
		"":                                           "no game record",
		"garbage":                                    "no game record",
		"(;GM[Othello]" + start:                      "truncated",
		"(;GM[Othello]BO[8 ----":                     "truncated",
		"(;GM[Othello];)":                            "no BO",
		"(;GM[Othello]" + start + "B[a1];)":          "not legal",
		"(;GM[Othello]" + start + "W[f5];)":          "is to move",
		"(;GM[Othello]" + start + "B[PA];)":          "has a move",
		"(;GM[Othello]" + start + "B[z9];)":          "square",
		"(;GM[Othello]" + start + "B[f5/x];)":        "eval",
		"(;GM[Othello]" + start + "B[f5//-1];)":      "time",
		"(;GM[Othello]TY[10]" + start + ";)":         "not supported",
		"(;GM[Othello]BO[4 ---- -O*- -*O- ---- *];)": "not supported",
		"(;GM[Othello]BO[8 --------];)":              "64 squares",
		"(;GM[Othello]TI[1/2/3/4]" + start + ";)":    "clock",
		"(;GM[Othello] 12 " + start + ";)":           "property",
	}
	for in, want := range cases {
		_, _, err := Parse(in)
		if err == nil {
			t.Errorf("%q: no error, want one mentioning %q", in, want)
			continue
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %q, want it to mention %q", in, err, want)
		}
	}
}

func TestClock(t *testing.T) {
	cases := []struct {
		in   string
		want Clock
		out  string
	}{
		{"15:00", Clock{Main: 15 * time.Minute, Set: true}, "15:00"},
		{"05:00//02:00", Clock{Main: 5 * time.Minute, Extension: 2 * time.Minute, Set: true}, "05:00//02:00"},
		{"0", Clock{Set: true}, "00:00"},
		{"1:00:00/10/0N", Clock{Main: time.Hour, Increment: 10 * time.Second, Set: true}, "60:00/00:10"},
		{"2.5", Clock{Main: 2500 * time.Millisecond, Set: true}, "00:02.50"},
	}
	for _, c := range cases {
		got, err := ParseClock(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseClock(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
			continue
		}
		if s := got.String(); s != c.out {
			t.Errorf("%q: String() = %q, want %q", c.in, s, c.out)
		}
	}
}

func TestTimeLeftNoClock(t *testing.T) {
	g, _, err := Parse("(;GM[Othello]TI[0]BO[8 ---------------------------O*------*O--------------------------- *]B[f5//3];)")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := g.TimeLeft(true); ok {
		t.Error("TI[0] should mean no clock")
	}
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"games.ggf", "passes.ggf"} {
		for _, part := range strings.Split(readFixture(f, name), "\n") {
			f.Add(part)
		}
	}
	f.Add("(;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]B[f5/1/2]W[PA];)")
	f.Add("(;BO[8 x];)")
	f.Add("(;TI[99999999:99]BO[];)")
	f.Fuzz(func(t *testing.T, s string) {
		g, _, err := Parse(s)
		if err != nil {
			return
		}
		b := g.Final()
		if !b.Consistent() {
			t.Fatalf("inconsistent final board from %q", s)
		}
		out := g.String()
		g2, _, err := Parse(out)
		if err != nil {
			t.Fatalf("rewritten record does not parse: %v\n%q\nfrom %q", err, out, s)
		}
		if g2.Final() != b || len(g2.Moves) != len(g.Moves) {
			t.Fatalf("rewritten record differs: %q -> %q", s, out)
		}
		if out2 := g2.String(); out2 != out {
			t.Fatalf("writer not stable:\n%q\n%q", out, out2)
		}
	})
}

func TestSecondsShort(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{4738 * time.Millisecond, "4.738"},
		{4737999 * time.Microsecond, "4.738"},
		{0, "0"},
		{420 * time.Microsecond, "0.00042"},
		{90 * time.Second, "90"},
	} {
		if got := seconds(c.d); got != c.want {
			t.Errorf("seconds(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

// StoredResult reads RE as black's disc difference, rounded, and refuses what is not a
// score from -64 to 64.
func TestStoredResult(t *testing.T) {
	for _, c := range []struct {
		re   string
		want int
		ok   bool
	}{{"+12.000", 12, true}, {"-4", -4, true}, {" 0 ", 0, true}, {"-63.6", -64, true}, {"64", 64, true},
		{"?", 0, false}, {"", 0, false}, {"+65", 0, false}, {"NaN", 0, false}, {"-Inf", 0, false}, {"+T", 0, false}} {
		g := New(board.Start())
		g.Result = c.re
		if v, ok := g.StoredResult(); v != c.want || ok != c.ok {
			t.Errorf("RE[%s]: %d, %v; want %d, %v", c.re, v, ok, c.want, c.ok)
		}
	}
}
