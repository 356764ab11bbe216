package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gleaner/gleaner/chain/langid"
	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/store"
)

// corpusLimit bounds the documents one corpus page lists.
const corpusLimit = 200

// corpusFilter is the corpus search form.
type corpusFilter struct {
	Q, Site, Lang, From, To string
	MinRelevance            float64
	MinRelevanceText        string
}

// corpusDoc is one extracted page of the corpus.
type corpusDoc struct {
	PageID    int64
	URL       string
	Site      string
	Title     string
	Snippet   string
	Date      string // as stated by the page, else the fetch day
	Lang      string
	Method    string
	Relevance float64
	Judged    bool // a crawl scored the page
}

type corpusData struct {
	Filter  corpusFilter
	Sites   []store.Site
	Docs    []corpusDoc
	Total   int // documents matching before the display limit
	Formats []string
	Export  string // query string of the export links
	Limit   int
}

func readCorpusFilter(v url.Values) (corpusFilter, error) {
	f := corpusFilter{Q: strings.TrimSpace(v.Get("q")), Site: v.Get("site"), Lang: strings.ToLower(strings.TrimSpace(v.Get("lang"))),
		From: strings.TrimSpace(v.Get("from")), To: strings.TrimSpace(v.Get("to")), MinRelevanceText: strings.TrimSpace(v.Get("min_relevance"))}
	for _, d := range []string{f.From, f.To} {
		if _, err := time.Parse(time.DateOnly, d); d != "" && err != nil {
			return f, fmt.Errorf("date %q: want YYYY-MM-DD", d)
		}
	}
	if f.MinRelevanceText != "" {
		r, err := strconv.ParseFloat(f.MinRelevanceText, 64)
		if err != nil {
			return f, fmt.Errorf("relevance %q: want a number", f.MinRelevanceText)
		}
		f.MinRelevance = r
	}
	return f, nil
}

func (f corpusFilter) keep(d corpusDoc) bool {
	if !f.inLang(d) || !f.inDates(d) || !f.relevant(d) {
		return false
	}
	if f.Q == "" {
		return true
	}
	q := strings.ToLower(f.Q)
	return strings.Contains(strings.ToLower(d.Title), q) || strings.Contains(strings.ToLower(d.Snippet), q) || strings.Contains(strings.ToLower(d.URL), q)
}

// inLang reports whether d is in the language asked for (any when none).
func (f corpusFilter) inLang(d corpusDoc) bool { return f.Lang == "" || d.Lang == f.Lang }

// inDates reports whether d is dated within the dates asked for; an
// undated document is kept only when none are.
func (f corpusFilter) inDates(d corpusDoc) bool {
	if f.From == "" && f.To == "" {
		return true
	}
	return d.Date != "" && (f.From == "" || d.Date >= f.From) && (f.To == "" || d.Date <= f.To)
}

// relevant reports whether d was judged at least as relevant as asked
// (any document when no relevance is asked).
func (f corpusFilter) relevant(d corpusDoc) bool {
	return f.MinRelevanceText == "" || d.Judged && d.Relevance >= f.MinRelevance
}

func (s *Server) handleCorpus(w http.ResponseWriter, r *http.Request) {
	f, err := readCorpusFilter(r.URL.Query())
	if err != nil {
		s.fail(w, http.StatusBadRequest, err)
		return
	}
	d := corpusData{Filter: f, Formats: exportFormats(), Limit: corpusLimit}
	if d.Sites, err = s.db.Sites(r.Context()); err != nil {
		s.failFor(w, err)
		return
	}
	docs, err := s.corpus(r.Context(), f.Site)
	if err != nil {
		s.failFor(w, err)
		return
	}
	for _, doc := range docs {
		if f.keep(doc) {
			d.Total++
			if len(d.Docs) < corpusLimit {
				d.Docs = append(d.Docs, doc)
			}
		}
	}
	if f.Site != "" {
		d.Export = "site=" + url.QueryEscape(f.Site) + "&"
	}
	s.render(w, "corpus", "Corpus", "corpus", d)
}

// corpus lists the latest extraction of every page (of site, "" for all)
// with its language, date and crawl relevance.
func (s *Server) corpus(ctx context.Context, site string) ([]corpusDoc, error) {
	xs, err := s.db.Extractions(ctx, store.ExtractionQuery{Site: site})
	if err != nil {
		return nil, err
	}
	latest := latestPerPage(xs)
	metas, err := s.db.Pages(ctx, store.PageQuery{Site: site})
	if err != nil {
		return nil, err
	}
	scores, err := s.relevance(ctx)
	if err != nil {
		return nil, err
	}
	id := identifier()
	var out []corpusDoc
	for _, p := range metas {
		x, ok := latest[p.ID]
		if !ok {
			continue
		}
		d := corpusDoc{PageID: p.ID, URL: p.Name(), Site: p.Site, Title: x.Title, Snippet: snippet(x.Body, 240), Method: x.Method,
			Date: docDate(x.Date, p.FetchedAt)}
		d.Relevance, d.Judged = scores[p.ID]
		d.Lang, _ = id.Detect(x.Title + "\n" + x.Body)
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PageID < out[j].PageID })
	return out, nil
}

// relevance maps pages to the score the crawls gave them.
func (s *Server) relevance(ctx context.Context) (map[int64]float64, error) {
	names, err := crawler.Crawls(ctx, s.db)
	if err != nil {
		return nil, err
	}
	out := map[int64]float64{}
	for _, n := range names {
		fs, err := crawler.Fetched(ctx, s.db, n)
		if err != nil {
			return nil, err
		}
		for _, f := range fs {
			if f.PageID != 0 {
				out[f.PageID] = f.Score
			}
		}
	}
	return out, nil
}

// latestPerPage keeps each page's most recent extraction (the later run on
// a tie).
func latestPerPage(xs []store.Extraction) map[int64]store.Extraction {
	out := map[int64]store.Extraction{}
	for _, x := range xs {
		if l, ok := out[x.PageID]; !ok || x.CreatedAt.After(l.CreatedAt) || x.CreatedAt.Equal(l.CreatedAt) && x.RunID > l.RunID {
			out[x.PageID] = x
		}
	}
	return out
}

// docDate is the page's stated date as YYYY-MM-DD when it starts with one,
// else the day it was fetched.
func docDate(stated string, fetched time.Time) string {
	if len(stated) >= 10 {
		if _, err := time.Parse(time.DateOnly, stated[:10]); err == nil {
			return stated[:10]
		}
	}
	if fetched.IsZero() {
		return ""
	}
	return fetched.UTC().Format(time.DateOnly)
}

func snippet(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

var (
	langOnce sync.Once
	langID   *langid.Identifier
)

// identifier is the language identifier over every known language.
func identifier() *langid.Identifier {
	langOnce.Do(func() { langID, _ = langid.New(nil) })
	return langID
}
