package board

import (
	"bufio"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Start-position perft counts with a pass counted as a move, depth 0..11.
var perftCounts = []uint64{1, 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, 212258800}

func TestPerft(t *testing.T) {
	b := Start()
	for d := 1; d < len(perftCounts); d++ {
		if d >= 10 && testing.Short() {
			break
		}
		if got := Perft(b.P, b.O, d); got != perftCounts[d] {
			t.Errorf("perft(%d) = %d, want %d", d, got, perftCounts[d])
		}
	}
}

// linePerft is perft through the line tables and Board.Make/Unmake only: an independent
// implementation of move generation, flips and make/undo.
func linePerft(b *Board, depth int) uint64 {
	if depth == 0 {
		return 1
	}
	moves := LineLegalMoves(&b.Lines, b.BlackToMove)
	if moves == 0 {
		if LineLegalMoves(&b.Lines, !b.BlackToMove) == 0 {
			return 1
		}
		u := b.Pass()
		n := linePerft(b, depth-1)
		b.Unmake(u)
		return n
	}
	var n uint64
	for moves != 0 {
		sq := FirstSquare(moves)
		moves &= moves - 1
		u := b.Make(sq)
		n += linePerft(b, depth-1)
		b.Unmake(u)
	}
	return n
}

func TestLinePerft(t *testing.T) {
	b := Start()
	max := 9
	if testing.Short() {
		max = 7
	}
	for d := 1; d <= max; d++ {
		if got := linePerft(&b, d); got != perftCounts[d] {
			t.Errorf("line-table perft(%d) = %d, want %d", d, got, perftCounts[d])
		}
	}
	if b != Start() {
		t.Errorf("board changed by make/unmake during perft")
	}
}

// checkPosition compares the bitboard and line-table paths on one position and checks that
// every move's make/unmake restores the board exactly.
func checkPosition(t *testing.T, b *Board, where string) bool {
	t.Helper()
	if !b.Consistent() {
		t.Errorf("%s: incremental line indices differ from those recomputed from scratch", where)
		return false
	}
	for _, black := range []bool{true, false} {
		p, o := b.Black(), b.White()
		if !black {
			p, o = o, p
		}
		if got, want := LineLegalMoves(&b.Lines, black), LegalMoves(p, o); got != want {
			t.Errorf("%s: line-table moves %x, bitboard moves %x (black %v)", where, got, want, black)
			return false
		}
		for m := LegalMoves(p, o); m != 0; m &= m - 1 {
			sq := FirstSquare(m)
			if got, want := LineFlips(&b.Lines, sq, black), Flips(p, o, sq); got != want {
				t.Errorf("%s: move %s: line-table flips %x, bitboard flips %x", where, sq, got, want)
				return false
			}
		}
	}
	// Non-moves flip nothing in both implementations.
	for m := b.Empties() &^ b.LegalMoves(); m != 0; m &= m - 1 {
		sq := FirstSquare(m)
		if Flips(b.P, b.O, sq) != 0 || LineFlips(&b.Lines, sq, b.BlackToMove) != 0 {
			t.Errorf("%s: %s is not legal but flips discs", where, sq)
			return false
		}
	}
	saved := *b
	for m := b.LegalMoves(); m != 0; m &= m - 1 {
		u := b.Make(FirstSquare(m))
		if !b.Consistent() {
			t.Errorf("%s: after %s the line indices are wrong", where, FirstSquare(m))
			return false
		}
		b.Unmake(u)
		if *b != saved {
			t.Errorf("%s: make/unmake of %s did not restore the board", where, FirstSquare(m))
			return false
		}
	}
	return true
}

// playGame replays moves (passes implied) from the start, checking every position.
func playGame(t *testing.T, moves []Square, name string) {
	t.Helper()
	b := Start()
	var undo []Undo
	var history []Board
	for i, sq := range moves {
		if !checkPosition(t, &b, name) {
			return
		}
		if b.MustPass() {
			history = append(history, b)
			undo = append(undo, b.Pass())
		}
		if !b.IsLegal(sq) {
			t.Errorf("%s: move %d %s is illegal", name, i+1, sq)
			return
		}
		history = append(history, b)
		undo = append(undo, b.Make(sq))
	}
	checkPosition(t, &b, name)
	for i := len(undo) - 1; i >= 0; i-- {
		b.Unmake(undo[i])
		if b != history[i] {
			t.Errorf("%s: unwinding the game, ply %d differs", name, i+1)
			return
		}
	}
}

func TestRandomGames(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	games := 2000
	if testing.Short() {
		games = 300
	}
	for g := 0; g < games; g++ {
		b := Start()
		var moves []Square
		for !b.GameOver() {
			if b.MustPass() {
				b.Pass()
				continue
			}
			m := b.LegalMoves()
			k := r.IntN(Count(m))
			for ; k > 0; k-- {
				m &= m - 1
			}
			sq := FirstSquare(m)
			moves = append(moves, sq)
			b.Make(sq)
		}
		playGame(t, moves, "random game "+Transcript(moves))
		if t.Failed() {
			return
		}
	}
}

func TestRealGamesFixture(t *testing.T) {
	f, err := os.Open("testdata/wthor2023-sample.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		moves, _, err := ParseTranscript(line)
		if err != nil {
			t.Fatalf("fixture game %d: %v", n+1, err)
		}
		var played []Square
		for _, m := range moves {
			if m != NoSquare {
				played = append(played, m)
			}
		}
		playGame(t, played, "fixture game "+line)
		n++
	}
	if n < 300 {
		t.Errorf("read %d fixture games, want at least 300", n)
	}
}

// TestSharedWTHOR replays the WTHOR database from ../shared when it is present. The decoder is
// the few lines the format needs (see SOURCES.md): 16-byte header, 68-byte records, moves as
// 10*row+col.
func TestSharedWTHOR(t *testing.T) {
	files, _ := filepath.Glob("../../shared/data/wthor/WTH_*.wtb")
	if len(files) == 0 {
		t.Skip("../shared/data/wthor not present")
	}
	if testing.Short() {
		files = files[len(files)-1:]
	}
	games := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) < 16 {
			t.Fatalf("%s: short header", path)
		}
		n := int(binary.LittleEndian.Uint32(data[4:8]))
		for g := 0; g < n && 16+68*(g+1) <= len(data); g++ {
			rec := data[16+68*g : 16+68*(g+1)]
			var moves []Square
			for _, v := range rec[8:] {
				if v == 0 {
					break
				}
				moves = append(moves, SquareAt(int(v%10)-1, int(v/10)-1))
			}
			playGame(t, moves, filepath.Base(path))
			if t.Failed() {
				return
			}
			games++
		}
	}
	t.Logf("replayed %d games", games)
}

