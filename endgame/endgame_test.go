package endgame

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"testing"
	"unsafe"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
)

// minimax is the plain reference: full negamax over every legal move, no pruning.
func minimax(p, o uint64) int {
	moves := board.LegalMoves(p, o)
	if moves == 0 {
		if board.LegalMoves(o, p) == 0 {
			return board.DiscDiff(p, o)
		}
		return -minimax(o, p)
	}
	best := -inf
	for ; moves != 0; moves &= moves - 1 {
		sq := board.FirstSquare(moves)
		f := board.Flips(p, o, sq)
		best = max(best, -minimax(o^f, p|f|sq.Bit()))
	}
	return best
}

// randomPosition plays random moves from the start until empties squares are left (or the
// game ends earlier, then the caller retries).
func randomPosition(r *rand.Rand, empties int) (p, o uint64, ok bool) {
	b := board.Start()
	p, o = b.P, b.O
	for bits.OnesCount64(^(p | o)) > empties {
		moves := board.LegalMoves(p, o)
		if moves == 0 {
			if board.LegalMoves(o, p) == 0 {
				return 0, 0, false
			}
			p, o = o, p
			continue
		}
		n := r.IntN(bits.OnesCount64(moves))
		for ; n > 0; n-- {
			moves &= moves - 1
		}
		sq := board.FirstSquare(moves)
		f := board.Flips(p, o, sq)
		p, o = o^f, p|f|sq.Bit()
	}
	return p, o, true
}

// A solve of 5 or 6 empties scores its root's moves and nothing below (the nodes of 5 empties
// and fewer are not sorted): ScoredNodes is the root's number of legal moves, 0 for a single
// move, as Edax counts them.
func TestScoredNodesAtRoot(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	s := NewSolverWith(DefaultSolverOptions(1))
	checked := 0
	for checked < 500 {
		p, o, ok := randomPosition(r, 5+r.IntN(2))
		n := bits.OnesCount64(board.LegalMoves(p, o))
		if !ok || n == 0 {
			continue
		}
		want := uint64(n)
		if n == 1 {
			want = 0
		}
		if res := s.Solve(p, o, -64, 64); res.ScoredNodes != want {
			t.Fatalf("p %#x o %#x: %d legal moves, ScoredNodes %d", p, o, n, res.ScoredNodes)
		}
		checked++
	}
}

func solverVariants() map[string]SolverOptions {
	all := DefaultSolverOptions(4)
	all.TableEmpties = 6 // reach the table code in small positions too
	noTable := all
	noTable.Table = false
	noStab := all
	noStab.Stability = false
	noPar := all
	noPar.Parity = false
	noLast := all
	noLast.Last4 = false
	withEval := all
	ev, err := eval.Default()
	if err != nil {
		panic(err)
	}
	withEval.Eval = ev
	withEval.sortDeep = 6 // reach the evaluation's ordering code in small positions too
	mobOrder := all
	mobOrder.sortDeep = 6
	mobOrder.cornerEmpties = 6 // the corner-stability term in small positions too
	plain := all
	plain.noBadOrder, plain.wBad, plain.wCorner = true, -1, -1
	return map[string]SolverOptions{"all": all, "notable": noTable, "nostability": noStab, "noparity": noPar, "nolast4": noLast,
		"evalorder": withEval, "mobilityorder": mobOrder, "plainorder": plain}
}

