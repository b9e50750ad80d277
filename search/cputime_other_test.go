//go:build !unix

package search

import "time"

var processStart = time.Now()

// processTime falls back to the wall clock where there is no getrusage.
func processTime() time.Duration { return time.Since(processStart) }
