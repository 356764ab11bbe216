package heuristics

import (
	"maps"
	"sync"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

// TestMedoidInfo checks that a medoid's derived data is computed once per
// tree and Medoids value, equals what is derived without the cache, and
// that a nil Medoids shares nothing.
func TestMedoidInfo(t *testing.T) {
	src := []byte(`<html><body><div id="nav"><p>Home News Sport</p></div><article><p>The story of the day.</p></article></body></html>`)
	med, err := treediff.Parse("medoid", src, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	other, err := treediff.Parse("medoid", src, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Concurrent first uses, as ExtractSite's goroutines make them, share
	// one computation.
	var meds Medoids
	infos := make([]*medoidInfo, 8)
	views := make([]*treediff.Tree, 8)
	var wg sync.WaitGroup
	for i := range infos {
		wg.Go(func() {
			infos[i] = meds.of(med)
			views[i] = infos[i].tokenView(med)
		})
	}
	wg.Wait()
	for i := range infos {
		if infos[i] != infos[0] || views[i] != views[0] {
			t.Fatalf("goroutine %d got another medoidInfo or view", i)
		}
	}
	if meds.of(other) == infos[0] {
		t.Fatal("an equal but distinct tree shares the first tree's entry")
	}
	m := infos[0]
	if got, want := m.tokenView(med).Bracket(), med.View(treediff.TokenView).Bracket(); got != want {
		t.Errorf("token view %s, want %s", got, want)
	}
	keys, want := m.blockKeys(med), blockKeySet(med.View(treediff.TokenView))
	if len(keys) != len(want) || len(keys) == 0 {
		t.Errorf("block keys %v, want %v", keys, want)
	}
	for k := range want {
		if !keys[k] {
			t.Errorf("block key %q missing", k)
		}
	}
	if got, want := m.templateLines(med), newTemplateLines(med); got != want {
		t.Errorf("template lines %q, want %q", got, want)
	}
	c := m.comparables(med)
	if len(c.byPath) == 0 || c.medoid != m.tokenView(med) {
		t.Errorf("comparables not built on the cached view: %d paths", len(c.byPath))
	}
	art := c.byPath[m.tokenView(med).Nodes[0].Path()+"/body[1]/article[1]"]
	if art == nil {
		t.Fatalf("no article in the path index %v", c.byPath)
	}
	if got, want := c.wordCounts(art), wordCounts(art.Text()); !maps.Equal(got, want) || got["the"] != 2 {
		t.Errorf("word counts %v, want %v", got, want)
	}
	if c.counts[art.Index].Load() == nil {
		t.Error("word counts of a medoid element not kept")
	}

	if (*Medoids)(nil).of(med) == (*Medoids)(nil).of(med) {
		t.Error("a nil Medoids shares its entries")
	}
	if (&Medoids{}).of(med) == infos[0] {
		t.Error("another Medoids shares the first one's entry")
	}
}
