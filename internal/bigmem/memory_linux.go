package bigmem

// Available returns how many bytes this process can still allocate as far as the system
// says, and where the figure comes from; ok is false when it cannot be known.
func Available() (bytes uint64, source string, ok bool) { return memoryUnder("/") }
