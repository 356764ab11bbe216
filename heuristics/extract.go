package heuristics

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/selector"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/treediff"
)

// ExtractOptions tunes Extract and ExtractSite. Zero fields take the
// defaults.
type ExtractOptions struct {
	Pair   PairOptions
	Single singlepage.Options
	// MinConfidence is the pair-diff confidence under which the result is
	// checked against the cluster rule and the single-page extractor
	// (default DefaultMinConfidence).
	MinConfidence float64
	// MinSupport is the share of a cluster's voting pages a rule needs to be
	// used (default DefaultMinSupport).
	MinSupport float64
	// RulesFirst extracts a page whose cluster has a rule with that rule
	// alone, without the pair diff (fast; the pair diff still runs when the
	// rule selects nothing in the page).
	RulesFirst bool
	// Rules are rules learned before, per cluster (e.g. read from the
	// store): with RulesFirst, ExtractSite extracts the pages of these
	// clusters with them without any pair diff; a cluster's new vote, when
	// there is one, replaces its rule.
	Rules map[int]Rules
	// KeepWords: lines of the pair diff's or the rule's text with fewer
	// words than this are kept only when the single-page extractor kept
	// them too (default DefaultKeepWords).
	KeepWords int
	// Medoids, when set, keeps what is derived from each medoid tree for
	// the calls that share it (a site's pages, a crawl's); nil: Extract
	// derives it for its one page, ExtractSite for its pages.
	Medoids *Medoids
}

// Defaults of ExtractOptions, tuned on the Big9 dev pages.
const (
	DefaultMinConfidence = 0.5
	DefaultMinSupport    = 0.5
	DefaultKeepWords     = 20
)

func (o ExtractOptions) withDefaults() ExtractOptions {
	if o.MinConfidence <= 0 {
		o.MinConfidence = DefaultMinConfidence
	}
	if o.KeepWords <= 0 {
		o.KeepWords = DefaultKeepWords
	}
	if o.MinSupport <= 0 {
		o.MinSupport = DefaultMinSupport
	}
	if o.Medoids == nil {
		o.Medoids = &Medoids{}
	}
	return o
}

// Rules are a template cluster's learned rules; a zero Rule is no rule.
type Rules struct {
	Body, Title Rule
}

// usable reports whether the body rule may decide.
func (r Rules) usable(minSupport float64) bool {
	return r.Body.Selector != "" && r.Body.Support >= minSupport
}

// Extract locates the content of one page with the best method available:
//
//   - a page of any type but an article, the single-page method (see
//     aloneForType), unless its body is mostly template text;
//   - with a medoid, the pair diff (PairDiff); when its confidence is under
//     MinConfidence, the cluster rule's element (if the rule selects one)
//     or else the single-page extractor's, unless that one's body is
//     mostly template text (lines the medoid shows too): the pair diff's
//     differing text is then the content;
//   - without a medoid (an outlier, a singleton, a new page), the cluster
//     rule when there is one, else the single-page extractor (ExtractSingle).
//
// page and medoid are full trees (treediff.Parse); src, optional, is the
// page's source, read for JSON-LD metadata. Date and author come from the
// page's metadata (ExtractMeta) whatever method located the body.
func Extract(in Input, opt ExtractOptions) (singlepage.Result, error) {
	if in.Page == nil || in.Page.Root == nil {
		return singlepage.Result{}, errors.New("extract: empty page")
	}
	opt = opt.withDefaults()
	in.Page = VisibleTree(in.Page, in.Visible)
	if in.Medoid != nil && in.Medoid.Root != nil {
		in.Medoid = VisibleTree(in.Medoid, in.MedoidVisible)
	}
	r, err := extract(in, opt, nil)
	if err != nil {
		return r, err
	}
	return calibrated(r, in.Page, in.Src, opt), nil
}

// calibrated returns r, the result on page (src its source), read as the
// single-page method reads it (a template's body without a product page's
// shop zones: singlepage.WithoutShopZones), with the page's metadata and
// calibrated.
func calibrated(r singlepage.Result, page *treediff.Tree, src []byte, opt ExtractOptions) singlepage.Result {
	if r.Method != singlepage.MethodSingle && r.Method != singlepage.MethodSecondOpinion {
		r = singlepage.WithoutShopZones(page, src, r)
	}
	return singlepage.Calibrate(withMeta(r, page, src), page, src, opt.Single.SecondOpinionBelow >= 0)
}

