package crawler

import (
	"context"
	"fmt"
	"mime"
	"net/url"
	"strings"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/fetchpolicy"
	"github.com/gleaner/gleaner/relevance"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/siteextract"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/frontier"
	"github.com/gleaner/gleaner/treediff"
)

// processStored judges a fetched page (just fetched, or found in the store
// after a restart) and commits the outcome with its links and edges.
func (c *Crawler) processStored(ctx context.Context, e frontier.Entry, sp *store.Page) error {
	d, err := c.judge(ctx, e, sp)
	if err != nil {
		if ctx.Err() != nil {
			return c.interrupted(e)
		}
		return err
	}
	if d.Outcome == OutcomeHTTPError && e.Attempts < c.cfg.Retries && transient(sp) {
		c.cfg.Logf("retry %s (attempt %d): %s", e.URL, e.Attempts+2, d.Detail)
		return c.fr.Requeue(context.WithoutCancel(ctx), e.URL, true)
	}
	d.URL, d.PageID, d.Merge = e.URL, sp.ID, c.strategy.Merge
	if d.FetchSeq, err = c.fr.ReserveSeq(context.WithoutCancel(ctx), frontier.NextFetchSeq, 1); err != nil {
		return err
	}
	return c.commit(ctx, d)
}

// judge decides the outcome of a stored page. Errors are store failures;
// everything wrong with the page itself is an outcome.
func (c *Crawler) judge(ctx context.Context, e frontier.Entry, sp *store.Page) (frontier.Record, error) {
	d := frontier.Record{Depth: e.Depth}
	if sp.Error != "" {
		d.Outcome, d.Detail = failureOutcome(storedFailure(sp)), sp.Error
		return d, nil
	}
	base, dup, err := c.redirects(ctx, e, sp, &d)
	if err != nil || dup {
		return d, err
	}
	if d.Outcome, d.Detail = c.cfg.refused(sp); d.Outcome != "" {
		return d, nil
	}
	tree, err := treediff.Parse(e.URL, sp.HTML(), treediff.ParseOptions{ContentType: sp.ContentType, MaxBytes: int(c.cfg.MaxBytes) + 1})
	if err != nil {
		d.Outcome, d.Detail = OutcomeNoExtract, err.Error()
		return d, nil
	}
	j := &judgement{c: c, e: e, sp: sp, tree: tree, base: base, d: d}
	err = j.judge(ctx)
	return j.d, err
}

// redirects records the redirect hops of a page fetched at another final
// URL as edges and aliases, and reports a page whose final URL was fetched
// already (dup, its outcome set). It returns the URL the page's links are
// relative to: the final one.
func (c *Crawler) redirects(ctx context.Context, e frontier.Entry, sp *store.Page, d *frontier.Record) (base *url.URL, dup bool, err error) {
	base, _ = url.Parse(e.URL)
	cp := sp.Capture
	if cp == nil || cp.FinalURL == "" {
		return base, false, nil
	}
	fu, err := fetchpolicy.Canonicalize(nil, cp.FinalURL)
	if err != nil || fu.String() == e.URL {
		return base, false, nil
	}
	hops := redirectHops(e.URL, cp.Redirects, fu.String())
	for i := 0; i+1 < len(hops); i++ {
		d.Edges = append(d.Edges, frontier.Edge{Source: hops[i], Target: hops[i+1], Kind: frontier.RedirectEdge})
	}
	done, err := c.fetchedBefore(ctx, fu.String())
	if err != nil {
		return fu, false, err
	}
	if done {
		d.Outcome, d.Detail = OutcomeDuplicate, "redirects to "+fu.String()+", fetched already"
		return fu, true, nil
	}
	d.Aliases = hops[1:]
	return fu, false, nil
}

