// Package outlinks reads the outgoing links of a page from its HTML: the
// <a href> and <area href> elements with their anchor text and the URLs the
// page's scripts navigated to, resolved and each kept once.
package outlinks

import (
	"net/url"
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// Link is one outgoing link of a page.
type Link struct {
	URL  string `json:"url"`  // absolute, without fragment
	Text string `json:"text"` // anchor text, or alt/title/aria-label when empty
	// Source tells where the link came from: "a", "area", or "pushState"
	// for a URL the page's scripts navigated to with the history API.
	Source string `json:"source"`
}

// Find returns the outgoing links of a page: its <a href> and <area
// href> elements with their anchor text, then the URLs of nav (history API
// navigations), resolved against the page's <base href> or pageURL. Only
// http(s) links are kept, without fragments, each URL once (the first
// non-empty text wins).
func Find(html, pageURL string, nav []string) []Link {
	base, err := url.Parse(pageURL)
	if err != nil {
		return nil
	}
	ls := &linkSet{base: base, seen: map[string]int{}}
	if t, err := treediff.Parse(pageURL, []byte(html), treediff.ParseOptions{}); err == nil {
		ls.base = baseHref(t, base)
		for _, n := range t.Nodes {
			if n.Kind != treediff.Element || (n.Label != "a" && n.Label != "area") {
				continue
			}
			if h, ok := n.Attr("href"); ok {
				ls.add(h, anchorText(n), n.Label)
			}
		}
	}
	for _, u := range nav {
		ls.add(u, "", "pushState")
	}
	return ls.links
}

// baseHref is the page's first <base href> resolved against base, or base.
func baseHref(t *treediff.Tree, base *url.URL) *url.URL {
	for _, n := range t.Nodes {
		if n.Kind == treediff.Element && n.Label == "base" {
			if h, ok := n.Attr("href"); ok {
				if b, err := base.Parse(strings.TrimSpace(h)); err == nil {
					return b
				}
			}
			break
		}
	}
	return base
}

// linkSet is the links of a page as they are found, each URL once.
type linkSet struct {
	base  *url.URL
	links []Link
	seen  map[string]int // URL -> index in links
}

// add keeps the http(s) link raw (resolved, without fragment) unless
// already kept, when its text fills a kept one's empty text.
func (ls *linkSet) add(raw, text, source string) {
	raw = strings.TrimSpace(raw)
	if raw == "" || strings.HasPrefix(raw, "#") {
		return
	}
	u, err := ls.base.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return
	}
	u.Fragment, u.RawFragment = "", ""
	s := u.String()
	if i, ok := ls.seen[s]; ok {
		if ls.links[i].Text == "" {
			ls.links[i].Text = text
		}
		return
	}
	ls.seen[s] = len(ls.links)
	ls.links = append(ls.links, Link{URL: s, Text: text, Source: source})
}

// anchorText is the text of a link, or when it has none (an image link),
// its title, aria-label or the alt of an image inside.
func anchorText(n *treediff.Node) string {
	if t := strings.Join(strings.Fields(n.Text()), " "); t != "" {
		return t
	}
	for _, a := range []string{"aria-label", "title", "alt"} {
		if v, ok := n.Attr(a); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	var alt string
	n.Walk(func(c *treediff.Node) bool {
		if alt == "" && c.Kind == treediff.Element && c.Label == "img" {
			alt, _ = c.Attr("alt")
			alt = strings.TrimSpace(alt)
		}
		return alt == ""
	})
	return alt
}
