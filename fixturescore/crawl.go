package fixturescore

import (
	"context"

	"github.com/gleaner/gleaner/crawlcorpus"
	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/store"
)

// Crawl is a crawl scored against the fixtures' ground truth.
type Crawl struct {
	Fetched, OnTopic  int // pages fetched, and those on the fixtures' topic
	Kept, KeptOnTopic int // documents kept, and those on topic
	// Precision and Recall score the crawler's relevance judgement on the
	// pages it judged.
	Precision, Recall float64
	// Extraction scores the kept article pages against their gold (Pages
	// 0 when none), Methods counts their extraction methods.
	Extraction eval.Summary
	Methods    map[string]int
}

// HarvestRate is the share of fetched pages on topic.
func (c Crawl) HarvestRate() float64 {
	if c.Fetched == 0 {
		return 0
	}
	return float64(c.OnTopic) / float64(c.Fetched)
}

// ScoreCrawl scores crawl name of db on web.
func ScoreCrawl(ctx context.Context, db *store.DB, name string, web *fixtures.Web) (Crawl, error) {
	fetched, err := crawler.Fetched(ctx, db, name)
	if err != nil {
		return Crawl{}, err
	}
	docs, err := crawlcorpus.Corpus(ctx, db, name)
	if err != nil {
		return Crawl{}, err
	}
	c := Crawl{Fetched: len(fetched), OnTopic: onTopic(fetched, web), Kept: len(docs), Methods: map[string]int{}}
	c.Precision, c.Recall = Judgement(fetched, web)
	var scores []eval.PageScore
	for _, d := range docs {
		info, err := web.Classify(d.URL)
		if err != nil || info.Article == nil {
			continue
		}
		if info.Relevant {
			c.KeptOnTopic++
		}
		scores = append(scores, eval.ScorePage(d.URL, d.Site, info.Article.Gold(), titled(d.Title, d.Text)))
		c.Methods[d.Method]++
	}
	if len(scores) > 0 {
		c.Extraction = eval.Summarize(scores)
	}
	return c, nil
}

// titled is an extraction as scored against the gold: its title, a blank
// line, its text.
func titled(title, text string) string {
	if title == "" {
		return text
	}
	return title + "\n\n" + text
}

// onTopic counts the fetched pages on the fixtures' topic.
func onTopic(fetched []crawler.FetchedURL, web *fixtures.Web) int {
	n := 0
	for _, f := range fetched {
		if web.Relevant(f.URL) {
			n++
		}
	}
	return n
}

// Judgement scores the crawler's relevance decisions on the pages it judged
// (validated or irrelevant) against the fixtures' ground truth.
func Judgement(fetched []crawler.FetchedURL, web *fixtures.Web) (precision, recall float64) {
	var tp, fp, fn int
	for _, f := range fetched {
		if f.Outcome != crawler.OutcomeValidated && f.Outcome != crawler.OutcomeIrrelevant {
			continue
		}
		truth := web.Relevant(f.URL)
		switch {
		case f.Relevant && truth:
			tp++
		case f.Relevant:
			fp++
		case truth:
			fn++
		}
	}
	return ratio(tp, tp+fp), ratio(tp, tp+fn)
}

// ratio is n/d, 0 when d is.
func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}
