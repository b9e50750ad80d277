package eval

import "github.com/othellogo/othello/board"

// Cache remembers the values of the positions a searcher evaluated last, so that a position
// evaluated again soon is not summed again. In a selective search most positions are
// evaluated more than once within a few thousand nodes: the Multi-ProbCut screen evaluates a
// node, then its check search starts at the same node and its static cut evaluates it again;
// a child valued for the move order at depth 0 is evaluated again when it is searched; the
// leaves of one iteration are the static-cut nodes of the next. On the 12 bench positions at
// depth 18, level 5, 40% of the 11.7 M evaluations repeated a position evaluated shortly
// before (docs/midgame.md, "The evaluation cache").
//
// It is direct-mapped, one slot per hash of the two bitboards, and keeps the exact position,
// so a hit returns exactly what Evaluator.Eval would: the value is a function of the side to
// move's and the opponent's discs alone, whichever colour moves (the stage follows from the
// empties; TestCacheValues checks the colours exchanged). A Cache belongs to one searcher
// (one thread) and one evaluator; nothing in it is shared.
type Cache struct {
	ev    *Evaluator
	slots []cacheSlot
}

// cacheSlot is 24 bytes: the position's two bitboards and its value. An all-zero slot never
// matches, as no position has an empty centre.
type cacheSlot struct {
	p, o uint64
	v    int64
}

// cacheBits sets the cache's size: 8,192 slots, 192 KiB, small enough to stay in the
// second-level cache beside a stage's weight table (docs/midgame.md, "The evaluation cache").
const cacheBits = 13

// NewCache returns an empty cache of ev's values.
func NewCache(ev *Evaluator) *Cache {
	return &Cache{ev: ev, slots: make([]cacheSlot, 1<<cacheBits)}
}

// slot is the one place where the position p, o can be kept.
func (c *Cache) slot(p, o uint64) *cacheSlot {
	h := (p*0x9e3779b97f4a7c15 ^ o*0xc2b2ae3d27d4eb4f) >> (64 - cacheBits)
	return &c.slots[h&(1<<cacheBits-1)]
}

// Lookup returns the value of the position p (side to move), o when the cache holds it.
func (c *Cache) Lookup(p, o uint64) (int, bool) {
	sl := c.slot(p, o)
	if sl.p == p && sl.o == o {
		return int(sl.v), true
	}
	return 0, false
}

// Eval returns the evaluator's value of b, from the cache when b's position is there, and
// keeps it there otherwise (replacing whatever position had the slot).
func (c *Cache) Eval(b *board.Board) int {
	p, o := b.P, b.O
	sl := c.slot(p, o)
	if sl.p == p && sl.o == o {
		return int(sl.v)
	}
	v := c.ev.Eval(b)
	*sl = cacheSlot{p, o, int64(v)}
	return v
}
