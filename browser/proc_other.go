//go:build !linux

package browser

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts Chromium in its own process group so it can be killed as
// a whole.
func setProcAttr(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = new(syscall.SysProcAttr)
	}
	cmd.SysProcAttr.Setpgid = true
}
