package feeds

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/mmcdole/gofeed"
)

// Limits on one source document.
const (
	// MaxBytes bounds a document after decompression (the sitemap
	// protocol's own limit is 50 MB; news feeds are far smaller).
	MaxBytes = 50 << 20
	// MaxEntries bounds the entries (or child sitemaps) kept from one
	// document, the sitemap protocol's limit.
	MaxEntries = 50000
)

// Failure kinds, wrapped by the errors of this package.
var (
	ErrTooLarge  = errors.New("source too large")
	ErrFormat    = errors.New("not a feed or sitemap")
	ErrMalformed = errors.New("malformed source")
)

// Kind says what a source document is.
type Kind string

// Source kinds.
const (
	KindFeed         Kind = "feed"          // RSS, Atom or JSON Feed
	KindSitemap      Kind = "sitemap"       // urlset (Google News sitemaps included)
	KindSitemapIndex Kind = "sitemap-index" // list of sitemaps
)

// Entry is one article a source lists.
type Entry struct {
	URL       string    // absolute, as listed (tracking parameters kept)
	Title     string    // "" when the source gives none
	Published time.Time // zero when unknown
	Modified  time.Time // zero when unknown (sitemap lastmod, feed updated)
	Authors   []string
	Language  string // ISO 639 code when the source states one
	// News is true for entries of a feed or a Google News sitemap: sources
	// that list articles only (a plain sitemap also lists hub pages).
	News bool
}

// Document is a parsed source.
type Document struct {
	Kind     Kind
	Format   string // "rss", "atom", "json", "urlset", "news-sitemap", "sitemapindex"
	Title    string
	Entries  []Entry
	Sitemaps []string // child sitemaps of a sitemap index
	// Truncated is true when entries past MaxEntries were dropped.
	Truncated bool
}

// Read reads a source body of at most MaxBytes, gunzipping it when it is
// gzip-compressed (by its magic bytes, whatever the headers say).
func Read(source string, r io.Reader) ([]byte, error) {
	return readLimit(source, r, MaxBytes)
}

func readLimit(source string, r io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("source %s: read: %w", source, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("source %s: over %d bytes: %w", source, limit, ErrTooLarge)
	}
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		return b, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("source %s: gzip: %v: %w", source, err, ErrMalformed)
	}
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, limit+1))
	if err != nil {
		return nil, fmt.Errorf("source %s: gunzip: %v: %w", source, err, ErrMalformed)
	}
	if int64(len(out)) > limit {
		return nil, fmt.Errorf("source %s: over %d bytes once decompressed: %w", source, limit, ErrTooLarge)
	}
	return out, nil
}

// Parse reads a feed or sitemap (already read with Read). source names it
// in errors and resolves relative URLs.
func Parse(source string, body []byte) (*Document, error) {
	if len(body) > MaxBytes {
		return nil, fmt.Errorf("source %s: %d bytes, over %d: %w", source, len(body), MaxBytes, ErrTooLarge)
	}
	base, _ := url.Parse(source)
	switch root := rootElement(body); root {
	case "urlset", "sitemapindex":
		return parseSitemap(source, base, body)
	}
	fp := gofeed.NewParser()
	f, err := fp.Parse(bytes.NewReader(body))
	if err != nil {
		if errors.Is(err, gofeed.ErrFeedTypeNotDetected) {
			return nil, fmt.Errorf("source %s: %w", source, ErrFormat)
		}
		return nil, fmt.Errorf("source %s: %v: %w", source, err, ErrMalformed)
	}
	return fromFeed(base, f), nil
}

// rootElement returns the local name of an XML document's root element, or
// "" when body is not XML.
func rootElement(body []byte) string {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	for i := 0; i < 64; i++ {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name.Local
		}
	}
	return ""
}

// fromFeed converts gofeed's feed into entries.
func fromFeed(base *url.URL, f *gofeed.Feed) *Document {
	doc := &Document{Kind: KindFeed, Format: f.FeedType, Title: strings.TrimSpace(f.Title)}
	for _, it := range f.Items {
		if len(doc.Entries) >= MaxEntries {
			doc.Truncated = true
			break
		}
		link := it.Link
		if link == "" && len(it.Links) > 0 {
			link = it.Links[0]
		}
		u := resolve(base, link)
		if u == "" {
			continue
		}
		e := Entry{URL: u, Title: strings.TrimSpace(it.Title), News: true, Language: f.Language}
		if it.PublishedParsed != nil {
			e.Published = *it.PublishedParsed
		}
		if it.UpdatedParsed != nil {
			e.Modified = *it.UpdatedParsed
		}
		for _, p := range it.Authors {
			if p != nil && strings.TrimSpace(p.Name) != "" {
				e.Authors = append(e.Authors, strings.TrimSpace(p.Name))
			}
		}
		if len(e.Authors) == 0 && it.DublinCoreExt != nil {
			e.Authors = append(e.Authors, it.DublinCoreExt.Creator...)
		}
		doc.Entries = append(doc.Entries, e)
	}
	return doc
}

// resolve makes a listed URL absolute; "" when it is not an http(s) URL.
func resolve(base *url.URL, ref string) string {
	ref = strings.TrimSpace(ref)
	u, err := url.Parse(ref)
	if err != nil || ref == "" {
		return ""
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return ""
	}
	return u.String()
}
