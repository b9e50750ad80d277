package cluster

import (
	"syscall"
	"time"
)

// pause waits d without using the CPU, as a network round trip would. time.Sleep has a
// resolution of about a millisecond here (its timers wake through the poller), so that a
// simulated 0.5 ms took 1.1 ms; nanosleep keeps to the delay within the scheduler's slack
// (0.64 ms for 0.5 ms on this machine).
func pause(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	for syscall.Nanosleep(&ts, &ts) == syscall.EINTR {
	}
}
