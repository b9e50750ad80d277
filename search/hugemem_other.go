//go:build !linux

package search

func adviseHugePages([]byte) {}
