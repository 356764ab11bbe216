package dataset_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/internal/shareddata"
	"github.com/gleaner/gleaner/store"
)

func TestImportBig9(t *testing.T) {
	ctx := context.Background()
	dir := shareddata.Dir(t, "big9-dev")
	m, err := dataset.ReadManifest(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	db := openStore(t)
	var first []int64
	for round := range 2 {
		res, err := dataset.Import(ctx, db, m, dataset.Options{})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if res.Pages != 180 || res.Gold != 180 || len(res.Sites) != 9 {
			t.Fatalf("round %d: %d pages, %d gold, %d sites; want 180, 180, 9", round, res.Pages, res.Gold, len(res.Sites))
		}
		ps, err := db.Pages(ctx, store.PageQuery{Dataset: "big9-dev"})
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) != 180 {
			t.Fatalf("round %d: %d pages stored, want 180", round, len(ps))
		}
		var ids []int64
		for _, p := range ps {
			ids = append(ids, p.ID)
		}
		if round == 0 {
			first = ids
		} else if !slices.Equal(ids, first) {
			t.Errorf("re-import changed page IDs")
		}
	}
	sites, err := db.Sites(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(sites) != 9 {
		t.Fatalf("%d sites, want 9", len(sites))
	}
	for _, s := range sites {
		if s.Pages != 20 {
			t.Errorf("site %s: %d pages, want 20", s.Name, s.Pages)
		}
		for _, era := range []string{"2005", "2009"} {
			ps, err := db.Pages(ctx, store.PageQuery{Site: s.Name, Label: era})
			if err != nil || len(ps) != 10 {
				t.Errorf("site %s era %s: %d pages (%v), want 10", s.Name, era, len(ps), err)
			}
		}
	}

	// Windows-1252 gold: 0x97 is an em dash, 0xE7 a c cedilla.
	for key, want := range map[string]string{
		"2005-bear-1":       "his fear—the fear of no bears",
		"2005-braunstein-1": "pastel Provençal scarves",
	} {
		p, err := db.PageByKey(ctx, "big9-dev", key)
		if err != nil {
			t.Fatal(err)
		}
		if p.Gold == nil || !strings.Contains(p.Gold.Text, want) || strings.ContainsRune(p.Gold.Text, '\uFFFD') {
			t.Errorf("gold of %s lacks %q or has U+FFFD", key, want)
		}
	}
	// Every stored page keeps its file's bytes and a non-empty gold.
	all, err := db.Pages(ctx, store.PageQuery{WithContent: true})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]*store.Page{}
	for _, p := range all {
		byID[p.ManifestID] = p
		if p.Gold == nil || p.Gold.Title == "" || p.Gold.Body == "" {
			t.Errorf("page %s: empty gold %+v", p.ManifestID, p.Gold)
		}
	}
	for _, e := range m.Entries {
		p := byID[e.ID]
		if p == nil {
			t.Errorf("page %s not stored", e.ID)
			continue
		}
		raw, err := os.ReadFile(m.HTMLFile(e))
		if err != nil {
			t.Fatal(err)
		}
		if string(raw) != string(p.RawHTML) || p.Hash != store.ContentHash(raw) || p.URL != e.URL {
			t.Errorf("page %s: stored HTML, hash or URL differs from the file", e.ID)
		}
	}
	// Pages sharing a URL (a dynamic story URL captured several times) stay
	// distinct.
	n := 0
	for _, p := range all {
		if p.URL == byID["2005-bomber"].URL {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d pages with the shared nypost URL, want 3", n)
	}
}
