package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/store"
)

func benchPairs(n int, salt string) []store.Distance {
	ds := make([]store.Distance, n)
	for i := range ds {
		ds[i] = store.Distance{
			Pair: store.MakePair(store.ContentHash([]byte(fmt.Sprint(salt, "a", i))), store.ContentHash([]byte(fmt.Sprint(salt, "b", i)))),
			View: "tag", Distance: float64(i%1000) / 1000, NodesA: i, NodesB: 2 * i,
		}
	}
	return ds
}

func benchDB(b *testing.B) *store.DB {
	b.Helper()
	db, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// BenchmarkPutDistances writes 10,000 distances per operation in one call.
func BenchmarkPutDistances(b *testing.B) {
	db := benchDB(b)
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := db.PutDistances(ctx, benchPairs(10000, fmt.Sprint(i))); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*10000), "ns/pair")
}

// BenchmarkDistances looks up 10,000 pairs per operation, half of them
// among the 100,000 cached.
func BenchmarkDistances(b *testing.B) {
	db := benchDB(b)
	ctx := context.Background()
	if err := db.PutDistances(ctx, benchPairs(95000, "y")); err != nil {
		b.Fatal(err)
	}
	ds := benchPairs(10000, "x")
	if err := db.PutDistances(ctx, ds[:5000]); err != nil {
		b.Fatal(err)
	}
	pairs := make([]store.Pair, len(ds))
	for i, d := range ds {
		pairs[i] = d.Pair
	}
	b.ReportAllocs()
	for b.Loop() {
		got, err := db.Distances(ctx, "tag", pairs)
		if err != nil || len(got) != 5000 {
			b.Fatalf("%d %v", len(got), err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*10000), "ns/pair")
}

// BenchmarkPutPages stores 100 pages of 100 KB of HTML per operation.
func BenchmarkPutPages(b *testing.B) {
	db := benchDB(b)
	ctx := context.Background()
	html := []byte(strings.Repeat("<div class=\"story\"><p>Some news text, with words that repeat.</p></div>\n", 1400))
	b.SetBytes(int64(100 * len(html)))
	for i := 0; b.Loop(); i++ {
		pages := make([]*store.Page, 100)
		for j := range pages {
			pages[j] = &store.Page{URL: fmt.Sprintf("http://bench.example/%d/%d", i, j), RawHTML: html}
		}
		if err := db.PutPages(ctx, pages); err != nil {
			b.Fatal(err)
		}
	}
}
