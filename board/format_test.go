package board

import (
	"strings"
	"testing"
)

func TestParseOBF(t *testing.T) {
	ffo1 := "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;"
	b, rest, err := ParseOBF(ffo1)
	if err != nil {
		t.Fatal(err)
	}
	if !b.BlackToMove || b.NumEmpties() != 14 || Count(b.P) != 27 {
		t.Errorf("FFO #1 parsed wrong:\n%s", b.Diagram())
	}
	if rest != "; G8:+18; H1:+12;" {
		t.Errorf("rest = %q", rest)
	}
	if got := b.OBF(); got != ffo1[:66] {
		t.Errorf("OBF() = %q, want %q", got, ffo1[:66])
	}
	alt := strings.NewReplacer("X", "*", "O", "o", "-", ".").Replace(ffo1[:64]) + " x"
	b2, _, err := ParseOBF(alt)
	if err != nil || b2 != b {
		t.Errorf("alternative characters: %v", err)
	}
	white, _, err := ParseOBF(ffo1[:64] + " O")
	if err != nil || white.BlackToMove || white.P != b.O {
		t.Errorf("white to move parsed wrong: %v", err)
	}
	bad := []struct{ in, want string }{
		{"", "64 board characters"},
		{strings.Repeat("-", 63), "64 board characters"},
		{strings.Repeat("-", 64), "side to move"},
		{strings.Repeat("-", 64) + " Z", "side to move"},
		{strings.Repeat("-", 30) + "Q" + strings.Repeat("-", 33) + " X", "character 31 (square g4)"},
		{strings.Repeat("-", 64) + " XO", "followed by"},
	}
	for _, c := range bad {
		_, _, err := ParseOBF(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseOBF(%q) error = %v, want one containing %q", c.in, err, c.want)
		}
	}
}

func TestTranscript(t *testing.T) {
	game := "f5d6c3d3c4f4f6f3g4g3e6b3f2e3e2c5c6e7c7h4g5d2h5d7h3b6c1f1d1g2b4e1c2a3b5a6f8e8d8f7g8h2g7g6h1b1h6b2b7g1h7a8a7c8a4a5a1a2b8h8"
	moves, end, err := ParseTranscript(strings.ToUpper(game[:20]) + " " + game[20:])
	if err != nil {
		t.Fatal(err)
	}
	if Transcript(moves) != game {
		t.Errorf("round trip: %q", Transcript(moves))
	}
	if !end.GameOver() {
		t.Errorf("game not over")
	}
	// Passes are implied, and an explicit pass where one is due is accepted.
	// WTH_2023: after move 51 (g2) white has no move and black plays c8.
	withPass := "f5d6c5f4d3g5e6f6g3f3e3e2g4f2c7h4d2c1e1h3c2c4c3b1h5h6c6g6d7b4b5b3a4a6a5a3f1b6e7d1a1f7b2g1h1a2b7e8a7b8g2c8"
	implied, _, err := ParseTranscript(withPass)
	if err != nil {
		t.Fatal(err)
	}
	if len(implied) != 53 || implied[51] != NoSquare {
		t.Errorf("implied pass not recorded: %v", implied)
	}
	if _, _, err := ParseTranscript(withPass[:102] + "PA" + withPass[102:]); err != nil {
		t.Errorf("explicit pass refused: %v", err)
	}
	bad := []struct{ in, want string }{
		{"f5d6c3z9", "move 4 at character 7"},
		{"f5d6c3d", "cut short"},
		{"f5f5", "not legal for white"},
		{"f5pa", "pass while a move is available"},
		{"a1", "not legal for black"},
	}
	for _, c := range bad {
		_, _, err := ParseTranscript(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseTranscript(%q) error = %v, want one containing %q", c.in, err, c.want)
		}
	}
}

