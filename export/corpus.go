package export

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gleaner/gleaner/chain"
	"github.com/gleaner/gleaner/chain/blocks"
	"github.com/gleaner/gleaner/chain/tagger"
	"github.com/gleaner/gleaner/chain/terms"
	"github.com/gleaner/gleaner/selector"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// Formats Corpus writes, and the files they go to under the output folder.
var Formats = map[string]string{
	"conllu":   "corpus.conllu",
	"vertical": "corpus.vrt",
	"tei":      "tei/<page>.xml",
	"jsonl":    "corpus.jsonl",
	"warc":     "corpus.warc.gz",
	"wacz":     "corpus.wacz",
	"graph":    "links.csv, links.graphml",
	"terms":    "terms.tsv, proximity.tsv",
	"matrix":   "matrix.tsv",
}

// ParseFormats reads a comma-separated list of formats ("all" for every
// one) and returns them sorted.
func ParseFormats(s string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(strings.ToLower(f))
		switch {
		case f == "":
			continue
		case f == "all":
			for k := range Formats {
				if !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
			continue
		case Formats[f] == "":
			names := make([]string, 0, len(Formats))
			for k := range Formats {
				names = append(names, k)
			}
			sort.Strings(names)
			return nil, fmt.Errorf("unknown format %q (want %s or all)", f, strings.Join(names, ", "))
		}
		if !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no format given")
	}
	sort.Strings(out)
	return out, nil
}

// CorpusOptions select what Corpus exports.
type CorpusOptions struct {
	Formats []string
	Out     string // output folder, created if missing
	Site    string // only this site ("" for all)
	RunID   int64  // only extractions of this run (0: the latest per page)
	// Dataset keeps only the pages of this store dataset ("" for all):
	// a crawl's (crawler.Dataset) or a monitor's (monitor.Dataset).
	Dataset string
	// PageIDs keeps only these pages (a monitor's selected documents);
	// nil for no restriction, an empty non-nil slice selects nothing.
	PageIDs []int64
	// Judgements are, by page id, what the crawl or monitor whose
	// documents are exported said of each page (JSONL carries them).
	Judgements map[int64]Judgement
	// Gold exports the pages' gold annotations instead of extractions
	// (for annotated datasets).
	Gold bool
	// Limit stops after this many pages (0: all).
	Limit int
	// Progress, when set, receives a line per 100 pages.
	Progress io.Writer
	// Workers prepare and annotate this many pages at once (default 1);
	// the outputs keep the pages' order. Give the chain as many workers.
	Workers int
	// WACZ configures the wacz format (its warcinfo names Dataset unless
	// WACZ.WARC.Crawl is set).
	WACZ WACZOptions
}

// SelectDocuments restricts o to the pages of dataset that judged holds,
// with what was said of each: a crawl's or a monitor's documents.
func (o *CorpusOptions) SelectDocuments(dataset string, judged map[int64]Judgement) {
	o.Dataset = dataset
	o.PageIDs = make([]int64, 0, len(judged))
	for id := range judged {
		o.PageIDs = append(o.PageIDs, id)
	}
	o.Judgements = judged
}

// CorpusStats reports an export.
type CorpusStats struct {
	Documents int
	Tokens    int
	Languages map[string]int // documents per language ("" not identified)
	Taggers   map[string]int // documents per tagger
	Edges     int
	// Uncaptured counts the pages a WARC or WACZ holds without recorded
	// exchanges (fetched without recording, or imported): their rendered
	// DOM as a resource record, not the page as served.
	Uncaptured int
	Files      []string
	Elapsed    time.Duration
}

