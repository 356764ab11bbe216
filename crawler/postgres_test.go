package crawler

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gleaner/gleaner/crawlcorpus"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/relevance"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/storetest"
)

// Environment of a test binary re-executed as a crawl worker (workerChild).
const (
	envWorkerDB    = "GLEANER_TEST_WORKER_DB"
	envWorkerCrawl = "GLEANER_TEST_WORKER_CRAWL"
)

func TestMain(m *testing.M) {
	if os.Getenv(envWorkerDB) != "" {
		os.Exit(workerChild(os.Getenv(envWorkerDB), os.Getenv(envWorkerCrawl)))
	}
	os.Exit(storetest.Main(m))
}

// workerChild runs one worker of a stored crawl, as `gleaner worker` does,
// and returns the process's exit code.
func workerChild(dsn, name string) int {
	ctx := context.Background()
	db, err := store.Open(ctx, dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	c, err := Join(ctx, db, name, JoinOptions{Logf: func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) }})
	if err == nil {
		_, err = c.Run(ctx)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// sharedConfig is a crawl of the fixture web whose outcome per URL depends on
// the page alone, not on the order of the fetches: a fixed threshold (no
// calibration on the first pages), no near-duplicate filter, single-page
// extraction (no templates learned from the pages met so far), no redirects
// (a redirect's target is an alias or a duplicate depending on which was
// fetched first), nor the never-ending and oversized pages.
func sharedConfig(srv *fixtures.Server, name string) Config {
	cfg := fixtureConfig(srv, name)
	cfg.Threshold = relevance.DefaultThreshold
	cfg.NearDuplicateBits = -1
	cfg.LearnAt = -1
	cfg.Exclude = []string{`/clic\?`, `/go/`, `/artikel/`, `/a/[0-9]`, `/live/ticker`, `/archive/full`}
	cfg.MaxPages = 60
	cfg.Delay = 40 * time.Millisecond
	cfg.Workers = 2
	// Long enough that a loaded machine (heartbeats every TTL/3) does not
	// let a live worker's lease expire and another worker fetch its URL
	// again; short enough that the killed worker's leases come back soon.
	cfg.LeaseTTL = 6 * time.Second
	cfg.Timeout = 20 * time.Second // a loaded machine must not turn a page into a timeout in one crawl only
	return cfg
}

// TestPostgresWorkersKilled runs one crawl with three worker processes on
// one PostgreSQL database and kills one of them with SIGKILL mid-crawl: no
// URL is lost or fetched twice (but those the killed worker was fetching),
// no host is fetched by two workers at once or within the crawl's delay,
// and the corpus is the one a single process crawls alone on SQLite with
// the same budget. The fixture web has endless traps, so the budget cuts the
// crawl, and what it cuts depends on the order of the fetches: the workers
// crawl the URLs the single process fetched (Include), a part of the web
// closed under the crawl (each was found on another of them), which they
// must exhaust within the same budget.
func TestPostgresWorkersKilled(t *testing.T) {
	ctx := context.Background()
	srv := ownFixtureWeb(t, fixtures.Options{Seed: 5, Slow: -1, CrawlDelay: -1, Articles: 8})

	// The single-process reference, on SQLite.
	ref := tempDB(t)
	rc, err := New(ref, sharedConfig(srv, "alone"))
	if err != nil {
		t.Fatal(err)
	}
	rsum, err := rc.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	refFetched, err := Fetched(ctx, ref, "alone")
	if err != nil {
		t.Fatal(err)
	}
	refEnd := time.Now()

	dsn := storetest.PostgresURL(t)
	db, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	cfg := sharedConfig(srv, "shared")
	for _, f := range refFetched {
		cfg.Include = append(cfg.Include, "^"+regexp.QuoteMeta(f.URL)+"$")
	}
	if err := Create(ctx, db, cfg); err != nil {
		t.Fatal(err)
	}
	procs := startWorkers(t, dsn, cfg.Name, 3)
	victim, held := killOneMidCrawl(t, db, cfg.Name, procs, rsum.Counters.Tried/3)
	for i, p := range procs {
		if i == victim {
			continue
		}
		if err := p.Wait(); err != nil {
			t.Errorf("worker %d: %v", i, err)
		}
	}
	cnt, err := CrawlCounters(ctx, db, cfg.Name)
	if err != nil {
		t.Fatal(err)
	}
	if cnt.Leased != 0 || cnt.Tried != rsum.Counters.Tried {
		t.Errorf("workers: %s; alone: %s", cnt, rsum.Counters)
	}
	hits := hitsSince(srv, refEnd)
	checkOnce(t, srv, hits, held)
	checkPolite(t, hits, cfg.Delay)
	sameCorpus(t, ref, "alone", db, cfg.Name)
	t.Logf("alone: %s; workers: %s; the killed worker held %d leases", rsum.Counters, cnt, len(held))
}

// hitsSince is the server's log of the requests that started at t0 or
// later. A request the client dropped (a page refused by its type or size)
// is logged when its handler ends, perhaps after t0: by its start, it is
// the earlier crawl's, not a second fetch by the crawl that follows.
func hitsSince(srv *fixtures.Server, t0 time.Time) []fixtures.Hit {
	var out []fixtures.Hit
	for _, h := range srv.Hits() {
		if !h.Start.Before(t0) {
			out = append(out, h)
		}
	}
	return out
}

// startWorkers re-executes the test binary as n crawl workers.
func startWorkers(t *testing.T, dsn, name string, n int) []*exec.Cmd {
	t.Helper()
	var out []*exec.Cmd
	for i := range n {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), envWorkerDB+"="+dsn, envWorkerCrawl+"="+name)
		log, err := os.Create(fmt.Sprintf("%s/worker%d.log", t.TempDir(), i))
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
			log.Close()
			if t.Failed() {
				b, _ := os.ReadFile(log.Name())
				t.Logf("worker %d log:\n%s", i, b)
			}
		})
		out = append(out, cmd)
	}
	return out
}

