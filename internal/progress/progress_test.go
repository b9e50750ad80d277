package progress

import (
	"bytes"
	"strings"
	"testing"
)

// Off a terminal, every redraw is one line ending in a newline, without carriage returns.
func TestLogLines(t *testing.T) {
	var buf bytes.Buffer
	bar := New(&buf, 3, "work")
	for i := 0; i < 3; i++ {
		bar.Add(1)
	}
	bar.Finish()
	out := buf.String()
	if out == "" || strings.Contains(out, "\r") || !strings.HasSuffix(out, "\n") || !strings.Contains(out, "work") || !strings.Contains(out, "3/3") {
		t.Errorf("bar output %q: want whole lines naming the work and the count", out)
	}
	if IsTerminal(&buf) {
		t.Error("a buffer taken for a terminal")
	}
}
