package feeds

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func load(t *testing.T, name string) []byte {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := Read(name, f)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return b
}

func TestParse(t *testing.T) {
	tests := []struct {
		file, source string
		kind         Kind
		format       string
		urls         []string
		sitemaps     []string
	}{
		{"rss.xml", "https://news.example/feed.xml", KindFeed, "rss",
			[]string{"https://news.example/energy/grid-battery?utm_source=rss", "https://news.example/sport/match-report"}, nil},
		{"atom.xml", "https://herald.example/atom.xml", KindFeed, "atom", []string{"https://herald.example/news/tide-turbines"}, nil},
		{"feed.json", "https://rundschau.example/feed.json", KindFeed, "json", []string{"https://rundschau.example/energie/wind-1.html"}, nil},
		{"sitemap_index.xml", "https://news.example/sitemap_index.xml", KindSitemapIndex, "sitemapindex", nil,
			[]string{"https://news.example/sitemap-news.xml", "https://news.example/sitemap-articles.xml.gz"}},
		{"urlset.xml", "https://news.example/sitemap.xml", KindSitemap, "urlset",
			[]string{"https://news.example/", "https://news.example/energy/grid-battery", "https://news.example/sport/"}, nil},
		{"urlset.xml.gz", "https://news.example/sitemap.xml.gz", KindSitemap, "urlset",
			[]string{"https://news.example/", "https://news.example/energy/grid-battery", "https://news.example/sport/"}, nil},
		{"news-sitemap.xml", "https://news.example/sitemap-news.xml", KindSitemap, "news-sitemap", []string{"https://news.example/energy/grid-battery"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			doc, err := Parse(tc.source, load(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if doc.Kind != tc.kind || doc.Format != tc.format {
				t.Errorf("kind %s format %s, want %s %s", doc.Kind, doc.Format, tc.kind, tc.format)
			}
			var urls []string
			for _, e := range doc.Entries {
				urls = append(urls, e.URL)
			}
			if !reflect.DeepEqual(urls, tc.urls) || !reflect.DeepEqual(doc.Sitemaps, tc.sitemaps) {
				t.Errorf("urls %v sitemaps %v, want %v %v", urls, doc.Sitemaps, tc.urls, tc.sitemaps)
			}
		})
	}
}

func TestEntryMetadata(t *testing.T) {
	cet := time.FixedZone("", 3600)
	tests := []struct {
		file, source string
		want         Entry
	}{
		{"rss.xml", "https://news.example/feed.xml", Entry{URL: "https://news.example/energy/grid-battery?utm_source=rss",
			Title: "Grid battery switched on", Published: time.Date(2026, 3, 2, 10, 15, 0, 0, cet), Authors: []string{"Ann Smith"}, Language: "en-gb", News: true}},
		{"atom.xml", "https://herald.example/atom.xml", Entry{URL: "https://herald.example/news/tide-turbines", Title: "Tide turbines",
			Published: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC), Modified: time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC), Authors: []string{"Bo Lee"}, News: true}},
		{"feed.json", "https://rundschau.example/feed.json", Entry{URL: "https://rundschau.example/energie/wind-1.html", Title: "Windkraft",
			Published: time.Date(2026, 3, 2, 7, 0, 0, 0, time.UTC), Modified: time.Date(2026, 3, 2, 8, 30, 0, 0, time.UTC), Authors: []string{"Eva Roth"}, News: true}},
		{"news-sitemap.xml", "https://news.example/sitemap-news.xml", Entry{URL: "https://news.example/energy/grid-battery", Title: "Grid battery switched on",
			Published: time.Date(2026, 3, 2, 9, 15, 0, 0, time.UTC), Language: "en", News: true}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			doc, err := Parse(tc.source, load(t, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			got := doc.Entries[0]
			if got.URL != tc.want.URL || got.Title != tc.want.Title || !got.Published.Equal(tc.want.Published) ||
				!got.Modified.Equal(tc.want.Modified) || !reflect.DeepEqual(got.Authors, tc.want.Authors) ||
				got.Language != tc.want.Language || got.News != tc.want.News {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestBadInput(t *testing.T) {
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	zw.Write(bytes.Repeat([]byte("<url><loc>https://x.example/</loc></url>\n"), MaxBytes/40+10))
	zw.Close()
	tests := []struct {
		name string
		read func() ([]byte, error)
		want error
	}{
		{"malformed sitemap", func() ([]byte, error) { return load(t, "malformed.xml"), nil }, ErrMalformed},
		{"html page", func() ([]byte, error) { return load(t, "notafeed.html"), nil }, ErrFormat},
		{"empty", func() ([]byte, error) { return nil, nil }, ErrFormat},
		{"huge", func() ([]byte, error) { return Read("huge", bytes.NewReader(make([]byte, MaxBytes+1))) }, ErrTooLarge},
		{"gzip bomb", func() ([]byte, error) { return Read("gzip-bomb", bytes.NewReader(bomb.Bytes())) }, ErrTooLarge},
		{"truncated gzip", func() ([]byte, error) { return Read("truncated-gzip", bytes.NewReader(bomb.Bytes()[:100])) }, ErrMalformed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := tc.read()
			if err == nil {
				_, err = Parse("https://x.example/"+tc.name, b)
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			if !strings.Contains(strings.ReplaceAll(err.Error(), "-", " "), tc.name) {
				t.Errorf("error %q does not name the source", err)
			}
		})
	}
}

func TestRobotsSitemaps(t *testing.T) {
	got := RobotsSitemaps("https://news.example/robots.txt", load(t, "robots.txt"))
	want := []string{"https://news.example/sitemap_index.xml", "https://news.example/news-sitemap.xml"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestDiscover(t *testing.T) {
	got := Discover("https://news.example/", load(t, "home.html"))
	want := []string{"https://news.example/feed.xml", "https://news.example/atom.xml"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
