package dashboard

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/store"
)

// TestPauseResumeStop drives a crawl launched from the form: pause stops
// it after the pages in flight, resume runs it again from its frontier,
// stop cancels it.
func TestPauseResumeStop(t *testing.T) {
	_, db := fixtureStore(t)
	s, ts := startDashboard(t, db, Options{})
	cfg := fixtureConfig(ownFixtureWeb(t, 3), "ctl")
	form := url.Values{"name": {"ctl"}, "seeds": {strings.Join(cfg.Seeds, " ")}, "terms": {"wind"}, "mode": {"plain"}, "delay": {"150ms"},
		"timeout": {"2s"}, "allow_hosts": {strings.Join(cfg.AllowHosts, " ")}}
	steps := []struct {
		path, stop string
		code       int
	}{
		{"/crawls", "", http.StatusSeeOther},
		{"/crawls/ctl/pause", crawler.StopPaused, http.StatusSeeOther},
		{"/crawls/ctl/resume", "", http.StatusSeeOther},
		{"/crawls/ctl/stop", crawler.StopCancelled, http.StatusSeeOther},
	}
	tried := 0
	for _, st := range steps {
		if resp := postForm(t, s, ts, st.path, form); resp.StatusCode != st.code {
			t.Fatalf("%s: status %d, want %d", st.path, resp.StatusCode, st.code)
		}
		cr := s.crawls.get("ctl")
		if st.stop == "" {
			waitTried(t, db, "ctl", tried)
			// A running crawl is not launched twice.
			if again := postForm(t, s, ts, "/crawls", form); again.StatusCode != http.StatusBadRequest {
				t.Errorf("launching ctl while it runs: status %d, want 400", again.StatusCode)
			}
			continue
		}
		<-cr.done
		snap := cr.snapshot()
		c, _ := crawler.CrawlCounters(context.Background(), db, "ctl")
		if snap.Stop != st.stop || snap.State != stateStopped || c.Tried <= tried {
			t.Errorf("after %s: %s (%s), tried %d then %d", st.path, snap.State, snap.Stop, tried, c.Tried)
		}
		tried = c.Tried
	}
}

// waitTried waits until crawl name has tried more than n URLs.
func waitTried(t *testing.T, db *store.DB, name string, n int) {
	t.Helper()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if c, err := crawler.CrawlCounters(context.Background(), db, name); err == nil && c.Tried > n {
			return
		}
	}
	t.Fatalf("crawl %s tried no URL beyond %d", name, n)
}
