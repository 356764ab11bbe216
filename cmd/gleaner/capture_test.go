package main

import (
	"context"
	"encoding/base32"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/internal/warciotest"
)

// TestCrawlCapturedAsServed is issue 24's goal shown as a new user gets
// it: "gleaner crawl" renders pages of the fixture web (recording is the
// default), "gleaner export --format warc" archives them, warcio reads
// every record and checks every digest, and each response the fixture
// server logged as sent to the browser is in the archive with the very
// payload bytes the server sent (its SHA-256 as the server computed it),
// each with its request. robots.txt is the crawl's own fetch (the
// politeness rules), no page's exchange, so it is not archived.
func TestCrawlCapturedAsServed(t *testing.T) {
	if _, err := browser.FindChromium(); err != nil {
		t.Skip(err)
	}
	w, err := fixtures.Start(context.Background(), fixtures.Options{Seed: 1, Articles: 8, Slow: -1, CrawlDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	dir := t.TempDir()
	db := filepath.Join(dir, "g.db")
	args := []string{"crawl", "--db", db, "--name", "cap", "--terms", "energy", "--delay", "1ms", "--learn-at", "-1", "--max-pages", "6", "--quiet"}
	for _, h := range w.Hosts() {
		args = append(args, "--allow-host", h)
	}
	if code, _, stderr := exportCmd(append(args, w.HomePages()...)...); code != 0 {
		t.Fatalf("crawl: exit %d: %s", code, stderr)
	}
	out := filepath.Join(dir, "out")
	if code, stdout, stderr := exportCmd("export", "--db", db, "--crawl", "cap", "--kind", "all", "--format", "warc", "--out", out); code != 0 ||
		strings.Contains(stdout, "not recorded") {
		t.Fatalf("export: exit %d: %s %s", code, stdout, stderr)
	}
	s, ok := warcioCheck(t, filepath.Join(out, "corpus.warc.gz"))
	if !ok {
		return
	}
	same, total := checkServedArchived(t, w, s)
	t.Logf("payloads byte-identical to what the fixture server sent: %d of %d responses (%d requests recorded)", same, total, len(s.Requests))
	if total < 6 || same != total {
		t.Errorf("%d of %d responses as served", same, total)
	}
}

// checkServedArchived compares every response the fixture server logged
// (robots.txt aside) with the archive warcio read: a response or revisit
// record of that URL whose payload digest is the SHA-256 the server
// computed of what it sent, and a request record of that URL.
func checkServedArchived(t *testing.T, w *fixtures.Server, s warciotest.Summary) (same, total int) {
	t.Helper()
	payloads, requests := map[string]bool{}, map[string]int{}
	for _, r := range s.Responses { // warcio checked a response's digest against its payload
		payloads[r.URL+" "+r.PayloadDigest] = true
	}
	for _, r := range s.Requests {
		requests[r.URL]++
	}
	base := map[string]string{}
	for _, site := range w.Sites {
		base[site.Name] = site.Base
	}
	for _, h := range w.Hits() {
		if p, _ := url.Parse(h.Path); p != nil && p.Path == "/robots.txt" {
			continue
		}
		u := base[h.Site] + h.Path
		total++
		if payloads[u+" sha256:"+base32.StdEncoding.EncodeToString(h.Sent[:])] {
			same++
		} else {
			t.Errorf("%s (status %d, %d bytes sent): no response record with the payload the server sent", u, h.Status, h.SentBytes)
		}
		if requests[u] == 0 {
			t.Errorf("%s: no request record", u)
		}
	}
	return same, total
}