// Corpus exports the extracted pages of st through the chain c (nil when
// no chosen format needs annotation: warc, graph).
func Corpus(ctx context.Context, st store.Store, c *chain.Chain, opt CorpusOptions) (*CorpusStats, error) {
	start := time.Now()
	r := &corpusRun{st: st, chain: c, opt: opt, want: map[string]bool{}, terms: newTermCounts(),
		stats: &CorpusStats{Languages: map[string]int{}, Taggers: map[string]int{}}}
	for _, f := range opt.Formats {
		r.want[f] = true
	}
	r.annotate = r.want["conllu"] || r.want["vertical"] || r.want["tei"] || r.want["jsonl"] || r.want["terms"] || r.want["matrix"]
	if r.annotate && c == nil {
		return nil, errors.New("export: the chosen formats need the linguistic chain")
	}
	items, err := r.items(ctx)
	if err != nil {
		return nil, err
	}
	r.total = len(items)
	r.w = &outputs{dir: opt.Out, waczOpt: waczOptions(ctx, st, opt, items), original: originalCapture(ctx, st)}
	defer r.w.closeAll()
	if err := inOrder(ctx, items, max(opt.Workers, 1), r.prepare, r.add); err != nil {
		return nil, err
	}
	if err := r.finish(); err != nil {
		return nil, err
	}
	r.stats.Files = r.w.names
	r.stats.Elapsed = time.Since(start)
	return r.stats, nil
}

// corpusRun is one export by Corpus: what it was asked, its outputs, and
// what it has gathered so far.
type corpusRun struct {
	st       store.Store
	chain    *chain.Chain
	opt      CorpusOptions
	want     map[string]bool // the chosen formats
	annotate bool            // some chosen format needs the chain

	w          *outputs
	stats      *CorpusStats
	graphPages []*Page
	terms      *termCounts
	total, n   int // pages to export, exported
}

// items lists the pages to export and creates the output folder; an
// error when there are none.
func (r *corpusRun) items(ctx context.Context) ([]item, error) {
	items, err := sources(ctx, r.st, r.opt)
	if err != nil {
		return nil, err
	}
	if len(items) == 0 {
		what := "extracted pages (run gleaner eval or an extraction first)"
		if r.opt.Gold {
			what = "pages with a gold annotation"
		}
		return nil, fmt.Errorf("export: no %s in the store", what)
	}
	if err := os.MkdirAll(r.opt.Out, 0o755); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return items, nil
}

// prepare reads a page with what the chosen formats need: its exchanges
// for WARC and WACZ, its annotation by the chain.
func (r *corpusRun) prepare(ctx context.Context, it item) (*Page, error) {
	p, err := r.st.Page(ctx, it.pageID)
	if err != nil {
		return nil, fmt.Errorf("export: page %d: %w", it.pageID, err)
	}
	page := toPage(p, it, r.opt.Judgements)
	if r.want["warc"] || r.want["wacz"] {
		if page.Exchanges, err = r.st.Exchanges(ctx, p.ID); err != nil {
			return nil, fmt.Errorf("export: page %d: %w", it.pageID, err)
		}
	}
	if r.annotate {
		in := chain.Input{ID: page.ID, URL: page.URL, Title: page.Title, Blocks: contentBlocks(p, it)}
		if page.Doc, err = r.chain.Process(ctx, in); err != nil {
			return nil, fmt.Errorf("export: page %s: %w", page.ID, err)
		}
	}
	return page, nil
}

// add writes a prepared page to the outputs, in the pages' order, and
// counts it.
func (r *corpusRun) add(page *Page) error {
	if doc := page.Doc; doc != nil {
		r.stats.Tokens += doc.Tokens()
		r.stats.Languages[doc.Lang]++
		r.stats.Taggers[doc.Tagger]++
	}
	if err := r.w.write(page, r.want); err != nil {
		return err
	}
	r.terms.add(page, r.want)
	if r.want["graph"] {
		r.graphPages = append(r.graphPages, &Page{ID: page.ID, URL: page.URL, Links: page.Links})
	}
	r.stats.Documents++
	if (r.want["warc"] || r.want["wacz"]) && len(page.Exchanges) == 0 {
		r.stats.Uncaptured++
	}
	if r.n++; r.opt.Progress != nil && r.n%100 == 0 {
		fmt.Fprintf(r.opt.Progress, "export: %d/%d pages\n", r.n, r.total)
	}
	return nil
}