// VisibleTree returns t without the elements the rendered page did not
// show, when visible is set (t itself otherwise). An element goes, with its
// subtree, when visible reports false for it and for all its descendant
// elements: a zero-height container of floated or positioned children, or
// a visibility:hidden parent of a visible child, stays. Text and other
// non-element nodes follow their element. Hidden text (collapsed teasers,
// templates, off-screen copies) otherwise reads like content and, as it
// varies from page to page, like article text to the pair diff.
func VisibleTree(t *treediff.Tree, visible func(*treediff.Node) bool) *treediff.Tree {
	if visible == nil || t == nil || t.Root == nil {
		return t
	}
	// Preorder lists every descendant after its element: a backward pass
	// sees a node's children before the node.
	shown := make([]bool, len(t.Nodes))
	hidden := false
	for i := len(t.Nodes) - 1; i >= 0; i-- {
		n := t.Nodes[i]
		if n.Kind != treediff.Element {
			continue
		}
		if visible(n) {
			shown[i] = true
		} else {
			hidden = true
		}
		if shown[i] && n.Parent != nil {
			shown[n.Parent.Index] = true
		}
	}
	if !hidden {
		return t
	}
	return t.Prune(func(n *treediff.Node) bool { return n.Kind != treediff.Element || shown[n.Index] })
}

// withMeta adds the page's stated date and author to r, and its stated
// title when no element gave one.
func withMeta(r singlepage.Result, page *treediff.Tree, src []byte) singlepage.Result {
	if r.Method == singlepage.MethodSingle || r.Date != "" || r.Author != "" {
		return r // read already, by singlepage.Extract (see refine)
	}
	meta := singlepage.ExtractMeta(page, src)
	r.Date, r.Author = meta.Date, meta.Author
	if r.Title == "" {
		r.Title = meta.Title
	}
	return r
}

// Input is one page to extract with what is known of its template.
type Input struct {
	Page *treediff.Tree
	// Src is the page's source bytes, optional (JSON-LD metadata).
	Src []byte
	// Medoid is the page's template medoid, nil for none.
	Medoid *treediff.Tree
	// Rules are the page's cluster rules, zero for none.
	Rules Rules
	// Visible, when set, reports whether an element of Page was shown in
	// the rendered page (e.g. from browser.Layout); the elements it hides
	// are left out before any method runs (see VisibleTree). It should
	// report true for elements it knows nothing about (those in <head>).
	Visible func(*treediff.Node) bool
	// MedoidVisible is Visible for Medoid's elements, nil when unknown.
	MedoidVisible func(*treediff.Node) bool
}

// pairOutcome is a pair diff already computed for a page.
type pairOutcome struct {
	res   singlepage.Result
	title *treediff.Node // full-tree node of the title, nil if none
	err   error
}

// pairDiff is PairDiff keeping the title element.
// prose, when not nil, is page's prose map already read; meds keeps what
// is derived from the medoid (nil: derived for this call alone).
func pairDiff(page, medoid *treediff.Tree, opt PairOptions, prose *singlepage.ProseMap, meds *Medoids) pairOutcome {
	if page == nil || page.Root == nil || medoid == nil || medoid.Root == nil {
		return pairOutcome{err: errors.New("pair diff: empty tree")}
	}
	opt = opt.withDefaults()
	med := meds.of(medoid)
	al, err := Align(page.View(treediff.TokenView), med.tokenView(medoid), opt.Align)
	if err != nil {
		return pairOutcome{err: fmt.Errorf("pair diff: %w", err)}
	}
	if prose == nil {
		m := singlepage.NewProseMap(page, singlepage.Options{})
		prose = &m
	}
	loc := locateWith(al, med.blockKeys(medoid), med.comparables(medoid), opt, *prose)
	out := pairOutcome{res: loc.result(page)}
	if loc.title != nil {
		out.title = loc.title.Origin
	}
	return out
}

func extract(in Input, opt ExtractOptions, pre *pairOutcome) (singlepage.Result, error) {
	x := newExtraction(in, opt)
	hasMedoid := in.Medoid != nil && in.Medoid.Root != nil
	if !hasMedoid || opt.RulesFirst {
		if a, ok := x.aloneForType(); ok {
			return a, nil
		}
		if r, ok := x.rule(); ok {
			return x.refine(r), nil
		}
		if !hasMedoid {
			return x.alone()
		}
	}
	if pre == nil {
		po := pairDiff(in.Page, in.Medoid, opt.Pair, &x.prose, opt.Medoids)
		pre = &po
	}
	return x.choose(*pre)
}