// TestSolverMatchesMinimax compares exact scores and fail-soft bounds with plain minimax on
// random positions, for every feature switch.
func TestSolverMatchesMinimax(t *testing.T) {
	n, maxEmpties := 3000, 12
	if testing.Short() {
		n, maxEmpties = 200, 10
	}
	r := rand.New(rand.NewPCG(1, 2))
	type pos struct {
		p, o  uint64
		score int
	}
	var cases []pos
	for len(cases) < n {
		e := 1 + r.IntN(maxEmpties)
		if e > 10 && r.IntN(16) != 0 {
			e = 1 + r.IntN(10) // few of the costly ones: plain minimax is slow there
		}
		p, o, ok := randomPosition(r, e)
		if !ok {
			continue
		}
		cases = append(cases, pos{p, o, minimax(p, o)})
	}
	for name, opt := range solverVariants() {
		s := NewSolverWith(opt)
		for i, c := range cases {
			res := s.Solve(c.p, c.o, -64, 64)
			if res.Score != c.score {
				t.Fatalf("%s: case %d (%s): score %d, minimax %d", name, i, obf(c.p, c.o), res.Score, c.score)
			}
			if msg := pvError(c.p, c.o, res); msg != "" {
				t.Fatalf("%s: case %d (%s): %s", name, i, obf(c.p, c.o), msg)
			}
			// A random window: fail-soft bounds must hold.
			a := r.IntN(129) - 64
			b := a + 1 + r.IntN(20)
			v := s.Solve(c.p, c.o, a, b).Score
			switch {
			case v <= a && c.score > v, v >= b && c.score < v, v > a && v < b && v != c.score:
				t.Fatalf("%s: case %d (%s): window (%d,%d) gave %d, exact %d", name, i, obf(c.p, c.o), a, b, v, c.score)
			}
		}
	}
}

// checkPV replays the PV and checks that it is legal and ends with the solved score.
func checkPV(t *testing.T, p, o uint64, res SolveResult) {
	t.Helper()
	if msg := pvError(p, o, res); msg != "" {
		t.Fatal(msg)
	}
}

// pvError describes what is wrong with res's PV from (p, o), or returns "".
func pvError(p, o uint64, res SolveResult) string {
	score := res.Score
	sign := 1
	for i, sq := range res.PV {
		if sq == board.NoSquare {
			if board.LegalMoves(p, o) != 0 {
				return fmt.Sprintf("PV %v: pass at ply %d with legal moves", res.PV, i)
			}
		} else {
			if board.LegalMoves(p, o)&sq.Bit() == 0 {
				return fmt.Sprintf("PV %v: illegal move at ply %d", res.PV, i)
			}
			f := board.Flips(p, o, sq)
			p, o = p|f|sq.Bit(), o^f
		}
		p, o = o, p
		sign = -sign
	}
	if board.LegalMoves(p, o) != 0 || board.LegalMoves(o, p) != 0 {
		return fmt.Sprintf("PV %v does not end the game", res.PV)
	}
	if got := sign * board.DiscDiff(p, o); got != score {
		return fmt.Sprintf("PV %v ends at %d, score %d", res.PV, got, score)
	}
	if len(res.PV) > 0 && res.PV[0] != res.Move && res.Move != board.NoSquare {
		return fmt.Sprintf("PV %v does not start with the move %v", res.PV, res.Move)
	}
	return ""
}

func obf(p, o uint64) string {
	b := board.FromColors(p, o, true)
	return b.OBF()
}

func TestEndEntrySize(t *testing.T) {
	if s := unsafe.Sizeof(endSlot{}); s != 24 {
		t.Fatalf("endSlot is %d bytes, want 24", s)
	}
	// A bucket is one cache line; the table's buckets start on a line as Go aligns large
	// allocations to pages.
	if s := unsafe.Sizeof(endBucket{}); s != 64 {
		t.Fatalf("endBucket is %d bytes, want 64", s)
	}
	tt := newEndTT(1)
	if a := uintptr(unsafe.Pointer(&tt.buckets[0])); a%64 != 0 {
		t.Fatalf("table starts at %#x, not on a cache line", a)
	}
}

// TestLastFlips checks the table flip count of a last move against board.Flips.
func TestLastFlips(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20000; i++ {
		sq := r.IntN(64)
		p := r.Uint64() &^ (1 << uint(sq))
		o := ^p &^ (1 << uint(sq))
		want := bits.OnesCount64(board.Flips(p, o, board.Square(sq)))
		if got := lastFlips(p, sq); got != want {
			t.Fatalf("sq %v p %x: lastFlips %d, Flips %d", board.Square(sq), p, got, want)
		}
	}
}

