package pagemeta

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/treediff"
)

// ldMeta is what a page's JSON-LD states of it.
type ldMeta struct {
	published, modified string
	authors             []string
	headline            string
	publisher           string
	section             string
	lang                string
	article             bool // the values come from an article-like object
}

// articleTypes are the schema.org types whose values describe the page's
// own text; other objects (a WebSite, an Organization, a BreadcrumbList)
// give values only when no article-like object does.
var articleTypes = []string{"article", "newsarticle", "blogposting", "reportagenewsarticle", "analysisnewsarticle",
	"opinionnewsarticle", "reviewnewsarticle", "liveblogposting", "techarticle", "scholarlyarticle", "report",
	"webpage", "itempage", "posting", "socialmediaposting", "review", "recipe", "howto", "qapage", "discussionforumposting"}

// readJSONLD reads the page's JSON-LD scripts, looking into @graph arrays,
// lists of objects and a page's mainEntity. Malformed scripts are skipped.
func readJSONLD(src []byte) ldMeta {
	var out ldMeta
	// Most pages have none: skip tokenizing the whole source again (the
	// type is written in lower case, else in upper case).
	if !bytes.Contains(src, []byte("ld+json")) && !bytes.Contains(src, []byte("LD+JSON")) {
		return out
	}
	text, _, err := treediff.Decode(src, "")
	if err != nil {
		return out
	}
	eachLDScript(text, func(script []byte) {
		var v any
		if json.Unmarshal(script, &v) == nil {
			walkLD(v, &out, 0)
		}
	})
	return out
}

// eachLDScript calls f with the text of each JSON-LD script of a page.
func eachLDScript(text string, f func([]byte)) { eachRawText(text, isLDScript, f) }

// eachRawText calls f with the text of each element of a page that is
// accepts, in order: the tokenizer gives a raw-text element's contents
// (a script's, a <noscript>'s markup) as one text.
func eachRawText(text string, is func(*html.Tokenizer) bool, f func([]byte)) {
	z := html.NewTokenizer(strings.NewReader(text))
	in := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			return
		case html.StartTagToken:
			in = is(z)
		case html.TextToken:
			if in {
				f(z.Text())
			}
			in = false
		}
	}
}

func isLDScript(z *html.Tokenizer) bool {
	name, hasAttr := z.TagName()
	if string(name) != "script" {
		return false
	}
	for hasAttr {
		var k, v []byte
		k, v, hasAttr = z.TagAttr()
		if string(k) == "type" && strings.EqualFold(strings.TrimSpace(string(v)), "application/ld+json") {
			return true
		}
	}
	return false
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
		readLDObject(x, out)
		if g, ok := x["@graph"]; ok {
			walkLD(g, out, depth+1)
		}
		// A WebPage's mainEntity is the text it holds (a forum thread, an
		// article): its values fill what the page's own leave empty
		// (wcxb-dev: 9 forum threads' authors, 2 titles, 1 date), of
		// whatever type it is (a QAPage's Question names the thread's
		// author and date).
		if me, ok := x["mainEntity"]; ok {
			if e, ok := me.(map[string]any); ok && isArticle(x["@type"]) && out.article {
				readLDValues(e, out)
			}
			walkLD(me, out, depth+1)
		}
	}
}

// readLDObject takes an object's values: an article-like object's replace
// those of other objects read before, and the first article's stay.
func readLDObject(x map[string]any, out *ldMeta) {
	article := isArticle(x["@type"])
	if out.article && !article {
		if out.publisher == "" && isType(x["@type"], "organization", "newsmediaorganization", "website") {
			out.publisher = ldString(x["name"])
		}
		return
	}
	if article && !out.article {
		keep := out.publisher
		*out = ldMeta{article: true, publisher: keep}
	}
	readLDValues(x, out)
}

// readLDValues fills out's empty fields from an object's properties.
func readLDValues(x map[string]any, out *ldMeta) {
	set := func(dst *string, v any) {
		if *dst == "" {
			*dst = ldString(v)
		}
	}
	set(&out.published, x["datePublished"])
	if out.published == "" {
		set(&out.published, x["dateCreated"])
	}
	set(&out.modified, x["dateModified"])
	set(&out.headline, x["headline"])
	set(&out.section, x["articleSection"])
	set(&out.lang, x["inLanguage"])
	if names := ldNames(x["publisher"]); len(names) > 0 && out.publisher == "" {
		out.publisher = names[0]
	}
	if len(out.authors) == 0 {
		out.authors = ldNames(x["author"])
		if len(out.authors) == 0 {
			out.authors = ldNames(x["creator"])
		}
	}
}

func isArticle(t any) bool { return isType(t, articleTypes...) }

func isType(t any, types ...string) bool {
	for _, s := range ldTypes(t) {
		s = strings.ToLower(strings.TrimPrefix(strings.TrimPrefix(s, "http://schema.org/"), "https://schema.org/"))
		if slices.Contains(types, s) {
			return true
		}
	}
	return false
}

// ldTypes are the types an @type value names: a string or a list.
func ldTypes(t any) []string {
	switch x := t.(type) {
	case string:
		return []string{x}
	case []any:
		var ts []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				ts = append(ts, s)
			}
		}
		return ts
	}
	return nil
}

// ldString is a JSON-LD value as a string: a string, the first of a list,
// an object's name or @value.
func ldString(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(html.UnescapeString(x))
	case []any:
		for _, e := range x {
			if s := ldString(e); s != "" {
				return s
			}
		}
	case map[string]any:
		return firstOf(ldString(x["name"]), ldString(x["@value"]))
	}
	return ""
}

// personName is a Person's or Organization's name: its name, else its
// given and family names.
func personName(x map[string]any) string {
	if s := ldString(x["name"]); s != "" {
		return s
	}
	return strings.TrimSpace(ldString(x["givenName"]) + " " + ldString(x["familyName"]))
}

// ldNames returns the names of a JSON-LD author: a string, a Person or
// Organization, or a list of them.
func ldNames(v any) []string {
	switch x := v.(type) {
	case string:
		if s := strings.TrimSpace(html.UnescapeString(x)); s != "" {
			return []string{s}
		}
	case map[string]any:
		if s := personName(x); s != "" {
			return []string{s}
		}
	case []any:
		var names []string
		for _, e := range x {
			names = append(names, ldNames(e)...)
		}
		return names
	}
	return nil
}