// extraction is one page's extraction under way: the page, the options,
// and the single-page block model's result on it. That model is cheap: it
// is the fallback and, through its blocks, the judge of the short lines of
// the other methods' text.
type extraction struct {
	in  Input
	opt ExtractOptions
	so  singlepage.Options
	// prose is the page's prose, read once for the block model and the
	// pair diff.
	prose  singlepage.ProseMap
	single singlepage.Result
	serr   error
	// tmpl is the medoid's text, when there is a medoid.
	tmpl templateLines
}

// newExtraction reads the page with the block model.
func newExtraction(in Input, opt ExtractOptions) *extraction {
	so := opt.Single
	if so.Source == nil {
		so.Source = in.Src
	}
	so = so.WithDefaults()
	x := &extraction{in: in, opt: opt, so: so}
	x.prose = singlepage.NewProseMap(in.Page, so)
	x.single, x.serr = singlepage.BlockModel(in.Page, so, &x.prose)
	if x.serr != nil && !errors.Is(x.serr, singlepage.ErrNoContent) {
		x.single = singlepage.Result{}
	}
	if in.Medoid != nil && in.Medoid.Root != nil {
		x.tmpl = opt.Medoids.of(in.Medoid).templateLines(in.Medoid)
	}
	return x
}

// rule is the cluster rule's result, when the rule is usable and finds a
// body in the page.
func (x *extraction) rule() (singlepage.Result, bool) {
	if !x.in.Rules.usable(x.opt.MinSupport) {
		return singlepage.Result{}, false
	}
	r, ok := applyRules(x.in.Page, x.in.Medoid, x.in.Rules.Body, x.in.Rules.Title, x.opt.Pair, x.opt.Medoids)
	return r, ok && r.Body != ""
}

// refine is refine(r) against the block model's result.
func (x *extraction) refine(r singlepage.Result) singlepage.Result {
	return refine(r, x.single, x.opt.KeepWords, x.tmpl)
}

// alone is the single-page method's result (singlepage.Alone, before
// calibration): the block model's, or the page's units or go-trafilatura's
// body when the evidence favours them, or, when it barely finds a body,
// the page read from <noscript> or with its hidden boxes shown. A page
// read alone gets the same body from the site method as from the
// single-page method: keeping a short body instead (a loading notice, a
// teaser) lost 1.9 word F1 summed over wcxb-dev's pages and 0.45 over
// wide-dev's.
func (x *extraction) alone() (singlepage.Result, error) {
	return singlepage.Alone(x.in.Page, x.single, x.serr, x.so)
}

// choose decides between the pair diff's result po, the cluster rule's
// and the single-page method's.
func (x *extraction) choose(po pairOutcome) (singlepage.Result, error) {
	pr, err := po.res, po.err
	if err != nil {
		// A page the pair diff cannot handle is still extracted alone.
		if r, aerr := x.alone(); aerr == nil {
			return r, nil
		}
		return singlepage.Result{}, fmt.Errorf("extract %s: %w; single page: %w", x.in.Page.Name, err, x.serr)
	}
	if a, ok := x.aloneForType(); ok {
		return a, nil
	}
	if pr.Confidence >= x.opt.MinConfidence && pr.Body != "" {
		return x.refine(pr), nil
	}
	if r, ok := x.rule(); ok {
		return x.refine(r), nil
	}
	if x.serr == nil && x.single.Body != "" {
		return x.aloneOrPair(pr)
	}
	if pr.Body != "" {
		return pr, nil
	}
	return x.alone()
}

// aloneForType is the single-page method's result for a page of a type
// (pagetype.Classify) whose body that method reads better than a
// comparison with the template: any but an article. Two product pages (or
// docs, catalogue, service pages) of one template differ in more than
// their content -- reviews, recommendations, "customers also bought"
// rails, a sidebar's open section -- and the pair diff keeps those as
// content, or settles on one differing block of many; the single-page
// method reads such pages with its type's rules (shop zones, units). On
// WCXB's dev pages (WCXB, Murrough Foley 2026, CC-BY-4.0) the pair diff's
// body was worse than the single-page one by over 0.05 word F1 on 19 of
// the 27 product pages it was used on and better on 5; on articles it is
// level or better. A single-page body that is mostly template text
// (lines the medoid shows too) is no answer: false, the comparison
// decides. Tried instead (session 12, on main bb31e73's per-page
// results): taking whichever body has the higher calibrated confidence
// (product +0.77 summed word F1 where this gives +2.8, wide-dev dragnet
// -1.5); dropping from the single-page body the lines the template shows
// (product +0.2, documentation -0.1). The pages where the pair diff does
// better (9 of 54 on wcxb-dev) are not told apart by the share of one
// body the other holds nor by their length ratio.
func (x *extraction) aloneForType() (singlepage.Result, bool) {
	if x.serr != nil || x.single.Body == "" {
		return singlepage.Result{}, false
	}
	if t, _ := pagetype.Classify(x.in.Page, x.in.Src); t == pagetype.Article {
		return singlepage.Result{}, false
	}
	a, err := x.alone()
	if err != nil || x.tmpl.share(a.Body) >= maxTemplateShare {
		return singlepage.Result{}, false
	}
	return a, true
}