// finish writes the outputs made of all the pages (link graph, term
// matrix, terms and their proximity), then closes the package and the
// files.
func (r *corpusRun) finish() error {
	if err := r.writeGraph(); err != nil {
		return err
	}
	if err := r.writeTerms(); err != nil {
		return err
	}
	if err := r.w.closeWACZ(); err != nil {
		return err
	}
	return r.w.closeAll()
}

// writeGraph writes the pages' link graph as CSV and GraphML when asked.
func (r *corpusRun) writeGraph() error {
	if !r.want["graph"] {
		return nil
	}
	edges := Edges(r.graphPages)
	r.stats.Edges = len(edges)
	if err := r.w.file("links.csv", func(f io.Writer) error { return WriteEdgesCSV(f, edges) }); err != nil {
		return err
	}
	return r.w.file("links.graphml", func(f io.Writer) error { return WriteGraphML(f, r.graphPages, edges) })
}

// writeTerms writes the term matrix, and the terms with their proximity,
// when asked.
func (r *corpusRun) writeTerms() error {
	t := r.terms
	if r.want["matrix"] {
		if err := r.w.file("matrix.tsv", t.matrix.WriteTSV); err != nil {
			return err
		}
	}
	if !r.want["terms"] {
		return nil
	}
	if err := r.w.file("terms.tsv", func(f io.Writer) error { return writeTerms(f, t.freq) }); err != nil {
		return err
	}
	return r.w.file("proximity.tsv", func(f io.Writer) error { return writeProximity(f, t.freq, t.distrib) })
}

// inOrder runs prepare on items with n workers and passes the results to
// write one at a time, in the items' order. The first error stops
// everything and is returned.
func inOrder(ctx context.Context, items []item, n int, prepare func(context.Context, item) (*Page, error), write func(*Page) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		page *Page
		err  error
	}
	type job struct {
		it  item
		out chan result
	}
	jobs := make(chan job)
	order := make(chan chan result, 2*n) // bounds the pages in flight
	go func() {
		defer close(jobs)
		defer close(order)
		for _, it := range items {
			out := make(chan result, 1)
			select {
			case order <- out:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- job{it, out}:
			case <-ctx.Done():
				out <- result{err: ctx.Err()}
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				p, err := prepare(ctx, j.it)
				j.out <- result{p, err}
			}
		}()
	}
	var err error
	for out := range order {
		r := <-out
		if err == nil {
			err = r.err
			if err == nil {
				err = write(r.page)
			}
			if err != nil {
				cancel()
			}
		}
	}
	wg.Wait()
	if err == nil {
		err = ctx.Err()
	}
	return err
}

// item is one page to export with its content.
type item struct {
	pageID int64
	x      store.Extraction // zero Body when Gold
	gold   bool
}

func sources(ctx context.Context, st store.Store, opt CorpusOptions) ([]item, error) {
	var out []item
	if opt.Gold {
		ps, err := st.Pages(ctx, store.PageQuery{Site: opt.Site})
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		for _, p := range ps {
			out = append(out, item{pageID: p.ID, gold: true})
		}
	} else {
		xs, err := st.Extractions(ctx, store.ExtractionQuery{Site: opt.Site, RunID: opt.RunID})
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		// The latest extraction of each page.
		latest := map[int64]store.Extraction{}
		for _, x := range xs {
			if l, ok := latest[x.PageID]; !ok || x.CreatedAt.After(l.CreatedAt) || x.CreatedAt.Equal(l.CreatedAt) && x.RunID > l.RunID {
				latest[x.PageID] = x
			}
		}
		for id, x := range latest {
			out = append(out, item{pageID: id, x: x})
		}
		sort.Slice(out, func(i, j int) bool { return out[i].pageID < out[j].pageID })
	}
	out, err := restrict(ctx, st, opt, out)
	if err != nil {
		return nil, err
	}
	if opt.Limit > 0 && len(out) > opt.Limit {
		out = out[:opt.Limit]
	}
	return out, nil
}

