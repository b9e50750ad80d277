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
			c := newConsole(&fakeEngine{}, o, &out)
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

// varRE matches what changes from run to run: times and the date of a GGF record.
var varRE = regexp.MustCompile(`[0-9]+\.[0-9]+ s|DT\[[^\]]*\]`)

func expectFor(line string) string {
	if line == "" {
		return "<"
	}
	if !varRE.MatchString(line) {
		return "< " + line
	}
	var sb strings.Builder
	last := 0
	for _, m := range varRE.FindAllStringIndex(line, -1) {
		sb.WriteString(regexp.QuoteMeta(line[last:m[0]]))
		if strings.HasPrefix(line[m[0]:], "DT[") {
			sb.WriteString(`DT\[[^\]]*\]`)
		} else {
			sb.WriteString("[0-9.]+ s")
		}
		last = m[1]
	}
	sb.WriteString(regexp.QuoteMeta(line[last:]))
	return "<~ " + sb.String()
}