// maxTemplateShare is the share of a single-page body's words, in lines
// its template medoid shows too, from which that body is template text.
const maxTemplateShare = 0.5

// aloneOrPair is the single-page method's result, unless its body is
// mostly template text (a sidebar's about box, a widget printed on every
// page: lines the medoid shows too) while the pair diff, though not
// confident, found text that differs: the pair diff's result is then
// taken, its short lines not judged by that single-page body (which saw
// none of them).
func (x *extraction) aloneOrPair(pr singlepage.Result) (singlepage.Result, error) {
	a, err := x.alone()
	if err != nil || pr.Body == "" || x.tmpl.share(a.Body) < maxTemplateShare {
		return a, err
	}
	judge := x.single
	judge.Body = ""
	return refine(pr, judge, x.opt.KeepWords, x.tmpl), nil
}

// refine reconciles r, located by comparing pages (pair diff or rule),
// with the single-page extractor's result on the same page. The element
// chosen by comparison decides, but its short lines (under keepWords
// words: bylines, captions, teasers, "advertisement") stay only when the
// single-page block classifier kept them too, as it sees their links, cues
// and neighbours; and lines the single-page extractor kept that the
// element misses (a lead or highlights printed beside the body) are added
// where they stand in its text. Lines the template medoid shows too (a
// footer's legal notice, a promotion printed on every page) are the
// template's, not the article's: they are left out (see templateLines).
func refine(r, single singlepage.Result, keepWords int, tmpl templateLines) singlepage.Result {
	// How far the compared body lies from the block model's is evidence
	// for the confidence, measured before the two are merged.
	r = singlepage.WithBlockBody(r, single.Body)
	// The single-page extractor read the page's metadata already.
	r.Date, r.Author = single.Date, single.Author
	if r.Title == "" {
		r.Title = single.Title
	}
	if single.Body == "" || r.Body == "" {
		return r
	}
	kept := " " + singlepage.NormWords(single.Title) + " " + singlepage.NormWords(single.Body) + " "
	var lines []string
	for _, line := range strings.Split(r.Body, "\n") {
		n := singlepage.NormWords(line)
		if n != "" && strings.Count(n, " ")+1 < keepWords && !strings.Contains(kept, " "+n+" ") {
			continue
		}
		lines = append(lines, line)
	}
	merged := mergeLines(lines, strings.Split(single.Body, "\n"), r.Title)
	r.Body = strings.TrimSpace(collapseBlank(tmpl.drop(merged)))
	return r
}

// templateLines is a template medoid's text, its words lower-cased and
// single-spaced, between spaces: a line of the page whose words stand in it
// in a row is template text.
type templateLines string

func newTemplateLines(medoid *treediff.Tree) templateLines {
	return templateLines(" " + singlepage.NormWords(medoid.Root.Text()) + " ")
}

// shows reports whether the template holds the line whose normalized words
// are n: the same line, or for a line of minTemplateWords words or more, a
// part of a longer one (a footer cut into lines differently).
func (t templateLines) shows(n string) bool {
	if strings.Count(n, " ")+1 < minTemplateWords {
		return false
	}
	return strings.Contains(string(t), " "+n+" ")
}

// share is the share of body's words in the lines t shows (0 for an
// empty body or template).
func (t templateLines) share(body string) float64 {
	if t == "" {
		return 0
	}
	all, shown := 0, 0
	for _, l := range strings.Split(body, "\n") {
		w := len(treediff.Words(l))
		all += w
		if t.shows(singlepage.NormWords(l)) {
			shown += w
		}
	}
	if all == 0 {
		return 0
	}
	return float64(shown) / float64(all)
}

// minTemplateWords is the least number of words a line needs to be found
// in the template: shorter ones ("Read more", "He said no.") occur by
// chance.
const minTemplateWords = 5

