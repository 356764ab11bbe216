package pagemeta

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gleaner/gleaner/treediff"
)

// Headline is the page's headline given the title an extraction method
// found by the article's position (singlepage.Result.Title): m.Title when
// a heading gave it, else the extracted title, else m.Title: old pages'
// <title> is the site's name and their headline no h1 (evalcmp --meta:
// wcxb-dev articles 86.4% exact, big9-dev 98.3%).
//
// A title stated for sharing (og:title, JSON-LD headline) outranks an
// extracted title that is neither one of the page's h1 nor that stated
// title: a heading or caption inside the text ("Photo via Pexels") is no
// headline (wcxb-dev articles: +6 titles, 86.4% -> 87.2%).
//
// Where the model (titlechoice.go, title_model.go) has weights, it
// chooses among these rules' headline, the h1, the stated titles and the
// extracted title.
func (m Meta) Headline(extracted string) string { return m.HeadlineOf(extracted, "") }

// HeadlineOf is Headline on a page of the given type (pagetype.Types,
// singlepage.Result.PageType; "" when unknown): the chooser weighs the
// candidates by the page's kind.
func (m Meta) HeadlineOf(extracted, pageType string) string {
	if len(titleWeights) > 0 && m.titleIn.stated != nil && ChoosesTitle(pageType) {
		if t := m.chooseTitle(extracted, pageType); t != "" {
			return t
		}
	}
	return m.headlineRule(extracted)
}

// headlineRule is Headline by the hand rules alone.
func (m Meta) headlineRule(extracted string) string {
	extracted = cleanHeadline(extracted)
	switch {
	case m.Sources.Title == "h1" || m.Sources.Title == "h2" || extracted == "":
		return m.Title
	case (m.Sources.Title == "meta" || m.Sources.Title == "json-ld") && !m.heads(extracted):
		return m.Title
	}
	return cutPipe(extracted)
}

// heads reports whether t is one of the page's h1 or its stated title
// (whole or one side of a separator).
func (m Meta) heads(t string) bool {
	if sameHeadline(t, m.Title) || sideOf(t, m.Title) {
		return true
	}
	for _, h := range m.headings {
		if squash(h) == squash(t) {
			return true
		}
	}
	return false
}

// headline returns the page's headline and its source: the h1 that
// matches a stated title (og:title, twitter:title, JSON-LD headline,
// dc.title, <title>), whole or one side of a separator ("h1"); else the
// h1 sharing most of its words with one; else the first stated title
// without the site's name ("meta", "json-ld", "title"); else the page's
// only h1.
func headline(s *scan, ld ldMeta, site, host string) (string, string) {
	h, src := statedHeadline(s, ld, site, host)
	// An h1 may end with the site's name as the <title> does
	// ("Headline – Site").
	h = withoutSourceHost(cutPipe(cutSiteSuffix(cleanHeadline(h), site, host)))
	if d := withoutDate(h); d != h && matching([]string{d}, statedTitles(s, ld)) != "" {
		h = d // the stated title agrees: the date was the byline's
	}
	return h, src
}

// statedTitles are the titles a page states of itself, in order of
// preference.
func statedTitles(s *scan, ld ldMeta) []sourced {
	return []sourced{
		{s.meta("og:title", "twitter:title"), "meta"},
		{ld.headline, "json-ld"},
		{s.meta("headline", "dc.title", "dcterms.title", "title"), "meta"},
		{s.docTitle, "title"},
	}
}

// withoutDate is a headline without a date it starts or ends with ("Dec
// 18 2025 Preparing a transition"): the byline's, shown in the heading.
func withoutDate(t string) string {
	low := strings.ToLower(t)
	if len(low) != len(t) {
		return t // byte offsets differ once lower-cased
	}
	for _, f := range []func(string) (dayMatch, bool){monthFirst, dayFirst} {
		dm, found := f(low)
		if !found || !dm.ok {
			continue
		}
		end := dm.end
		if rest := strings.TrimSpace(t[end:]); dm.start == 0 && rest != "" {
			return rest
		}
		if rest := strings.TrimSpace(t[:dm.start]); end == len(t) && rest != "" {
			return rest
		}
	}
	return t
}

// cutPipe is a headline without what follows its first " | ": a section,
// the site, a tagline ("Headline | Opinion"); a first part of one word is
// kept whole (wcxb-dev articles: the gold headline is the first part on
// 17 of 19 titles holding " | ").
func cutPipe(t string) string {
	if i := strings.Index(t, " | "); i > 0 && len(strings.Fields(t[:i])) >= 2 {
		return strings.TrimSpace(t[:i])
	}
	return t
}

