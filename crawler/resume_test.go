package crawler

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/crawlcorpus"
	"github.com/gleaner/gleaner/fetchpolicy"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/store"
)

// childEnv carries the configuration of a crawl run in a child process.
const childEnv = "GLEANER_CRAWLER_CHILD"

// TestResumeChild is the crawler process of TestKillResume; it does nothing
// unless started by it.
func TestResumeChild(t *testing.T) {
	spec := os.Getenv(childEnv)
	if spec == "" {
		t.Skip("run by TestKillResume")
	}
	var job struct {
		DB  string
		Cfg Config
	}
	if err := json.Unmarshal([]byte(spec), &job); err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(context.Background(), job.DB)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c, err := New(db, job.Cfg)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("child done: %s %s\n", sum.Stop, sum.Counters)
}

// TestKillResume kills a crawler process with SIGKILL in the middle of a
// crawl, runs it again with the same configuration, and checks the
// accounting: the crawl completes, every URL was requested at most once
// (plus once per redirect leading to it, plus once for the URLs in flight
// without a stored page at the kill), every fetched URL has exactly one
// stored page, and nothing is left leased.
func TestKillResume(t *testing.T) {
	srv := ownFixtureWeb(t, fixtures.Options{Seed: 6, Slow: -1, CrawlDelay: -1})
	dbPath := filepath.Join(t.TempDir(), "resume.db")
	cfg := fixtureConfig(srv, "resume")
	cfg.Delay, cfg.Workers, cfg.MaxPages, cfg.LearnAt = 15*time.Millisecond, 4, 90, 8
	spec, _ := json.Marshal(struct {
		DB  string
		Cfg Config
	}{dbPath, cfg})
	start := func() *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^TestResumeChild$", "-test.v")
		cmd.Env = append(os.Environ(), childEnv+"="+string(spec))
		return cmd
	}

	// First run: killed once 30 URLs are done.
	cmd := start()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var db *store.DB
	deadline := time.Now().Add(60 * time.Second)
	for {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the child crawler made no progress")
		}
		time.Sleep(20 * time.Millisecond)
		if db == nil {
			if _, err := os.Stat(dbPath); err != nil {
				continue
			}
			var err error
			if db, err = store.Open(ctx, dbPath); err != nil {
				t.Fatal(err)
			}
			defer db.Close()
		}
		var n int
		if err := db.SQL().QueryRow(`SELECT COUNT(*) FROM crawl_frontier WHERE crawl = 'resume' AND fetch_seq > 0`).Scan(&n); err != nil {
			continue // tables not made yet
		}
		if n >= 30 {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	// URLs in flight at the kill: with a stored page they are processed from
	// it; without one they were cut mid-fetch and are fetched again.
	inFlight := map[string]bool{}
	rows, err := db.SQL().Query(`SELECT url FROM crawl_frontier WHERE crawl = 'resume' AND state = 'leased'`)
	if err != nil {
		t.Fatal(err)
	}
	stored, refetch := 0, map[string]bool{}
	for rows.Next() {
		var u string
		rows.Scan(&u)
		inFlight[u] = true
		if _, err := db.PageByKey(ctx, Dataset("resume"), u); err == nil {
			stored++
		} else {
			refetch[u] = true
		}
	}
	rows.Close()
	t.Logf("killed with %d URLs in flight (%d already stored)", len(inFlight), stored)

	// Second run: the same command, to completion.
	out, err := start().CombinedOutput()
	if err != nil {
		t.Fatalf("second run: %v\n%s", err, out)
	}

	cnt, err := CrawlCounters(ctx, db, "resume")
	if err != nil {
		t.Fatal(err)
	}
	if cnt.Tried != cfg.MaxPages || cnt.Leased != 0 {
		t.Errorf("after resume: %s, %d leased; want %d tried, none leased", cnt, cnt.Leased, cfg.MaxPages)
	}
	// Every fetched URL has its one stored page, and every stored page of
	// the crawl belongs to a fetched URL.
	fetched, err := Fetched(ctx, db, "resume")
	if err != nil {
		t.Fatal(err)
	}
	pages, err := db.Pages(ctx, store.PageQuery{Dataset: Dataset("resume")})
	if err != nil {
		t.Fatal(err)
	}
	byURL := map[string]int64{}
	for _, p := range pages {
		byURL[p.URL] = p.ID
	}
	for _, f := range fetched {
		if f.PageID == 0 || byURL[f.URL] != f.PageID {
			t.Errorf("%s: page %d, stored %d", f.URL, f.PageID, byURL[f.URL])
		}
	}
	if len(pages) != len(fetched) {
		t.Errorf("%d stored pages for %d fetched URLs", len(pages), len(fetched))
	}
	// Requests per URL, from the fixtures' log.
	redirectsInto := map[string]int{}
	edges, err := crawlcorpus.Edges(ctx, db, "resume")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edges {
		if e.Text == "redirect" {
			redirectsInto[e.Target]++
		}
	}
	base := map[string]string{}
	for _, s := range srv.Sites {
		base[s.Name] = s.Base
	}
	hits := map[string]int{}
	for _, h := range srv.Hits() {
		if h.Path == "/robots.txt" {
			continue // fetched once per process and host
		}
		u, err := fetchpolicy.Canonicalize(nil, base[h.Site]+h.Path)
		if err != nil {
			t.Fatal(err)
		}
		hits[u.String()]++
	}
	twice := 0
	for u, n := range hits {
		allowed := 1 + redirectsInto[u]
		if refetch[u] {
			allowed++
		}
		if n > allowed {
			t.Errorf("%s requested %d times (allowed %d)", u, n, allowed)
		}
		if n > 1 {
			twice++
		}
	}
	for u := range inFlight {
		if !refetch[u] && hits[u] > 1+redirectsInto[u] {
			t.Errorf("%s was stored before the kill yet fetched again", u)
		}
	}
	t.Logf("%d URLs requested, %d more than once (redirect targets, or cut mid-fetch by the kill); %s", len(hits), twice, cnt)
}

