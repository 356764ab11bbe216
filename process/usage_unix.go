//go:build unix

package process

import (
	"runtime"
	"syscall"
	"time"
)

// CPU is this process's user and system CPU time so far (0 when it cannot
// be read).
func CPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// PeakRSS is this process's peak resident set size in bytes so far (0 when
// it cannot be read).
func PeakRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) // bytes on macOS
	}
	return int64(ru.Maxrss) << 10 // kilobytes on Linux and the BSDs
}