func TestRules(t *testing.T) {
	b := Start()
	if got := b.LegalMoves(); got != SquareAt(3, 2).Bit()|SquareAt(2, 3).Bit()|SquareAt(5, 4).Bit()|SquareAt(4, 5).Bit() {
		t.Errorf("start moves = %x", got)
	}
	if b.GameOver() || b.MustPass() {
		t.Errorf("start position is not over")
	}
	// A 9-move wipe-out (the shortest possible game): black wins +64 with the empties.
	_, end, err := ParseTranscript("d3c3b3d2e1d6d7e3f4")
	if err != nil {
		t.Fatal(err)
	}
	if !end.GameOver() {
		t.Fatalf("wipe-out game is not over:\n%s", end.Diagram())
	}
	if got := end.BlackScore(); got != 64 {
		t.Errorf("wipe-out black score = %d, want 64", got)
	}
	cases := []struct {
		p, o uint64
		want int
	}{
		{0xFFFFFFFF, 0xFFFFFFFF00000000, 0},
		{0xFFFFFFFF0, 0xF, 56}, // 32-4, and the 28 empties to the winner
		{0x1, 0xFFFFFFFFFFFFFFFE, -62},
		{0x3, 0x4, 1 + 61},
	}
	for _, c := range cases {
		if got := DiscDiff(c.p, c.o); got != c.want {
			t.Errorf("DiscDiff(%x, %x) = %d, want %d", c.p, c.o, got, c.want)
		}
	}
}

// A position where white must pass: after the pass black moves again.
func TestPass(t *testing.T) {
	// Black: a1..g1 row except h1 empty; white only b2: black to move can play around it.
	b, _, err := ParseOBF("XXXXXXX--O------------------------------------------------------ O")
	if err != nil {
		t.Fatal(err)
	}
	if !b.MustPass() {
		t.Fatalf("white should have to pass:\n%s", b.Diagram())
	}
	saved := b
	if b.Play(H8) {
		t.Errorf("an illegal move was played")
	}
	if !b.Play(NoSquare) {
		t.Fatalf("pass refused")
	}
	if !b.BlackToMove || b.P != saved.O {
		t.Errorf("pass did not hand the move over")
	}
	if b.Play(NoSquare) {
		t.Errorf("black passed although it has moves")
	}
}