// TestOrderingSquares checks badSquares and cornerStability against square-by-square
// definitions on random boards.
func TestOrderingSquares(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	cornerSq := [4]int{0, 7, 56, 63}
	for i := 0; i < 20000; i++ {
		x := r.Uint64() & r.Uint64()
		var bad uint64
		stable := 0
		for _, c := range cornerSq {
			cf, cr := c&7, c>>3
			for sq := 0; sq < 64; sq++ {
				f, rk := sq&7, sq>>3
				near := sq != c && abs(f-cf) <= 1 && abs(rk-cr) <= 1
				if near && x&(1<<uint(c)) != 0 {
					bad |= 1 << uint(sq) // x is the empty squares here
				}
				// for stability x is the discs: the corner, and its edge neighbours when x has the corner
				onEdge := near && (f == cf || rk == cr)
				if x&(1<<uint(c)) != 0 && x&(1<<uint(sq)) != 0 && (sq == c || onEdge) {
					stable++
				}
			}
		}
		if got := badSquares(x); got != bad {
			t.Fatalf("badSquares(%#x) = %#x, want %#x", x, got, bad)
		}
		if got := cornerStability(x); got != stable {
			t.Fatalf("cornerStability(%#x) = %d, want %d", x, got, stable)
		}
	}
}

// TestStableDiscs checks on random positions near the end that no disc called stable ever
// flips in a random continuation.
func TestStableDiscs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 3000; i++ {
		p, o, ok := randomPosition(r, 4+r.IntN(30))
		if !ok {
			continue
		}
		sp, so := stableDiscs(p, o), stableDiscs(o, p)
		if sp&^p != 0 || so&^o != 0 {
			t.Fatalf("stable discs outside the side's discs")
		}
		// Play out randomly, checking that stable discs keep their colour.
		black, white := p, o
		turn := true
		for k := 0; k < 64; k++ {
			me, you := black, white
			if !turn {
				me, you = white, black
			}
			moves := board.LegalMoves(me, you)
			if moves == 0 {
				if board.LegalMoves(you, me) == 0 {
					break
				}
				turn = !turn
				continue
			}
			n := r.IntN(bits.OnesCount64(moves))
			for ; n > 0; n-- {
				moves &= moves - 1
			}
			sq := board.FirstSquare(moves)
			f := board.Flips(me, you, sq)
			me, you = me|f|sq.Bit(), you^f
			if turn {
				black, white = me, you
			} else {
				white, black = me, you
			}
			turn = !turn
			if black&sp != sp || white&so != so {
				t.Fatalf("%s: a stable disc flipped", obf(p, o))
			}
		}
	}
}

// ffoProblems loads testdata/fforum-<name>.obf.
func ffoProblems(tb testing.TB, name string) []Problem {
	tb.Helper()
	f, err := os.Open("testdata/fforum-" + name + ".obf")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	ps, err := ParseProblems(f)
	if err != nil {
		tb.Fatal(err)
	}
	return ps
}

func solveProblems(t *testing.T, s *Solver, ps []Problem, first, maxEmpties int) {
	for i, pr := range ps {
		b := pr.Board
		if b.NumEmpties() > maxEmpties {
			continue
		}
		want, _ := pr.Best()
		res := s.Solve(b.P, b.O, -64, 64)
		if res.Score != want {
			t.Errorf("FFO #%d: score %d, want %d", first+i, res.Score, want)
			continue
		}
		ok := false
		for _, m := range pr.Scores {
			if m.Move == res.Move && m.Score == want {
				ok = true
			}
		}
		if !ok {
			t.Errorf("FFO #%d: move %v is not a best move", first+i, res.Move)
		}
		checkPV(t, b.P, b.O, res)
		t.Logf("FFO #%d: %d empties, %v %+d, %d nodes", first+i, b.NumEmpties(), res.Move, res.Score, res.Nodes)
	}
}