// statedHeadline is headline before cleanHeadline.
func statedHeadline(s *scan, ld ldMeta, site, host string) (string, string) {
	stated := statedTitles(s, ld)
	heads := texts(s.headings, site, host)
	if h, src := headingOf(s, heads, stated, site, host); h != "" {
		return h, src
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

// headingOf is the heading that is a stated title ("h1"; an h2 on a page
// without h1, as old pages have), else the h1 that shares most of its
// words with one; "" when none.
func headingOf(s *scan, heads []string, stated []sourced, site, host string) (string, string) {
	if h := labelledTitle(s.headings, stated); h != "" {
		return h, "h1"
	}
	if h := matching(heads, stated); h != "" {
		return h, "h1"
	}
	if len(heads) == 0 {
		if h := matching(texts(s.subheads, site, host), stated); h != "" {
			return h, "h2"
		}
	}
	if h := overlapping(heads, stated); h != "" {
		return h, "h1"
	}
	if h := soleHeadline(heads); h != "" && strings.EqualFold(s.meta("og:type"), "article") {
		return h, "h1"
	}
	return "", ""
}

// minSoleWords is the length from which the only h1 of a page that says
// it is an article (og:type), unlike every title it states, is its
// headline: a sentence the reader sees above the text, where a shorter
// one is a section's or a blog's name ("Our blog", "Lessons learned").
// On a product's or a service's page such an h1 is a slogan ("Bring your
// strategy to life"), and the stated title names the page. wcxb-dev
// articles whose only h1 shares no words with the stated titles: the gold
// is that h1 on 17 of the 30 pages where it has five words or more, the
// stated title on 8; on all wcxb-dev pages, without the og:type
// condition, the rule fixed 11 titles and broke 23.
const minSoleWords = 5

// soleHeadline is the page's only h1 (repeated or not) when it has at
// least minSoleWords words and at most maxSoleWords, "" otherwise.
func soleHeadline(heads []string) string {
	if len(heads) == 0 {
		return ""
	}
	for _, h := range heads[1:] {
		if squash(h) != squash(heads[0]) {
			return ""
		}
	}
	if n := len(treediff.Words(heads[0])); n < minSoleWords || n > maxSoleWords || strings.HasSuffix(heads[0], ":") {
		return "" // too short, too long, or leading in to what follows
	}
	return heads[0]
}

// maxLabelWords bounds the label a heading may show before its title
// ("News", "Thread:", "Tips/Techniques").
const maxLabelWords = 3

// labelledTitle is the title of the first h1 made of a label and a
// stated title, the label text of its own ahead of the title's ("<span
// class=label>News</span> Title", "Thread: <a>Title</a>"): a forum's
// prefix or a section's tag, not part of what the page is called, even
// when another stated title keeps it. "" when no h1 is.
func labelledTitle(hs []*treediff.Node, stated []sourced) string {
	for _, h := range hs {
		if t := colonLabelled(h.Text(), stated); t != "" {
			return t
		}
		texts := textsUnder(h)
		for k := 1; k < len(texts); k++ {
			label, rest := strings.Join(texts[:k], " "), strings.Join(texts[k:], " ")
			if len(treediff.Words(label)) <= maxLabelWords && isStated(rest, stated) {
				return cleanHeadline(strings.Join(strings.Fields(rest), " "))
			}
		}
	}
	return ""
}

// colonLabelled is the title of a heading written "Label: Title" in one
// text ("Blog: Title", "Buying Guide: Title"), where the page states the
// title without the label (whole or beside the site's name), and never
// with it: the section's name before it is not part of
// what the page is called. "" when the heading is not such.
func colonLabelled(h string, stated []sourced) string {
	h = strings.Join(strings.Fields(h), " ")
	label, rest, ok := strings.Cut(h, ": ")
	if !ok || len(treediff.Words(label)) > maxLabelWords || matching([]string{rest}, stated) == "" || matching([]string{h}, stated) != "" {
		return ""
	}
	return cleanHeadline(rest)
}

// isStated reports whether t is one of the stated titles, letters and
// digits aside.
func isStated(t string, stated []sourced) bool {
	for _, st := range stated {
		if st.value != "" && squash(t) != "" && squash(t) == squash(st.value) {
			return true
		}
	}
	return false
}

// textsUnder are the non-blank texts of the text nodes under n, in order.
func textsUnder(n *treediff.Node) []string {
	var out []string
	n.Walk(func(x *treediff.Node) bool {
		if x.Kind == treediff.Text && strings.TrimSpace(x.Label) != "" {
			out = append(out, x.Label)
		}
		return true
	})
	return out
}

// maxSoleWords bounds a sole h1 read as the headline: a longer one is a
// description or a teaser.
const maxSoleWords = 25

// texts are the texts of headings that do not name the site, cleaned
// (cleanHeadline).
func texts(hs []*treediff.Node, site, host string) []string {
	var out []string
	for _, h := range hs {
		if text := cleanHeadline(strings.Join(strings.Fields(headingText(h)), " ")); text != "" && !namesSite(text, site, host) {
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
		if leftSide(hs, stated, sep) || rightSide(hs, stated, sep) {
			return true
		}
	}
	return false
}

// leftSide reports whether squashed heading hs is the part of stated
// before its first sep, and the longer part.
func leftSide(hs, stated, sep string) bool {
	i := strings.Index(stated, sep)
	return i > 0 && squash(stated[:i]) == hs && 2*i >= len(stated)-len(sep)
}

// rightSide reports whether squashed heading hs is the part of stated
// after its last sep, and the longer part.
func rightSide(hs, stated, sep string) bool {
	i := strings.LastIndex(stated, sep)
	return i > 0 && squash(stated[i+len(sep):]) == hs && 2*(len(stated)-i-len(sep)) >= i
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
			if shared, words := sharedWords(hw, st.value); 2*shared >= len(hw) && 2*shared >= words {
				return h
			}
		}
	}
	return ""
}

// sharedWords counts the heading's words that are in the stated title,
// and the stated title's distinct words (case aside).
func sharedWords(hw []treediff.Word, stated string) (shared, words int) {
	in := map[string]bool{}
	for _, w := range treediff.Words(stated) {
		in[strings.ToLower(w.Text)] = true
	}
	for _, w := range hw {
		if in[strings.ToLower(w.Text)] {
			shared++
		}
	}
	return shared, len(in)
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
		if rest, ok := withoutSite(t, sep, site, host); ok {
			return rest
		}
	}
	return t
}

