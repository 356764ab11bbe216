package eval

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// Doc is a page handed to an extractor.
type Doc struct {
	Page
	Src []byte
}

// Outcome is an extractor's answer for one page.
type Outcome struct {
	Result singlepage.Result
	Err    error
}

// SiteExtractor extracts every page of one site at once (so that a method
// can learn the site's templates first); it returns one outcome per doc, in
// order.
type SiteExtractor func(ctx context.Context, site string, docs []Doc) []Outcome

// Single is the SiteExtractor that runs singlepage.Extract on each
// page alone.
func Single(ctx context.Context, site string, docs []Doc) []Outcome {
	out := make([]Outcome, len(docs))
	for i, d := range docs {
		if err := ctx.Err(); err != nil {
			out[i].Err = err
			continue
		}
		out[i].Result, out[i].Err = SingleDoc(d)
	}
	return out
}

// SingleDoc parses one page and runs singlepage.Extract on it.
func SingleDoc(d Doc) (singlepage.Result, error) {
	t, err := treediff.Parse(d.ID, d.Src, treediff.ParseOptions{})
	if err != nil {
		return singlepage.Result{}, err
	}
	return singlepage.Extract(t, singlepage.Options{Source: d.Src})
}

// PageResult is one page's extraction and scores.
type PageResult struct {
	PageScore
	Source string `json:"source,omitempty"`
	Title  string `json:"title"`
	Body   string `json:"body"`
	// Date is ISO 8601 (singlepage.NormalizeDate), "" when unknown.
	Date   string `json:"date,omitempty"`
	Author string `json:"author,omitempty"`
	Text   string `json:"text"`
	Method string `json:"method,omitempty"`
	// Selector of the element chosen.
	Selector   string  `json:"selector,omitempty"`
	Confidence float64 `json:"confidence"`
	// RawConfidence is the method's own confidence, PageType the page's
	// kind, Evidence what Confidence was calibrated from (see
	// singlepage.Evidence).
	RawConfidence float64              `json:"raw_confidence,omitempty"`
	PageType      string               `json:"page_type,omitempty"`
	Evidence      *singlepage.Evidence `json:"-"`
}

// SiteSummary is one site's row.
type SiteSummary struct {
	Site string `json:"site"`
	Summary
}

// SourceSummary is one source's row (the manifest's era column).
type SourceSummary struct {
	Source string `json:"source"`
	Summary
}

// Report is the outcome of Run.
type Report struct {
	Manifest string        `json:"manifest"`
	Method   string        `json:"method"`
	Overall  Summary       `json:"overall"`
	Sites    []SiteSummary `json:"sites"`
	// Sources has one row per source when the manifest has an era column.
	Sources []SourceSummary `json:"sources,omitempty"`
	// Calibration is the word F1 met per confidence decile.
	Calibration Calibration `json:"calibration"`
	// Methods counts the pages decided by each method (Result.Method).
	Methods map[string]int `json:"methods"`
	// Pages lists every page, failing pages first (lowest cosine, then
	// lowest F1).
	Pages []PageResult `json:"pages,omitempty"`
	// Seconds is the wall time of extraction (parsing, template learning
	// and locating the content; reading files and scoring excluded);
	// PagesPerSecond follows from it.
	Seconds        float64 `json:"seconds"`
	PagesPerSecond float64 `json:"pages_per_second"`
	// LearnSeconds and LocateSeconds split Seconds for Learned when its
	// Timing was kept (see SetTiming).
	LearnSeconds  float64 `json:"learn_seconds,omitempty"`
	LocateSeconds float64 `json:"locate_seconds,omitempty"`
	// LearnCost is what template learning spent, summed over the sites
	// (when Timing was kept); Pages counts every page learned from, the
	// lone pages of one-page sites (never compared) included.
	LearnCost *LearnCost `json:"learn_cost,omitempty"`
}

// LearnCost is template learning's cost in a report (cluster.Cost).
type LearnCost struct {
	Pages      int     `json:"pages"`
	Fast       int     `json:"fast_distances"`
	Exact      int     `json:"exact_teds"`
	CPUSeconds float64 `json:"cpu_seconds"`
	PeakRSSMB  int64   `json:"peak_rss_mb"`
}