// drop returns lines without those the template shows too, unless that
// would take away half of their words or more: a page that repeats most of
// its medoid's text is a copy of the same story, not template text.
func (t templateLines) drop(lines []string) []string {
	if t == "" {
		return lines
	}
	out := make([]string, 0, len(lines))
	all, dropped := 0, 0
	for _, l := range lines {
		n := singlepage.NormWords(l)
		w := len(treediff.Words(l))
		all += w
		if n != "" && t.shows(n) {
			dropped += w
			continue
		}
		out = append(out, l)
	}
	if 2*dropped >= all {
		return lines
	}
	return out
}

// mergeLines returns the lines of a with those of b that a lacks inserted
// in b's order: both list a page's text in document order, so each line
// of b found in a fixes a position, and a line of b not in a goes before
// the rest of a. A line of b whose words are already in a (cut
// differently), or in title, is left out.
func mergeLines(a, b []string, title string) []string {
	norm := make([]string, len(a))
	var all strings.Builder
	all.WriteString(" " + singlepage.NormWords(title) + " ")
	for i, l := range a {
		norm[i] = singlepage.NormWords(l)
		all.WriteString(norm[i] + " ")
	}
	text := all.String()
	out := make([]string, 0, len(a)+len(b))
	next := 0
	for _, l := range b {
		n := singlepage.NormWords(l)
		if n == "" {
			continue
		}
		found := -1
		for j := next; j < len(a); j++ {
			if norm[j] == n {
				found = j
				break
			}
		}
		switch {
		case found >= 0:
			out = append(out, a[next:found+1]...)
			next = found + 1
		case !strings.Contains(text, " "+n+" "):
			out = append(out, "", l, "")
		}
	}
	return append(out, a[next:]...)
}

// collapseBlank joins lines, keeping at most one blank line in a row.
func collapseBlank(lines []string) string {
	var b strings.Builder
	blank := false
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			blank = true
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
			if blank {
				b.WriteByte('\n')
			}
		}
		blank = false
		b.WriteString(l)
	}
	return b.String()
}

// SitePage is one page of a site with its place among the site's templates.
type SitePage struct {
	Page *treediff.Tree
	// Src is the page's source bytes, optional (JSON-LD metadata).
	Src []byte
	// Cluster is the page's template cluster, -1 for an outlier.
	Cluster int
	// Medoid is the index, in the site's pages, of the page this one is
	// compared with: its cluster's medoid, or for the medoid itself another
	// member of the cluster (its nearest); -1 for none.
	Medoid int
	// Visible, when set, reports whether an element of Page was shown in
	// the rendered page (see Input.Visible); it applies too when this page
	// serves as another's medoid.
	Visible func(*treediff.Node) bool
}

// SiteExtraction is what ExtractSite found.
type SiteExtraction struct {
	// Results and Errs have one entry per input page, in input order.
	Results []singlepage.Result
	Errs    []error
	// Rules are the rules voted per cluster (clusters without a rule are
	// absent).
	Rules map[int]Rules
}

// ExtractSite extracts every page of one site: the pair diff of each page
// against its medoid, then, per cluster, a vote among the pages extracted
// with confidence for the element signature (CSS selector) of the body and
// of the title; the winners become the cluster's rules, which then settle
// the low-confidence pages (see Extract). Outliers get the cluster-free
// methods. Pages are compared on up to runtime.NumCPU() goroutines; ctx
// stops the work.
func ExtractSite(ctx context.Context, pages []SitePage, opt ExtractOptions) (*SiteExtraction, error) {
	opt = opt.withDefaults()
	if err := checkSitePages(pages); err != nil {
		return nil, err
	}
	pages, err := visiblePages(ctx, pages)
	if err != nil {
		return nil, err
	}
	pairs := sitePairs(ctx, pages, opt)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := &SiteExtraction{Results: make([]singlepage.Result, len(pages)), Errs: make([]error, len(pages)), Rules: map[int]Rules{}}
	out.Rules = voteRules(pages, pairs, opt)
	for c, r := range opt.Rules {
		if _, ok := out.Rules[c]; !ok && r.Body.Selector != "" {
			out.Rules[c] = r
		}
	}
	parallel(ctx, len(pages), func(i int) {
		out.Results[i], out.Errs[i] = extractSitePage(pages, i, out.Rules, pairs[i], opt)
	})
	return out, ctx.Err()
}

