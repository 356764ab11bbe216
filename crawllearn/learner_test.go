package crawllearn

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/sitelearn"
	"github.com/gleaner/gleaner/store"
)

// TestLearnerReapsKilledRun reproduces a crawl killed during its end-of-crawl
// template learning: its run stays `running`, owned by a process that is
// gone, and the site has a page the last finished run does not know. The
// resumed crawl's learner marks the run failed and learns the site again.
func TestLearnerReapsKilledRun(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sites := filepath.Join("..", "cluster", "testdata", "sites")
	m, err := dataset.ReadDir(sites, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dataset.Import(ctx, db, m, dataset.Options{}); err != nil {
		t.Fatal(err)
	}
	const site = "ab.test"
	first, err := sitelearn.Site(ctx, db, site, sitelearn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(sites, "a-1.html"))
	if err != nil {
		t.Fatal(err)
	}
	added := &store.Page{Site: site, URL: "http://ab.test/news/added", RawHTML: []byte(strings.Replace(string(src), "A 1", "Added", 1))}
	if err := db.PutPages(ctx, []*store.Page{added}); err != nil {
		t.Fatal(err)
	}
	killed := &store.Run{Site: site, Status: store.RunRunning, Params: deadOwner(t)}
	if err := db.CreateRun(ctx, killed); err != nil {
		t.Fatal(err)
	}

	l := New(db, Options{LearnAt: 2, Logf: t.Logf})
	metas, err := db.Pages(ctx, store.PageQuery{Site: site})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, p := range metas {
		ids = append(ids, p.ID)
	}
	if err := l.finishSite(ctx, site, l.site(site), ids); err != nil {
		t.Fatal(err)
	}
	r, err := db.Run(ctx, killed.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != store.RunFailed || !strings.Contains(r.Message, "interrupted") {
		t.Errorf("killed run: %s %q, want failed, interrupted", r.Status, r.Message)
	}
	latest, err := db.LatestRun(ctx, site, store.RunDone)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := db.Memberships(ctx, latest.ID)
	if err != nil {
		t.Fatal(err)
	}
	known := false
	for _, m := range ms {
		known = known || m.PageID == added.ID
	}
	if latest.ID == first.Run.ID || !known {
		t.Errorf("latest run %d (first %d) knows the added page: %v", latest.ID, first.Run.ID, known)
	}
}

// deadOwner returns run parameters naming as owner a process of this host
// that has exited.
func deadOwner(t *testing.T) json.RawMessage {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	raw, err := json.Marshal(sitelearn.RunParams{Owner: &sitelearn.RunOwner{PID: cmd.Process.Pid, Host: host}})
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
