package treesim

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"github.com/othellogo/othello/internal/textline"
	"io"
	"math/bits"
	"os"
	"strconv"
	"strings"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/eval"
	"github.com/othellogo/othello/search"
)

// Othello trees: the same step-synchronous model over the search tree of a real position. A
// node is a position; its children are its legal moves (a pass is the one child of a position
// whose side to move has none; a finished game has none) in the engine's move order at the
// node's height; a leaf is worth the pattern evaluation, a finished game its disc difference;
// and the predicted distribution of a node's value comes from the engine's Multi-ProbCut fit
// of the value at a height on the static value. The tree is generated from the positions as the
// search goes, so only the nodes a search touches exist.

// maxKids bounds a node's children: no reachable position has more than 33 legal moves.
const maxKids = 34

// MaxOthelloDepth is the deepest Othello tree: the depth-first order's keys give each ply a
// digit of base maxKids in 64 bits.
const MaxOthelloDepth = 12

// othPos is a position: the discs of the side to move and of the opponent.
type othPos struct{ p, o uint64 }

// okid is a child of an Othello node: its signature, static value and position.
type okid struct {
	sig uint64
	h   int32
	pos othPos
}

// The engine's move order (search.orderMoves, leafClasses) without the parts that depend on the
// search's history (the tables' moves and values, killer moves), which a tree fixed in advance
// cannot have: heights 1-2 the fixed order of square types, heights 3-4 the mobility/corner
// score, from height 5 a shallow search of each child (its static value up to height 7, one
// ply more every 3 of height), and at 18 empties or fewer the fewest opponent moves.
const (
	sortHeight      = 3
	evalOrderHeight = 5
	fastestFirstAt  = 18
	cornerSquares   = 0x8100000000000081
	xSquares        = 0x0042000000004200
	cSquares        = 0x4281000000008142
	leafEdges       = 0xFF818181818181FF &^ cornerSquares &^ cSquares
	leafInner       = ^uint64(cornerSquares | xSquares | leafEdges)
)

// OthelloTree is the search tree of one position to a fixed depth. Values are negamax values in
// evaluation units (eval.Scale per disc). A node's signature is its position's hash mixed with
// its depth in the tree (a pass makes the same position possible at two depths, where its
// subtrees differ). Besides the tree it keeps the bounds its oracle (value) found; it is not
// safe for concurrent use.
type OthelloTree struct {
	Depth   int
	Root    board.Board
	root    othPos
	rootSig uint64
	ev      *eval.Evaluator
	pred    *Prediction
	// exact: the tree reaches the end of the game (depth at least the root's empties), and a
	// leaf that a pass left short of the end is solved.
	exact bool
	known boundTable
	kids  [][maxKids]okid // scratch per depth for the oracle
}

// NewOthelloTree returns the tree of position b searched to depth plies (a pass is a ply). A
// depth at least the position's empties makes an endgame tree: every leaf is worth the game's
// final disc difference.
func NewOthelloTree(b board.Board, depth int, ev *eval.Evaluator, pred *Prediction) (*OthelloTree, error) {
	if depth < 1 || depth > MaxOthelloDepth {
		return nil, fmt.Errorf("depth %d: Othello trees want 1 to %d", depth, MaxOthelloDepth)
	}
	if ev == nil || pred == nil {
		return nil, fmt.Errorf("othello tree: want an evaluation and its prediction")
	}
	t := &OthelloTree{Depth: depth, Root: b, root: othPos{b.P, b.O}, ev: ev, pred: pred, exact: b.NumEmpties() <= depth}
	t.rootSig = t.sig(t.root, 0)
	t.kids = make([][maxKids]okid, depth+1)
	return t, nil
}

func (t *OthelloTree) sig(ps othPos, depth int) uint64 {
	return (board.Hash(ps.p, ps.o) ^ splitmix(uint64(depth)+0x7e11)) & (1<<55 - 1)
}

func (t *OthelloTree) terminal(ps othPos) bool {
	return board.LegalMoves(ps.p, ps.o) == 0 && board.LegalMoves(ps.o, ps.p) == 0
}

// static is a position's value without search: the disc difference of a finished game, the
// evaluation otherwise.
func (t *OthelloTree) static(b *board.Board) int32 {
	if board.LegalMoves(b.P, b.O) == 0 && board.LegalMoves(b.O, b.P) == 0 {
		return int32(board.DiscDiff(b.P, b.O) * eval.Scale)
	}
	return int32(t.ev.Eval(b))
}

// leaf is the value of a leaf of the tree.
func (t *OthelloTree) leaf(b *board.Board) int32 {
	if t.exact {
		return t.negamax(b, b.NumEmpties(), -inf, inf)
	}
	return t.static(b)
}

func boardOf(ps othPos) board.Board { return board.FromColors(ps.p, ps.o, true) }

