package crawler

import (
	"context"
	"net/url"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/store"
)

var (
	webOnce sync.Once
	webSrv  *fixtures.Server
	webErr  error
)

// fixtureWeb returns the fixture web shared by the tests of this package:
// no slow resources, no Crawl-delay (tests that need one start their own).
func fixtureWeb(t testing.TB) *fixtures.Server {
	t.Helper()
	webOnce.Do(func() {
		webSrv, webErr = fixtures.Start(context.Background(), fixtures.Options{Seed: 1, Slow: -1, CrawlDelay: -1})
	})
	if webErr != nil {
		t.Fatal(webErr)
	}
	return webSrv
}

// ownFixtureWeb starts a fixture web for one test (its own request log,
// seed or Crawl-delay), closed when the test ends.
func ownFixtureWeb(t testing.TB, opt fixtures.Options) *fixtures.Server {
	t.Helper()
	srv, err := fixtures.Start(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// fixtureTerms are the seed terms of a crawl on the fixtures' on-topic theme.
func fixtureTerms() []string {
	var out []string
	for _, l := range []fixtures.Lang{fixtures.English, fixtures.French, fixtures.German} {
		out = append(out, fixtures.TopicKeywords(fixtures.OnTopic, l)...)
	}
	return out
}

// fixtureConfig is a fast crawl of the fixture web: its front pages as
// seeds, its hosts allowed, a short per-host delay.
func fixtureConfig(w *fixtures.Server, name string) Config {
	cfg := Config{Name: name, Terms: fixtureTerms(), Delay: 2 * time.Millisecond, Workers: 4, Timeout: 2 * time.Second}
	for _, s := range w.Sites {
		cfg.Seeds = append(cfg.Seeds, s.Base+"/")
		u, _ := url.Parse(s.Base)
		cfg.AllowHosts = append(cfg.AllowHosts, u.Host)
	}
	return cfg
}

func tempDB(t testing.TB) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "crawl.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// groundHarvest is the share of the first n fetched URLs that the fixtures'
// ground truth calls relevant.
func groundHarvest(t testing.TB, w *fixtures.Server, db *store.DB, name string, n int) (float64, int) {
	t.Helper()
	fetched, err := Fetched(context.Background(), db, name)
	if err != nil {
		t.Fatal(err)
	}
	if len(fetched) > n {
		fetched = fetched[:n]
	}
	rel := 0
	for _, f := range fetched {
		if w.Relevant(f.URL) {
			rel++
		}
	}
	if len(fetched) == 0 {
		return 0, 0
	}
	return float64(rel) / float64(len(fetched)), len(fetched)
}
