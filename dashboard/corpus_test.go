package dashboard

import (
	"compress/gzip"
	"io"
	"net/http"
	"net/url"
	"testing"
)

func TestCorpusFilter(t *testing.T) {
	doc := corpusDoc{URL: "http://a.test/wind", Title: "Offshore Wind", Snippet: "turbines", Date: "2024-05-02", Lang: "en", Relevance: 2.5, Judged: true}
	for _, c := range []struct {
		query string
		keep  bool
		err   bool
	}{
		{"", true, false},
		{"q=WIND", true, false},
		{"q=football", false, false},
		{"lang=en", true, false},
		{"lang=fr", false, false},
		{"from=2024-05-01&to=2024-05-31", true, false},
		{"from=2024-06-01", false, false},
		{"min_relevance=2", true, false},
		{"min_relevance=3", false, false},
		{"from=May", false, true},
		{"min_relevance=high", false, true},
	} {
		v, _ := url.ParseQuery(c.query)
		f, err := readCorpusFilter(v)
		if (err != nil) != c.err {
			t.Errorf("%q: error %v", c.query, err)
			continue
		}
		if err == nil && f.keep(doc) != c.keep {
			t.Errorf("%q: keep %v, want %v", c.query, !c.keep, c.keep)
		}
	}
}

// TestCorpusExport downloads the fixture crawl's corpus as WARC (package
// export's writer) and checks a wrong format is refused.
func TestCorpusExport(t *testing.T) {
	_, db := fixtureStore(t)
	_, ts := startDashboard(t, db, Options{})
	for _, c := range []struct {
		format string
		code   int
	}{{"warc", 200}, {"pdf", 400}, {"", 400}, {"warc,graph", 400}} {
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/corpus/export?format="+url.QueryEscape(c.format), nil)
		resp := do(t, req)
		if resp.StatusCode != c.code {
			t.Errorf("format %q: status %d, want %d", c.format, resp.StatusCode, c.code)
			continue
		}
		if c.code != 200 {
			continue
		}
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			t.Fatalf("warc: %v", err)
		}
		head := make([]byte, 8)
		if _, err := io.ReadFull(zr, head); err != nil || string(head) != "WARC/1.1" {
			t.Errorf("warc starts %q, %v", head, err)
		}
	}
}
