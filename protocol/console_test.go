package protocol

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rs/zerolog"
)

// Against itself ("mode both") the console plays a whole game to the end by itself.
func TestConsoleSelfPlay(t *testing.T) {
	var out bytes.Buffer
	opt := Options{Log: zerolog.Nop(), Depth: 1, EngineBlack: true, EngineWhite: true}
	if err := RunConsole(context.Background(), &fakeEngine{}, strings.NewReader("moves\n"), &out, opt); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if !strings.Contains(s, "game over:") {
		t.Fatalf("no game over in\n%s", s)
	}
	lines := strings.Split(strings.TrimSpace(s), "\n")
	tr := lines[len(lines)-1]
	if len(tr) < 2*50 || len(tr)%2 != 0 {
		t.Errorf("final transcript %q is too short for a full game", tr)
	}
}

func FuzzConsole(f *testing.F) {
	f.Add("f5d6\nhint 2\nundo\nredo\ngo\nmoves\nggf\n")
	f.Add("mode both\nlevel 1\n")
	f.Add("setboard ---------------------------OX------XO--------------------------- X\nsolve\nnew\n")
	f.Add("color white\nundo 3\nredo 9\nplay pa\n\x00\xff\n")
	f.Fuzz(func(t *testing.T, input string) {
		var out bytes.Buffer
		opt := Options{Log: zerolog.Nop(), Depth: 1}
		if err := RunConsole(context.Background(), &fakeEngine{noDeep: true}, strings.NewReader(input), &out, opt); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < out.Len(); i++ {
			if c := out.Bytes()[i]; c != '\n' && (c < 32 || c > 126) {
				t.Fatalf("output has byte %#x:\n%s", c, out.String())
			}
		}
	})
}
