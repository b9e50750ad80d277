package redistest

import (
	"os/exec"
	"syscall"
)

// DieWithParent makes the kernel kill cmd when the test process dies, so that a test binary
// killed half-way leaves no redis-server or worker behind.
func DieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