// TestNeighbours checks the bitboard neighbourhood against the squares' coordinates.
func TestNeighbours(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 2000; i++ {
		x := r.Uint64() & r.Uint64() & r.Uint64()
		if i < 64 {
			x = 1 << uint(i)
		}
		var want uint64
		for s := Square(0); s < 64; s++ {
			if x&s.Bit() == 0 {
				continue
			}
			for dc := -1; dc <= 1; dc++ {
				for dr := -1; dr <= 1; dr++ {
					c, rw := s.Col()+dc, s.Row()+dr
					if (dc != 0 || dr != 0) && c >= 0 && c < 8 && rw >= 0 && rw < 8 {
						want |= SquareAt(c, rw).Bit()
					}
				}
			}
		}
		if got := Neighbours(x); got != want {
			t.Fatalf("Neighbours(%#x) = %#x, want %#x", x, got, want)
		}
	}
}

// TestLinesFromBits checks the gathered line indices against the square-by-square ones on
// random boards (sparse and dense) and on every board with a single disc of either colour.
func TestLinesFromBits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 20000; i++ {
		var black, white uint64
		switch {
		case i < 64:
			black = 1 << uint(i)
		case i < 128:
			white = 1 << uint(i-64)
		default:
			occ := r.Uint64()
			if i%3 == 0 {
				occ |= r.Uint64()
			}
			black = occ & r.Uint64()
			white = occ &^ black
		}
		if got, want := LinesFromBits(black, white), linesFromSquares(black, white); got != want {
			t.Fatalf("black %#x white %#x: LinesFromBits %v, want %v", black, white, got, want)
		}
		lines := linesFromSquares(black, white)
		if got, want := ExtFromLines(&lines, black, white), extFromSquares(black, white); got != want {
			t.Fatalf("black %#x white %#x: ExtFromLines %v, want %v", black, white, got, want)
		}
	}
}

// linesFromSquares computes the line indices square by square (LinesFromBits' reference twin).
func linesFromSquares(black, white uint64) [NumLines]uint16 {
	var lines [NumLines]uint16
	for l := 0; l < NumLines; l++ {
		idx := 0
		for i, sq := range lineSquares[l] {
			code := CodeEmpty
			if sq != NoSquare {
				switch {
				case black&sq.Bit() != 0:
					code = CodeBlack
				case white&sq.Bit() != 0:
					code = CodeWhite
				}
			}
			idx += code * Pow3[i]
		}
		lines[l] = uint16(idx)
	}
	return lines
}

// LegalMovesBoth must give both sides' LegalMoves, on every architecture (with GODEBUG
// cpu.avx2=off, through the Go twin).
func TestLegalMovesBoth(t *testing.T) {
	randomBoards(rand.New(rand.NewPCG(7, 8)), 20000, func(p, o uint64) {
		t.Helper()
		if gp, gO := LegalMovesBoth(p, o); gp != LegalMoves(p, o) || gO != LegalMoves(o, p) {
			t.Fatalf("p %016x o %016x: LegalMovesBoth %016x %016x, LegalMoves %016x %016x", p, o, gp, gO, LegalMoves(p, o), LegalMoves(o, p))
		}
	})
}

// TestMakeFlips: MakeFlips with the move's flips leaves the board (bitboards, side to move,
// line indices) and the undo record exactly as Make does, for every legal move of 2,000
// positions of random games.
func TestMakeFlips(t *testing.T) {
	for _, b := range samplePositions(2000) {
		for m := b.LegalMoves(); m != 0; m &= m - 1 {
			sq := FirstSquare(m)
			c, d := b, b
			uc := c.MakeFlips(sq, Flips(b.P, b.O, sq))
			u := d.Make(sq)
			if c != d || uc != u {
				t.Fatalf("%s, move %v: MakeFlips gave %+v (undo %+v), Make %+v (undo %+v)", b.OBF(), sq, c, uc, d, u)
			}
		}
	}
}