// redirectHops is the chain of canonical URLs from the requested URL u to
// the final one, without repeats in a row.
func redirectHops(u string, redirects []store.Redirect, final string) []string {
	hops := []string{u}
	for i, r := range redirects {
		if i == 0 {
			continue // the requested URL itself
		}
		if ru, err := fetchpolicy.Canonicalize(nil, r.URL); err == nil && ru.String() != hops[len(hops)-1] {
			hops = append(hops, ru.String())
		}
	}
	if hops[len(hops)-1] != final {
		hops = append(hops, final)
	}
	return hops
}

// refused is the outcome of a fetched page the crawl's filters refuse
// before reading it (its status, media type or size), "" when none does.
func (cfg Config) refused(sp *store.Page) (Outcome, string) {
	html := sp.HTML()
	switch cp := sp.Capture; {
	case sp.Status >= 400:
		return OutcomeHTTPError, fmt.Sprintf("HTTP status %d", sp.Status)
	case !cfg.acceptedType(sp.ContentType):
		return OutcomeMIME, "content type " + sp.ContentType
	case int64(len(html)) > cfg.MaxBytes || (cp != nil && cp.Partial && browser.ParseReason(cp.PartialReason).TooLarge()):
		return OutcomeSize, fmt.Sprintf("too large: over %d bytes", cfg.MaxBytes)
	case int64(len(html)) < cfg.MinBytes:
		return OutcomeSize, fmt.Sprintf("too small: %d bytes, under %d", len(html), cfg.MinBytes)
	}
	return "", ""
}

// acceptedType reports whether a page of content type ct may be kept (one
// without a type may).
func (cfg Config) acceptedType(ct string) bool {
	mt := mediaType(ct)
	return mt == "" || contains(cfg.MIMETypes, mt)
}

// judgement is the judging of one parsed page: its record d filled step
// by step.
type judgement struct {
	c    *Crawler
	e    frontier.Entry
	sp   *store.Page
	tree *treediff.Tree
	base *url.URL
	d    frontier.Record
}

// judge reads the page's meta robots, extracts its content and judges it,
// following its links unless told not to.
func (j *judgement) judge(ctx context.Context) error {
	noindex, nofollow := metaRobots(j.tree)
	if noindex {
		j.d.Outcome, j.d.Detail = OutcomeNoIndex, "meta robots noindex"
		j.follow(nofollow, false, j.e.Depth, 0)
		return nil
	}
	res, runID, err := j.c.learner.Extract(ctx, j.sp, j.tree)
	if err != nil && ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil || strings.TrimSpace(res.Body) == "" {
		j.d.Outcome, j.d.Detail = OutcomeNoExtract, "no content found"
		if err != nil {
			j.d.Detail = err.Error()
		}
		j.follow(nofollow, false, j.e.Depth, 0)
		return nil
	}
	if err := j.c.db.PutExtractions(ctx, []store.Extraction{siteextract.StoreExtraction(res, j.sp.ID, runID)}); err != nil {
		return fmt.Errorf("store extraction of %s: %w", j.e.URL, err)
	}
	if score, ok := j.judgeText(ctx, res); ok {
		j.follow(nofollow, j.d.Relevant, j.d.Depth, score)
	}
	return nil
}

// judgeText judges an extracted text: its size, its language, whether it
// is a near-duplicate, then its relevance. ok is false when the text was
// refused before its relevance was judged (its links are not followed).
func (j *judgement) judgeText(ctx context.Context, res singlepage.Result) (score float64, ok bool) {
	c, d := j.c, &j.d
	text := res.Text()
	counts, n := relevance.Counts(text)
	d.Tokens = n
	if n < c.cfg.MinTokens {
		d.Outcome, d.Detail = OutcomeSize, fmt.Sprintf("too small: %d words, under %d", n, c.cfg.MinTokens)
		return 0, false
	}
	if lang, ok := c.languageRefused(res.Body); ok {
		d.Outcome, d.Detail = OutcomeLanguage, "language "+lang
		return 0, false
	}
	d.SimHash = relevance.NewSimHash(res.Body)
	if c.nearDuplicate(d.SimHash) {
		d.Outcome, d.Detail = OutcomeDuplicate, "near-duplicate text"
		return 0, false
	}
	score, relevant := c.judgeText(ctx, text, counts, n)
	d.Score, d.Relevant = score, relevant
	d.Outcome = OutcomeIrrelevant
	if relevant {
		d.Outcome, d.Depth = OutcomeValidated, 0
	}
	return score, true
}

