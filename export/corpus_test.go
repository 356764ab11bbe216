package export

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/chain"
	"github.com/gleaner/gleaner/store"
)

const pageFR = `<html><head><title>Port</title><script>var a = "ne pas exporter";</script></head><body>
<nav><a href="/">Accueil</a> <a href="/monde">Monde</a></nav>
<article><h1>Le port rouvre</h1>
<p>Le port a rouvert lundi après trois semaines de travaux, a annoncé la capitainerie.</p>
<figure><figcaption>Photo : le port à l'aube</figcaption></figure>
<p>Les navires attendaient depuis l'aube. Le premier ferry est parti à midi avec deux cents passagers.</p>
</article></body></html>`

const pageEN = `<html><body><div id="story"><h1>Harbour reopens</h1>
<p>The harbour reopened on Monday after three weeks of repairs, the port authority said.</p>
<p>Ships had been waiting since dawn. The first ferry left at noon with two hundred passengers.</p></div>
<a href="https://example.org/fr/port">français</a></body></html>`

// testStore builds a real SQLite store with two extracted pages.
func testStore(t *testing.T) store.Store {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	pages := []*store.Page{
		{URL: "https://example.org/fr/port", RawHTML: []byte(pageFR), Status: 200, FetchedAt: time.Date(2024, 5, 3, 8, 0, 0, 0, time.UTC),
			Capture: &store.Capture{Links: []store.Link{{URL: "https://example.org/", Text: "Accueil"}, {URL: "https://example.org/monde", Text: "Monde"}}}},
		{URL: "https://example.org/en/harbour", RawHTML: []byte(pageEN), Status: 200,
			Capture: &store.Capture{Links: []store.Link{{URL: "https://example.org/fr/port", Text: "français"}}}},
	}
	if err := st.PutPages(ctx, pages); err != nil {
		t.Fatal(err)
	}
	xs := []store.Extraction{
		{PageID: pages[0].ID, Title: "Le port rouvre", Selector: "html > body > article", Method: "single-page",
			Body: "Le port a rouvert lundi après trois semaines de travaux, a annoncé la capitainerie.\n\nLes navires attendaient depuis l'aube. Le premier ferry est parti à midi avec deux cents passagers."},
		{PageID: pages[1].ID, Title: "Harbour reopens", Selector: "#story",
			Body: "The harbour reopened on Monday after three weeks of repairs, the port authority said.\n\nShips had been waiting since dawn. The first ferry left at noon with two hundred passengers."},
	}
	if err := st.PutExtractions(ctx, xs); err != nil {
		t.Fatal(err)
	}
	return st
}

