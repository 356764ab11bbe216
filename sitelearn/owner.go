package sitelearn

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/gleaner/gleaner/process"
	"github.com/gleaner/gleaner/store"
)

// RunOwner is the process that learns a run, recorded in its parameters
// from the start, so that a run left `running` by a process that died (a
// killed crawl) can be told from one still being learned.
type RunOwner struct {
	PID  int    `json:"pid"`
	Host string `json:"host"`
}

// MaxRunAge is how long a `running` run whose owner cannot be checked (no
// owner recorded, another host) is taken to be still learning.
const MaxRunAge = 24 * time.Hour

func currentOwner() *RunOwner {
	host, _ := os.Hostname()
	return &RunOwner{PID: os.Getpid(), Host: host}
}

// newRun returns a run of site to create before learning, its owner
// recorded.
func newRun(site string, seed int64) *store.Run {
	raw, _ := json.Marshal(RunParams{Owner: currentOwner()})
	return &store.Run{Site: site, Seed: seed, Status: store.RunRunning, Params: raw}
}

// ReapRuns marks failed the runs of site left `running` by a process that
// is gone: its owner ran on this host and no process has its PID any more,
// or, when that cannot be checked, the run started more than MaxRunAge ago.
// It returns the runs it marked; a site with such a run must be learned
// again.
func ReapRuns(ctx context.Context, st store.Store, site string) ([]*store.Run, error) {
	runs, err := st.Runs(ctx, site)
	if err != nil {
		return nil, fmt.Errorf("reap runs of %s: %w", site, err)
	}
	var out []*store.Run
	for _, r := range runs {
		why := abandoned(r)
		if r.Status != store.RunRunning || why == "" {
			continue
		}
		r.Status, r.Message = store.RunFailed, "interrupted: "+why
		if err := st.FinishRun(ctx, r, nil, nil); err != nil {
			return out, fmt.Errorf("reap run %d of %s: %w", r.ID, site, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// abandoned says why a running run's learner is gone, "" when it may be
// learning still.
func abandoned(r *store.Run) string {
	var p RunParams
	_ = json.Unmarshal(r.Params, &p)
	me := currentOwner()
	switch o := p.Owner; {
	case o != nil && o.Host == me.Host && o.PID == me.PID:
		return "" // this process: learning now
	case o != nil && o.Host == me.Host && !process.Alive(o.PID):
		return fmt.Sprintf("its learner (pid %d on %s) died", o.PID, o.Host)
	case (o == nil || o.Host != me.Host) && time.Since(r.StartedAt) > MaxRunAge:
		return fmt.Sprintf("running for more than %v", MaxRunAge)
	}
	return ""
}
