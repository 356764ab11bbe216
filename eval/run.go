package eval

import (
	"context"
	"fmt"
	"os"
	"sort"
	"time"

	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/treediff"
)

// Doc is a page handed to an extractor.
type Doc struct {
	Page
	Src []byte
}

// Outcome is an extractor's answer for one page.
type Outcome struct {
	Result heuristics.Result
	Err    error
}

// SiteExtractor extracts every page of one site at once (so that a method
// can learn the site's templates first); it returns one outcome per doc, in
// order.
type SiteExtractor func(ctx context.Context, site string, docs []Doc) []Outcome

// Single is the SiteExtractor that runs heuristics.ExtractSingle on each
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

// SingleDoc parses one page and runs heuristics.ExtractSingle on it.
func SingleDoc(d Doc) (heuristics.Result, error) {
	t, err := treediff.Parse(d.ID, d.Src, treediff.ParseOptions{})
	if err != nil {
		return heuristics.Result{}, err
	}
	return heuristics.ExtractSingle(t, heuristics.SingleOptions{Source: d.Src})
}

// PageResult is one page's extraction and scores.
type PageResult struct {
	PageScore
	Title  string `json:"title"`
	Body   string `json:"body"`
	Text   string `json:"text"`
	Method string `json:"method,omitempty"`
	// Selector of the element chosen.
	Selector   string  `json:"selector,omitempty"`
	Confidence float64 `json:"confidence"`
}

// SiteSummary is one site's row.
type SiteSummary struct {
	Site string `json:"site"`
	Summary
}

// Report is the outcome of Run.
type Report struct {
	Manifest string        `json:"manifest"`
	Overall  Summary       `json:"overall"`
	Sites    []SiteSummary `json:"sites"`
	// Pages lists every page, failing pages first (lowest cosine, then
	// lowest F1).
	Pages []PageResult `json:"pages"`
	// Seconds is the wall time of extraction alone (parsing included,
	// reading files and scoring excluded); PagesPerSecond follows from it.
	Seconds        float64 `json:"seconds"`
	PagesPerSecond float64 `json:"pages_per_second"`
}

// Options tune Run.
type Options struct {
	// Extract is the method evaluated (default Single).
	Extract SiteExtractor
}

// Run reads the manifest, extracts each site's pages with opt.Extract and
// scores each page's text (title line, blank line, body) against its gold.
// A page that cannot be read or extracted is scored with an empty text and
// keeps its error.
func Run(ctx context.Context, manifest string, opt Options) (*Report, error) {
	if opt.Extract == nil {
		opt.Extract = Single
	}
	pages, err := ReadManifest(manifest)
	if err != nil {
		return nil, err
	}
	bySite := map[string][]Doc{}
	var sites []string
	readErr := map[string]error{}
	golds := map[string]string{}
	for _, p := range pages {
		if _, ok := bySite[p.Site]; !ok {
			sites = append(sites, p.Site)
		}
		src, err := os.ReadFile(p.HTMLPath)
		if err != nil {
			readErr[p.ID] = fmt.Errorf("page %s: %w", p.ID, err)
		}
		g, err := ReadGold(p.GoldPath)
		if err != nil {
			return nil, fmt.Errorf("page %s: %w", p.ID, err)
		}
		golds[p.ID] = g
		bySite[p.Site] = append(bySite[p.Site], Doc{Page: p, Src: src})
	}
	sort.Strings(sites)
	rep := &Report{Manifest: manifest}
	start := time.Now()
	outs := map[string]Outcome{}
	for _, s := range sites {
		docs := bySite[s]
		res := opt.Extract(ctx, s, docs)
		if len(res) != len(docs) {
			return nil, fmt.Errorf("site %s: extractor returned %d outcomes for %d pages", s, len(res), len(docs))
		}
		for i, d := range docs {
			outs[d.ID] = res[i]
		}
	}
	rep.Seconds = time.Since(start).Seconds()
	if rep.Seconds > 0 {
		rep.PagesPerSecond = float64(len(pages)) / rep.Seconds
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	perSite := map[string][]PageScore{}
	var all []PageScore
	for _, p := range pages {
		o := outs[p.ID]
		if e := readErr[p.ID]; e != nil {
			o = Outcome{Err: e}
		}
		text := ""
		if o.Err == nil {
			text = o.Result.Text()
		}
		ps := ScorePage(p.ID, p.Site, golds[p.ID], text)
		if o.Err != nil {
			ps.Err = o.Err.Error()
		}
		all = append(all, ps)
		perSite[p.Site] = append(perSite[p.Site], ps)
		pr := PageResult{PageScore: ps, Text: text}
		if o.Err == nil {
			pr.Title, pr.Body = o.Result.Title, o.Result.Body
			pr.Method, pr.Selector, pr.Confidence = o.Result.Method, o.Result.Selector, o.Result.Confidence
		}
		rep.Pages = append(rep.Pages, pr)
	}
	rep.Overall = Summarize(all)
	for _, s := range sites {
		rep.Sites = append(rep.Sites, SiteSummary{Site: s, Summary: Summarize(perSite[s])})
	}
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
	return rep, nil
}
