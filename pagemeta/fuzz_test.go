package pagemeta

import (
	"testing"
	"time"

	"github.com/gleaner/gleaner/treediff"
)

// FuzzExtract: whatever the markup, Extract returns (no panic) and its
// dates are NormalizeDate's forms or RFC 3339.
func FuzzExtract(f *testing.F) {
	for _, seed := range []string{
		`<html><body><h1>T</h1><div class="byline">By \u00a0 , and</div><p>x</p></body></html>`,
		`<script type="application/ld+json">{"@graph":[{"@type":"NewsArticle","author":[[[]]],"datePublished":{}}]}</script>`,
		`<div class="date">31.02.2024 25:61 Uhr</div><time datetime="9999-99-99">`,
		`<p class="meta">vor einer Stunde</p><p>il y a une heure</p><meta name="twitter:label1" content="Written by">`,
		"\xff\xfe<title>\x00</title>",
	} {
		f.Add(seed)
	}
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, page string) {
		tr, err := treediff.Parse("fuzz", []byte(page), treediff.ParseOptions{})
		if err != nil {
			return
		}
		m := Extract(tr, []byte(page), Options{URL: "https://example.com/2024/03/01/x", Fetched: now})
		for _, d := range []string{m.Published, m.Modified} {
			if d == "" || len(d) == 10 {
				continue
			}
			if _, err := time.Parse(time.RFC3339, d); err != nil {
				t.Errorf("date %q: %v", d, err)
			}
		}
	})
}
