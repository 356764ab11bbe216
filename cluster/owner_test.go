package cluster

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/gleaner/gleaner/store"
)

func TestReapRuns(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	exited := exec.Command(os.Args[0], "-test.run=^$")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	owner := func(o *RunOwner) json.RawMessage {
		raw, _ := json.Marshal(RunParams{Owner: o})
		return raw
	}
	cases := []struct {
		name   string
		run    store.Run
		reaped bool
	}{
		{"learner died", store.Run{Status: store.RunRunning, Params: owner(&RunOwner{PID: exited.Process.Pid, Host: host})}, true},
		{"this process", store.Run{Status: store.RunRunning, Params: owner(currentOwner())}, false},
		{"other host, recent", store.Run{Status: store.RunRunning, Params: owner(&RunOwner{PID: 1, Host: host + "-other"})}, false},
		{"no owner, two days old", store.Run{Status: store.RunRunning, StartedAt: time.Now().Add(-48 * time.Hour)}, true},
		{"finished", store.Run{Status: store.RunDone, Params: owner(&RunOwner{PID: exited.Process.Pid, Host: host})}, false},
	}
	want := map[int64]bool{}
	for i := range cases {
		cases[i].run.Site = "s.test"
		if err := st.CreateRun(ctx, &cases[i].run); err != nil {
			t.Fatal(err)
		}
		want[cases[i].run.ID] = cases[i].reaped
	}
	reaped, err := ReapRuns(ctx, st, "s.test")
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]bool{}
	for _, r := range reaped {
		got[r.ID] = true
	}
	for _, c := range cases {
		r, err := st.Run(ctx, c.run.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got[c.run.ID] != c.reaped || (c.reaped && r.Status != store.RunFailed) {
			t.Errorf("%s: reaped %v, status %s; want reaped %v", c.name, got[c.run.ID], r.Status, c.reaped)
		}
	}
}
