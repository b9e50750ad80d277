//go:build !linux

package redistest

import "os/exec"

// DieWithParent does nothing where the kernel cannot kill a child with its parent.
func DieWithParent(cmd *exec.Cmd) {}
