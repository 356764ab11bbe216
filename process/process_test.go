package process

import (
	"os"
	"os/exec"
	"testing"
	"time"
)

// deadPID starts and reaps a short process: its pid is free afterwards
// (pids are not reused at once).
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run true: %v", err)
	}
	return cmd.Process.Pid
}

// zombiePID starts a short process and does not reap it until the test
// ends: it stays a zombie meanwhile.
func zombiePID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot run true: %v", err)
	}
	t.Cleanup(func() { cmd.Wait() })
	time.Sleep(100 * time.Millisecond)
	return cmd.Process.Pid
}

func TestAlive(t *testing.T) {
	tests := []struct {
		name string
		pid  int
		want bool
	}{
		{"self", os.Getpid(), true},
		{"parent", os.Getppid(), true},
		{"init", 1, true},
		{"exited", deadPID(t), false},
		{"zombie", zombiePID(t), false},
		{"zero", 0, false},
		{"negative", -4, false},
	}
	for _, tt := range tests {
		if got := Alive(tt.pid); got != tt.want {
			t.Errorf("%s: Alive(%d) = %v, want %v", tt.name, tt.pid, got, tt.want)
		}
	}
}

func TestOwner(t *testing.T) {
	me := Self()
	host, _ := os.Hostname()
	now := time.Now()
	later, earlier := now.Add(time.Minute), now.Add(-time.Minute)
	dead := Owner{Host: host, PID: deadPID(t), Nonce: 1}
	remote := Owner{Host: host + "-elsewhere", PID: dead.PID, Nonce: 2}
	tests := []struct {
		name         string
		owner        string
		until        time.Time
		alive, holds bool
	}{
		{"this process", me.String(), later, true, true},
		{"this process, lease expired", me.String(), earlier, true, false},
		{"dead process of this host", dead.String(), later, false, false},
		{"process of another host", remote.String(), later, true, true},
		{"process of another host, lease expired", remote.String(), earlier, true, false},
		{"unreadable", "nobody", later, false, false},
		{"bad pid", host + ":x:1", later, false, false},
	}
	for _, tt := range tests {
		if got := AliveOwner(tt.owner); got != tt.alive {
			t.Errorf("%s: AliveOwner(%q) = %v, want %v", tt.name, tt.owner, got, tt.alive)
		}
		if got := Holds(tt.owner, tt.until, now); got != tt.holds {
			t.Errorf("%s: Holds(%q) = %v, want %v", tt.name, tt.owner, got, tt.holds)
		}
	}
	if o, err := ParseOwner(me.String()); err != nil || o != me {
		t.Errorf("ParseOwner(String()) = %v, %v; want %v", o, err, me)
	}
}
