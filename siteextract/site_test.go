package siteextract

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/store"
)

// siteStore imports the synthetic sites of the cluster tests into a fresh
// SQLite store.
func siteStore(t *testing.T) *store.DB {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m, err := dataset.ReadDir(filepath.Join("..", "cluster", "testdata", "sites"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dataset.Import(ctx, st, m, dataset.Options{}); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestSiteAgreesWithDocs checks that a stored site extracted with its
// stored templates gives, page for page, what Docs gives for the same pages
// in memory, and that the extractions are stored with the run.
func TestSiteAgreesWithDocs(t *testing.T) {
	ctx := context.Background()
	st := siteStore(t)
	const site = "ab.test"
	opt := cluster.Options{Seed: 3}
	if _, err := cluster.LearnSite(ctx, st, site, cluster.SiteOptions{Options: opt}); err != nil {
		t.Fatal(err)
	}
	res, err := Site(ctx, st, site, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Run == nil {
		t.Fatal("no run used")
	}
	metas, err := st.Pages(ctx, store.PageQuery{Site: site, WithContent: true})
	if err != nil {
		t.Fatal(err)
	}
	var docs []Doc
	for _, p := range metas {
		docs = append(docs, Doc{Name: p.Name(), Src: p.HTML(), ContentType: p.ContentType})
	}
	mem := Docs(ctx, site, docs, DocsOptions{Cluster: opt})
	placed := 0
	for i, p := range res.Pages {
		if (p.Err == nil) != (mem.Errs[i] == nil) {
			t.Errorf("page %s: stored %v, in memory %v", p.Name, p.Err, mem.Errs[i])
		}
		if p.Err != nil {
			continue // empty.html fails to parse, both ways
		}
		if p.Result.Body != mem.Results[i].Body || p.Result.Method != mem.Results[i].Method {
			t.Errorf("page %s: stored %s %q, in memory %s %q", p.Name, p.Result.Method, p.Result.Body, mem.Results[i].Method, mem.Results[i].Body)
		}
		if p.Placed {
			placed++
		}
	}
	if placed < len(res.Pages)-2 {
		t.Errorf("%d of %d pages placed on a template", placed, len(res.Pages))
	}
	xs, err := st.Extractions(ctx, store.ExtractionQuery{Site: site, RunID: res.Run.ID})
	if err != nil || len(xs) != placed {
		t.Errorf("%d extractions stored with run %d, want %d (%v)", len(xs), res.Run.ID, placed, err)
	}
}

// TestSiteWithoutTemplates checks that a site never learned is extracted page
// by page, and that a site with no page is an error naming it.
func TestSiteWithoutTemplates(t *testing.T) {
	ctx := context.Background()
	st := siteStore(t)
	res, err := Site(ctx, st, "one.test", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Run != nil || len(res.Pages) != 1 || res.Pages[0].Placed || res.Pages[0].Result.Method != "single-page" {
		t.Errorf("result %+v", res)
	}
	if _, err := Site(ctx, st, "absent.test", Options{}); err == nil || !strings.Contains(err.Error(), "absent.test") {
		t.Errorf("absent site: %v", err)
	}
}
