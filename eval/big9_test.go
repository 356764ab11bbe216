package eval

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gleaner/gleaner/internal/shareddata"
)

// TestBig9Single guards the single-page extractor's quality on big9-dev:
// the goals (F1 above go-trafilatura's 0.941, exactitude >= 99 %, no
// site below 0.93 F1) with most of the margin measured when it was written
// (overall F1 0.988, worst site 0.975).
func TestBig9Single(t *testing.T) {
	rep, err := Run(context.Background(), filepath.Join(shareddata.Dir(t, "big9-dev"), "manifest.tsv"), Options{Extract: Single})
	if err != nil {
		t.Fatal(err)
	}
	o := rep.Overall
	if o.Pages != 180 {
		t.Fatalf("%d pages, want 180", o.Pages)
	}
	if o.F1 < 0.98 || o.Exactitude < 0.99 || o.Errors > 0 {
		t.Errorf("overall F1 %.3f (want >= 0.98), exactitude %.3f (want >= 0.99), %d errors", o.F1, o.Exactitude, o.Errors)
	}
	for _, s := range rep.Sites {
		if s.F1 < 0.96 {
			t.Errorf("site %s: F1 %.3f, want >= 0.96", s.Site, s.F1)
		}
	}
}

// BenchmarkBig9Single measures pages/s of reading nothing but parsing and
// extracting big9-dev pages with the single-page extractor.
func BenchmarkBig9Single(b *testing.B) {
	ds, err := LoadDataset(filepath.Join(shareddata.Dir(b, "big9-dev"), "manifest.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	docs := make([]Doc, len(ds.Pages))
	for i, p := range ds.Pages {
		docs[i] = Doc{Page: p, Src: ds.Src[i]}
	}
	n := 0
	for b.Loop() {
		if _, err := SingleDoc(docs[n%len(docs)]); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "pages/s")
}
