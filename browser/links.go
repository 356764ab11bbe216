package browser

import (
	"net/url"
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// pageLinks returns the outgoing links of a page: its <a href> and <area
// href> elements with their anchor text, then the URLs of nav (history API
// navigations), resolved against the page's <base href> or pageURL. Only
// http(s) links are kept, without fragments, each URL once (the first
// non-empty text wins).
func pageLinks(html, pageURL string, nav []string) []Link {
	base, err := url.Parse(pageURL)
	if err != nil {
		return nil
	}
	var links []Link
	seen := map[string]int{}
	add := func(raw, text, source string) {
		raw = strings.TrimSpace(raw)
		if raw == "" || strings.HasPrefix(raw, "#") {
			return
		}
		u, err := base.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			return
		}
		u.Fragment, u.RawFragment = "", ""
		s := u.String()
		if i, ok := seen[s]; ok {
			if links[i].Text == "" {
				links[i].Text = text
			}
			return
		}
		seen[s] = len(links)
		links = append(links, Link{URL: s, Text: text, Source: source})
	}
	t, err := treediff.Parse(pageURL, []byte(html), treediff.ParseOptions{})
	if err == nil {
		for _, n := range t.Nodes {
			if n.Kind == treediff.Element && n.Label == "base" {
				if h, ok := n.Attr("href"); ok {
					if b, err := base.Parse(strings.TrimSpace(h)); err == nil {
						base = b
					}
				}
				break
			}
		}
		for _, n := range t.Nodes {
			if n.Kind != treediff.Element || (n.Label != "a" && n.Label != "area") {
				continue
			}
			h, ok := n.Attr("href")
			if !ok {
				continue
			}
			add(h, anchorText(n), n.Label)
		}
	}
	for _, u := range nav {
		add(u, "", "pushState")
	}
	return links
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