func TestFFO1to19(t *testing.T) {
	s := NewSolver(16)
	max := 99
	if testing.Short() {
		max = 20
	}
	solveProblems(t, s, ffoProblems(t, "1-19"), 1, max)
}

func TestFFO20to39(t *testing.T) {
	s := NewSolver(32)
	max := 99
	if testing.Short() {
		max = 19 // FFO #20-#25
	}
	solveProblems(t, s, ffoProblems(t, "20-39"), 20, max)
}

// benchmarkFFO solves the listed FFO positions of one file (numbers as in the file name) with
// a fresh table each iteration, reporting nodes and nodes per second.
func benchmarkFFO(b *testing.B, file string, first int, numbers []int, opt SolverOptions) {
	ps := ffoProblems(b, file)
	s := NewSolverWith(opt)
	var nodes uint64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, n := range numbers {
			s.ClearTable()
			pr := ps[n-first]
			res := s.Solve(pr.Board.P, pr.Board.O, -64, 64)
			if want, _ := pr.Best(); res.Score != want {
				b.Fatalf("FFO #%d: score %d, want %d", n, res.Score, want)
			}
			nodes += res.Nodes
		}
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds()/1e6, "Mnodes/s")
}

// BenchmarkFFO20s is the 20-empties group of FFO #20-#39: seconds per run.
func BenchmarkFFO20s(b *testing.B) {
	benchmarkFFO(b, "20-39", 20, []int{26, 27, 28, 29, 30, 31, 32, 33, 34}, DefaultSolverOptions(64))
}

// BenchmarkFFO40s is FFO #40-#44 (20 to 23 empties).
func BenchmarkFFO40s(b *testing.B) {
	benchmarkFFO(b, "40-59", 40, []int{40, 41, 42, 43, 44}, DefaultSolverOptions(64))
}

// BenchmarkSolverFeatures solves FFO #21-#31 (15 to 20 empties) with every technique on, then
// with each one off, in one invocation so that the ratios are comparable:
//
//	go test -run XXX -bench SolverFeatures -benchtime 1x ./search
func BenchmarkSolverFeatures(b *testing.B) {
	numbers := []int{21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31}
	all := DefaultSolverOptions(64)
	variants := []struct {
		name string
		off  func(*SolverOptions)
	}{
		{"all", func(*SolverOptions) {}},
		{"no-table", func(o *SolverOptions) { o.Table = false }},
		{"no-stability", func(o *SolverOptions) { o.Stability = false }},
		{"no-parity", func(o *SolverOptions) { o.Parity = false }},
		{"no-last4", func(o *SolverOptions) { o.Last4 = false }},
		{"no-aspiration", func(o *SolverOptions) { o.Aspiration = false }},
	}
	for _, v := range variants {
		opt := all
		v.off(&opt)
		b.Run(v.name, func(b *testing.B) { benchmarkFFO(b, "20-39", 20, numbers, opt) })
	}
}