// waczOptions are opt.WACZ with the defaults of an export of items: the
// warcinfo names the dataset, and a payload captured outside the export
// is a revisit (earlierCapture).
func waczOptions(ctx context.Context, st store.Store, opt CorpusOptions, items []item) WACZOptions {
	w := opt.WACZ
	if w.WARC.Crawl == "" {
		w.WARC.Crawl = opt.Dataset
	}
	if w.WARC.Earlier == nil {
		w.WARC.Earlier = earlierCapture(ctx, st, opt.Dataset, items)
	}
	if w.WARC.Previous == nil {
		w.WARC.Previous = previousCapture(ctx, st, opt.Dataset)
	}
	return w
}

// previousCapture is the WARCOptions.Previous of an export or a Follow
// of a dataset: the latest whole capture of a 304's URL in the dataset
// before it. Nil without a dataset, or on a store that cannot tell.
func previousCapture(ctx context.Context, st store.Store, dataset string) func(*store.Exchange) (store.ExchangeRef, bool, error) {
	fc, ok := st.(firstCapturer)
	if !ok || dataset == "" {
		return nil
	}
	return func(ex *store.Exchange) (store.ExchangeRef, bool, error) {
		return fc.PreviousExchange(ctx, dataset, ex.URL, ex.At)
	}
}

// originalCapture is the WARCOptions.Original of a package that replays
// alone: the stored capture a revisit refers to. Nil on a store that
// cannot read one.
func originalCapture(ctx context.Context, st store.Store) func(store.ExchangeRef) (*store.Exchange, error) {
	fc, ok := st.(firstCapturer)
	if !ok {
		return nil
	}
	return func(ref store.ExchangeRef) (*store.Exchange, error) { return fc.ExchangeAt(ctx, ref) }
}

// firstCapturer is a store that finds a payload's first capture, a
// URL's latest before a time, and reads a capture (store.DB).
type firstCapturer interface {
	FirstExchange(ctx context.Context, dataset, url, payloadSHA256 string) (store.ExchangeRef, bool, error)
	PreviousExchange(ctx context.Context, dataset, url string, before time.Time) (store.ExchangeRef, bool, error)
	ExchangeAt(ctx context.Context, ref store.ExchangeRef) (*store.Exchange, error)
}

// earlierCapture is the WARCOptions.Earlier of an export of items of a
// dataset: the first capture of a payload in the dataset when it is not
// among the pages exported (an earlier round of a monitor exported
// alone). Nil without a dataset, or on a store that cannot tell.
func earlierCapture(ctx context.Context, st store.Store, dataset string, items []item) func(*store.Exchange) (store.ExchangeRef, bool, error) {
	fc, ok := st.(firstCapturer)
	if !ok || dataset == "" {
		return nil
	}
	exported := make(map[int64]bool, len(items))
	for _, it := range items {
		exported[it.pageID] = true
	}
	return func(ex *store.Exchange) (store.ExchangeRef, bool, error) {
		ref, ok, err := fc.FirstExchange(ctx, dataset, ex.URL, ex.PayloadSHA256)
		if err != nil || !ok || exported[ref.PageID] || !ref.At.Before(ex.At) {
			return store.ExchangeRef{}, false, err
		}
		return ref, true, nil
	}
}

// restrict keeps the items of the pages opt.Dataset and opt.PageIDs
// select.
func restrict(ctx context.Context, st store.Store, opt CorpusOptions, items []item) ([]item, error) {
	keep := func(ids map[int64]bool) []item {
		out := items[:0]
		for _, it := range items {
			if ids[it.pageID] {
				out = append(out, it)
			}
		}
		return out
	}
	if opt.PageIDs != nil {
		ids := make(map[int64]bool, len(opt.PageIDs))
		for _, id := range opt.PageIDs {
			ids[id] = true
		}
		items = keep(ids)
	}
	if opt.Dataset != "" {
		// Metadata only: cheap even for a large dataset.
		ps, err := st.Pages(ctx, store.PageQuery{Dataset: opt.Dataset})
		if err != nil {
			return nil, fmt.Errorf("export: pages of dataset %q: %w", opt.Dataset, err)
		}
		ids := make(map[int64]bool, len(ps))
		for _, p := range ps {
			ids[p.ID] = true
		}
		items = keep(ids)
	}
	return items, nil
}

