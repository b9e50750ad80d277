//go:build unix

package search

import (
	"syscall"
	"time"
)

// processTime is the CPU time of the process so far, steadier than the wall clock on a shared
// machine and comparable between two runs side by side.
func processTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