// TestResumeFromStoredPage sets up what a crawler killed between storing a
// page and committing its outcome leaves behind (a leased URL whose page is
// stored), and checks that the next run processes the stored page without
// requesting it again.
func TestResumeFromStoredPage(t *testing.T) {
	srv := ownFixtureWeb(t, fixtures.Options{Seed: 8, Slow: -1, CrawlDelay: -1})
	ctx := context.Background()
	db := tempDB(t)
	cfg := fixtureConfig(srv, "stored")
	cfg.Delay, cfg.LearnAt, cfg.MaxPages = time.Millisecond, -1, 10
	c, err := New(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	// Take the best queued URL, fetch and store it as the dead crawler did.
	var u string
	if err := db.SQL().QueryRow(`SELECT url FROM crawl_frontier WHERE crawl = 'stored' AND state = 'queued' ORDER BY priority DESC, seq LIMIT 1`).Scan(&u); err != nil {
		t.Fatal(err)
	}
	p, ferr := c.fetch.Fetch(ctx, u)
	sp, err := capture.ToStore(u, Dataset("stored"), store.SiteFromDomain, p, ferr)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.PutPages(ctx, []*store.Page{sp}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().Exec(db.Rebind(`UPDATE crawl_frontier SET state = 'leased', lease_owner = 'gone:999999999:1', lease_until = ? WHERE crawl = 'stored' AND url = ?`),
		time.Now().Add(time.Hour).UnixMilli(), u); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().Exec(`UPDATE crawl_crawls SET owner = '', owner_until = 0 WHERE name = 'stored'`); err != nil {
		t.Fatal(err)
	}
	// A request of the dead crawler's may still be logged after the reset
	// (the server logs a hit when the handler ends, and the never-ending
	// ticker ends only when it notices the client left): only requests
	// started after the reset are the resumed crawler's.
	srv.ResetHits()
	resumedAt := time.Now()
	cfg.MaxPages = 20
	c, err = New(db, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(ctx); err != nil {
		t.Fatal(err)
	}
	pu, _ := url.Parse(u)
	for _, h := range srv.Hits() {
		if h.Start.Before(resumedAt) {
			continue
		}
		if h.Path == pu.RequestURI() && srv.Sites[0].Base != "" && pu.Host == hostOf(siteBase(srv, h.Site)) {
			t.Errorf("%s requested again after resume", u)
		}
	}
	var state State
	var pageID int64
	db.SQL().QueryRow(db.Rebind(`SELECT state, page_id FROM crawl_frontier WHERE crawl = 'stored' AND url = ?`), u).Scan(&state, &pageID)
	if state != StateDone || pageID != sp.ID {
		t.Errorf("%s: state %s page %d, want done with the stored page %d", u, state, pageID, sp.ID)
	}
}

func siteBase(srv *fixtures.Server, name string) string {
	for _, s := range srv.Sites {
		if s.Name == name {
			return s.Base
		}
	}
	return ""
}
