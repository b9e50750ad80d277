//go:build !unix

package main

import "time"

// cpuTime is not measured on this system: the CPU column then reads zero.
func cpuTime() time.Duration { return 0 }
