package search

// evalCache remembers the static values of the positions an engine evaluated last, so that a
// position evaluated again soon is not summed again. In a selective search most positions are
// evaluated more than once within a few thousand nodes: the Multi-ProbCut screen evaluates a
// node, then its check search starts at the same node and its static cut evaluates it again;
// a child valued for the move order at depth 0 is evaluated again when it is searched; the
// leaves of one iteration are the static-cut nodes of the next. On the 12 bench positions at
// depth 18, level 5, 40% of the 11.7 M evaluations repeated a position evaluated shortly
// before (docs/midgame.md, "The evaluation cache").
//
// It is direct-mapped, one slot per hash of the two bitboards, and holds the exact position,
// so a hit returns exactly what the evaluator would: the pattern evaluation is a function of
// the side to move's and the opponent's discs alone (the stage follows from the empties).
// Each engine, helpers of a parallel search included, owns its cache; nothing is shared.
type evalCache struct {
	slots []evalSlot
}

// evalSlot is 24 bytes: the position's two bitboards and its value. An all-zero slot never
// matches, as no position has an empty centre.
type evalSlot struct {
	p, o uint64
	v    int64
}

// evalCacheBits sets the cache's size: 8,192 slots, 192 KiB, small enough to stay in the
// second-level cache beside a stage's weight table. Bench depth 18 level 5, CPU seconds
// against no cache in alternating runs: 2^11-2^13 slots 0.92-0.94 of the time, 2^16 slower
// (docs/midgame.md).
const evalCacheBits = 13

func newEvalCache() *evalCache {
	return &evalCache{slots: make([]evalSlot, 1<<evalCacheBits)}
}

// slot is the one place the position p, o can be kept.
func (c *evalCache) slot(p, o uint64) *evalSlot {
	h := (p*0x9e3779b97f4a7c15 ^ o*0xc2b2ae3d27d4eb4f) >> (64 - evalCacheBits)
	return &c.slots[h&(1<<evalCacheBits-1)]
}
