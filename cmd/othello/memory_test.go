package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/othellogo/othello/internal/bigmem"
)

// Table sizes beyond the machine's memory are refused at start-up with a usage error that
// names the flag and the memory available, not allocated until the runtime dies of it.
func TestTablesBeyondMemoryRefused(t *testing.T) {
	if _, _, ok := bigmem.Available(); !ok {
		t.Skip("this system does not say how much memory is available; the requests would be allocated")
	}
	for _, tc := range []struct {
		stdin string
		args  []string
		flag  string
	}{
		{"", []string{"solve", "-hash", "65536", "-jobs", "256", "testdata/none.obf"}, "-hash 65536 with -jobs 256"},
		{"nboard 2\n", []string{"nboard", "-tt", "1000000000"}, "-tt 1000000000"},
		{"name\n", []string{"gtp", "-tt", "1000000000"}, "-tt 1000000000"},
		{"moves\n", []string{"console", "-tt", "1000000000"}, "-tt 1000000000"},
		{"moves\n", []string{"play", "-tt", "1000000000"}, "-tt 1000000000"},
		{"", []string{"bench", "-tt", "1000000000", "-positions", "1", "-depth", "1"}, "-tt 1000000000"},
		{"", []string{"analyze", "-tt", "1000000000", "-depth", "1", "f5"}, "-tt 1000000000"},
		{"", []string{"label", "-tt", "1000000000", "-workers", "2", "-o", "testdata/p.txt", "../../train/testdata/selfplay_30.txt"}, "-tt 1000000000 with -workers 2"},
		{"", []string{"book", "build", "--book", "testdata/b.book", "--tt", "1000000000", "--threads", "2", "../../book/testdata/learn.ggf"}, "--tt 1000000000 with --threads 2"},
		{"", []string{"book", "learn", "--book", "testdata/b.book", "--tt", "1000000000", "../../book/testdata/learn.ggf"}, "--tt 1000000000 with --threads 1"},
		{"", []string{"train", "-exact-tt", "1000000000", "-workers", "3", "-o", "testdata/w.gtw", "../../train/testdata/selfplay_30.txt"}, "-exact-tt 1000000000 with -workers 3"},
		{"", []string{"match", "-a", "tt=4096", "-concurrency", "1000000", "-random", "1"}, "the players' tt= with -concurrency 1000000"},
	} {
		args := append([]string(nil), tc.args...)
		for i, a := range args {
			if strings.HasPrefix(a, "testdata/") {
				args[i] = filepath.Join(t.TempDir(), a[len("testdata/"):])
			}
		}
		if args[0] == "solve" {
			obf := filepath.Join(t.TempDir(), "p.obf")
			if err := os.WriteFile(obf, []byte(ffo1), 0o644); err != nil {
				t.Fatal(err)
			}
			args = append(args[:len(args)-1:len(args)-1], obf)
		}
		code, out, errOut := runCmd(t, tc.stdin, args...)
		if code != 2 || !strings.Contains(errOut, tc.flag) || !strings.Contains(errOut, "available") || !strings.Contains(errOut, "TiB of memory needed") {
			t.Errorf("%v: exit %d, stderr %q, stdout %q; want exit 2 and a message naming %s and the memory available", tc.args, code, errOut, clip(out), tc.flag)
		}
	}
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}
