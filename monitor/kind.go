package monitor

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// hubSegments are path segments of listing pages: sections, tags, authors,
// archives, searches (several languages).
var hubSegments = map[string]bool{
	"section": true, "sections": true, "category": true, "categories": true, "tag": true, "tags": true,
	"topic": true, "topics": true, "author": true, "authors": true, "profile": true, "archive": true,
	"archives": true, "search": true, "page": true, "rubrique": true, "rubriques": true, "auteur": true,
	"auteurs": true, "theme": true, "themes": true, "recherche": true, "autor": true, "autoren": true,
	"thema": true, "themen": true, "archiv": true, "suche": true, "ressort": true, "seite": true,
}

// hubURL reports whether a URL's path is that of a listing page: the
// front page, a paginated listing, a hub segment last or followed by a
// segment that names no item (a dated archive's story is an item), or a
// short path ending in a slash whose last segment is a plain word (a
// section).
func hubURL(u *url.URL) bool {
	p := strings.Trim(u.Path, "/")
	if p == "" || paginated(u.Query()) {
		return true
	}
	segs := strings.Split(p, "/")
	last := segs[len(segs)-1]
	if hubSegments[strings.ToLower(last)] {
		return true
	}
	for i, s := range segs[:len(segs)-1] {
		if hubSegments[strings.ToLower(s)] && (i == len(segs)-2 || !slugLike(last)) {
			return true
		}
	}
	return strings.HasSuffix(u.Path, "/") && len(segs) <= 2 && !slugLike(last)
}

// paginated reports whether a query names a listing's page number (a
// "page" parameter may also name the page a script shows: a path).
func paginated(q url.Values) bool {
	for _, v := range q["page"] {
		if _, err := strconv.Atoi(v); err == nil || v == "" {
			return true
		}
	}
	return false
}

// slugLike reports whether a path segment names one item: it holds a
// digit, several hyphens or underscores, or a page extension.
func slugLike(seg string) bool {
	if strings.ContainsFunc(seg, unicode.IsDigit) {
		return true
	}
	for _, ext := range []string{".html", ".htm", ".php", ".asp", ".aspx", ".shtml"} {
		if strings.HasSuffix(strings.ToLower(seg), ext) {
			return true
		}
	}
	return strings.Count(seg, "-")+strings.Count(seg, "_") >= 2
}

// shape is a URL's form as far as page kinds go: its depth and whether its
// last segment names an item.
func shape(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return ""
	}
	segs := strings.Split(strings.Trim(pu.Path, "/"), "/")
	return fmt.Sprintf("%d:%v", len(segs), slugLike(segs[len(segs)-1]))
}

// learnShape remembers the shape of an article URL of a site.
func (m *Monitor) learnShape(site, u string) {
	if m.shapes[site] == nil {
		m.shapes[site] = map[string]bool{}
	}
	m.shapes[site][shape(u)] = true
}

// loadShapes learns the shapes of the stored articles' URLs.
func (m *Monitor) loadShapes(ctx context.Context, _ *Report) error {
	m.shapes = map[string]map[string]bool{}
	urls, err := m.repo.ArticleURLs(ctx)
	for _, u := range urls {
		m.learnShape(u.Site, u.URL)
	}
	return err
}

// Thresholds of the page-structure evidence, in words of extracted text.
const (
	articleWords = 150 // that much running text is an article
	datedWords   = 40  // a dated page with that much text is one
)

// article decides the page kind: article, or hub (or another page that
// is not one) — from the URL, what the page states, its text, the URL
// shapes of the site's articles, and what listed it.
func (pg *page) article(m *Monitor, p pending) bool {
	u, err := url.Parse(pg.final)
	if err != nil {
		return false
	}
	switch {
	case p.hint.Via == viaNews && strings.Trim(u.Path, "/") != "":
		// A feed or news sitemap lists articles only, whatever their
		// URL looks like (a blog's /fitness-habit/).
		return true
	case hubURL(u):
		return false
	case pg.structured || pg.words >= articleWords:
		return true
	case m.shapes[p.site][shape(p.url)] && !strings.HasSuffix(u.Path, "/"):
		return true
	}
	return pg.meta.Date != "" && pg.words >= datedWords
}

// addHrefs adds to seen the canonical URL of each href of the tag the
// tokenizer is on.
func addHrefs(z *html.Tokenizer, base *url.URL, seen map[string]bool) {
	for more := true; more; {
		var k, v []byte
		k, v, more = z.TagAttr()
		if string(k) == "href" {
			if u, err := canonical(base, string(v)); err == nil {
				seen[u] = true
			}
		}
	}
}

// hubLinks returns the canonical URLs of a hub page's links, sorted,
// newline-separated, at most maxHubLinks.
func hubLinks(pageURL string, src []byte) string {
	base, err := url.Parse(pageURL)
	if err != nil {
		return ""
	}
	seen := map[string]bool{}
	z := html.NewTokenizer(bytes.NewReader(src))
	for len(seen) < maxHubLinks {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt != html.StartTagToken {
			continue
		}
		if name, has := z.TagName(); string(name) == "a" && has {
			addHrefs(z, base, seen)
		}
	}
	out := make([]string, 0, len(seen))
	for u := range seen {
		out = append(out, u)
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
