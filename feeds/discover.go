package feeds

import (
	"bytes"
	"net/url"
	"strings"

	"golang.org/x/net/html"
)

// feedTypes are the <link type> values that announce a feed.
var feedTypes = map[string]bool{
	"application/rss+xml": true, "application/atom+xml": true, "application/feed+json": true,
	"application/json": true, "application/rdf+xml": true, "application/xml": true, "text/xml": true,
}

// maxDiscoverBytes bounds the part of a page searched for <link> tags: they
// belong in the head.
const maxDiscoverBytes = 1 << 20

// Discover returns the feeds a page announces in <link rel="alternate"
// type="application/rss+xml|atom+xml|feed+json" href=...>, resolved against
// pageURL, in page order, without duplicates.
func Discover(pageURL string, page []byte) []string {
	base, _ := url.Parse(pageURL)
	if len(page) > maxDiscoverBytes {
		page = page[:maxDiscoverBytes]
	}
	z := html.NewTokenizer(bytes.NewReader(page))
	var out []string
	seen := map[string]bool{}
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		name, hasAttr := z.TagName()
		if string(name) == "body" {
			return out
		}
		if string(name) != "link" || !hasAttr {
			continue
		}
		attrs := map[string]string{}
		for more := true; more; {
			var k, v []byte
			k, v, more = z.TagAttr()
			attrs[string(k)] = string(v)
		}
		if !hasToken(attrs["rel"], "alternate") || !feedTypes[strings.ToLower(strings.TrimSpace(attrs["type"]))] {
			continue
		}
		if u := resolve(base, attrs["href"]); u != "" && !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
}

func hasToken(list, tok string) bool {
	for _, f := range strings.Fields(strings.ToLower(list)) {
		if f == tok {
			return true
		}
	}
	return false
}
