package heuristics

import (
	"bytes"
	"encoding/json"
	"strings"

	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/treediff"
)

// Meta is what a page states about itself.
type Meta struct {
	// Title is the first of og:title, twitter:title, headline, dc.title
	// (meta tags), else the <title> text.
	Title string
	// Date is the publication date the page states, as ISO 8601
	// (NormalizeDate): the first of JSON-LD, meta tags, <time datetime> and
	// date-like elements that holds a complete date; "" when none does.
	Date   string
	Author string
}

// Meta names (name=, property=, itemprop=) read for dates and authors, in
// order of preference.
var (
	dateMetaNames = []string{
		"article:published_time", "datepublished", "og:published_time",
		"published_time", "publishdate", "publish-date", "pubdate", "date",
		"dc.date.issued", "dc.date", "dcterms.date", "dcterms.created",
		"sailthru.date", "parsely-pub-date", "article.published", "display-date",
		"original-publish-date", "last-modified", "article:modified_time", "datemodified",
	}
	authorMetaNames = []string{
		"author", "article:author", "byl", "dc.creator", "dcterms.creator",
		"sailthru.author", "parsely-author", "twitter:creator",
	}
)

// ExtractMeta reads the title, publication date and author a page states:
// meta tags (name, property, itemprop), <time> elements, elements marked
// itemprop=author or rel=author, and, when src (the page's bytes) is given,
// its JSON-LD scripts, which the tree does not keep. Absent values are "".
func ExtractMeta(t *treediff.Tree, src []byte) Meta {
	var m Meta
	metas := map[string]string{}
	var docTitle, timeDate, propAuthor, classAuthor, classDate string
	if t != nil && t.Root != nil {
		t.Root.Walk(func(n *treediff.Node) bool {
			if n.Kind != treediff.Element {
				return false
			}
			switch n.Label {
			case "meta":
				key := ""
				for _, k := range []string{"property", "name", "itemprop", "http-equiv"} {
					if v, ok := n.Attr(k); ok && v != "" {
						key = strings.ToLower(strings.TrimSpace(v))
						break
					}
				}
				val, _ := n.Attr("content")
				val = strings.TrimSpace(val)
				if key != "" && val != "" {
					if _, seen := metas[key]; !seen {
						metas[key] = val
					}
				}
			case "title":
				if docTitle == "" {
					docTitle = strings.TrimSpace(n.Text())
				}
			case "time":
				if timeDate == "" {
					v, _ := n.Attr("datetime")
					timeDate = NormalizeDate(firstOf(v, n.Text()))
				}
			}
			if classAuthor == "" || classDate == "" {
				if cls := classID(n); cls != "" {
					if classAuthor == "" && (strings.Contains(cls, "byline") || strings.Contains(cls, "author")) {
						if a := bylineName(n.Text()); a != "" {
							classAuthor = a
						}
					}
					if classDate == "" && (strings.Contains(cls, "date") || strings.Contains(cls, "timestamp") ||
						strings.Contains(cls, "posted") || strings.Contains(cls, "storytime")) {
						classDate = NormalizeDate(shortDate(n.Text()))
					}
				}
			}
			if propAuthor == "" {
				ip, _ := n.Attr("itemprop")
				rel, _ := n.Attr("rel")
				if (strings.EqualFold(ip, "author") || strings.EqualFold(rel, "author")) && n.Label != "meta" && n.Label != "link" {
					propAuthor = cleanAuthor(n.Text())
				}
			}
			return true
		})
	}
	for _, k := range []string{"og:title", "twitter:title", "headline", "dc.title", "dcterms.title"} {
		if v := metas[k]; v != "" {
			m.Title = v
			break
		}
	}
	if m.Title == "" {
		m.Title = docTitle
	}
	ld := jsonLD(src)
	m.Date = firstOf(NormalizeDate(ld.date), pickDate(metas), timeDate, classDate)
	a := pick(metas, authorMetaNames)
	if strings.HasPrefix(a, "http") {
		a = "" // a profile URL, not a name
	}
	m.Author = firstOf(ld.author, cleanAuthor(a), propAuthor, classAuthor)
	return m
}

func pick(metas map[string]string, names []string) string {
	for _, k := range names {
		if v := metas[k]; v != "" {
			return v
		}
	}
	return ""
}

