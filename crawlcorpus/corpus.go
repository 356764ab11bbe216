// Package crawlcorpus provides what a finished crawl leaves: its documents
// (each page with its latest extraction, the kind the crawl took it for,
// its relevance and template), the corpus as JSON Lines and the hyperlink
// graph. "gleaner export --crawl", "gleaner crawl --corpus/--graph", the
// dashboard and the fixture scores read a crawl through it.
package crawlcorpus

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/gleaner/gleaner/atomicfile"
	"github.com/gleaner/gleaner/export"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/frontier"
)

// Edges returns the hyperlink graph of crawl name: page → page links with
// their anchor text, and redirects (anchor "redirect").
func Edges(ctx context.Context, db *store.DB, name string) ([]export.Edge, error) {
	fs, err := frontier.Open(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("crawler tables: %w", err)
	}
	stored, err := fs.Edges(ctx, name)
	if err != nil {
		return nil, err
	}
	out := make([]export.Edge, 0, len(stored))
	for _, e := range stored {
		text := e.Anchor
		if e.Kind == frontier.RedirectEdge {
			text = "redirect"
		}
		out = append(out, export.Edge{Source: e.Source, Target: e.Target, Text: text})
	}
	return out, nil
}

// WriteGraph writes the crawl's hyperlink graph as a CSV edge list and as
// GraphML (package export's writers); nodes fetched by the crawl are marked
// crawled.
func WriteGraph(ctx context.Context, db *store.DB, name string, csvOut, graphML io.Writer) (int, error) {
	edges, err := Edges(ctx, db, name)
	if err != nil {
		return 0, err
	}
	if csvOut != nil {
		if err := export.WriteEdgesCSV(csvOut, edges); err != nil {
			return 0, err
		}
	}
	if graphML != nil {
		fetched, err := fetchOrder(ctx, db, name)
		if err != nil {
			return 0, err
		}
		pages := make([]*export.Page, len(fetched))
		for i, f := range fetched {
			pages[i] = &export.Page{ID: f.URL, URL: f.URL}
		}
		if err := export.WriteGraphML(graphML, pages, edges); err != nil {
			return 0, err
		}
	}
	return len(edges), nil
}

// Document is one page of a crawl's corpus.
type Document struct {
	URL   string `json:"url"`
	Site  string `json:"site"`
	Title string `json:"title"`
	Date  string `json:"date,omitempty"`
	Text  string `json:"text"`
	// Kind is what the crawl took the page for (KindArticle, KindHub,
	// KindOffTopic, or the outcome of a page left out for another reason).
	Kind     string `json:"kind"`
	Template string `json:"template,omitempty"` // "run R cluster C" of the site's templates, "" for none
	// Run and Cluster are Template's learning run and cluster (0 and -1
	// for none).
	Run        int64   `json:"run,omitempty"`
	Cluster    int     `json:"-"`
	Method     string  `json:"method"`
	Confidence float64 `json:"confidence"`
	Relevance  float64 `json:"relevance"`
	PageID     int64   `json:"page_id"`
}

// Kinds of a crawl's documents. A page left out for another reason than
// its relevance (a near duplicate, a language not asked for…) has its
// outcome for kind.
const (
	// KindArticle is a validated page: relevant, and not a list of others.
	KindArticle = "article"
	// KindHub is a relevant page whose extraction found a listing or a
	// collection of other pages (heuristics' page types).
	KindHub = "hub"
	// KindOffTopic is a page judged irrelevant.
	KindOffTopic = "off-topic"
	// KindAll selects every kind.
	KindAll = "all"
)

// kindOf is the kind of a page of outcome outcome whose extraction gave
// pageType.
func kindOf(outcome frontier.Outcome, pageType string) string {
	switch {
	case outcome == frontier.Irrelevant:
		return KindOffTopic
	case outcome != frontier.Validated:
		return outcome.String()
	case pageType == "listing" || pageType == "collection":
		return KindHub
	}
	return KindArticle
}

// CheckKind fails when kind names no kind of document a crawl keeps.
func CheckKind(kind string) error {
	switch kind {
	case KindArticle, KindHub, KindOffTopic, KindAll:
		return nil
	}
	if o := frontier.Outcome(kind); o.Fetched() && !o.Kept() {
		return nil
	}
	return fmt.Errorf("crawl document kind %q: want %s, %s, %s, %s or an outcome (duplicate, language…)", kind, KindArticle, KindHub, KindOffTopic, KindAll)
}

// Corpus returns the validated documents of crawl name in fetch order with
// their latest extraction.
func Corpus(ctx context.Context, db *store.DB, name string) ([]Document, error) {
	return documents(ctx, db, name, func(f frontier.FetchedURL) bool { return f.Outcome == frontier.Validated })
}

// Documents returns the documents of crawl name of kind kind ("" for
// KindArticle, KindAll for every kind) whose relevance is at least
// minRelevance, in fetch order with their latest extraction: the
// selection of "gleaner export --crawl".
func Documents(ctx context.Context, db *store.DB, name, kind string, minRelevance float64) ([]Document, error) {
	if kind == "" {
		kind = KindArticle
	}
	if err := CheckKind(kind); err != nil {
		return nil, err
	}
	docs, err := documents(ctx, db, name, func(f frontier.FetchedURL) bool { return f.Score >= minRelevance })
	if err != nil || kind == KindAll {
		return docs, err
	}
	out := docs[:0]
	for _, d := range docs {
		if d.Kind == kind {
			out = append(out, d)
		}
	}
	return out, nil
}

