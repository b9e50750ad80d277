//go:build !amd64

package search

// prefetch does nothing where there is no prefetch instruction wrapper.
func prefetch(addr uintptr) {}