// languageRefused reports the language of a body the crawl does not want
// (ok true), when it asks for some.
func (c *Crawler) languageRefused(body string) (lang string, ok bool) {
	if c.lang == nil {
		return "", false
	}
	lang, _ = c.lang.Detect(body)
	return lang, !contains(c.cfg.Languages, lang)
}

// nearDuplicate reports whether h is a near-duplicate of a text kept
// before, remembering it if not (when the filter is on).
func (c *Crawler) nearDuplicate(h relevance.SimHash) bool {
	if c.cfg.NearDuplicateBits < 0 {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dups.Seen(h)
}

// follow enqueues the page's links (a page at pageDepth, relevant or not,
// of lexicon score score) unless nofollow or MaxDepth forbids.
func (j *judgement) follow(nofollow, relevant bool, pageDepth int, score float64) {
	c := j.c
	if nofollow || (c.cfg.MaxDepth > 0 && pageDepth >= c.cfg.MaxDepth) {
		return
	}
	parent := FetchedPage{Priority: j.e.Priority, Depth: j.e.Hops, Sim: c.sim(score), Relevant: relevant}
	j.d.Links, j.d.Edges = c.links(j.e, j.sp, j.tree, j.base, parent, pageDepth, relevant, j.d.Edges)
}

// transient reports whether a failed fetch may succeed if tried again: a
// server error, or a dropped or refused connection.
func transient(sp *store.Page) bool {
	if sp.Error != "" {
		// Not a crash: the renderer retried it already, and a page that
		// blew its memory bound would only blow it again.
		return storedFailure(sp) == browser.FailureNetwork
	}
	return sp.Status >= 500
}

// storedFailure is the failure kind stored with a failed page (FailureOther
// for a page stored without one).
func storedFailure(sp *store.Page) browser.Failure {
	if sp.Capture == nil || sp.Capture.Failure == "" {
		return browser.FailureOther
	}
	return browser.Failure(sp.Capture.Failure)
}

// failureOutcome is the outcome of a URL whose fetch failed with kind k.
func failureOutcome(k browser.Failure) Outcome {
	switch k {
	case browser.FailureNotHTML:
		return OutcomeMIME
	case browser.FailureTimeout:
		return OutcomeTimeout
	case browser.FailureTooLarge:
		return OutcomeSize
	case browser.FailureRefused:
		return OutcomeForbidden
	}
	return OutcomeHTTPError
}

// fetchedBefore reports whether u was fetched (or taken as an alias) already.
func (c *Crawler) fetchedBefore(ctx context.Context, u string) (bool, error) {
	state, outcome, err := c.fr.State(ctx, u)
	if err != nil {
		return false, err
	}
	return state == StateDone && outcome != OutcomeRobots && outcome != OutcomeForbidden || state == StateLeased, nil
}

// sim maps a lexicon score to [0, 1]: 1/2 at the threshold.
func (c *Crawler) sim(score float64) float64 {
	c.mu.Lock()
	t := c.threshold
	c.mu.Unlock()
	if score <= 0 {
		return 0
	}
	return score / (score + t)
}

// judgeText scores an extracted text and decides its relevance; the first
// CalibrateAfter texts are kept to expand the lexicon and calibrate the
// threshold (the first iteration of Babouk).
func (c *Crawler) judgeText(ctx context.Context, text string, counts map[string]int, n int) (float64, bool) {
	match := c.formula == nil || c.formula.Match(text)
	c.mu.Lock()
	defer c.mu.Unlock()
	score := c.lex.ScoreCounts(counts, n)
	if !c.calibrated && c.cfg.CalibrateAfter > 0 {
		c.sample = append(c.sample, relevance.Sample{Text: text, Score: score, Match: match})
		if len(c.sample) >= c.cfg.CalibrateAfter {
			c.calibrate(ctx)
			score = c.lex.ScoreCounts(counts, n)
		}
	}
	relevant := match && (len(c.cfg.Terms) == 0 || score >= c.threshold)
	return score, relevant
}

// calibrate runs the first iteration on the sample (relevance.Calibrate)
// and stores the model it leaves. c.mu is held.
func (c *Crawler) calibrate(ctx context.Context) {
	old := c.threshold
	cal := relevance.Calibrate(c.lex, c.sample, old, len(c.cfg.Terms) > 0)
	c.threshold, c.calibrated = cal.Threshold, true
	n := len(c.sample)
	c.sample = nil
	var names []string
	for _, a := range cal.Added {
		names = append(names, a.Term)
	}
	c.cfg.Logf("calibrated on the first %d pages (%d relevant): lexicon +%d terms %v, threshold %.3f -> %.3f",
		n, cal.Relevant, len(cal.Added), names, old, c.threshold)
	if err := c.fr.SaveModel(context.WithoutCancel(ctx), c.lex.Weights(), c.threshold, true); err != nil {
		c.cfg.Logf("%v", err)
	}
}

// links returns the URLs to enqueue from a page and its link edges.
func (c *Crawler) links(e frontier.Entry, sp *store.Page, tree *treediff.Tree, base *url.URL, parent FetchedPage, pageDepth int, relevant bool, edges []frontier.Edge) ([]frontier.Link, []frontier.Edge) {
	if sp.Capture == nil {
		return nil, edges
	}
	kept, edges := c.pageLinks(sp.Capture.Links, tree, base, edges)
	if len(kept) == 0 {
		return nil, edges
	}
	contexts := linkContexts(tree, base)
	parent.Links = len(kept)
	sims := make([]LinkSims, len(kept))
	for i, k := range kept {
		sims[i] = LinkSims{Anchor: c.sim(c.scoreText(k.text)), Context: c.sim(c.scoreText(contexts[k.u.String()]))}
		parent.LinkWeights += sims[i].Weight()
	}
	source := base.String() // the final URL when the page was redirected
	out := make([]frontier.Link, 0, len(kept))
	for i, k := range kept {
		s := k.u.String()
		out = append(out, frontier.Link{URL: s, Host: k.u.Host, Priority: c.strategy.Child(parent, sims[i]), Depth: pageDepth + 1,
			Hops: e.Hops + 1, Parent: source, Anchor: strings.TrimSpace(k.text), FromRelevant: relevant})
	}
	return out, edges
}

// linkCand is a link to follow: its canonical URL and its anchor text.
type linkCand struct {
	u    *url.URL
	text string
}

// pageLinks adds a page's links to edges (canonical http(s) URLs, each
// once) and returns those to follow: not trap-like, allowed by the
// include and exclude expressions, not rel="nofollow".
func (c *Crawler) pageLinks(links []store.Link, tree *treediff.Tree, base *url.URL, edges []frontier.Edge) ([]linkCand, []frontier.Edge) {
	source := base.String()
	relNofollow := nofollowLinks(tree, base)
	seen := map[string]bool{source: true}
	var kept []linkCand
	for _, l := range links {
		u, err := fetchpolicy.Canonicalize(base, l.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || seen[u.String()] {
			continue
		}
		s := u.String()
		seen[s] = true
		edges = append(edges, frontier.Edge{Source: source, Target: s, Kind: frontier.LinkEdge, Anchor: strings.TrimSpace(l.Text)})
		if c.cfg.Trap.Check(u) != nil || !c.urlAllowed(s) || relNofollow[s] {
			continue
		}
		kept = append(kept, linkCand{u, l.Text})
	}
	return kept, edges
}

func (c *Crawler) scoreText(s string) float64 {
	if s == "" {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lex.Score(s)
}

// urlAllowed applies the include and exclude expressions.
func (c *Crawler) urlAllowed(u string) bool {
	for _, re := range c.exclude {
		if re.MatchString(u) {
			return false
		}
	}
	if len(c.include) == 0 {
		return true
	}
	for _, re := range c.include {
		if re.MatchString(u) {
			return true
		}
	}
	return false
}

// metaRobots reads <meta name="robots"> (and "gleaner"-free generic
// directives): noindex and nofollow, "none" meaning both.
func metaRobots(t *treediff.Tree) (noindex, nofollow bool) {
	for _, n := range t.Nodes {
		if n.Kind != treediff.Element || n.Label != "meta" {
			continue
		}
		name, _ := n.Attr("name")
		if !strings.EqualFold(strings.TrimSpace(name), "robots") {
			continue
		}
		content, _ := n.Attr("content")
		for _, d := range strings.Split(strings.ToLower(content), ",") {
			switch strings.TrimSpace(d) {
			case "noindex":
				noindex = true
			case "nofollow":
				nofollow = true
			case "none":
				noindex, nofollow = true, true
			}
		}
	}
	return
}

// nofollowLinks returns the targets of the page's links marked
// rel="nofollow" (their edges are kept, they are not followed).
func nofollowLinks(t *treediff.Tree, base *url.URL) map[string]bool {
	out := map[string]bool{}
	for _, n := range t.Nodes {
		if n.Kind != treediff.Element || (n.Label != "a" && n.Label != "area") {
			continue
		}
		rel, _ := n.Attr("rel")
		href, ok := n.Attr("href")
		if !ok || !contains(strings.Fields(rel), "nofollow") {
			continue
		}
		if u, err := fetchpolicy.Canonicalize(base, href); err == nil {
			out[u.String()] = true
		}
	}
	return out
}

// linkContextWords is the number of words each side of an anchor that
// Shark-Search reads as the link's context.
const linkContextWords = 10

// linkContexts returns, per canonical link target, the words around its
// first anchor: linkContextWords before and after, the anchor excluded.
func linkContexts(t *treediff.Tree, base *url.URL) map[string]string {
	type span struct {
		target     string
		start, end int
	}
	var words []string
	var spans []span
	var walk func(n *treediff.Node)
	walk = func(n *treediff.Node) {
		switch n.Kind {
		case treediff.Text:
			for _, w := range treediff.Words(n.Label) {
				words = append(words, w.Text)
			}
			return
		case treediff.Element:
			switch n.Label {
			case "script", "style", "noscript", "template", "head":
				return
			}
		}
		var sp *span
		if n.Kind == treediff.Element && n.Label == "a" {
			if href, ok := n.Attr("href"); ok {
				if u, err := fetchpolicy.Canonicalize(base, href); err == nil {
					spans = append(spans, span{target: u.String(), start: len(words)})
					sp = &spans[len(spans)-1]
				}
			}
		}
		idx := len(spans) - 1
		for _, k := range n.Children {
			walk(k)
		}
		if sp != nil {
			spans[idx].end = len(words)
		}
	}
	walk(t.Root)
	out := map[string]string{}
	for _, s := range spans {
		if _, ok := out[s.target]; ok {
			continue
		}
		lo := max(0, s.start-linkContextWords)
		hi := min(len(words), s.end+linkContextWords)
		ctx := append(append([]string{}, words[lo:s.start]...), words[s.end:hi]...)
		out[s.target] = strings.Join(ctx, " ")
	}
	return out
}

func mediaType(ct string) string {
	if ct == "" {
		return ""
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.Split(ct, ";")[0]))
	}
	return mt
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// hostOf returns the host (with port) of a URL, "" when it has none.
func hostOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return p.Host
}
