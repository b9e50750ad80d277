//go:build !linux

package bigmem

func adviseHugePages([]byte) {}
