package feeds

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// sitemapXML covers urlset and sitemapindex documents, Google News
// extension included (encoding/xml matches elements by local name when
// the tag gives no namespace).
type sitemapXML struct {
	XMLName xml.Name
	URLs    []struct {
		Loc     string `xml:"loc"`
		LastMod string `xml:"lastmod"`
		News    *struct {
			Publication struct {
				Name     string `xml:"name"`
				Language string `xml:"language"`
			} `xml:"publication"`
			PublicationDate string `xml:"publication_date"`
			Title           string `xml:"title"`
		} `xml:"news"`
	} `xml:"url"`
	Sitemaps []struct {
		Loc string `xml:"loc"`
	} `xml:"sitemap"`
}

func parseSitemap(source string, base *url.URL, body []byte) (*Document, error) {
	var sm sitemapXML
	d := xml.NewDecoder(bytes.NewReader(body))
	if err := d.Decode(&sm); err != nil {
		return nil, fmt.Errorf("source %s: sitemap: %v: %w", source, err, ErrMalformed)
	}
	if sm.XMLName.Local == "sitemapindex" {
		doc := &Document{Kind: KindSitemapIndex, Format: "sitemapindex"}
		for _, s := range sm.Sitemaps {
			if len(doc.Sitemaps) >= MaxEntries {
				doc.Truncated = true
				break
			}
			if u := resolve(base, s.Loc); u != "" {
				doc.Sitemaps = append(doc.Sitemaps, u)
			}
		}
		return doc, nil
	}
	doc := &Document{Kind: KindSitemap, Format: "urlset"}
	for _, x := range sm.URLs {
		if len(doc.Entries) >= MaxEntries {
			doc.Truncated = true
			break
		}
		u := resolve(base, x.Loc)
		if u == "" {
			continue
		}
		e := Entry{URL: u, Modified: parseTime(x.LastMod)}
		if x.News != nil {
			doc.Format = "news-sitemap"
			e.News = true
			e.Title = strings.TrimSpace(x.News.Title)
			e.Language = strings.TrimSpace(x.News.Publication.Language)
			e.Published = parseTime(x.News.PublicationDate)
		}
		doc.Entries = append(doc.Entries, e)
	}
	return doc, nil
}

// W3C datetime forms the sitemap protocol allows.
var w3cLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05", "2006-01-02"}

func parseTime(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, l := range w3cLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// RobotsSitemaps returns the Sitemap: URLs of a robots.txt (case-insensitive
// field name, anywhere in the file, as Google reads them), resolved
// against the robots.txt URL, without duplicates.
func RobotsSitemaps(robotsURL string, body []byte) []string {
	base, _ := url.Parse(robotsURL)
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(string(body), "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "sitemap") {
			continue
		}
		if u := resolve(base, v); u != "" && !seen[u] && len(out) < MaxEntries {
			seen[u] = true
			out = append(out, u)
		}
	}
	return out
}