// children writes the children of the node at ps (tree depth depth) into out in the engine's
// order and returns how many there are: 0 for a finished game.
func (t *OthelloTree) children(ps othPos, depth int, out []okid) int {
	p, o := ps.p, ps.o
	moves := board.LegalMoves(p, o)
	parent := boardOf(ps)
	if moves == 0 {
		if board.LegalMoves(o, p) == 0 {
			return 0
		}
		b := parent
		b.Pass()
		out[0] = okid{t.sig(othPos{o, p}, depth+1), t.static(&b), othPos{o, p}}
		return 1
	}
	height := t.Depth - depth
	var sqs [maxKids]board.Square
	var keys [maxKids]int32
	n := 0
	if height < sortHeight {
		for _, class := range [4]uint64{moves & cornerSquares, moves & leafEdges, moves & leafInner, moves & xSquares} {
			for m := class; m != 0; m &= m - 1 {
				sqs[n] = board.FirstSquare(m)
				n++
			}
		}
	} else {
		fastest := bits.OnesCount64(^(p | o)) <= fastestFirstAt
		for m := moves; m != 0; m &= m - 1 {
			sq := board.FirstSquare(m)
			f := board.Flips(p, o, sq)
			cp, co := o&^f, p|f|sq.Bit()
			var key int32
			switch {
			case fastest:
				key = -16*int32(bits.OnesCount64(board.LegalMoves(cp, co))) + 8*int32(bits.OnesCount64(sq.Bit()&cornerSquares))
			case height < evalOrderHeight:
				key = -int32(mobilityScore(cp, co))
			default:
				b := parent
				b.Make(sq)
				key = -t.negamax(&b, (height-evalOrderHeight)/3, -inf, inf)
			}
			// Insertion sort, stable, keys descending.
			k := n
			for k > 0 && keys[k-1] < key {
				keys[k], sqs[k] = keys[k-1], sqs[k-1]
				k--
			}
			keys[k], sqs[k] = key, sq
			n++
		}
	}
	for i, sq := range sqs[:n] {
		b := parent
		b.Make(sq)
		c := othPos{b.P, b.O}
		out[i] = okid{t.sig(c, depth+1), t.static(&b), c}
	}
	return n
}

// negamax is the value of b searched depth plies by plain alpha-beta (a pass costs no ply), the
// ordering search of the highest nodes.
func (t *OthelloTree) negamax(b *board.Board, depth int, alpha, beta int32) int32 {
	if depth == 0 {
		return t.static(b)
	}
	moves := board.LegalMoves(b.P, b.O)
	if moves == 0 {
		if board.LegalMoves(b.O, b.P) == 0 {
			return int32(board.DiscDiff(b.P, b.O) * eval.Scale)
		}
		c := *b
		c.Pass()
		return -t.negamax(&c, depth, -beta, -alpha)
	}
	best := -inf
	for m := moves; m != 0; m &= m - 1 {
		c := *b
		c.Make(board.FirstSquare(m))
		v := -t.negamax(&c, depth-1, -beta, -max(alpha, best))
		if v > best {
			best = v
			if best >= beta {
				break
			}
		}
	}
	return best
}

// mobilityScore is the engine's mobility/corner score that orders the moves at heights 3-4:
// move count difference, corners, X-squares next to empty corners, frontier discs.
func mobilityScore(p, o uint64) int {
	mp := bits.OnesCount64(board.LegalMoves(p, o))
	mo := bits.OnesCount64(board.LegalMoves(o, p))
	cp := bits.OnesCount64(p & cornerSquares)
	co := bits.OnesCount64(o & cornerSquares)
	empty := ^(p | o)
	var openX uint64
	for _, c := range [4][2]uint64{{1 << 0, 1 << 9}, {1 << 7, 1 << 14}, {1 << 56, 1 << 49}, {1 << 63, 1 << 54}} {
		if empty&c[0] != 0 {
			openX |= c[1]
		}
	}
	xp := bits.OnesCount64(p & openX)
	xo := bits.OnesCount64(o & openX)
	fr := adjacent(empty)
	fp := bits.OnesCount64(p & fr)
	fo := bits.OnesCount64(o & fr)
	return 16*(mp-mo) + 64*(cp-co) - 24*(xp-xo) - 4*(fp-fo)
}

// adjacent returns the squares next to (8 directions) some square of b.
func adjacent(b uint64) uint64 {
	const notA, notH = 0xFEFEFEFEFEFEFEFE, 0x7F7F7F7F7F7F7F7F
	h := b | (b<<1)&notA | (b>>1)&notH
	return h | h<<8 | h>>8
}

