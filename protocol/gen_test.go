package protocol

import (
	"bytes"
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/othellogo/othello/board"
	"github.com/othellogo/othello/ggf"
)

// TestUpdateConsoleScripts rewrites the expected output of the console scripts from their
// input lines, one command at a time (the console answers each command before reading the
// next). It runs only with PROTOCOL_UPDATE=1; the result must be read and checked by hand
// before it is committed. Times become regular expressions.
func TestUpdateConsoleScripts(t *testing.T) {
	if os.Getenv("PROTOCOL_UPDATE") == "" {
		t.Skip("set PROTOCOL_UPDATE=1 to rewrite console and play scripts")
	}
	for _, pat := range []string{"console_*.txt", "play_*.txt"} {
		files, _ := filepath.Glob(filepath.Join("testdata", pat))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			o := testOptions(t)
			o.Depth = 2
			if strings.HasPrefix(filepath.Base(f), "play_") {
				o.EngineWhite = true
			}
			var out bytes.Buffer
			ew := &errWriter{w: &out}
			c := &console{eng: &fakeEngine{}, opt: o, out: ew, game: ggf.New(board.Start()), depth: o.depth(),
				engineBlack: o.EngineBlack, engineWhite: o.EngineWhite}
			var sb strings.Builder
			flush := func() {
				for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
					if out.Len() == 0 {
						break
					}
					sb.WriteString(expectFor(l) + "\n")
				}
				out.Reset()
			}
			lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
			for len(lines) > 0 && strings.HasPrefix(lines[0], "#") {
				sb.WriteString(lines[0] + "\n")
				lines = lines[1:]
			}
			c.start(context.Background())
			flush()
			for _, line := range lines {
				switch {
				case strings.HasPrefix(line, "<"):
					continue
				case strings.HasPrefix(line, ">hex "):
					sb.WriteString(line + "\n")
					b, err := hex.DecodeString(strings.TrimSpace(line[5:]))
					if err != nil {
						t.Fatal(err)
					}
					c.handle(context.Background(), string(b))
					flush()
				case strings.HasPrefix(line, ">long "):
					sb.WriteString(line + "\n")
					c.errorf("line longer than %d bytes ignored", MaxLine) // as RunConsole does
					flush()
				case strings.HasPrefix(line, "> "):
					sb.WriteString(line + "\n")
					c.handle(context.Background(), line[2:])
					flush()
				default:
					sb.WriteString(line + "\n")
				}
			}
			if err := os.WriteFile(f, []byte(sb.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

var timeRE = regexp.MustCompile(`[0-9]+\.[0-9]+ s`)

func expectFor(line string) string {
	if line == "" {
		return "<"
	}
	if !timeRE.MatchString(line) {
		return "< " + line
	}
	parts := timeRE.Split(line, -1)
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return "<~ " + strings.Join(parts, "[0-9.]+ s")
}
