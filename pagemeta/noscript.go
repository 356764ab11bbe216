package pagemeta

import (
	"bytes"

	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/treediff"
)

// A page built by script may state its item's microdata only in the
// markup it gives readers without script (a forum's crawler view in
// <noscript>: the thread's DiscussionForumPosting, its author and date).
// The tree leaves <noscript> out, as a browser running script does, and
// so does the body's extraction; its microdata are still what the page
// states of itself, read here for the fields the page leaves empty.

// noscriptScan is the scan of the markup the page's <noscript> elements
// hold, those that state microdata (itemprop), nil when none does. One
// pass over src, then a parse of that markup alone.
func noscriptScan(src []byte) *scan {
	if !bytes.Contains(src, []byte("itemprop")) || !containsFoldBytes(src, "noscript") {
		return nil
	}
	text, _, err := treediff.Decode(src, "")
	if err != nil {
		return nil
	}
	var markup bytes.Buffer
	eachRawText(text, isNoscript, func(b []byte) {
		if bytes.Contains(b, []byte("itemprop")) {
			markup.Write(b)
			markup.WriteByte('\n')
		}
	})
	if markup.Len() == 0 {
		return nil
	}
	t, err := treediff.Parse("noscript", markup.Bytes(), treediff.ParseOptions{})
	if err != nil || t.Root == nil {
		return nil
	}
	return scanTree(t, "")
}

func isNoscript(z *html.Tokenizer) bool {
	name, _ := z.TagName()
	return string(name) == "noscript"
}

// containsFoldBytes reports whether b holds word in lower or upper case.
func containsFoldBytes(b []byte, word string) bool {
	return bytes.Contains(b, []byte(word)) || bytes.Contains(b, bytes.ToUpper([]byte(word)))
}

// fromNoscript fills the authors and the publication date m leaves empty
// from the microdata of the page's <noscript> markup (source
// "noscript"): its itemprop=author, its itemprop dates. A date the page
// states there outranks go-htmldate's guess.
func fromNoscript(m *Meta, src []byte, host string) {
	guessed := m.Published == "" || m.Sources.Published == "htmldate"
	if len(m.Authors) > 0 && !guessed {
		return
	}
	ns := noscriptScan(src)
	if ns == nil {
		return
	}
	if len(m.Authors) == 0 {
		names, _ := sourceNames(ns.propAuthors, false, m.SiteName, host)
		if len(names) > 0 {
			m.Authors, m.Sources.Authors = names, "noscript"
		}
	}
	if guessed {
		if d := firstOf(metaDate(ns, publishedMetas), timeOfKind(ns, "published")); d != "" {
			m.Published, m.Sources.Published = d, "noscript"
		}
	}
}
