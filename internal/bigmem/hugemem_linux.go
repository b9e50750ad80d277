package bigmem

import "syscall"

const madvHugePage = 14 // MADV_HUGEPAGE

// adviseHugePages asks for transparent huge pages; a kernel without them refuses, which is fine.
func adviseHugePages(b []byte) { _ = syscall.Madvise(b, madvHugePage) }