// value is the exact value of the node at ps (tree depth depth) searched to the tree's leaves:
// a leaf's static value, or the oracle that answers the pseudo shallow searches, as Tree.Value.
func (t *OthelloTree) value(ps othPos, depth int) int32 {
	if depth == t.Depth || t.terminal(ps) {
		b := boardOf(ps)
		return t.leaf(&b)
	}
	lo, _ := t.bound(ps, depth, -inf, inf)
	return lo
}

// bound is Tree.bound over the Othello tree.
func (t *OthelloTree) bound(ps othPos, depth int, alpha, beta int32) (int32, int32) {
	if depth == t.Depth || t.terminal(ps) {
		b := boardOf(ps)
		v := t.leaf(&b)
		return v, v
	}
	sig := t.sig(ps, depth)
	_, lo, hi, ok := t.known.get(sig)
	if ok && (lo == hi || lo >= beta || hi <= alpha) {
		return lo, hi
	}
	if !ok {
		lo, hi = -inf, inf
	}
	kids := &t.kids[depth]
	n := t.children(ps, depth, kids[:])
	best, hiAll := -inf, -inf
	for i := 0; i < n; i++ {
		c := kids[i].pos
		a := max(alpha, best)
		clo, chi := t.bound(c, depth+1, -beta, -a)
		best = max(best, -chi)
		hiAll = max(hiAll, -clo)
		if best >= beta {
			hiAll = inf
			break
		}
	}
	lo, hi = max(lo, best), min(hi, hiAll)
	t.known.put(sig, 0, lo, hi)
	return lo, hi
}

// predict is the predicted distribution (mean, deviation) of the value of a node at height
// height whose static value is h.
func (t *OthelloTree) predict(h int32, ps othPos, height int) (float64, float64) {
	if height == 0 || t.terminal(ps) {
		return float64(h), leafSD
	}
	return t.pred.At(board.Count(^(ps.p | ps.o)), height, float64(h))
}

// leafSD is the deviation given to a value known exactly (a leaf's): the table clamps its ratio
// to the other deviation, so any small value gives the same P_n.
const leafSD = 1.0

// Prediction is the predicted normal distribution of a node's value at a height from its static
// value: the engine's Multi-ProbCut regressions of the value at each height on the static
// evaluation (shallow height 0), per stage of 10 empties, in evaluation units. Heights beyond
// the fit take the highest fitted height of their stage (as the paper treats every depth from 14
// as 14); a stage without fits takes the nearest stage's.
type Prediction struct {
	fit [predStages][predHeights]predFit
}

const (
	predStages  = 7 // empties/10, 0-6
	predHeights = 64
)

type predFit struct {
	ok        bool
	a, b, sd  float64
	fitHeight int
}

// At returns the mean and deviation of the value at height of a position with the given empties
// and static value h.
func (p *Prediction) At(empties, height int, h float64) (float64, float64) {
	f := &p.fit[min(empties/10, predStages-1)][min(height, predHeights-1)]
	return f.a*h + f.b, f.sd
}

// PredictionFor reads the static-value regressions of the Multi-ProbCut fit that the engine uses
// with ev.
func PredictionFor(ev *eval.Evaluator) (*Prediction, error) {
	mpc := search.MPCFor(ev)
	if mpc == nil {
		return nil, fmt.Errorf("no Multi-ProbCut fit for the evaluation")
	}
	var buf bytes.Buffer
	if err := search.WriteMPC(&buf, mpc); err != nil {
		return nil, err
	}
	return parsePrediction(buf.String())
}

// parsePrediction reads the lines "stage height shallow a b sigma samples" (discs) of
// search.WriteMPC and keeps those of shallow height 0.
func parsePrediction(text string) (*Prediction, error) {
	p := &Prediction{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 7 || strings.HasPrefix(f[0], "#") {
			continue
		}
		var v [6]float64
		for i := range v {
			x, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("Multi-ProbCut fit: line %q: %v", sc.Text(), err)
			}
			v[i] = x
		}
		st, h := int(v[0]), int(v[1])
		if v[2] != 0 || st < 0 || st >= predStages || h < 1 || h >= predHeights {
			continue
		}
		p.fit[st][h] = predFit{true, v[3], v[4] * eval.Scale, v[5] * eval.Scale, h}
	}
	any := false
	for st := range p.fit {
		for h := 2; h < predHeights; h++ {
			if !p.fit[st][h].ok && p.fit[st][h-1].ok {
				p.fit[st][h] = p.fit[st][h-1]
			}
		}
		any = any || p.fit[st][1].ok
	}
	if !any {
		return nil, fmt.Errorf("Multi-ProbCut fit: no regression on the static value")
	}
	for h := 1; h < predHeights; h++ {
		for st := range p.fit {
			if p.fit[st][h].ok {
				continue
			}
			for d := 1; d < predStages; d++ {
				if s := st - d; s >= 0 && p.fit[s][h].ok {
					p.fit[st][h] = p.fit[s][h]
					break
				}
				if s := st + d; s < predStages && p.fit[s][h].ok {
					p.fit[st][h] = p.fit[s][h]
					break
				}
			}
		}
	}
	for st := range p.fit {
		p.fit[st][0] = predFit{true, 1, 0, leafSD, 0}
	}
	return p, nil
}

