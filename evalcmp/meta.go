package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"unicode"

	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/pagemeta"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/treediff"
)

// goldMeta is a page's gold metadata (wcxb-dev's meta/<id>.json).
type goldMeta struct {
	Title    string `json:"title"`
	Author   string `json:"author"`
	Date     string `json:"publish_date"`
	PageType string `json:"page_type"`
}

// pageMeta is what one method says of a page.
type pageMeta struct {
	Title, Date, Author string
	DateSource          string // which kind of source gave the date (Gleaner only)
	// Lang, Declared and LangSource are Gleaner's language, the declared
	// one and where Lang came from; Words counts the page's text.
	Lang, Declared, LangSource string
	Words                      int
}

// tally counts one field's outcomes for one method.
type tally struct {
	Gold, Right, Missing, Wrong int
}

func (t tally) pct(n int) string {
	if t.Gold == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(t.Gold))
}

// metaReport is the metadata comparison of one run.
type metaReport struct {
	Pages int `json:"pages"`
	// Fields[field][method] counts the pages with that gold field.
	Fields map[string]map[string]*tally `json:"fields"`
	// DateSources counts Gleaner's dates by the kind of source they came
	// from, over the pages with a gold date.
	DateSources map[string]int `json:"date_sources"`
	// Misses are Gleaner's missing and wrong answers, for reading.
	Misses []metaMiss `json:"misses,omitempty"`
	// Declared counts the pages of at least 50 words whose declared
	// language is known; Identified those of them whose language Gleaner
	// identified on the text, Agree those where it is the declared one (no
	// gold language: agreement is a floor on errors, not a score).
	Declared, Identified, Agree int
	// Languages counts the pages of at least 50 words by declared
	// language and Gleaner's ("en>en", "none>en", "en>fr"): the
	// agreement table, disagreements to read by hand.
	Languages map[string]int `json:"languages"`
}

// metaMiss is one field Gleaner got wrong or missed on one page.
type metaMiss struct {
	ID, Field, Gold, Got, Source string
}

var (
	metaFields  = []string{"date", "author", "title"}
	metaMethods = []string{"gleaner", "trafilatura"}
)