func TestCorpusAllFormats(t *testing.T) {
	st := testStore(t)
	c, err := chain.New(chain.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	out := t.TempDir()
	formats, _ := ParseFormats("all")
	stats, err := Corpus(context.Background(), st, c, CorpusOptions{Formats: formats, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Documents != 2 || stats.Languages["fr"] != 1 || stats.Languages["en"] != 1 || stats.Edges != 3 {
		t.Errorf("stats %+v", stats)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	conllu := read("corpus.conllu")
	sents, toks := checkCoNLLU(t, conllu)
	if sents != 8 || toks != stats.Tokens {
		t.Errorf("CoNLL-U: %d sentences, %d tokens (chain: %d)", sents, toks, stats.Tokens)
	}
	for _, bad := range []string{"ne pas exporter", "Accueil", "Photo"} {
		if strings.Contains(conllu, bad) {
			t.Errorf("CoNLL-U holds %q, which is not extracted content", bad)
		}
	}
	if !strings.Contains(conllu, "\trouvrir\t") && !strings.Contains(conllu, "\trouvrir") {
		t.Logf("no lemma rouvrir (Apertium missing?)")
	}
	for _, name := range []string{"tei/p1.xml", "tei/p2.xml", "links.graphml"} {
		if err := xml.Unmarshal([]byte(read(name)), new(struct{})); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	recs := readWARCFile(t, filepath.Join(out, "corpus.warc.gz"))
	if len(recs) != 5 {
		t.Fatalf("WARC: %d records", len(recs))
	}
	if !bytes.Contains(recs[1].Block, []byte("Le port rouvre")) || recs[1].Header.Get("WARC-Target-URI") != "https://example.org/fr/port" {
		t.Errorf("response record %q", recs[1].Header)
	}
	rows, err := csv.NewReader(strings.NewReader(read("links.csv"))).ReadAll()
	if err != nil || len(rows) != 4 {
		t.Errorf("links.csv %q %v", rows, err)
	}
	if n := strings.Count(read("corpus.jsonl"), "\n"); n != 2 {
		t.Errorf("jsonl: %d lines", n)
	}
	if !strings.Contains(read("corpus.vrt"), "<doc id=\"p1\"") {
		t.Error("vertical without doc p1")
	}
	if !strings.Contains(read("matrix.tsv"), "p2\tharbour\t2") {
		t.Errorf("matrix:\n%s", read("matrix.tsv"))
	}
	if !strings.Contains(read("terms.tsv"), "en\tport authority") && !strings.Contains(read("terms.tsv"), "en\tharbour") {
		t.Errorf("terms:\n%s", read("terms.tsv"))
	}
}

func TestCorpusErrors(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "empty.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, _ := chain.New(chain.Config{})
	defer c.Close()
	if _, err := Corpus(ctx, st, c, CorpusOptions{Formats: []string{"conllu"}, Out: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "no extracted pages") {
		t.Errorf("empty store: %v", err)
	}
	if _, err := Corpus(ctx, st, nil, CorpusOptions{Formats: []string{"conllu"}, Out: t.TempDir()}); err == nil {
		t.Error("annotation without a chain accepted")
	}
	if _, err := ParseFormats("conllu,pdf"); err == nil || !strings.Contains(err.Error(), `"pdf"`) {
		t.Errorf("bad format: %v", err)
	}
}

func TestCorpusWorkersSameOutput(t *testing.T) {
	st := testStore(t)
	var outs []string
	for _, workers := range []int{1, 3} {
		c, err := chain.New(chain.Config{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		if _, err := Corpus(context.Background(), st, c, CorpusOptions{Formats: []string{"conllu", "jsonl"}, Out: out, Workers: workers}); err != nil {
			t.Fatal(err)
		}
		c.Close()
		a, _ := os.ReadFile(filepath.Join(out, "corpus.conllu"))
		b, _ := os.ReadFile(filepath.Join(out, "corpus.jsonl"))
		outs = append(outs, string(a)+string(b))
	}
	if outs[0] != outs[1] {
		t.Error("outputs differ with 3 workers")
	}
}

func TestInOrder(t *testing.T) {
	items := make([]item, 50)
	for i := range items {
		items[i] = item{pageID: int64(i + 1)}
	}
	prep := func(ctx context.Context, it item) (*Page, error) {
		if it.pageID == 30 {
			return nil, errors.New("page 30 is bad")
		}
		time.Sleep(time.Duration(it.pageID%3) * time.Millisecond)
		return &Page{ID: strconv.FormatInt(it.pageID, 10)}, nil
	}
	var got []string
	err := inOrder(context.Background(), items, 4, prep, func(p *Page) error { got = append(got, p.ID); return nil })
	if err == nil || err.Error() != "page 30 is bad" || len(got) != 29 || got[28] != "29" {
		t.Errorf("err %v, wrote %d pages: %v", err, len(got), got)
	}
	got = nil
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := inOrder(ctx, items, 4, prep, func(p *Page) error { got = append(got, p.ID); return nil }); err == nil {
		t.Error("cancelled run succeeded")
	}
}

// TestCorpusSelect restricts the export to given pages or a dataset.
func TestCorpusSelect(t *testing.T) {
	ctx := context.Background()
	st := testStore(t)
	const fr, en, mon = "https://example.org/fr/port", "https://example.org/en/harbour", "https://example.org/live/harbour"
	p := &store.Page{URL: mon, Dataset: "monitor:x", RawHTML: []byte(pageEN), Status: 200}
	if err := st.PutPages(ctx, []*store.Page{p}); err != nil {
		t.Fatal(err)
	}
	if err := st.PutExtractions(ctx, []store.Extraction{{PageID: p.ID, Title: "Harbour reopens", Body: "The harbour reopened."}}); err != nil {
		t.Fatal(err)
	}
	ps, err := st.Pages(ctx, store.PageQuery{})
	if err != nil {
		t.Fatal(err)
	}
	id := map[string]int64{}
	for _, p := range ps {
		id[p.URL] = p.ID
	}
	tests := []struct {
		name    string
		dataset string
		ids     []int64
		want    []string // URLs exported; nil: none (an error)
	}{
		{"all", "", nil, []string{fr, en, mon}},
		{"pages", "", []int64{id[en], id[mon], id[mon] + 99}, []string{en, mon}},
		{"dataset", "monitor:x", nil, []string{mon}},
		{"dataset and pages", "monitor:x", []int64{id[fr], id[mon]}, []string{mon}},
		{"empty page list", "", []int64{}, nil},
		{"no such dataset", "crawl:y", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := t.TempDir()
			stats, err := Corpus(ctx, st, nil, CorpusOptions{Formats: []string{"warc"}, Out: out, Dataset: tc.dataset, PageIDs: tc.ids})
			if tc.want == nil {
				if err == nil {
					t.Fatalf("exported %d documents, want an error", stats.Documents)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			recs := readWARCFile(t, filepath.Join(out, "corpus.warc.gz"))
			var got []string
			for _, r := range recs {
				if r.Type() == "resource" { // pages without recorded exchanges
					got = append(got, r.TargetURI())
				}
			}
			if stats.Documents != len(tc.want) || strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("%d documents, responses %v, want %v", stats.Documents, got, tc.want)
			}
		})
	}
}

// readWARCFile reads every record of the WARC file at path.
func readWARCFile(t *testing.T, path string) []Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadWARC(f, 0)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return recs
}
