package singlepage

import (
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

func TestExtractMeta(t *testing.T) {
	tests := []struct {
		name, html string
		src        bool // pass the source (JSON-LD)
		want       Meta
	}{
		{
			name: "meta tags",
			html: `<html><head><title>T - Site</title><meta property="og:title" content="OG title">
<meta property="article:published_time" content="2024-03-01T10:00:00Z"><meta name="author" content="Jane Doe"></head><body><p>x</p></body></html>`,
			want: Meta{Title: "OG title", Date: "2024-03-01T10:00:00Z", Author: "Jane Doe"},
		},
		{
			name: "json-ld graph wins over meta",
			html: `<html><head><title>T</title><meta name="date" content="2020-01-01">
<script type="application/ld+json">{"@graph":[{"@type":"NewsArticle","datePublished":"2023-07-04","author":{"@type":"Person","name":"Ann Lee"}}]}</script></head><body><p>x</p></body></html>`,
			src:  true,
			want: Meta{Title: "T", Date: "2023-07-04", Author: "Ann Lee"},
		},
		{
			name: "malformed json-ld skipped",
			html: `<html><head><title>T</title><script type="application/ld+json">{bad json</script><meta name="date" content="2020-01-01"></head><body><p>x</p></body></html>`,
			src:  true,
			want: Meta{Title: "T", Date: "2020-01-01"},
		},
		{
			name: "time element and itemprop author",
			html: `<html><head><title>T</title></head><body><span itemprop="author">by Max Power</span><time datetime="2022-01-02T08:00">Jan 2</time></body></html>`,
			want: Meta{Title: "T", Date: "2022-01-02T08:00:00Z", Author: "Max Power"},
		},
		{
			name: "author URL dropped, meta headline",
			html: `<html><head><title>Site</title><meta name="headline" content="The headline"><meta property="article:author" content="https://example.com/jane"></head><body><div class="byline">By<br>Jane Doe | Posted 12.03.05</div></body></html>`,
			want: Meta{Title: "The headline", Date: "2005-03-12", Author: "Jane Doe"},
		},
		{
			name: "class cues for old pages",
			html: `<html><head><title>T</title></head><body><div class="storyByline">By: Hugo Lindgren, 05.27.02, 12:00 AM ET</div><span class="postDate">12/28/2005 5:35:18 PM, by Jeremy Reimer</span></body></html>`,
			want: Meta{Title: "T", Date: "2005-12-28T17:35:18Z", Author: "Hugo Lindgren"},
		},
		{
			name: "nothing stated",
			html: `<html><body><p>Just text.</p></body></html>`,
			want: Meta{},
		},
	}
	for _, tt := range tests {
		tr, err := treediff.Parse(tt.name, []byte(tt.html), treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var src []byte
		if tt.src {
			src = []byte(tt.html)
		}
		if got := ExtractMeta(tr, src); got != tt.want {
			t.Errorf("%s: ExtractMeta = %+v, want %+v", tt.name, got, tt.want)
		}
	}
	if got := ExtractMeta(nil, nil); got != (Meta{}) {
		t.Errorf("ExtractMeta(nil) = %+v", got)
	}
}