// documents returns the crawl's fetched pages that keep selects and that
// have an extraction, as documents.
func documents(ctx context.Context, db *store.DB, name string, keep func(frontier.FetchedURL) bool) ([]Document, error) {
	fetched, err := fetchOrder(ctx, db, name)
	if err != nil {
		return nil, err
	}
	tpl := templates{db: db, members: map[int64]map[int64]store.Membership{}}
	var out []Document
	for _, f := range fetched {
		if f.PageID == 0 || !keep(f) {
			continue
		}
		d, ok, err := document(ctx, db, f, &tpl)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, d)
		}
	}
	return out, nil
}

// document is the fetched page f with its latest extraction; false when it
// has none.
func document(ctx context.Context, db *store.DB, f frontier.FetchedURL, tpl *templates) (Document, bool, error) {
	xs, err := db.Extractions(ctx, store.ExtractionQuery{PageID: f.PageID})
	if err != nil || len(xs) == 0 {
		return Document{}, false, err
	}
	x := latestExtraction(xs)
	metas, err := db.Pages(ctx, store.PageQuery{IDs: []int64{f.PageID}})
	if err != nil || len(metas) == 0 {
		return Document{}, false, fmt.Errorf("page %d of %s: %v", f.PageID, f.URL, err)
	}
	d := Document{URL: f.URL, Site: metas[0].Site, Title: x.Title, Date: x.Date, Text: x.Body, Kind: kindOf(f.Outcome, x.PageType),
		Cluster: -1, Method: x.Method, Confidence: x.Confidence, Relevance: f.Score, PageID: f.PageID}
	if x.RunID == 0 {
		return d, true, nil
	}
	c, ok, err := tpl.cluster(ctx, x.RunID, f.PageID)
	if err != nil {
		return Document{}, false, err
	}
	if ok {
		d.Run, d.Cluster, d.Template = x.RunID, c, fmt.Sprintf("run %d cluster %d", x.RunID, c)
	}
	return d, true, nil
}

// Judgements are what the crawl said of each of docs, by page, for its
// export.
func Judgements(docs []Document) map[int64]export.Judgement {
	out := make(map[int64]export.Judgement, len(docs))
	for _, d := range docs {
		out[d.PageID] = export.Judgement{Kind: d.Kind, Relevance: d.Relevance, Template: d.Cluster}
	}
	return out
}

// latestExtraction is the newest of xs (the later run on a tie).
func latestExtraction(xs []store.Extraction) store.Extraction {
	x := xs[0]
	for _, y := range xs[1:] {
		if y.CreatedAt.After(x.CreatedAt) || (y.CreatedAt.Equal(x.CreatedAt) && y.RunID > x.RunID) {
			x = y
		}
	}
	return x
}

// templates reads the clusters of learning runs, each run once.
type templates struct {
	db      *store.DB
	members map[int64]map[int64]store.Membership
}

// cluster is the template (cluster) of page in run; false when the run
// did not place it.
func (t *templates) cluster(ctx context.Context, run, page int64) (int, bool, error) {
	ms, ok := t.members[run]
	if !ok {
		list, err := t.db.Memberships(ctx, run)
		if err != nil {
			return 0, false, err
		}
		ms = map[int64]store.Membership{}
		for _, m := range list {
			ms[m.PageID] = m
		}
		t.members[run] = ms
	}
	m, ok := ms[page]
	return m.Cluster, ok, nil
}

// WriteCorpus writes the crawl's validated documents as JSON Lines.
func WriteCorpus(ctx context.Context, db *store.DB, name string, w io.Writer) (int, error) {
	docs, err := Corpus(ctx, db, name)
	if err != nil {
		return 0, err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for i := range docs {
		if err := enc.Encode(&docs[i]); err != nil {
			return i, err
		}
	}
	return len(docs), nil
}

// WriteCorpusFile writes the crawl's validated documents as JSON Lines to
// path, whole or not at all (atomicfile).
func WriteCorpusFile(ctx context.Context, db *store.DB, name, path string) (int, error) {
	n := 0
	err := atomicfile.Write(path, func(w io.Writer) error {
		var err error
		n, err = WriteCorpus(ctx, db, name, w)
		return err
	})
	return n, err
}

// WriteGraphFiles writes the crawl's hyperlink graph to dir/links.csv and
// dir/links.graphml, each whole or not at all (atomicfile).
func WriteGraphFiles(ctx context.Context, db *store.DB, name, dir string) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	n := 0
	err := atomicfile.Write(filepath.Join(dir, "links.csv"), func(fc io.Writer) error {
		return atomicfile.Write(filepath.Join(dir, "links.graphml"), func(fg io.Writer) error {
			var err error
			n, err = WriteGraph(ctx, db, name, fc, fg)
			return err
		})
	})
	return n, err
}

// fetchOrder lists the URLs crawl name requested, in fetch order
// (crawler.Fetched; read from the frontier here so that the crawler's
// tests can read a crawl's corpus through this package).
func fetchOrder(ctx context.Context, db *store.DB, name string) ([]frontier.FetchedURL, error) {
	fs, err := frontier.Open(ctx, db)
	if err != nil {
		return nil, fmt.Errorf("crawler tables: %w", err)
	}
	return fs.Fetched(ctx, name)
}