// SetTiming records how Learned's time split between learning and locating.
func (r *Report) SetTiming(t *Timing) {
	r.LearnSeconds, r.LocateSeconds = t.Learn.Seconds(), t.Extract.Seconds()
	c := t.LearnCost
	r.LearnCost = &LearnCost{Pages: c.Pages, Fast: c.Fast, Exact: c.Exact, CPUSeconds: c.CPU.Seconds(), PeakRSSMB: c.PeakRSS >> 20}
}

// Options tune Run.
type Options struct {
	// Extract is the method evaluated (default Learned with zero options:
	// Gleaner's full pipeline).
	Extract SiteExtractor
	// Method names Extract in the report (default "gleaner").
	Method string
	// Store, when set, receives the dataset first (dataset.Import: pages
	// and gold) and should then serve as Extract's distance cache.
	Store store.Store
	// BodyOnly lists the sources (the manifest's era column) whose gold
	// holds no headline: their pages are scored on the body alone, the
	// others on the title line and the body (see the dataset's README).
	BodyOnly []string
}

// Run evaluates a method on an annotated dataset: it reads the manifest
// (imports it into opt.Store when given), extracts each site's pages with
// opt.Extract (learning the templates first for the default method) and
// scores each page's text (title line, blank line, body; the body alone
// for opt.BodyOnly sources) against its gold.
// A page that cannot be read or extracted is scored with an empty text and
// keeps its error.
func Run(ctx context.Context, manifest string, opt Options) (*Report, error) {
	if opt.Extract == nil {
		opt.Extract = Learned(LearnOptions{})
	}
	if opt.Method == "" {
		opt.Method = "gleaner"
	}
	ds, err := LoadDataset(manifest)
	if err != nil {
		return nil, err
	}
	if err := importReadable(ctx, opt.Store, ds); err != nil {
		return nil, err
	}
	sites, bySite := groupBySite(ds.Pages)
	rep := &Report{Manifest: manifest, Method: opt.Method, Methods: map[string]int{}}
	start := time.Now()
	outs, err := extractSites(ctx, ds, sites, bySite, opt.Extract)
	if err != nil {
		return nil, err
	}
	rep.Seconds = time.Since(start).Seconds()
	if rep.Seconds > 0 {
		rep.PagesPerSecond = float64(len(ds.Pages)) / rep.Seconds
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep.score(ds, outs, sites, opt.BodyOnly)
	return rep, nil
}

// importReadable imports the dataset's pages into st, when given. Pages
// whose HTML could not be read are scored (as failures) but not imported:
// dataset.Import refuses a collection with a bad page.
func importReadable(ctx context.Context, st store.Store, ds *Dataset) error {
	if st == nil {
		return nil
	}
	m := *ds.Manifest
	m.Entries = nil
	for i, e := range ds.Manifest.Entries {
		if ds.Errs[i] == nil {
			m.Entries = append(m.Entries, e)
		}
	}
	if len(m.Entries) == 0 {
		return nil
	}
	_, err := dataset.Import(ctx, st, &m, dataset.Options{SiteMode: ds.SiteMode})
	return err
}

// groupBySite returns the sites of pages in name order, and each site's
// page indexes.
func groupBySite(pages []Page) ([]string, map[string][]int) {
	bySite := map[string][]int{}
	var sites []string
	for i, p := range pages {
		if _, ok := bySite[p.Site]; !ok {
			sites = append(sites, p.Site)
		}
		bySite[p.Site] = append(bySite[p.Site], i)
	}
	sort.Strings(sites)
	return sites, bySite
}

// extractSites extracts each site's readable pages with extract, site
// after site, and returns every page's outcome (its read error for a page
// that could not be read).
func extractSites(ctx context.Context, ds *Dataset, sites []string, bySite map[string][]int, extract SiteExtractor) ([]Outcome, error) {
	outs := make([]Outcome, len(ds.Pages))
	for _, s := range sites {
		var docs []Doc
		var idx []int
		for _, i := range bySite[s] {
			if ds.Errs[i] != nil {
				outs[i].Err = ds.Errs[i]
				continue
			}
			docs = append(docs, Doc{Page: ds.Pages[i], Src: ds.Src[i]})
			idx = append(idx, i)
		}
		if len(docs) == 0 {
			continue
		}
		res := extract(ctx, s, docs)
		if len(res) != len(docs) {
			return nil, fmt.Errorf("site %s: extractor returned %d outcomes for %d pages", s, len(res), len(docs))
		}
		for j, i := range idx {
			outs[i] = res[j]
		}
	}
	return outs, nil
}

// score scores each page's outcome against its gold (the body alone for
// the sources bodyOnly) and fills the report: pages worst first, the
// summaries overall, per site and per source, and the calibration table.
func (rep *Report) score(ds *Dataset, outs []Outcome, sites, bodyOnly []string) {
	perSite := map[string][]PageScore{}
	var all []PageScore
	var cal []ConfidencePoint
	for i, p := range ds.Pages {
		pr := rep.pageResult(p, outs[i], bodyOnly)
		all = append(all, pr.PageScore)
		perSite[p.Site] = append(perSite[p.Site], pr.PageScore)
		cal = append(cal, ConfidencePoint{Confidence: pr.Confidence, F1: wordF1(pr.Text, p.Gold)})
		rep.Pages = append(rep.Pages, pr)
	}
	rep.Overall = Summarize(all)
	rep.Calibration = CalibrationTable(cal)
	for _, s := range sites {
		rep.Sites = append(rep.Sites, SiteSummary{Site: s, Summary: Summarize(perSite[s])})
	}
	rep.Sources = sourceSummaries(ds.Pages, all)
	sort.SliceStable(rep.Pages, func(i, j int) bool {
		a, b := rep.Pages[i], rep.Pages[j]
		if a.Cos != b.Cos {
			return a.Cos < b.Cos
		}
		if a.F1 != b.F1 {
			return a.F1 < b.F1
		}
		return a.ID < b.ID
	})
}

// pageResult scores page p's outcome o and counts its method in the
// report.
func (rep *Report) pageResult(p Page, o Outcome, bodyOnly []string) PageResult {
	text := scoredText(p, o, bodyOnly)
	ps := ScorePage(p.ID, p.Site, p.Gold, text)
	if o.Err != nil {
		ps.Err = o.Err.Error()
	}
	pr := PageResult{PageScore: ps, Source: p.Source, Text: text}
	if o.Err == nil {
		pr.Title, pr.Body = o.Result.Title, o.Result.Body
		pr.Date, pr.Author = singlepage.NormalizeDate(o.Result.Date), o.Result.Author
		pr.Method, pr.Selector, pr.Confidence = o.Result.Method, o.Result.Selector, o.Result.Confidence
		pr.RawConfidence, pr.PageType, pr.Evidence = o.Result.RawConfidence, o.Result.PageType, o.Result.Evidence
		rep.Methods[o.Result.Method]++
	}
	return pr
}

// scoredText is the text of page p's outcome o that is scored: none for a
// failure, the body alone for the sources bodyOnly, else the title line
// and the body.
func scoredText(p Page, o Outcome, bodyOnly []string) string {
	switch {
	case o.Err != nil:
		return ""
	case slices.Contains(bodyOnly, p.Source):
		return o.Result.Body
	}
	return o.Result.Text()
}

// sourceSummaries summarizes the scores per source, in source order; none
// when no page names its source.
func sourceSummaries(pages []Page, scores []PageScore) []SourceSummary {
	bySource := map[string][]PageScore{}
	for i, p := range pages {
		if p.Source != "" {
			bySource[p.Source] = append(bySource[p.Source], scores[i])
		}
	}
	out := make([]SourceSummary, 0, len(bySource))
	for s, ps := range bySource {
		out = append(out, SourceSummary{Source: s, Summary: Summarize(ps)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
	return out
}
