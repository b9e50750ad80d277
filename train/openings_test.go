package train

import (
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
)

func TestReadOpenings(t *testing.T) {
	text := "# comment\nf5d6c3\n\nf5f6e6f4\n  f5d6c5  \n"
	for _, c := range []struct{ skip, n, want int }{{0, 0, 3}, {1, 0, 2}, {0, 2, 2}, {1, 1, 1}, {3, 0, 0}} {
		opens, err := ReadOpenings(strings.NewReader(text), c.skip, c.n)
		if err != nil || len(opens) != c.want {
			t.Errorf("skip %d n %d: %d openings, %v; want %d", c.skip, c.n, len(opens), err, c.want)
		}
	}
	opens, _ := ReadOpenings(strings.NewReader(text), 1, 1)
	if len(opens) == 1 && len(opens[0]) != 4 {
		t.Errorf("the second opening has %d moves, want 4", len(opens[0]))
	}
	for _, bad := range []string{"f5d6\nf5zz\n", "f5f5\n"} {
		if _, err := ReadOpenings(strings.NewReader(bad), 0, 0); err == nil || !strings.Contains(err.Error(), "line ") {
			t.Errorf("%q: error %v, want one naming the line", bad, err)
		}
	}
}

func FuzzReadOpenings(f *testing.F) {
	f.Add("f5d6c3\n# comment\n\nf5f6e6f4\n")
	f.Add("f5d6zz")
	f.Add("f5f5")
	f.Fuzz(func(t *testing.T, text string) {
		opens, err := ReadOpenings(strings.NewReader(text), 0, 0)
		if err != nil {
			return
		}
		for _, o := range opens {
			b := board.Start()
			for _, m := range o {
				if !b.Play(m) {
					t.Fatalf("opening %v has an illegal move", o)
				}
			}
		}
	})
}