// A game with a real pass: white cannot answer and black plays twice in a row.
func TestParsePosition(t *testing.T) {
	const ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
	at := func(obf, moves string) Board {
		b, _, err := ParseOBF(obf)
		if err != nil {
			t.Fatal(err)
		}
		if _, b, err = PlayTranscript(b, moves); err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, c := range []struct {
		obf, moves string
		want       Board
	}{
		{"", "", Start()},
		{"", "f5d6", at("---------------------------OX------XO--------------------------- X", "f5d6")},
		{ffo1, "", at(ffo1, "")},
		{" " + ffo1 + " ;\r\n", "g8", at(ffo1, "g8")},
	} {
		if b, err := ParsePosition(c.obf, c.moves); err != nil || b != c.want {
			t.Errorf("ParsePosition(%q, %q): %v\n%s", c.obf, c.moves, err, b.Diagram())
		}
	}
	for _, c := range []struct{ obf, moves, err string }{
		{"garbage", "", "want 64 board characters"},
		{ffo1 + " junk", "", `position: unexpected "junk" after the side to move`},
		{ffo1 + "\n;", "", `position: unexpected "\n;" after the side to move`},
		{"", "f5f5", "transcript: move 2"},
		{ffo1, "a1", "not legal"},
	} {
		if _, err := ParsePosition(c.obf, c.moves); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("ParsePosition(%q, %q): error %v, want %q", c.obf, c.moves, err, c.err)
		}
	}
}

func TestTranscriptPass(t *testing.T) {
	b, _, err := ParseOBF("XXXXXXX--O------------------------------------------------------ O")
	if err != nil {
		t.Fatal(err)
	}
	moves, end, err := PlayTranscript(b, "c3")
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 2 || moves[0] != NoSquare || moves[1] != SquareAt(2, 2) {
		t.Errorf("moves = %v, want [pa c3]", moves)
	}
	if end.BlackToMove {
		t.Errorf("after black's c3 white should be to move")
	}
}

func TestDiagramRoundTrip(t *testing.T) {
	_, b, err := ParseTranscript("f5d6c3d3c4f4")
	if err != nil {
		t.Fatal(err)
	}
	for _, pos := range []Board{b, Start(), func() Board { c := b; c.Pass(); return c }()} {
		got, err := ParseDiagram(pos.Diagram())
		if err != nil {
			t.Fatal(err)
		}
		if got != pos {
			t.Errorf("diagram round trip differs:\n%s\n%s", pos.Diagram(), got.Diagram())
		}
	}
	if _, err := ParseDiagram("1 - - - 1\n"); err == nil {
		t.Errorf("short row accepted")
	}
}

func TestParseSquare(t *testing.T) {
	for sq := Square(0); sq < 64; sq++ {
		for _, s := range []string{sq.String(), strings.ToUpper(sq.String())} {
			got, err := ParseSquare(s)
			if err != nil || got != sq {
				t.Errorf("ParseSquare(%q) = %v, %v", s, got, err)
			}
		}
	}
	for _, s := range []string{"", "a", "a9", "i1", "a0", "f55", "pa"} {
		if _, err := ParseSquare(s); err == nil {
			t.Errorf("ParseSquare(%q) accepted", s)
		}
	}
	if NoSquare.String() != "pa" || F5.String() != "f5" || A1.String() != "a1" || H8.String() != "h8" {
		t.Errorf("square names wrong")
	}
}

func FuzzParseOBF(f *testing.F) {
	f.Add("--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;")
	f.Add(strings.Repeat(".", 64) + " o")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		b, _, err := ParseOBF(s)
		if err != nil {
			return
		}
		if !b.Consistent() {
			t.Fatalf("parsed board inconsistent")
		}
		b2, rest, err := ParseOBF(b.OBF())
		if err != nil || b2 != b || rest != "" {
			t.Fatalf("OBF round trip failed: %v", err)
		}
	})
}

func FuzzParseTranscript(f *testing.F) {
	f.Add("f5d6c3d3c4f4f6f3g4g3e6b3")
	f.Add("F5 D6 pa")
	f.Add("f5d6c5f4d3g5e6f6g3f3e3e2g4f2c7h4d2c1e1h3c2c4c3b1h5h6c6g6d7b4b5b3a4a6a5a3f1b6e7d1a1f7b2g1h1a2b7e8a7b8g2pac8")
	f.Fuzz(func(t *testing.T, s string) {
		moves, b, err := ParseTranscript(s)
		if !b.Consistent() {
			t.Fatalf("board inconsistent after %q", s)
		}
		if err != nil {
			return
		}
		_, b2, err := ParseTranscript(Transcript(moves))
		if err != nil || b2 != b {
			t.Fatalf("transcript round trip failed: %v", err)
		}
	})
}

func FuzzParseDiagram(f *testing.F) {
	s := Start()
	f.Add(s.Diagram())
	f.Add("* * * * * * * *\n")
	f.Fuzz(func(t *testing.T, text string) {
		b, err := ParseDiagram(text)
		if err != nil {
			return
		}
		if got, err := ParseDiagram(b.Diagram()); err != nil || got != b {
			t.Fatalf("diagram round trip failed: %v", err)
		}
	})
}
