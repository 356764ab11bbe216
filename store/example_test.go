package store_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gleaner/gleaner/store"
)

// A page is stored with its annotation, a learning run records its clusters,
// and the distance cache answers for pairs computed before.
func Example() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "store-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	db, err := store.Open(ctx, filepath.Join(dir, "gleaner.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	pages := []*store.Page{
		{URL: "https://www.example.com/news/1", Dataset: "demo", ManifestID: "a1", Label: "2009",
			RawHTML: []byte("<html><body><h1>One</h1><p>First story.</p></body></html>"),
			Gold:    &store.Gold{Title: "One", Body: "First story.", Text: "One\n\nFirst story."}},
		{URL: "https://news.example.com/2", Dataset: "demo", ManifestID: "a2", Label: "2009",
			RawHTML: []byte("<html><body><h1>Two</h1><p>Second story.</p></body></html>")},
	}
	if err := db.PutPages(ctx, pages); err != nil {
		log.Fatal(err)
	}
	sites, err := db.Sites(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range sites {
		fmt.Printf("site %s: %d pages\n", s.Name, s.Pages)
	}

	run := &store.Run{Site: "example.com", Seed: 1}
	if err := db.CreateRun(ctx, run); err != nil {
		log.Fatal(err)
	}
	run.K, run.Pages = 1, 2
	err = db.FinishRun(ctx, run,
		[]store.Cluster{{ID: 0, Medoid: pages[0].ID, Size: 2}},
		[]store.Membership{{PageID: pages[0].ID}, {PageID: pages[1].ID, X: 0.3, Distance: 0.3}})
	if err != nil {
		log.Fatal(err)
	}
	latest, err := db.LatestRun(ctx, "example.com", store.RunDone)
	if err != nil {
		log.Fatal(err)
	}
	clusters, err := db.Clusters(ctx, latest.ID)
	if err != nil {
		log.Fatal(err)
	}
	medoid, err := db.Page(ctx, clusters[0].Medoid)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("run %s: k=%d, medoid %s, gold title %q\n", latest.Status, latest.K, medoid.Name(), medoid.Gold.Title)

	pair := store.MakePair(pages[0].Hash, pages[1].Hash)
	err = db.PutDistances(ctx, []store.Distance{{Pair: pair, View: "tag", Distance: 0.3, NodesA: 9, NodesB: 9}})
	if err != nil {
		log.Fatal(err)
	}
	cached, err := db.Distances(ctx, "tag", []store.Pair{{A: pages[1].Hash, B: pages[0].Hash}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("cached distance: %.1f\n", cached[pair].Distance)
	// Output:
	// site example.com: 2 pages
	// run done: k=1, medoid a1, gold title "One"
	// cached distance: 0.3
}

// SiteOf groups pages by registrable domain unless told to use the host.
func ExampleSiteOf() {
	for _, u := range []string{"http://news.bbc.co.uk/1.stm", "https://www.nytimes.com/a", "http://127.0.0.1:8080/x"} {
		site, _ := store.SiteOf(u, store.SiteFromDomain)
		host, _ := store.SiteOf(u, store.SiteFromHost)
		fmt.Println(site, host)
	}
	// Output:
	// bbc.co.uk news.bbc.co.uk
	// nytimes.com www.nytimes.com
	// 127.0.0.1:8080 127.0.0.1:8080
}
