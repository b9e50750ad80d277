package bigmem

// prefetch asks the processor to bring the cache line at addr closer (PREFETCHT0); it never
// faults and has no other effect.
//
//go:noescape
func Prefetch(addr uintptr)