// cutSiteSuffix is t without a last part, after a separator, that names
// the site; a first part that does is the headline's own ("Almost Timely
// News: …" on a site of that name).
func cutSiteSuffix(t, site, host string) string {
	for _, sep := range titleSeparators {
		if rest, ok := withoutSiteSuffix(t, sep, site, host); ok {
			return rest
		}
	}
	return t
}

// withoutSite is t without its last part after sep, or its first part
// before it, when that part names the site.
func withoutSite(t, sep, site, host string) (string, bool) {
	if rest, ok := withoutSiteSuffix(t, sep, site, host); ok {
		return rest, true
	}
	if j := strings.Index(t, sep); j > 0 && namesSite(t[:j], site, host) {
		return strings.TrimSpace(t[j+len(sep):]), true
	}
	return "", false
}

// withoutSiteSuffix is t without its last part after sep when that part
// names the site.
func withoutSiteSuffix(t, sep, site, host string) (string, bool) {
	if i := strings.LastIndex(t, sep); i > 0 && namesSite(t[i+len(sep):], site, host) {
		return strings.TrimSpace(t[:i]), true
	}
	return "", false
}

// namesSite reports whether part is the site's name or host.
func namesSite(part, site, host string) bool {
	p := squash(part)
	return p != "" && (namesName(p, squash(site)) || host != "" && namesHost(p, host))
}

// namesName reports whether squashed part p is squashed site name s, or
// holds it with little else.
func namesName(p, s string) bool {
	return s != "" && (p == s || strings.Contains(p, s) && len(p) <= 2*len(s))
}

// namesHost reports whether squashed part p is the host, or its first
// label with little else, or most of that label ("nytimes" for
// "nytimes.com").
func namesHost(p, host string) bool {
	label := squash(strings.Split(host, ".")[0])
	if p == squash(host) || len(label) < 3 {
		return p == squash(host)
	}
	return strings.Contains(p, label) && len(p) <= 2*len(label)+4 || strings.Contains(label, p) && len(p) >= 4
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
	return len(short) >= 12 && strings.Contains(long, short) && 10*len(short) >= 6*len(long)
}

// headingText is a heading's text without a tagline glued to it: when the
// heading's own text ends in a lower-case letter and an element follows
// it at once, its text starting with a capital ("Black Edition<span
// class=tagline>Complete meal</span>"), no word boundary is written
// because the style sets the element on a line of its own: the text
// before it is the title.
func headingText(h *treediff.Node) string {
	for i, c := range h.Children {
		if c.Kind != treediff.Text || i+1 >= len(h.Children) || h.Children[i+1].Kind != treediff.Element {
			continue
		}
		last, _ := utf8.DecodeLastRuneInString(c.Label)
		first, _ := utf8.DecodeRuneInString(strings.TrimLeftFunc(h.Children[i+1].Text(), unicode.IsSpace))
		if unicode.IsLower(last) && unicode.IsUpper(first) && strings.TrimSpace(h.Children[i+1].Text()) == h.Children[i+1].Text() {
			return textBefore(h, i+1)
		}
	}
	return h.Text()
}

// textBefore is the text of h's children before the k-th.
func textBefore(h *treediff.Node, k int) string {
	var b strings.Builder
	for _, c := range h.Children[:k] {
		b.WriteString(c.Text())
		b.WriteByte(' ')
	}
	return b.String()
}