// checkSitePages checks that every page has a tree and a medoid index in
// range.
func checkSitePages(pages []SitePage) error {
	for i, p := range pages {
		if p.Page == nil || p.Page.Root == nil {
			return fmt.Errorf("extract site: page %d has no tree", i)
		}
		if p.Medoid >= len(pages) || p.Medoid == i {
			return fmt.Errorf("extract site: page %s: medoid index %d out of range", p.Page.Name, p.Medoid)
		}
	}
	return nil
}

// visiblePages returns the pages without what the rendered pages did not
// show (VisibleTree), pages itself when no page knows what was shown.
func visiblePages(ctx context.Context, pages []SitePage) ([]SitePage, error) {
	if !slices.ContainsFunc(pages, func(p SitePage) bool { return p.Visible != nil }) {
		return pages, nil
	}
	pages = slices.Clone(pages)
	parallel(ctx, len(pages), func(i int) {
		pages[i].Page = VisibleTree(pages[i].Page, pages[i].Visible)
	})
	return pages, ctx.Err()
}

// sitePairs runs the pair diff of every page of a cluster against its
// medoid (nil for the others, and for the pages a known rule decides).
func sitePairs(ctx context.Context, pages []SitePage, opt ExtractOptions) []*pairOutcome {
	pairs := make([]*pairOutcome, len(pages))
	parallel(ctx, len(pages), func(i int) {
		p := pages[i]
		if p.Medoid < 0 || p.Cluster < 0 {
			return
		}
		if opt.RulesFirst && opt.Rules[p.Cluster].usable(opt.MinSupport) {
			return // the known rule decides; the pair diff runs only if it fails
		}
		po := pairDiff(p.Page, pages[p.Medoid].Page, opt.Pair, nil, opt.Medoids)
		pairs[i] = &po
	})
	return pairs
}

// extractSitePage extracts page i of a site with its medoid, its
// cluster's rules and its pair diff (pre, nil when not run), calibrated.
func extractSitePage(pages []SitePage, i int, rules map[int]Rules, pre *pairOutcome, opt ExtractOptions) (singlepage.Result, error) {
	p := pages[i]
	in := Input{Page: p.Page, Src: p.Src}
	if p.Medoid >= 0 && p.Cluster >= 0 {
		in.Medoid = pages[p.Medoid].Page
	}
	if p.Cluster >= 0 {
		in.Rules = rules[p.Cluster]
	}
	r, err := extract(in, opt, pre)
	if err == nil {
		r = calibrated(r, p.Page, p.Src, opt)
	}
	return r, err
}

// MinRuleVotes is the least number of pages that must agree on a selector
// for it to become a cluster's rule.
const MinRuleVotes = 2

// voteRules votes, per cluster, the body and title selectors of the pages
// whose pair diff was confident.
func voteRules(pages []SitePage, pairs []*pairOutcome, opt ExtractOptions) map[int]Rules {
	bodies := map[int][]string{}
	titles := map[int][]string{}
	for i, po := range pairs {
		if po == nil || po.err != nil {
			continue
		}
		c := pages[i].Cluster
		tsel := ""
		if po.title != nil {
			tsel = selector.Of(po.title)
		}
		bodies[c] = append(bodies[c], VoteOf(po.res.Selector, po.res.Confidence, opt.MinConfidence))
		titles[c] = append(titles[c], VoteOf(tsel, po.res.Confidence, opt.MinConfidence))
	}
	out := BodyRules(bodies)
	for c, rs := range out {
		if t, ok := Vote(FieldTitle, titles[c], MinRuleVotes); ok && t.Support >= opt.MinSupport {
			rs.Title = t
			out[c] = rs
		}
	}
	return out
}

// VoteOf is what a page gives its cluster's vote: the selector it chose
// when its extraction's confidence reaches minConfidence, else "" (the
// page counts among the voters but votes for nothing).
func VoteOf(selector string, confidence, minConfidence float64) string {
	if confidence < minConfidence {
		return ""
	}
	return selector
}

// BodyRules votes each cluster's body rule from its pages' votes (see
// VoteOf) with at least MinRuleVotes agreeing; a cluster without one is
// left out.
func BodyRules(bodies map[int][]string) map[int]Rules {
	out := map[int]Rules{}
	for c, sels := range bodies {
		if b, ok := Vote(FieldBody, sels, MinRuleVotes); ok {
			out[c] = Rules{Body: b}
		}
	}
	return out
}

// parallel calls f(0..n-1) on up to runtime.NumCPU() goroutines, skipping
// the calls not started when ctx is done.
func parallel(ctx context.Context, n int, f func(i int)) {
	workers := min(runtime.NumCPU(), n)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
