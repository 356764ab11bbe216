package fixturescore

import (
	"context"
	"path/filepath"
	"time"

	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/store"
)

// Harvest is one strategy's crawl of the fixture web, cut at a number of
// pages.
type Harvest struct {
	Strategy string
	Pages    int     // pages fetched, at most the bound
	Rate     float64 // harvest rate of the fixtures' ground truth
	Own      float64 // the crawler's own harvest rate (its judgement)
	// Precision and Recall score the crawler's relevance judgement.
	Precision, Recall float64
}

// Harvests crawls the fixture web srv serves once per strategy, pages
// pages each (plain HTTP, one worker: reproducible), each into a store of
// its own in dir, and scores each crawl.
func Harvests(ctx context.Context, srv *fixtures.Server, strategies []string, pages int, dir string) ([]Harvest, error) {
	var out []Harvest
	for _, s := range strategies {
		h, err := harvest(ctx, srv, s, pages, filepath.Join(dir, s+".db"))
		if err != nil {
			return out, err
		}
		out = append(out, h)
	}
	return out, nil
}

// harvest crawls the fixture web with strategy into the store at path and
// scores its first pages.
func harvest(ctx context.Context, srv *fixtures.Server, strategy string, pages int, path string) (Harvest, error) {
	st, err := store.Open(ctx, path)
	if err != nil {
		return Harvest{}, err
	}
	defer st.Close()
	cfg := crawler.Config{Name: "harvest-" + strategy, Strategy: strategy, Workers: 1, Delay: -1, MaxPages: pages, LearnAt: -1,
		Timeout: 5 * time.Second, Seeds: srv.HomePages(), AllowHosts: srv.Hosts(), Terms: fixtures.OnTopicKeywords()}
	c, err := crawler.New(st, cfg)
	if err != nil {
		return Harvest{}, err
	}
	sum, err := c.Run(ctx)
	if err != nil {
		return Harvest{}, err
	}
	fetched, err := crawler.Fetched(ctx, st, cfg.Name)
	if err != nil {
		return Harvest{}, err
	}
	fetched = fetched[:min(len(fetched), pages)]
	h := Harvest{Strategy: strategy, Pages: len(fetched), Rate: ratio(onTopic(fetched, srv.Web), len(fetched)), Own: sum.Counters.HarvestRate()}
	h.Precision, h.Recall = Judgement(fetched, srv.Web)
	return h, nil
}