// pickDate returns the first meta date, in order of preference, that holds
// a complete date, normalised.
func pickDate(metas map[string]string) string {
	for _, k := range dateMetaNames {
		if d := NormalizeDate(metas[k]); d != "" {
			return d
		}
	}
	return ""
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// classID returns n's class and id, lower-cased, "" when it has none.
func classID(n *treediff.Node) string {
	c, _ := n.Attr("class")
	id, _ := n.Attr("id")
	if c == "" && id == "" {
		return ""
	}
	return strings.ToLower(c + " " + id)
}

// bylineName returns the name in a byline element's text: "By Jane Doe,
// Times Staff Writer" -> "Jane Doe, Times Staff Writer", "By<br>Jane Doe |
// Posted 12.03.05" -> "Jane Doe"; "" when what is left is not short enough
// to be a byline.
func bylineName(s string) string {
	lines := splitLines(s)
	if len(lines) == 0 {
		return ""
	}
	line := lines[0]
	if l := strings.ToLower(strings.TrimRight(line, ": ")); (l == "by" || l == "from") && len(lines) > 1 {
		line = lines[1]
	}
	line = cleanAuthor(line)
	if n := len(treediff.Words(line)); n == 0 || n > 12 {
		return ""
	}
	return line
}

// shortDate returns a date element's text when it is short and holds a
// digit, cut before a byline or a separator ("12/28/2005, by X").
func shortDate(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	low := strings.ToLower(s)
	for _, sep := range []string{", by ", " by ", " | "} {
		if i := strings.Index(low, sep); i > 0 {
			s, low = s[:i], low[:i]
		}
	}
	s = strings.Trim(s, " ,()")
	if n := len(treediff.Words(s)); n == 0 || n > 14 || !strings.ContainsAny(s, "0123456789") {
		return ""
	}
	return s
}

// cleanAuthor trims a byline to the name: "By: Jane Doe" -> "Jane Doe";
// parts after a "|" and comma-separated parts holding digits (a date, a
// time) are dropped.
func cleanAuthor(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, "|"); i >= 0 {
		s = s[:i]
	}
	low := strings.ToLower(s)
	for _, pre := range []string{"by:", "by ", "from:"} {
		if strings.HasPrefix(low, pre) {
			s = s[len(pre):]
			break
		}
	}
	var keep []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" && !strings.ContainsAny(part, "0123456789") {
			keep = append(keep, part)
		}
	}
	s = strings.Join(keep, ", ")
	if len(s) > 120 {
		return ""
	}
	return s
}

type ldMeta struct{ date, author string }

// jsonLD reads datePublished and author from the page's JSON-LD scripts,
// looking into @graph arrays and lists of objects. Malformed scripts are
// skipped.
func jsonLD(src []byte) ldMeta {
	var out ldMeta
	// Most pages have none: skip tokenizing the whole source again.
	if len(src) == 0 || !bytes.Contains(bytes.ToLower(src), []byte("ld+json")) {
		return out
	}
	text, _, err := treediff.Decode(src, "")
	if err != nil {
		return out
	}
	z := html.NewTokenizer(strings.NewReader(text))
	inLD := false
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return out
		case html.StartTagToken:
			name, hasAttr := z.TagName()
			inLD = false
			if string(name) != "script" {
				continue
			}
			for hasAttr {
				var k, v []byte
				k, v, hasAttr = z.TagAttr()
				if string(k) == "type" && strings.EqualFold(strings.TrimSpace(string(v)), "application/ld+json") {
					inLD = true
				}
			}
		case html.TextToken:
			if !inLD {
				continue
			}
			inLD = false
			var v any
			if json.Unmarshal(z.Text(), &v) != nil {
				continue
			}
			walkLD(v, &out, 0)
			if out.date != "" && out.author != "" {
				return out
			}
		}
	}
}

func walkLD(v any, out *ldMeta, depth int) {
	if depth > 8 {
		return
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			walkLD(e, out, depth+1)
		}
	case map[string]any:
		if s, ok := x["datePublished"].(string); ok && out.date == "" {
			out.date = strings.TrimSpace(s)
		}
		if a, ok := x["author"]; ok && out.author == "" {
			out.author = ldName(a)
		}
		if g, ok := x["@graph"]; ok {
			walkLD(g, out, depth+1)
		}
	}
}

// ldName returns the name(s) of a JSON-LD author: a string, a Person or a
// list of them (joined with ", ").
func ldName(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case map[string]any:
		if s, ok := x["name"].(string); ok {
			return strings.TrimSpace(s)
		}
	case []any:
		var names []string
		for _, e := range x {
			if s := ldName(e); s != "" {
				names = append(names, s)
			}
		}
		return strings.Join(names, ", ")
	}
	return ""
}
