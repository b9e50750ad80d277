//go:build !amd64

package bigmem

// prefetch does nothing where there is no prefetch instruction wrapper.
func Prefetch(addr uintptr) {}
