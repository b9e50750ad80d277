//go:build !linux

package cluster

import "time"

// pause waits d without using the CPU, as a network round trip would.
func pause(d time.Duration) { time.Sleep(d) }
