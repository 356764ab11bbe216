package export

import (
	"strings"
	"time"

	"github.com/gleaner/gleaner/chain"
	"github.com/gleaner/gleaner/store"
)

// Page is a stored page with its annotated extracted content.
type Page struct {
	ID          string
	URL         string
	FetchedAt   time.Time
	Status      int    // HTTP status (200 when unknown)
	ContentType string // of HTML
	HTML        []byte // the rendered DOM (or raw HTML)
	// PageTitle is the page's own title as the browser showed it (its
	// <title>), which WACZ page lists name a page by; Title is the
	// extraction's (a headline, or on a hub page its first story's).
	PageTitle string
	Title     string
	Date      string // publication date stated by the page
	Author    string
	Text      string // extracted text
	// Method, Confidence and Run are the extraction's: the method that
	// chose the text, how sure it was, and the learning run whose
	// templates it used (0 for none).
	Method     string
	Confidence float64
	Run        int64
	// Judgement is what the crawl or monitor that kept the page said of
	// it (nil for pages of neither).
	Judgement *Judgement
	Links     []Link
	Doc       *chain.Document // nil when the page was not annotated
	// Exchanges are the HTTP exchanges recorded with the page, for WARC
	// and WACZ (nil when none were).
	Exchanges []store.Exchange
}

// Judgement is what a crawl or a monitor said of a page it kept: the
// corpus an analyst selects by kind and relevance.
type Judgement struct {
	Kind      string  // article, hub, off-topic…
	Relevance float64 // the focus score of the page's text
	// Template is the cluster, in the learning run Page.Run, of the
	// template the page was extracted against; -1 for none.
	Template int
}

// Link is a hyperlink of a page.
type Link struct {
	URL  string `json:"url"`
	Text string `json:"text,omitempty"`
}

// clean replaces characters that break line- and tab-separated formats.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\t', '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
			return ' '
		}
		if r < 0x20 {
			return -1
		}
		return r
	}, s)
}

func orUnderscore(s string) string {
	s = clean(s)
	if strings.TrimSpace(s) == "" {
		return "_"
	}
	return s
}
