package pagemeta

import (
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// Headline is the page's headline given the title an extraction method
// found by the article's position (singlepage.Result.Title): m.Title when
// a heading gave it, else the extracted title, else m.Title: old pages'
// <title> is the site's name and their headline no h1 (evalcmp --meta:
// wcxb-dev articles 86.4% exact, big9-dev 98.3%).
func (m Meta) Headline(extracted string) string {
	if m.Sources.Title == "h1" || m.Sources.Title == "h2" || extracted == "" {
		return m.Title
	}
	return extracted
}

// headline returns the page's headline and its source: the h1 that
// matches a stated title (og:title, twitter:title, JSON-LD headline,
// dc.title, <title>), whole or one side of a separator ("h1"); else the
// h1 sharing most of its words with one; else the first stated title
// without the site's name ("meta", "json-ld", "title"); else the page's
// only h1.
func headline(s *scan, ld ldMeta, site, host string) (string, string) {
	stated := []sourced{
		{s.meta("og:title", "twitter:title"), "meta"},
		{ld.headline, "json-ld"},
		{s.meta("headline", "dc.title", "dcterms.title", "title"), "meta"},
		{s.docTitle, "title"},
	}
	heads := texts(s.headings, site, host)
	if h := matching(heads, stated); h != "" {
		return h, "h1"
	}
	if len(heads) == 0 {
		// An old page's headline is often an h2.
		if h := matching(texts(s.subheads, site, host), stated); h != "" {
			return h, "h2"
		}
	}
	if h := overlapping(heads, stated); h != "" {
		return h, "h1"
	}
	for i := range stated {
		stated[i].value = cutSiteName(stated[i].value, site, host)
	}
	if v, src := firstSource(stated...); v != "" {
		return v, src
	}
	if len(heads) == 1 {
		return heads[0], "h1"
	}
	return "", ""
}

// texts are the texts of headings that do not name the site.
func texts(hs []*treediff.Node, site, host string) []string {
	var out []string
	for _, h := range hs {
		if text := strings.Join(strings.Fields(h.Text()), " "); text != "" && !namesSite(text, site, host) {
			out = append(out, text)
		}
	}
	return out
}

// matching is the first heading that is a stated title, whole or one side
// of a separator; "" when none is.
func matching(heads []string, stated []sourced) string {
	for _, h := range heads {
		for _, st := range stated {
			if st.value != "" && (sameHeadline(h, st.value) || sideOf(h, st.value)) {
				return h
			}
		}
	}
	return ""
}

// sideOf reports whether h is the longer side of a stated title's first
// or last separator ("Headline | Site", "Site: Headline"), not the site's
// or section's name beside the headline.
func sideOf(h, stated string) bool {
	hs := squash(h)
	for _, sep := range titleSeparators {
		if i := strings.Index(stated, sep); i > 0 && squash(stated[:i]) == hs && 2*i >= len(stated)-len(sep) {
			return true
		}
		if i := strings.LastIndex(stated, sep); i > 0 && squash(stated[i+len(sep):]) == hs && 2*(len(stated)-i-len(sep)) >= i {
			return true
		}
	}
	return false
}

// overlapping is the first heading of which at least half the words are
// in a stated title and that holds at least half of its words, "" when
// none: a headline reworded for the <title>, not the section's name.
func overlapping(heads []string, stated []sourced) string {
	for _, h := range heads {
		hw := treediff.Words(h)
		if len(hw) < 2 || len(hw) > 40 {
			continue
		}
		for _, st := range stated {
			in := map[string]bool{}
			for _, w := range treediff.Words(st.value) {
				in[strings.ToLower(w.Text)] = true
			}
			n := 0
			for _, w := range hw {
				if in[strings.ToLower(w.Text)] {
					n++
				}
			}
			if 2*n >= len(hw) && 2*n >= len(in) {
				return h
			}
		}
	}
	return ""
}

// titleSeparators part a <title> from the site's name.
var titleSeparators = []string{" | ", " - ", " – ", " — ", " :: ", " · ", " • ", " » ", " « ", " / ", " : "}

// cutSiteName removes the site's name from a stated title: the part,
// before or after a separator, that names the site (its name or host),
// or a short last part after " | " when the rest is longer.
func cutSiteName(t, site, host string) string {
	t = strings.Join(strings.Fields(t), " ")
	if i := strings.Index(t, ": "); i > 0 && namesSite(t[:i], site, host) {
		return strings.TrimSpace(t[i+2:]) // "Site: Headline"
	}
	for _, sep := range titleSeparators {
		i := strings.LastIndex(t, sep)
		j := strings.Index(t, sep)
		switch {
		case i > 0 && namesSite(t[i+len(sep):], site, host):
			return strings.TrimSpace(t[:i])
		case j > 0 && namesSite(t[:j], site, host):
			return strings.TrimSpace(t[j+len(sep):])
		}
	}
	return t
}

// namesSite reports whether part is the site's name or host.
func namesSite(part, site, host string) bool {
	p := squash(part)
	if p == "" {
		return false
	}
	if s := squash(site); s != "" && (p == s || strings.Contains(p, s) && len(p) <= 2*len(s)) {
		return true
	}
	if host == "" {
		return false
	}
	h := squash(host)
	label := squash(strings.Split(host, ".")[0])
	return p == h || len(label) >= 3 && (strings.Contains(p, label) && len(p) <= 2*len(label)+4 || strings.Contains(label, p) && len(p) >= 4)
}

// squash lower-cases s and keeps its letters and digits.
func squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if treediff.IsWordRune(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// sameHeadline reports whether a heading's text is the stated title:
// equal once squashed, or one containing the other when the shorter
// holds most of the longer's letters.
func sameHeadline(h, stated string) bool {
	a, b := squash(h), squash(stated)
	if a == "" || b == "" {
		return false
	}
	if a == b {
		return true
	}
	short, long := a, b
	if len(short) > len(long) {
		short, long = long, short
	}
	return strings.Contains(long, short) && 10*len(short) >= 6*len(long) && len(short) >= 12
}