// toPage is the page to export: its extraction (or gold), its links, and
// what the crawl or monitor that kept it said of it (judged).
func toPage(p *store.Page, it item, judged map[int64]Judgement) *Page {
	page := &Page{ID: pageID(p.ID), URL: p.URL, FetchedAt: p.FetchedAt, Status: p.Status,
		ContentType: p.ContentType, HTML: p.HTML()}
	if p.URL == "" {
		page.URL = "urn:gleaner:" + p.Dataset + ":" + p.Key()
	}
	if it.gold {
		if p.Gold != nil {
			page.Title, page.Text = p.Gold.Title, p.Gold.Body
			if page.Text == "" {
				page.Text = p.Gold.Text
			}
		}
	} else {
		page.Title, page.Text, page.Date, page.Author = it.x.Title, it.x.Body, it.x.Date, it.x.Author
		page.Method, page.Confidence, page.Run = it.x.Method, it.x.Confidence, it.x.RunID
	}
	if j, ok := judged[p.ID]; ok {
		page.Judgement = &j
	}
	if p.Capture != nil {
		page.PageTitle = p.Capture.Title
		for _, l := range p.Capture.Links {
			page.Links = append(page.Links, Link{URL: l.URL, Text: l.Text})
		}
	}
	return page
}

// contentBlocks returns the coherent blocks of the extracted content: the
// blocks of the element the extraction chose whose text belongs to the
// extracted body, when they hold most of it; else the body's paragraphs.
// The title comes first, as a block of its own.
func contentBlocks(p *store.Page, it item) []string {
	title, body := contentText(p, it)
	var out []string
	if t := strings.TrimSpace(title); t != "" && !strings.HasPrefix(strings.TrimSpace(body), t) {
		out = append(out, t)
	}
	if kept, ok := bodyBlocks(chosenElement(p, it), body); ok {
		return append(out, kept...)
	}
	return append(out, paragraphs(body)...)
}

// contentText is the title and body exported for the page: its gold
// annotation's when the export is of gold, else the extraction's.
func contentText(p *store.Page, it item) (title, body string) {
	if !it.gold || p.Gold == nil {
		return it.x.Title, it.x.Body
	}
	if p.Gold.Body == "" {
		return p.Gold.Title, p.Gold.Text
	}
	return p.Gold.Title, p.Gold.Body
}

// paragraphs are the body's non-empty paragraphs (split on blank lines).
func paragraphs(body string) []string {
	var ps []string
	for _, para := range strings.Split(body, "\n\n") {
		if para = strings.TrimSpace(para); para != "" {
			ps = append(ps, para)
		}
	}
	return ps
}

// chosenElement is the element of the page the extraction chose, nil when
// it names none or the page cannot be read.
func chosenElement(p *store.Page, it item) *treediff.Node {
	if it.x.Selector == "" || len(p.HTML()) == 0 {
		return nil
	}
	tree, err := treediff.Parse(p.Name(), p.HTML(), treediff.ParseOptions{ContentType: p.ContentType})
	if err != nil {
		return nil
	}
	node, err := selector.Select(tree, it.x.Selector)
	if err != nil {
		return nil
	}
	return node
}

