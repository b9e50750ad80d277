package textline

import (
	"bufio"
	"errors"
	"strings"
	"testing"
)

// A line past the buffer is named with its number and the limit; other errors pass unchanged.
func TestErr(t *testing.T) {
	sc := bufio.NewScanner(strings.NewReader("f5d6\n" + strings.Repeat("x", 100) + "\n"))
	sc.Buffer(make([]byte, 16), 64)
	n := 0
	for sc.Scan() {
		n++
	}
	if got := Err(sc.Err(), n, 64, "a transcript"); got == nil || got.Error() != "line 2 is longer than 64 bytes: not a transcript" {
		t.Errorf("got %v", got)
	}
	other := errors.New("disk on fire")
	if Err(other, 3, 64, "x") != other {
		t.Error("another error was changed")
	}
	if Err(nil, 3, 64, "x") != nil {
		t.Error("no error became one")
	}
}
