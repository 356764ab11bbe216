//go:build !linux

package chromeproc

import (
	"os/exec"
	"syscall"
)

// SetProcAttr puts Chromium in its own process group so it can be killed as
// a whole.
func SetProcAttr(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = new(syscall.SysProcAttr)
	}
	cmd.SysProcAttr.Setpgid = true
}
