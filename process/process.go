// Package process tells whether the process that owns something is still
// running: Alive for a process of this machine, and Owner, the host, pid
// and nonce a process records beside what it holds (a crawl, a lease), with
// the one rule every holder is judged by (Holds). It also reads what this
// process has used so far (CPU, PeakRSS), for cost reports.
package process

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Alive reports whether a process of this machine with this pid exists
// and is not a zombie (it exited and waits for its parent). A process of
// another user exists too (signal 0 answers EPERM).
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	if pid == os.Getpid() {
		return true
	}
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		// The state follows the parenthesized command name.
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && i+2 < len(b) {
			return b[i+2] != 'Z'
		}
		return true
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Owner names a process wherever it runs: its host, its pid there and a
// nonce that tells apart two owners of one process (two crawls, or a pid
// used again).
type Owner struct {
	Host  string
	PID   int
	Nonce int64
}

// Self is a new owner for this process.
func Self() Owner {
	host, _ := os.Hostname()
	return Owner{Host: host, PID: os.Getpid(), Nonce: time.Now().UnixNano()}
}

// String is the owner as stored: "host:pid:nonce".
func (o Owner) String() string { return fmt.Sprintf("%s:%d:%d", o.Host, o.PID, o.Nonce) }

// ParseOwner reads an owner written by String.
func ParseOwner(s string) (Owner, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return Owner{}, fmt.Errorf("owner %q: want host:pid:nonce", s)
	}
	pid, err := strconv.Atoi(parts[1])
	if err != nil || pid <= 0 {
		return Owner{}, fmt.Errorf("owner %q: bad pid", s)
	}
	nonce, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return Owner{}, fmt.Errorf("owner %q: bad nonce: %w", s, err)
	}
	return Owner{Host: parts[0], PID: pid, Nonce: nonce}, nil
}

// Alive reports whether the owner may still be running: true unless it ran
// on this host and its pid is gone (a process of another machine cannot
// be checked from here: its lease decides).
func (o Owner) Alive() bool {
	host, _ := os.Hostname()
	return o.Host != host || Alive(o.PID)
}

// Holds reports whether what the owner recorded (as text) with a lease
// until the given time is still its at now: the lease has not expired and
// the owner may be running (Alive). An owner that cannot be read holds
// nothing.
func Holds(owner string, until, now time.Time) bool {
	o, err := ParseOwner(owner)
	return err == nil && now.Before(until) && o.Alive()
}

// AliveOwner reports whether the owner written as text may still be
// running (Owner.Alive); an owner that cannot be read is not.
func AliveOwner(owner string) bool {
	o, err := ParseOwner(owner)
	return err == nil && o.Alive()
}