// TestSolverAllocatesNothingPerNode: the search below the root allocates nothing (Solve itself
// allocates only the PV it returns).
func TestSolverAllocatesNothingPerNode(t *testing.T) {
	b := ffoProblems(t, "1-19")[0].Board
	s := NewSolver(4)
	empties := b.NumEmpties()
	allocs := testing.AllocsPerRun(3, func() {
		s.ClearTable()
		s.search(b.P, b.O, -65, 65, empties, s.rootParity(b.P, b.O))
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per solve", allocs)
	}
}

// TestSolveWindows checks fail-soft bounds with random windows, aspiration included, on FFO
// positions with known exact scores.
func TestSolveWindows(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	s := NewSolver(16)
	ps := ffoProblems(t, "1-19")
	n := 300
	if testing.Short() {
		n = 60
	}
	for i := 0; i < n; i++ {
		pr := ps[r.IntN(len(ps))]
		exact, _ := pr.Best()
		a := r.IntN(129) - 64
		b := a + 1 + r.IntN(40)
		if r.IntN(3) == 0 { // a window that misses the exact score
			a = exact + 1 + r.IntN(10)
			b = a + 2 + r.IntN(30)
			if r.IntN(2) == 0 {
				a, b = exact-b, exact-a
			}
		}
		s.ClearTable() // a warm table would answer from earlier solves
		v := s.Solve(pr.Board.P, pr.Board.O, a, b).Score
		switch {
		case v <= a && exact > v, v >= b && exact < v, v > a && v < b && v != exact:
			t.Fatalf("line %d: window (%d,%d) gave %d, exact %d", pr.Line, a, b, v, exact)
		}
	}
}

// TestFullLines checks fullLines against a walk from every square along each direction to
// the board's edges, on random occupancies of every density.
func TestFullLines(t *testing.T) {
	full := func(occ uint64, sq, dc, dr int) bool {
		for _, sign := range []int{1, -1} {
			c, r := sq&7, sq>>3
			for c >= 0 && c < 8 && r >= 0 && r < 8 {
				if occ>>uint(r*8+c)&1 == 0 {
					return false
				}
				c, r = c+sign*dc, r+sign*dr
			}
		}
		return true
	}
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 20000; i++ {
		occ := ^uint64(0)
		for k := r.IntN(12); k > 0; k-- {
			occ &^= 1 << uint(r.IntN(64))
		}
		if i%4 == 0 {
			occ = r.Uint64() | r.Uint64()
		}
		var want [4]uint64
		for sq := 0; sq < 64; sq++ {
			for k, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				if full(occ, sq, d[0], d[1]) {
					want[k] |= 1 << uint(sq)
				}
			}
		}
		h, v, d, a := fullLines(occ)
		if got := [4]uint64{h, v, d, a}; got != want {
			t.Fatalf("fullLines(%#x) = %#x, want %#x", occ, got, want)
		}
	}
}

// TestProvenMoveOfStoppedSolve stops full solves after their first root window, the
// win/loss/draw one: a winning position must name a move that the file's move scores say
// wins by at least the bound proved, a losing one none, and a finished solve none.
func TestProvenMoveOfStoppedSolve(t *testing.T) {
	afterRootWindow = func(s *Solver) { s.stopped = true }
	defer func() { afterRootWindow = nil }()
	s := NewSolver(16)
	wins, losses := 0, 0
	for _, pr := range ffoProblems(t, "1-19")[:12] {
		best, _ := pr.Best()
		s.ClearTable()
		r := s.Solve(pr.Board.P, pr.Board.O, -64, 64)
		switch {
		case best == 0:
			if r.Interrupted || r.Score != 0 || r.ProvenMove != board.NoSquare {
				t.Errorf("line %d: a draw, got %+v", pr.Line, r)
			}
		case best < 0:
			losses++
			if !r.Interrupted || r.ProvenMove != board.NoSquare {
				t.Errorf("line %d: a loss (%d), got interrupted %v, proven move %v", pr.Line, best, r.Interrupted, r.ProvenMove)
			}
		default:
			wins++
			got, ok := 0, false
			for _, m := range pr.Scores {
				if m.Move == r.ProvenMove {
					got, ok = m.Score, true
				}
			}
			if !r.Interrupted || r.ProvenLow < 1 || !ok || got < r.ProvenLow {
				t.Errorf("line %d: a win (%d), got interrupted %v, %v at least %d (file: %d, %v)", pr.Line, best, r.Interrupted, r.ProvenMove, r.ProvenLow, got, ok)
			}
		}
	}
	if wins == 0 || losses == 0 {
		t.Fatalf("%d winning and %d losing positions: want both", wins, losses)
	}
}
