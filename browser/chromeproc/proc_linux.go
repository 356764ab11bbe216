package chromeproc

import (
	"os/exec"
	"syscall"
)

// SetProcAttr puts Chromium in its own process group (so it can be killed
// as a whole) and asks the kernel to kill it when the thread that started it
// dies (chromedp starts it from a goroutine locked to its thread for as long
// as the browser runs, so that is when the program dies).
func SetProcAttr(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = new(syscall.SysProcAttr)
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}
