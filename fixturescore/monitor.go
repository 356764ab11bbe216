package fixturescore

import (
	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/monitor"
)

// Round is a monitor's round scored against what the fixture newsroom
// published.
type Round struct {
	// NewPrecision and NewRecall score the round's new documents against
	// the articles published since the previous round.
	NewPrecision, NewRecall float64
	// UnchangedRefetched counts the requests of pages that had not
	// changed since an earlier round.
	UnchangedRefetched int
	// TextF1 is the shingle F1 of the new documents' title and text
	// against the gold, over the TextScored documents whose body the fetch
	// could see (TextF1 is 0 when none).
	TextF1     float64
	TextScored int
}

// ScoreRound scores the new documents docs of monitor round round on the
// newsroom srv serves; known holds the URLs already fetched (updated), and
// rendered says whether the pages were rendered: without it, articles
// whose body a script inserts are not scored on their text (it is not in
// the served HTML).
func ScoreRound(srv *fixtures.Server, round int, docs []monitor.Document, known map[string]bool, rendered bool) Round {
	urls := make([]string, len(docs))
	for i, d := range docs {
		urls[i] = d.URL
	}
	var r Round
	r.NewPrecision, r.NewRecall, _, _ = srv.NewsScore(round-1, urls)
	r.UnchangedRefetched = srv.Refetches(srv.Hits(), known, round-1)
	var scores []eval.PageScore
	for _, d := range docs {
		info, err := srv.Classify(d.URL)
		if err != nil || info.Article == nil || info.Article.Scripted && !rendered {
			continue
		}
		scores = append(scores, eval.ScorePage(d.URL, d.Site, info.Article.Gold(), titled(d.Title, d.Text)))
	}
	r.TextScored = len(scores)
	if len(scores) > 0 {
		r.TextF1 = eval.Summarize(scores).F1
	}
	return r
}