// metaCompare reads the manifest's pages of the given types (all when
// types is empty) that have gold metadata (meta/<id>.json beside the
// manifest, else the first line of the gold text as the title) and scores
// Gleaner's metadata (pagemeta) and go-trafilatura's on each field.
func metaCompare(ctx context.Context, manifest string, types []string) (*metaReport, error) {
	m, err := dataset.ReadManifest(manifest)
	if err != nil {
		return nil, err
	}
	rep := newMetaReport()
	for _, e := range m.Entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		g, ok, err := readGoldMeta(m, e)
		if err != nil {
			return nil, err
		}
		if !ok || (len(types) > 0 && !contains(types, firstOf(g.PageType, e.Label))) {
			continue
		}
		if err := rep.page(m, e, g); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// newMetaReport is an empty report, a tally per field and method.
func newMetaReport() *metaReport {
	rep := &metaReport{Fields: map[string]map[string]*tally{}, DateSources: map[string]int{}, Languages: map[string]int{}}
	for _, f := range metaFields {
		rep.Fields[f] = map[string]*tally{}
		for _, me := range metaMethods {
			rep.Fields[f][me] = &tally{}
		}
	}
	return rep
}

// page scores both methods on one page.
func (r *metaReport) page(m *dataset.Manifest, e dataset.Entry, g goldMeta) error {
	src, err := dataset.ReadPage(m.HTMLFile(e), 0)
	if err != nil {
		return fmt.Errorf("page %s: %w", e.ID, err)
	}
	r.Pages++
	got := map[string]pageMeta{"gleaner": gleanerMeta(e, src), "trafilatura": trafilaturaMeta(e, src)}
	for _, me := range metaMethods {
		r.score(me, g, got[me])
	}
	r.Misses = append(r.Misses, misses(e.ID, g, got["gleaner"])...)
	r.language(got["gleaner"])
	if g.Date != "" {
		r.DateSources[firstOf(got["gleaner"].DateSource, "none")]++
	}
	return nil
}

// language counts a page's identified language against its declared one.
func (r *metaReport) language(p pageMeta) {
	if p.Words < 50 {
		return
	}
	r.Languages[firstOf(p.Declared, "none")+">"+firstOf(p.Lang, "none")]++
	if p.Declared == "" {
		return
	}
	r.Declared++
	if p.LangSource == "text" {
		r.Identified++
		if p.Lang == p.Declared {
			r.Agree++
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// readGoldMeta reads e's gold metadata: meta/<id>.json beside the
// manifest, else the gold text's first line as the title (Big9's gold
// starts with the headline). ok is false when the page has neither.
func readGoldMeta(m *dataset.Manifest, e dataset.Entry) (goldMeta, bool, error) {
	var g goldMeta
	b, err := os.ReadFile(filepath.Join(m.Dir, "meta", e.ID+".json"))
	if err == nil {
		if err := json.Unmarshal(b, &g); err != nil {
			return g, false, fmt.Errorf("gold metadata of %s: %w", e.ID, err)
		}
		return g, true, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return g, false, fmt.Errorf("gold metadata of %s: %w", e.ID, err)
	}
	gf := m.GoldFile(e)
	if gf == "" {
		return g, false, nil
	}
	b, err = os.ReadFile(gf)
	if err != nil {
		return g, false, fmt.Errorf("gold of %s: %w", e.ID, err)
	}
	text, _, err := treediff.Decode(b, "")
	if err != nil {
		return g, false, fmt.Errorf("gold of %s: %w", e.ID, err)
	}
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	g.Title = strings.TrimSpace(line)
	return g, g.Title != "", nil
}

func (r *metaReport) score(method string, g goldMeta, got pageMeta) {
	judge := map[string]func() (bool, bool, bool){
		"date":   func() (bool, bool, bool) { return g.Date != "", got.Date == "", sameDay(g.Date, got.Date) },
		"author": func() (bool, bool, bool) { return g.Author != "", got.Author == "", sameAuthors(g.Author, got.Author) },
		"title": func() (bool, bool, bool) {
			return g.Title != "", got.Title == "", pagemeta.SameTitle(g.Title, got.Title)
		},
	}
	for _, f := range metaFields {
		has, missing, right := judge[f]()
		if !has {
			continue
		}
		t := r.Fields[f][method]
		t.Gold++
		switch {
		case right:
			t.Right++
		case missing:
			t.Missing++
		default:
			t.Wrong++
		}
	}
}

// misses lists the fields of a page whose gold got does not match.
func misses(id string, g goldMeta, got pageMeta) []metaMiss {
	var out []metaMiss
	if g.Date != "" && !sameDay(g.Date, got.Date) {
		out = append(out, metaMiss{id, "date", g.Date, got.Date, got.DateSource})
	}
	if g.Author != "" && !sameAuthors(g.Author, got.Author) {
		out = append(out, metaMiss{id, "author", g.Author, got.Author, ""})
	}
	if g.Title != "" && !pagemeta.SameTitle(g.Title, got.Title) {
		out = append(out, metaMiss{id, "title", g.Title, got.Title, ""})
	}
	return out
}

// sameDay reports whether two ISO 8601 dates name the same day (a gold
// "2025-09" names a month: the month must match).
func sameDay(gold, got string) bool {
	if got == "" {
		return false
	}
	n := min(len(gold), 10)
	return len(got) >= n && got[:n] == gold[:n]
}

// normName lower-cases s and keeps its letters, digits and single spaces.
func normName(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		default:
			space = true
		}
	}
	return b.String()
}

// splitNames splits an author string into names on commas, "&", ";" and
// " and ".
func splitNames(s string) []string {
	s = strings.NewReplacer("&", ",", ";", ",", " and ", ",", " AND ", ",").Replace(s)
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = normName(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// sameAuthors reports whether got names the gold's authors: the gold's
// first name is among got's names, and each of got's names appears in
// the gold (roles and credentials the gold keeps, "Jane Doe, MS, RD", do
// not count against a bare name).
func sameAuthors(gold, got string) bool {
	gn, on := splitNames(gold), splitNames(got)
	if len(gn) == 0 || len(on) == 0 || !contains(on, gn[0]) {
		return false
	}
	for _, n := range on {
		if !contains(gn, n) {
			return false
		}
	}
	return true
}

// gleanerMeta is what Gleaner says of a page: its metadata (pagemeta),
// the headline chosen with the single-page extraction's title and page
// type as pagemeta.Meta.HeadlineOf does.
func gleanerMeta(e dataset.Entry, src []byte) pageMeta {
	t, err := treediff.Parse(e.ID, src, treediff.ParseOptions{})
	if err != nil {
		return pageMeta{}
	}
	r, _ := singlepage.Extract(t, singlepage.Options{Source: src})
	m := pagemeta.Extract(t, src, pagemeta.Options{URL: e.URL, Text: r.Body})
	return pageMeta{Title: m.HeadlineOf(r.Title, r.PageType), Date: m.Published, Author: strings.Join(m.Authors, ", "), DateSource: m.Sources.Published,
		Lang: m.Lang, Declared: m.DeclaredLang, LangSource: m.Sources.Lang, Words: len(strings.Fields(r.Body))}
}

// trafilaturaMeta is go-trafilatura's metadata of a page, configured as
// trafilaturaDoc runs it, with the page's URL.
func trafilaturaMeta(e dataset.Entry, src []byte) pageMeta {
	text, _, err := treediff.Decode(src, "")
	if err != nil {
		return pageMeta{}
	}
	doc, err := html.Parse(strings.NewReader(text))
	if err != nil {
		return pageMeta{}
	}
	opt := trafilatura.Options{EnableFallback: true}
	if u, err := url.Parse(e.URL); err == nil && e.URL != "" {
		opt.OriginalURL = u
	}
	r, err := trafilatura.ExtractDocument(doc, opt)
	if err != nil || r == nil {
		return pageMeta{}
	}
	out := pageMeta{Title: r.Metadata.Title, Author: r.Metadata.Author}
	if !r.Metadata.Date.IsZero() {
		out.Date = r.Metadata.Date.Format("2006-01-02")
	}
	return out
}

// write prints one row per field and method (right, missing, wrong as
// shares of the pages with that gold field), then the shares of Gleaner's
// date sources.
func (r *metaReport) write(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "field\tmethod\tgold\tright\tmissing\twrong\t\n")
	for _, f := range metaFields {
		for _, me := range metaMethods {
			t := r.Fields[f][me]
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t\n", f, me, t.Gold, t.pct(t.Right), t.pct(t.Missing), t.pct(t.Wrong))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.Declared > 0 {
		fmt.Fprintf(w, "\nGleaner's language, %d pages of 50 words or more declaring one: identified on the text %d, the declared one %d (%.1f%%)\n",
			r.Declared, r.Identified, r.Agree, 100*float64(r.Agree)/float64(max(r.Identified, 1)))
	}
	r.writeDateSources(w)
	r.writeLanguages(w)
	_, err := fmt.Fprintf(w, "\n%d pages\n", r.Pages)
	return err
}

// writeLanguages prints the pages of 50 words or more by declared and
// identified language, most first.
func (r *metaReport) writeLanguages(w io.Writer) {
	if len(r.Languages) == 0 {
		return
	}
	pairs := make([]string, 0, len(r.Languages))
	for p := range r.Languages {
		pairs = append(pairs, p)
	}
	sort.Slice(pairs, func(i, j int) bool {
		if r.Languages[pairs[i]] != r.Languages[pairs[j]] {
			return r.Languages[pairs[i]] > r.Languages[pairs[j]]
		}
		return pairs[i] < pairs[j]
	})
	fmt.Fprintf(w, "\nPages of 50 words or more, declared>identified language:")
	for _, p := range pairs {
		fmt.Fprintf(w, " %s %d", p, r.Languages[p])
	}
	fmt.Fprintln(w)
}

// writeDateSources prints the shares of Gleaner's date sources, if any.
func (r *metaReport) writeDateSources(w io.Writer) {
	total := 0
	var srcs []string
	for s, n := range r.DateSources {
		srcs = append(srcs, s)
		total += n
	}
	if total == 0 {
		return
	}
	sort.Slice(srcs, func(i, j int) bool {
		if r.DateSources[srcs[i]] != r.DateSources[srcs[j]] {
			return r.DateSources[srcs[i]] > r.DateSources[srcs[j]]
		}
		return srcs[i] < srcs[j]
	})
	fmt.Fprintf(w, "\nGleaner's date sources (pages with a gold date):")
	for _, s := range srcs {
		fmt.Fprintf(w, " %s %.1f%%", s, 100*float64(r.DateSources[s])/float64(total))
	}
	fmt.Fprintln(w)
}

// runMeta runs the metadata comparison for run's --meta flag.
func runMeta(ctx context.Context, manifest, types string, asJSON bool, stdout io.Writer) error {
	list := eval.SplitList(types)
	if types == "all" {
		list = nil
	}
	rep, err := metaCompare(ctx, manifest, list)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.write(stdout)
}
