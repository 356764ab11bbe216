package crawler_test

import (
	"context"
	"fmt"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/store"
)

// A focused crawl of the fixture web with the plain HTTP fetcher.
func Example() {
	ctx := context.Background()
	web, err := fixtures.Start(ctx, fixtures.Options{Seed: 1, Slow: -1, CrawlDelay: -1})
	if err != nil {
		log.Fatal(err)
	}
	defer web.Close()
	dir, _ := os.MkdirTemp("", "crawl")
	defer os.RemoveAll(dir)
	db, err := store.Open(ctx, filepath.Join(dir, "crawl.db"))
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()

	cfg := crawler.Config{
		Name:     "energy",
		Terms:    fixtures.TopicKeywords(fixtures.OnTopic, fixtures.English),
		Strategy: "shark",
		MaxPages: 20,
		Delay:    time.Millisecond,
		LearnAt:  -1, // single-page extraction: no template learning
	}
	for _, s := range web.Sites {
		cfg.Seeds = append(cfg.Seeds, s.Base+"/")
		u, _ := url.Parse(s.Base)
		cfg.AllowHosts = append(cfg.AllowHosts, u.Host) // loopback is refused by default
	}
	c, err := crawler.New(db, cfg)
	if err != nil {
		log.Fatal(err)
	}
	sum, err := c.Run(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sum.Stop, sum.Counters.Tried)
	// Output: max-pages 20
}

// The crawl's configuration can come from a YAML file.
func ExampleLoadConfig() {
	cfg, err := crawler.LoadConfig("testdata/crawl.yaml")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cfg.Name, cfg.Strategy, cfg.Delay, cfg.MaxDepth)
	// Output: energy-news opic 1s 3
}
