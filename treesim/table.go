package treesim

// boundTable maps a node's signature to bounds on its value and the depth they were searched
// to: the transposition table of a simulated search, and the oracle's memory of a tree. Open
// addressing with linear probing; it only grows.
type boundTable struct {
	slots []slot
	n     int
}

// slot is one entry, 16 bytes: the signature plus one (0 marks an empty slot) with the depth in
// its top byte (signatures use at most 56 bits), and the bounds.
type slot struct {
	key    uint64
	lo, hi int32
}

const depthShift = 56

func (t *boundTable) reset() {
	clear(t.slots)
	t.n = 0
}

func (t *boundTable) find(sig uint64) *slot {
	if len(t.slots) == 0 {
		return nil
	}
	mask := uint64(len(t.slots) - 1)
	k := sig + 1
	for i := splitmix(sig) & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.key == 0 {
			return nil
		}
		if s.key&(1<<depthShift-1) == k {
			return s
		}
	}
}

// get returns the bounds stored for sig and their depth.
func (t *boundTable) get(sig uint64) (depth uint8, lo, hi int32, ok bool) {
	s := t.find(sig)
	if s == nil {
		return 0, 0, 0, false
	}
	return uint8(s.key >> depthShift), s.lo, s.hi, true
}

// put stores bounds for sig, replacing what is there.
func (t *boundTable) put(sig uint64, depth uint8, lo, hi int32) {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	k := sig + 1
	for i := splitmix(sig) & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.key == 0 {
			t.n++
		} else if s.key&(1<<depthShift-1) != k {
			continue
		}
		*s = slot{k | uint64(depth)<<depthShift, lo, hi}
		return
	}
}

func (t *boundTable) grow() {
	old := t.slots
	t.slots = make([]slot, max(1024, 2*len(old)))
	t.n = 0
	for _, s := range old {
		if s.key != 0 {
			t.put(s.key&(1<<depthShift-1)-1, uint8(s.key>>depthShift), s.lo, s.hi)
		}
	}
}

// store merges a search's result into a transposition table: a deeper result replaces a
// shallower one, results of the same depth are intersected.
func store(t *boundTable, sig uint64, depth uint8, lo, hi int32) {
	d, elo, ehi, ok := t.get(sig)
	switch {
	case !ok || depth > d:
		t.put(sig, depth, lo, hi)
	case depth == d:
		t.put(sig, depth, max(lo, elo), min(hi, ehi))
	}
}
