//go:build !linux

package bigmem

// Available returns how many bytes this process can still allocate as far as the system
// says; this system is not asked (ok is false), so CheckAvailable lets every request through.
func Available() (bytes uint64, source string, ok bool) { return 0, "", false }