// RunOthello searches tree with the given options. The exact order and free leaves are for
// the artificial trees only.
func (s *Sim) RunOthello(tree *OthelloTree, o Options) (Result, error) {
	if err := o.check(); err != nil {
		return Result{}, err
	}
	if o.Order == Exact || o.FreeLeaves || o.LeafSteps {
		return Result{}, fmt.Errorf("Othello trees: the exact order, free leaves and leaf steps are for artificial trees")
	}
	s.tree, s.oth = nil, tree
	s.b, s.d = maxKids-1, tree.Depth
	_, sd := tree.pred.At(tree.Root.NumEmpties(), tree.Depth, 0)
	return s.simulate(o, sd)
}

// LoadPositions reads the positions of an Othello tree experiment: "bench" for the positions of
// the search's bench, or a file with one position a line, either 64 squares and the side to
// move (.obf; anything after a ";" is ignored) or a transcript played from the start. Blank
// lines and lines starting with "#" are skipped.
func LoadPositions(path string) ([]board.Board, error) {
	if path == "bench" {
		return search.BenchPositions(), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ps, err := ReadPositions(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return ps, nil
}

// ReadPositions reads positions in LoadPositions' format.
func ReadPositions(r io.Reader) ([]board.Board, error) {
	var out []board.Board
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		var b board.Board
		var err error
		if len(text) >= 64 && strings.Trim(text[:64], "XxOo*0-.") == "" {
			obf := text
			if i := strings.IndexByte(obf, ';'); i >= 0 {
				obf = obf[:i]
			}
			b, err = board.ParsePosition(obf, "")
		} else {
			_, b, err = board.ParseTranscript(text)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		out = append(out, b)
	}
	if err := sc.Err(); err != nil {
		return nil, textline.Err(err, line, bufio.MaxScanTokenSize, "a position")
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no positions")
	}
	return out, nil
}

// othelloSetup is what the Othello trees of one experiment share: the evaluation and its
// prediction, both read-only.
type othelloSetup struct {
	ev   *eval.Evaluator
	pred *Prediction
}

func newOthelloSetup(cfg Config) (*othelloSetup, error) {
	if cfg.Depth < 1 || cfg.Depth > MaxOthelloDepth {
		return nil, fmt.Errorf("depth %d: Othello trees want 1 to %d", cfg.Depth, MaxOthelloDepth)
	}
	if cfg.FreeLeaves {
		return nil, fmt.Errorf("Othello trees: free leaves are for artificial trees")
	}
	for _, o := range cfg.Orders {
		if o == Exact {
			return nil, fmt.Errorf("Othello trees: the exact order is for artificial trees")
		}
	}
	ev, err := eval.Default()
	if err != nil {
		return nil, err
	}
	pred, err := PredictionFor(ev)
	if err != nil {
		return nil, err
	}
	return &othelloSetup{ev, pred}, nil
}

// runTree is runTree for the Othello tree of position i: the sequential search and every
// simulation, each checked against the tree's value.
func (o *othelloSetup) runTree(ctx context.Context, s *Sim, cfg Config, i int) (treeResult, error) {
	tree, err := NewOthelloTree(cfg.Positions[i], cfg.Depth, o.ev, o.pred)
	if err != nil {
		return treeResult{}, err
	}
	want := tree.value(tree.root, 0)
	q := NewOthelloSequential(tree, cfg.IDStep)
	if v := q.Search(); v != want {
		return treeResult{}, fmt.Errorf("position %d: sequential search found %d, the tree's value is %d", i+1, v, want)
	}
	r := treeResult{seq: q.Nodes, branch: float64(q.Children) / float64(max(q.Expanded, 1))}
	r.steps = make([][]int, len(cfg.Orders))
	r.nodes = make([][]int, len(cfg.Orders))
	for k, order := range cfg.Orders {
		r.steps[k] = make([]int, len(cfg.Procs))
		r.nodes[k] = make([]int, len(cfg.Procs))
		for p, procs := range cfg.Procs {
			if err := ctx.Err(); err != nil {
				return r, err
			}
			res, err := s.RunOthello(tree, Options{order, procs, cfg.IDStep, false, false, false})
			if err != nil {
				return r, fmt.Errorf("position %d, %v, %d processes: %w", i+1, order, procs, err)
			}
			if res.Value != want {
				return r, fmt.Errorf("position %d, %v, %d processes: found %d, the tree's value is %d", i+1, order, procs, res.Value, want)
			}
			r.steps[k][p], r.nodes[k][p] = res.Steps, res.Nodes
		}
	}
	return r, nil
}
