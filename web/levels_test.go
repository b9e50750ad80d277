package web

import (
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/search"
)

// The page's level menu is the front ends' level table, indexed by level number.
func TestTableLevels(t *testing.T) {
	ls := TableLevels()
	if len(ls) != search.MaxLevel+1 {
		t.Fatalf("%d levels, want %d", len(ls), search.MaxLevel+1)
	}
	for n, l := range ls {
		want, _ := search.LevelFor(n)
		if l.Depth != want.Depth || l.Selectivity != want.Selectivity || l.Exact != want.ExactEmpties || l.WLD != want.WLDEmpties {
			t.Errorf("menu entry %d %+v, level table %+v", n, l, want)
		}
	}
}

// At a level that solves 14 empties exactly, every hint of FFO #1 is its exact score (the
// published ones); at level 2 (exact from 4 empties) none is labelled exact.
func TestHintsExactAtLevel(t *testing.T) {
	const ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X"
	truth := map[string]float64{"g8": 18, "h1": 12, "h7": 6, "a2": 6, "a3": 4, "b1": -4, "a4": -22, "g2": -24}
	if _, _, err := board.ParseOBF(ffo1); err != nil {
		t.Fatal(err)
	}
	ts := newServer(t, Options{})
	for _, c := range []struct {
		level int
		exact bool
	}{{12, true}, {2, false}} {
		var st state
		if code := post(t, ts, "new", map[string]string{"obf": ffo1}, &st); code != 200 {
			t.Fatalf("new: %d", code)
		}
		var reply searchReply
		if code := post(t, ts, "hint", map[string]any{"session": st.Session, "level": c.level}, &reply); code != 200 {
			t.Fatalf("hint at level %d: status %d", c.level, code)
		}
		if len(reply.Lines) != len(truth) {
			t.Fatalf("level %d: %d hint lines, want %d", c.level, len(reply.Lines), len(truth))
		}
		for _, l := range reply.Lines {
			if l.Exact != c.exact {
				t.Errorf("level %d: %s labelled exact=%v (%q)", c.level, l.Move, l.Exact, l.Label)
			}
			if c.exact && l.Score != truth[l.Move] {
				t.Errorf("level %d: %s %+.0f, its exact score is %+.0f", c.level, l.Move, l.Score, truth[l.Move])
			}
		}
	}
}
