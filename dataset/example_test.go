package dataset_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/store"
)

// An annotated dataset is read from its manifest and imported into a store;
// gold files in windows-1252 are decoded.
func Example() {
	ctx := context.Background()
	m, err := dataset.ReadManifest(filepath.Join("testdata", "mini", "manifest.tsv"))
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "dataset-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	db, err := store.Open(ctx, filepath.Join(dir, "gleaner.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	res, err := dataset.Import(ctx, db, m, dataset.Options{SiteMode: store.SiteFromDomain})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d pages, %d with gold, sites %v\n", res.Pages, res.Gold, res.Sites)
	p, err := db.PageByKey(ctx, m.Name, "m-1")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s (%s): %s | %s\n", p.Name(), p.Label, p.Gold.Title, p.Gold.Body)
	// Output:
	// 2 pages, 1 with gold, sites [example.co.uk]
	// m-1 (2005): Café “opens” | Naïve text — here.
	// Second line.
}

func ExampleDecodeGold() {
	fmt.Println(dataset.DecodeGold([]byte("UTF-8: caf\xc3\xa9")))
	fmt.Println(dataset.DecodeGold([]byte("cp1252: caf\xe9 \x96 \x93quoted\x94")))
	// Output:
	// UTF-8: café
	// cp1252: café – “quoted”
}
