//go:build race

package protocol

// raceEnabled: the race detector slows the search about tenfold; the deepest solves are left out.
const raceEnabled = true
