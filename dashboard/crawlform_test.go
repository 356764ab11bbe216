package dashboard

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/crawler"
)

func TestLaunchFormConfig(t *testing.T) {
	base := launchForm{Name: "c1", Seeds: "https://example.org/\nhttp://example.net/a", Terms: "wind, solar power"}
	with := func(f func(*launchForm)) launchForm { l := base; f(&l); return l }
	for _, c := range []struct {
		name   string
		form   launchForm
		err    string
		render bool
		check  func(crawler.Config) bool
	}{
		{"defaults", base, "", true, func(c crawler.Config) bool {
			return len(c.Seeds) == 2 && len(c.Terms) == 2 && c.Terms[1] == "solar power" && len(c.AllowHosts) == 0 && c.Delay == 0 && c.MaxPages == 0 && c.Record
		}},
		{"plain with limits", with(func(l *launchForm) {
			l.Mode, l.MaxPages, l.MaxDuration, l.Delay, l.AllowHosts = "plain", "30", "2m", "250ms", "127.0.0.1:8700, 127.0.0.1:8701"
		}), "", false, func(c crawler.Config) bool {
			return c.MaxPages == 30 && c.MaxDuration == 2*time.Minute && c.Delay == 250*time.Millisecond && len(c.AllowHosts) == 2
		}},
		{"no seed", with(func(l *launchForm) { l.Seeds = " " }), "no seed", false, nil},
		{"seed not http", with(func(l *launchForm) { l.Seeds = "file:///etc/passwd" }), "want an http or https URL", false, nil},
		{"negative limit", with(func(l *launchForm) { l.MaxPages = "-3" }), "max pages", false, nil},
		{"bad duration", with(func(l *launchForm) { l.Delay = "soon" }), "delay", false, nil},
		{"bad strategy", with(func(l *launchForm) { l.Strategy = "dfs" }), "dfs", false, nil},
		{"bad mode", with(func(l *launchForm) { l.Mode = "telepathy" }), "mode", false, nil},
	} {
		cfg, render, _, err := c.form.config()
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want one containing %q", c.name, err, c.err)
			}
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case render != c.render || !c.check(cfg):
			t.Errorf("%s: render %v, config %+v", c.name, render, cfg)
		}
	}
}

// TestLaunchObeysTheGuard launches a plain crawl of the fixture web from
// the form without allowing its hosts: as on the command line, loopback
// targets are refused and nothing is fetched.
func TestLaunchObeysTheGuard(t *testing.T) {
	_, db := fixtureStore(t)
	s, ts := startDashboard(t, db, Options{})
	// A web of its own: a late hit of another crawl (the never-ending
	// ticker is logged when its client leaves) cannot land in its log.
	web := ownFixtureWeb(t, 4)
	seeds := fixtureConfig(web, "x").Seeds
	resp := postForm(t, s, ts, "/crawls", url.Values{"name": {"guarded"}, "seeds": {strings.Join(seeds, "\n")}, "terms": {"wind"}, "mode": {"plain"}, "delay": {"1ms"}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/crawls/guarded" {
		t.Fatalf("launch: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	<-s.crawls.get("guarded").done
	c, err := crawler.CrawlCounters(context.Background(), db, "guarded")
	if err != nil {
		t.Fatal(err)
	}
	if c.Outcomes[crawler.OutcomeForbidden] != len(seeds) || c.Tried != 0 || len(web.Hits()) != 0 {
		t.Errorf("counters %v (forbidden %d), %d requests reached the fixture web", c, c.Outcomes[crawler.OutcomeForbidden], len(web.Hits()))
	}
	bad := postForm(t, s, ts, "/crawls", url.Values{"name": {"bad name!"}, "seeds": {seeds[0]}, "terms": {"wind"}, "mode": {"plain"}})
	if bad.StatusCode != http.StatusBadRequest {
		t.Errorf("bad crawl name: status %d, want 400", bad.StatusCode)
	}
}