// killOneMidCrawl waits until after pages URLs are done and kills with
// SIGKILL a worker that holds leases; it returns the worker's index and the
// URLs it held.
func killOneMidCrawl(t *testing.T, db *store.DB, name string, procs []*exec.Cmd, pages int) (int, map[string]bool) {
	t.Helper()
	pids := map[int]int{}
	for i, p := range procs {
		pids[p.Process.Pid] = i
	}
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		cnt, err := CrawlCounters(context.Background(), db, name)
		if err != nil {
			t.Fatal(err)
		}
		if cnt.Tried >= pages {
			for _, owner := range leaseOwners(t, db, name) {
				i, ok := pids[ownerPID(owner)]
				if !ok {
					continue
				}
				if err := procs[i].Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				procs[i].Wait()
				held := map[string]bool{}
				rows, err := db.SQL().Query(db.Rebind(`SELECT url FROM crawl_frontier WHERE crawl = ? AND lease_owner = ?`), name, owner)
				if err != nil {
					t.Fatal(err)
				}
				for rows.Next() {
					var u string
					rows.Scan(&u)
					held[u] = true
				}
				rows.Close()
				t.Logf("killed worker %d (pid %d) after %d pages, holding %d leases", i, procs[i].Process.Pid, cnt.Tried, len(held))
				return i, held
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no worker held a lease mid-crawl")
	return 0, nil
}

func leaseOwners(t *testing.T, db *store.DB, name string) []string {
	rows, err := db.SQL().Query(db.Rebind(`SELECT DISTINCT lease_owner FROM crawl_frontier WHERE crawl = ? AND state = ?`), name, StateLeased)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var o string
		rows.Scan(&o)
		out = append(out, o)
	}
	return out
}

// ownerPID is the process id in a lease owner (host:pid:nonce).
func ownerPID(owner string) int {
	parts := strings.Split(owner, ":")
	if len(parts) != 3 {
		return 0
	}
	pid, _ := strconv.Atoi(parts[1])
	return pid
}

// checkOnce: every page was requested once, but those the killed worker was
// fetching (its request may have been answered, its result was lost).
func checkOnce(t *testing.T, srv *fixtures.Server, hits []fixtures.Hit, held map[string]bool) {
	t.Helper()
	n := map[string]int{}
	for _, h := range hits {
		if h.Path != "/robots.txt" {
			n[h.Site+" "+h.Path]++
		}
	}
	heldPaths := map[string]bool{}
	for u := range held {
		for _, s := range srv.Sites {
			if p, ok := strings.CutPrefix(u, s.Base); ok {
				heldPaths[s.Name+" "+p] = true
			}
		}
	}
	for k, c := range n {
		if c == 2 && heldPaths[k] {
			t.Logf("%s requested twice: the killed worker was fetching it", k)
			continue
		}
		if c > 1 {
			t.Errorf("%s requested %d times", k, c)
		}
	}
	if len(n) == 0 {
		t.Fatal("the workers requested nothing")
	}
}

// checkPolite: per host, no request started before the previous one ended
// plus the crawl's delay, whichever worker sent them.
func checkPolite(t *testing.T, hits []fixtures.Hit, delay time.Duration) {
	t.Helper()
	bySite := map[string][]fixtures.Hit{}
	for _, h := range hits {
		bySite[h.Site] = append(bySite[h.Site], h)
	}
	checked := 0
	for site, hs := range bySite {
		sort.Slice(hs, func(i, j int) bool { return hs[i].Start.Before(hs[j].Start) })
		for i := 1; i < len(hs); i++ {
			prev, cur := hs[i-1], hs[i]
			if prev.Status >= 300 && prev.Status < 400 {
				continue // a redirect followed within one fetch
			}
			checked++
			// Slack for the millisecond clock of the slots and, for a
			// never-ending stream, the server learning late that the
			// client dropped it.
			slack := 2 * time.Millisecond
			if prev.Path == "/live/ticker" {
				slack = 10 * time.Millisecond
			}
			if gap := cur.Start.Sub(prev.End); gap < delay-slack {
				t.Errorf("%s: %s started %v after %s ended, under the delay %v", site, cur.Path, gap, prev.Path, delay)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d request pairs checked", checked)
	}
}

// sameCorpus: the two crawls fetched the same URLs (paths, the fixture
// servers being one) with the same outcomes, hence the same corpus.
func sameCorpus(t *testing.T, a *store.DB, an string, b *store.DB, bn string) {
	t.Helper()
	outcomes := func(db *store.DB, name string) map[string]Outcome {
		f, err := Fetched(context.Background(), db, name)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]Outcome{}
		for _, u := range f {
			out[u.URL] = u.Outcome
		}
		return out
	}
	oa, ob := outcomes(a, an), outcomes(b, bn)
	for u, o := range oa {
		if ob[u] != o {
			t.Errorf("%s: %q alone, %q by the workers", u, o, ob[u])
		}
	}
	for u, o := range ob {
		if _, ok := oa[u]; !ok {
			t.Errorf("%s: fetched by the workers only (%s)", u, o)
		}
	}
	ca, err := crawlcorpus.Corpus(context.Background(), a, an)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := crawlcorpus.Corpus(context.Background(), b, bn)
	if err != nil {
		t.Fatal(err)
	}
	if len(ca) == 0 || len(ca) != len(cb) {
		t.Errorf("corpus of %d documents alone, %d by the workers", len(ca), len(cb))
	}
}

// TestPostgresManyCrawls: two crawls with their own limits run at once in
// one database, each by two workers; each stops at its own budget, both are
// listed, neither is running any more, and the hosts they share are fetched
// politely across the two crawls (the host slots are the database's).
func TestPostgresManyCrawls(t *testing.T) {
	ctx := context.Background()
	srv := ownFixtureWeb(t, fixtures.Options{Seed: 6, Slow: -1, CrawlDelay: -1, Articles: 8})
	dsn := storetest.PostgresURL(t)
	budgets := map[string]int{"small": 8, "large": 20}
	var dbs []*store.DB
	for range 4 {
		db, err := store.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		dbs = append(dbs, db)
	}
	for name, n := range budgets {
		cfg := sharedConfig(srv, name)
		cfg.MaxPages = n
		if err := Create(ctx, dbs[0], cfg); err != nil {
			t.Fatal(err)
		}
	}
	if err := Create(ctx, dbs[0], sharedConfig(srv, "small")); err == nil {
		t.Error("a second crawl named small was created")
	}
	errs := make(chan error, 4)
	i := 0
	for name := range budgets {
		for range 2 {
			c, err := Join(ctx, dbs[i], name, JoinOptions{})
			if err != nil {
				t.Fatal(err)
			}
			i++
			go func() {
				_, err := c.Run(ctx)
				errs <- err
			}()
		}
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	names, err := Crawls(ctx, dbs[0])
	if err != nil || strings.Join(names, ",") != "large,small" {
		t.Errorf("crawls %v, %v", names, err)
	}
	for name, n := range budgets {
		cnt, err := CrawlCounters(ctx, dbs[0], name)
		if err != nil {
			t.Fatal(err)
		}
		if cnt.Tried != n || cnt.Leased != 0 || cnt.Queued == 0 {
			t.Errorf("crawl %s: %s; want %d tried, URLs left queued", name, cnt, n)
		}
	}
	if running, err := RunningCrawls(ctx, dbs[0]); err != nil || len(running) != 0 {
		t.Errorf("running after their budgets: %v, %v", running, err)
	}
	checkPolite(t, srv.Hits(), sharedConfig(srv, "").Delay)
}

// TestPostgresLearningOnce: three workers crawl with template learning on;
// each learning of a site (at LearnAt pages, at each doubling, at the end)
// is a job claimed once, and every learning run in the store was preceded
// by its job's claim: no site is learned twice for one job.
func TestPostgresLearningOnce(t *testing.T) {
	ctx := context.Background()
	srv := ownFixtureWeb(t, fixtures.Options{Seed: 8, Slow: -1, CrawlDelay: -1, Articles: 8})
	dsn := storetest.PostgresURL(t)
	cfg := sharedConfig(srv, "learn")
	cfg.LearnAt, cfg.MaxPages, cfg.Delay = 4, 36, 5*time.Millisecond
	errs := make(chan error, 3)
	var db *store.DB
	for i := range 3 {
		d, err := store.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		if i == 0 {
			db = d
			if err := Create(ctx, db, cfg); err != nil {
				t.Fatal(err)
			}
		}
		c, err := Join(ctx, d, cfg.Name, JoinOptions{})
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			_, err := c.Run(ctx)
			errs <- err
		}()
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	rows, err := db.SQL().Query(db.Rebind(`SELECT site, COUNT(*) FROM crawl_jobs WHERE crawl = ? GROUP BY site`), cfg.Name)
	if err != nil {
		t.Fatal(err)
	}
	jobs := map[string]int{}
	for rows.Next() {
		var site string
		var n int
		if err := rows.Scan(&site, &n); err != nil {
			t.Fatal(err)
		}
		jobs[site] = n
	}
	rows.Close()
	learned := 0
	for site, n := range jobs {
		runs, err := db.Runs(ctx, site)
		if err != nil {
			t.Fatal(err)
		}
		learned += len(runs)
		if len(runs) > n {
			t.Errorf("site %s: %d learning runs for %d jobs", site, len(runs), n)
		}
	}
	if learned == 0 {
		t.Errorf("no site learned (jobs %v)", jobs)
	}
	t.Logf("jobs per site %v, %d runs", jobs, learned)
}
