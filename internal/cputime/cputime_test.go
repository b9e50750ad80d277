package cputime

import (
	"runtime"
	"testing"
)

// The process's CPU time never goes back, and grows over a busy loop where it is measured.
func TestProcess(t *testing.T) {
	start := Process()
	x := 0
	for i := 0; i < 50_000_000; i++ {
		x += i ^ (x >> 3)
	}
	runtime.KeepAlive(x)
	end := Process()
	if end == 0 {
		t.Skip("CPU time is not measured on this system")
	}
	if end <= start {
		t.Fatalf("CPU time did not grow over a busy loop: %v then %v", start, end)
	}
}
