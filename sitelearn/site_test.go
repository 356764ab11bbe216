package sitelearn

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/store"
)

// openSites imports cluster's testdata/sites into a fresh SQLite store.
func openSites(t *testing.T) store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "sites.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m, err := dataset.ReadDir("../cluster/testdata/sites", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dataset.Import(ctx, st, m, dataset.Options{}); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSiteStatuses(t *testing.T) {
	st := openSites(t)
	ctx := context.Background()
	for _, tc := range []struct {
		site       string
		status     string
		k          int
		outliers   map[string]string // page name -> part of the reason
		computedAt int               // at most this many distances computed
	}{
		{site: "ab.test", status: cluster.StatusLearned, k: 2, outliers: map[string]string{"http://ab.test/empty": "parse: page http://ab.test/empty: empty document"}, computedAt: 66},
		{site: "one.test", status: cluster.StatusOnePage, k: 1, outliers: map[string]string{"http://one.test/lonely": "only page of its site"}},
		{site: "same.test", status: cluster.StatusIdentical, k: 1, outliers: map[string]string{}},
		{site: "broken.test", status: cluster.StatusNoPages, k: 0, outliers: map[string]string{"http://broken.test/nothing": "unusable: parse:"}},
	} {
		t.Run(tc.site, func(t *testing.T) {
			sr, err := Site(ctx, st, tc.site, Options{Options: cluster.Options{Seed: 1}})
			if err != nil {
				t.Fatal(err)
			}
			if sr.Result.Status != tc.status || sr.Run.K != tc.k || !strings.HasPrefix(sr.Run.Message, tc.status+": ") {
				t.Errorf("status %q k %d message %q; want %q k %d", sr.Result.Status, sr.Run.K, sr.Run.Message, tc.status, tc.k)
			}
			if sr.Result.Computed > tc.computedAt {
				t.Errorf("%d distances computed, want at most %d", sr.Result.Computed, tc.computedAt)
			}
			got := map[string]string{}
			for _, m := range sr.Outliers() {
				got[sr.Names[m.PageID]] = m.Reason
			}
			if len(got) != len(tc.outliers) {
				t.Errorf("outliers %v, want %v", got, tc.outliers)
			}
			for name, part := range tc.outliers {
				if !strings.Contains(got[name], part) {
					t.Errorf("outlier %s: reason %q, want it to contain %q", name, got[name], part)
				}
			}
			if tc.k > 1 {
				if ari := ariAgainstLabels(t, ctx, st, sr); ari < 0.99 {
					// The broken page is its own label and outside every
					// cluster (-1), so a perfect split still scores 1.
					t.Errorf("ARI %.3f against the templates", ari)
				}
			}
		})
	}
	if _, err := Site(ctx, st, "absent.test", Options{}); err == nil || !strings.Contains(err.Error(), "absent.test: no pages") {
		t.Errorf("unknown site: err = %v", err)
	}
}

func TestSiteModes(t *testing.T) {
	st := openSites(t)
	ctx := context.Background()
	opt := Options{Options: cluster.Options{Seed: 1}}
	learnAs := func(want string, o Options) *SiteRun {
		t.Helper()
		sr, err := Site(ctx, st, "ab.test", o)
		if err != nil {
			t.Fatal(err)
		}
		if sr.Mode != want {
			t.Fatalf("mode %s, want %s (%s)", sr.Mode, want, sr.Note)
		}
		return sr
	}
	first := learnAs(ModeLearned, opt)
	learnAs(ModeUnchanged, opt)
	learnAs(ModeLearned, Options{Options: cluster.Options{Seed: 2}}) // other seed
	learnAs(ModeLearned, opt)                                        // back to seed 1
	learnAs(ModeLearned, Options{Options: opt.Options, Relearn: true})

	// A page changed in place: its membership no longer describes it.
	pages, err := st.Pages(ctx, store.PageQuery{Site: "ab.test", WithContent: true})
	if err != nil {
		t.Fatal(err)
	}
	p := pages[0]
	p.RawHTML = append(p.RawHTML, "<div><p>late</p></div>"...)
	if err := st.PutPages(ctx, []*store.Page{p}); err != nil {
		t.Fatal(err)
	}
	again := learnAs(ModeLearned, opt)

	// A new page of a known template is assigned, and placed in the plane.
	q := *pages[1]
	q.ID, q.URL = 0, "http://ab.test/news/a-extra"
	if err := st.PutPages(ctx, []*store.Page{&q}); err != nil {
		t.Fatal(err)
	}
	assigned := learnAs(ModeAssigned, opt)
	if assigned.Run.Pages != len(again.Members)+1 || assigned.Run.K != first.Run.K || len(assigned.Outliers()) != len(again.Outliers()) {
		t.Errorf("assigned run: %d pages k %d outliers %d; before %d pages k %d outliers %d",
			assigned.Run.Pages, assigned.Run.K, len(assigned.Outliers()), len(again.Members), again.Run.K, len(again.Outliers()))
	}
	if assigned.Params.BaseRun != again.Run.ID || len(assigned.Params.Assigned) != 1 {
		t.Errorf("assigned run params: base %d assigned %v", assigned.Params.BaseRun, assigned.Params.Assigned)
	}
	learnAs(ModeUnchanged, opt)
}

func TestSiteLearnsFromASample(t *testing.T) {
	// With MaxPages 8, ab.test (13 pages: six of each template and an empty
	// one) is learned from 8 pages drawn with the seed; the other 5 are
	// placed on the templates found, each with its template's pages.
	st := openSites(t)
	ctx := context.Background()
	sr, err := Site(ctx, st, "ab.test", Options{Options: cluster.Options{Seed: 1}, MaxPages: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(sr.Result.Members) != 8 || sr.Params.Sampled != 8 || sr.Run.Pages != 13 || len(sr.Members) != 13 ||
		!strings.Contains(sr.Run.Message, "sample of 8 of 13 pages") {
		t.Fatalf("learned from %d pages (sampled %d), run of %d pages, %d members: %s",
			len(sr.Result.Members), sr.Params.Sampled, sr.Run.Pages, len(sr.Members), sr.Run.Message)
	}
	if sr.Cost.Pages != 13 {
		t.Errorf("cost counts %d pages, want 13", sr.Cost.Pages)
	}
	template := map[string]int{} // "a" or "b" -> cluster
	sizes := map[int]int{}
	for _, m := range sr.Members {
		sizes[m.Cluster]++
		name := sr.Names[m.PageID]
		tmpl := name[strings.LastIndex(name, "/")+1:][:1]
		if tmpl != "a" && tmpl != "b" {
			continue
		}
		if c, ok := template[tmpl]; ok && c != m.Cluster || m.Outlier {
			t.Errorf("%s: cluster %d outlier %v, want its template's cluster %d", name, m.Cluster, m.Outlier, c)
		}
		template[tmpl] = m.Cluster
	}
	if template["a"] == template["b"] {
		t.Errorf("both templates in cluster %d", template["a"])
	}
	for _, c := range sr.Clusters {
		if c.Size != sizes[c.ID] {
			t.Errorf("cluster %d: size %d, %d members", c.ID, c.Size, sizes[c.ID])
		}
	}
}
