package eval

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/sitelearn"
	"github.com/gleaner/gleaner/store"
)

// countingCache is a real store's distance cache that counts the distances
// put into it.
type countingCache struct {
	cluster.DistanceCache
	put int
}

func (c *countingCache) Put(ctx context.Context, ds []cluster.CachedDistance) error {
	c.put += len(ds)
	return c.DistanceCache.Put(ctx, ds)
}

// TestLearnedDistanceCache checks that Learned keys its pages by content, so
// a second evaluation of the same pages takes every distance from the cache.
func TestLearnedDistanceCache(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "cache.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var docs []Doc
	for i := range 6 {
		var src string
		if i%2 == 0 {
			src = fmt.Sprintf("<html><body><div class=nav><a href=/>home</a></div><article><h1>Story %d</h1><p>Paragraph %d of the story, long enough to be read as content.</p><p>Another paragraph %d.</p></article></body></html>", i, i, i)
		} else {
			src = fmt.Sprintf("<html><body><table><tr><td>menu</td><td><h2>Item %d</h2><p>Listing text %d with several words in it.</p></td></tr></table></body></html>", i, i)
		}
		docs = append(docs, Doc{Page: Page{ID: fmt.Sprintf("p%d", i)}, Src: []byte(src)})
	}
	cache := &countingCache{DistanceCache: sitelearn.Cache(db)}
	opt := LearnOptions{}
	opt.Cluster.Cache = cache
	for run := range 2 {
		cache.put = 0
		out := Learned(opt)(ctx, "site", docs)
		for i, o := range out {
			if o.Err != nil {
				t.Fatalf("run %d, page %d: %v", run, i, o.Err)
			}
		}
		switch {
		case run == 0 && cache.put == 0:
			t.Fatal("first run put no distance into the cache")
		case run == 1 && cache.put != 0:
			t.Errorf("second run computed %d distances, want all from the cache", cache.put)
		}
	}
}