// bodyBlocks are the blocks of node cut to their lines found in body;
// false when node is nil or they hold less than 80 % of body's words.
func bodyBlocks(node *treediff.Node, body string) ([]string, bool) {
	if node == nil {
		return nil, false
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	nbody := norm(body)
	kept, words := []string{}, 0
	for _, b := range blocks.Split(node, blocks.Options{}) {
		var in []string
		for _, l := range strings.Split(b.Text, "\n") {
			if nl := norm(l); nl != "" && strings.Contains(nbody, nl) {
				in = append(in, l)
			}
		}
		if len(in) > 0 {
			kept = append(kept, strings.Join(in, "\n"))
			words += len(strings.Fields(strings.Join(in, " ")))
		}
	}
	if total := len(strings.Fields(nbody)); total == 0 || float64(words) < 0.8*float64(total) {
		return nil, false
	}
	return kept, true
}

// outputs holds the open output files.
type outputs struct {
	dir   string
	files map[string]*os.File
	bufs  map[string]*bufio.Writer
	warc  *WARC
	jsonl *JSONL
	names []string

	wacz    *WACZ
	waczOpt WACZOptions
	// original reads the captures outside the export that the package's
	// revisits refer to: a package replays alone (a WARC file of a round
	// is packed with the others, export pack).
	original func(store.ExchangeRef) (*store.Exchange, error)
}

// addWACZ adds page to the package, started with the first page.
func (o *outputs) addWACZ(page *Page) error {
	if o.wacz == nil {
		opt := o.waczOpt
		if opt.WARC.Original == nil {
			opt.WARC.Original = o.original
		}
		w, err := NewWACZ(filepath.Join(o.dir, "corpus.wacz"), opt)
		if err != nil {
			return err
		}
		o.wacz = w
	}
	return o.wacz.AddPage(page)
}

// closeWACZ writes the package, if any.
func (o *outputs) closeWACZ() error {
	if o.wacz == nil {
		return nil
	}
	w := o.wacz
	o.wacz = nil
	if err := w.Close(); err != nil {
		return err
	}
	o.names = append(o.names, filepath.Join(o.dir, "corpus.wacz"))
	return nil
}

func (o *outputs) open(name string) (*bufio.Writer, error) {
	if b, ok := o.bufs[name]; ok {
		return b, nil
	}
	if o.files == nil {
		o.files, o.bufs = map[string]*os.File{}, map[string]*bufio.Writer{}
	}
	path := filepath.Join(o.dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	o.files[name] = f
	o.bufs[name] = bufio.NewWriterSize(f, 256<<10)
	o.names = append(o.names, path)
	return o.bufs[name], nil
}

// file writes a whole file at once.
func (o *outputs) file(name string, write func(io.Writer) error) error {
	b, err := o.open(name)
	if err != nil {
		return err
	}
	if err := write(b); err != nil {
		return fmt.Errorf("export: %s: %w", name, err)
	}
	return o.close(name)
}

func (o *outputs) close(name string) error {
	b, f := o.bufs[name], o.files[name]
	delete(o.bufs, name)
	delete(o.files, name)
	err := b.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("export: %s: %w", name, err)
	}
	return nil
}

func (o *outputs) closeAll() error {
	if o.wacz != nil {
		o.wacz.Abort() // closed by closeWACZ when the export succeeded
		o.wacz = nil
	}
	var errs []error
	names := make([]string, 0, len(o.bufs))
	for n := range o.bufs {
		names = append(names, n)
	}
	for _, n := range names {
		errs = append(errs, o.close(n))
	}
	return errors.Join(errs...)
}

// write adds page to the outputs of the chosen formats that are written
// page by page.
func (o *outputs) write(page *Page, want map[string]bool) error {
	if err := o.writeAnnotated(page.Doc, want); err != nil {
		return err
	}
	if want["jsonl"] {
		if err := o.writeJSONL(page); err != nil {
			return err
		}
	}
	if want["tei"] {
		if err := o.file(filepath.Join("tei", page.ID+".xml"), func(w io.Writer) error { return WriteTEI(w, page) }); err != nil {
			return err
		}
	}
	if want["warc"] {
		if err := o.writeWARC(page); err != nil {
			return err
		}
	}
	if want["wacz"] {
		return o.addWACZ(page)
	}
	return nil
}

// writeAnnotated adds the annotated document to the CoNLL-U and vertical
// corpora when asked.
func (o *outputs) writeAnnotated(doc *chain.Document, want map[string]bool) error {
	for _, f := range []struct {
		format, file string
		write        func(io.Writer, *chain.Document) error
	}{{"conllu", "corpus.conllu", WriteCoNLLU}, {"vertical", "corpus.vrt", WriteVertical}} {
		if !want[f.format] {
			continue
		}
		b, err := o.open(f.file)
		if err == nil {
			err = f.write(b, doc)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// writeJSONL adds page to corpus.jsonl.
func (o *outputs) writeJSONL(page *Page) error {
	b, err := o.open("corpus.jsonl")
	if err != nil {
		return err
	}
	if o.jsonl == nil {
		o.jsonl = NewJSONL(b)
	}
	return o.jsonl.Write(page)
}

// writeWARC adds page's records to corpus.warc.gz.
func (o *outputs) writeWARC(page *Page) error {
	b, err := o.open("corpus.warc.gz")
	if err != nil {
		return err
	}
	if o.warc == nil {
		if o.warc, err = NewWARCWith(b, o.waczOpt.WARC); err != nil {
			return err
		}
	}
	return o.warc.WritePage(page)
}

// termCounts gather the corpus's terms as pages are written: the
// document-term matrix, and per language each term's frequency and the
// contexts its proximity is measured by.
type termCounts struct {
	matrix  *terms.Matrix
	freq    map[string]map[string]int // lang -> term -> frequency
	distrib map[string]*terms.Distrib
}

func newTermCounts() *termCounts {
	return &termCounts{matrix: terms.NewMatrix(), freq: map[string]map[string]int{}, distrib: map[string]*terms.Distrib{}}
}

// add counts the terms of page's annotated document for the matrix and
// terms formats, when asked.
func (t *termCounts) add(page *Page, want map[string]bool) {
	doc := page.Doc
	if doc == nil || !(want["matrix"] || want["terms"]) {
		return
	}
	var sents [][]tagger.Token
	for _, b := range doc.Blocks {
		for _, s := range b.Sentences {
			sents = append(sents, s.Tokens)
		}
	}
	if want["matrix"] {
		t.matrix.AddDocument(page.ID, sents)
	}
	if want["terms"] && doc.Lang != "" {
		t.addTerms(sents, doc.Lang)
	}
}

// addTerms counts the candidate terms of sents, in language lang.
func (t *termCounts) addTerms(sents [][]tagger.Token, lang string) {
	if t.freq[lang] == nil {
		t.freq[lang], t.distrib[lang] = map[string]int{}, terms.NewDistrib()
	}
	for _, s := range sents {
		for _, occ := range terms.Candidates(s, lang) {
			t.freq[lang][occ.Term]++
		}
		t.distrib[lang].AddSentence(s, lang)
	}
}

func writeTerms(w io.Writer, freq map[string]map[string]int) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("lang\tterm\twords\tfreq\tc_value\n")
	for _, lang := range sortedKeys(freq) {
		for _, t := range terms.CValue(freq[lang]) {
			fmt.Fprintf(bw, "%s\t%s\t%d\t%d\t%.3f\n", lang, clean(t.Term), t.Len, t.Freq, t.CValue)
		}
	}
	return bw.Flush()
}

// writeProximity lists, for the 200 best terms of each language, their ten
// nearest terms by Upery's prox.
func writeProximity(w io.Writer, freq map[string]map[string]int, distrib map[string]*terms.Distrib) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("lang\tterm1\tterm2\ta\tprox\tj1\tj2\tshared_contexts\n")
	for _, lang := range sortedKeys(freq) {
		ranked := terms.CValue(freq[lang])
		for i, t := range ranked {
			if i >= 200 {
				break
			}
			for _, p := range distrib[lang].Neighbours(t.Term, 10, 1) {
				fmt.Fprintf(bw, "%s\t%s\t%s\t%d\t%.3f\t%.3f\t%.3f\t%s\n", lang, clean(p.T1), clean(p.T2), p.A, p.Prox, p.J1, p.J2, clean(strings.Join(p.Shared, " ")))
			}
		}
	}
	return bw.Flush()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
