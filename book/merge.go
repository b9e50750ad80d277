package book

import "math"

// mergeInto returns the book the file's bytes cur become with what bk changed since ancestor
// (the bytes bk was read from; nil: bk was not read from this file, so all of it is new):
// positions joined, game counts of bk added beyond ancestor's, move values bk set beyond
// ancestor's set (where the file changed the same value too, the deeper stands), values
// re-propagated. cur must be a readable book; an unreadable ancestor counts as none.
func (bk *Book) mergeInto(cur, ancestor []byte) (*Book, error) {
	theirs, _, err := decode(cur, false)
	if err != nil {
		return nil, err
	}
	anc := New()
	if ancestor != nil {
		if a, _, err := decode(ancestor, true); err == nil {
			anc = a
		}
	}
	for k, m := range bk.nodes {
		a := anc.nodes[k]
		if a == nil {
			a = &node{}
		}
		t := theirs.nodes[k]
		if t == nil {
			// Fix derives the value of a position with moves; a finished game keeps its own.
			t = &node{known: m.known, depth: m.depth, score: m.score}
			theirs.nodes[k] = t
		}
		t.wins = addCount(t.wins, m.wins, a.wins)
		t.draws = addCount(t.draws, m.draws, a.draws)
		t.losses = addCount(t.losses, m.losses, a.losses)
		for _, mv := range m.moves {
			if mv.depth == unknownDepth {
				continue
			}
			av, tv := a.find(mv.sq), t.find(mv.sq)
			mine := av == nil || av.value != mv.value || av.depth != mv.depth
			theirsToo := tv != nil && (av == nil || tv.value != av.value || tv.depth != av.depth)
			switch {
			case tv == nil:
				t.set(mv)
			case !mine:
			case theirsToo && tv.depth > mv.depth:
			default:
				t.set(mv)
			}
		}
	}
	theirs.Fix()
	return theirs, nil
}

// addCount is theirs plus what mine added beyond ancestor, within a uint32.
func addCount(theirs, mine, ancestor uint32) uint32 {
	v := int64(theirs) + int64(mine) - int64(ancestor)
	return uint32(min(max(v, 0), math.MaxUint32))
}
