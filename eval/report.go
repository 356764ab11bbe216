package eval

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// WriteTables prints the thesis's table and the shingle table, overall and
// per site.
func (r *Report) WriteTables(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "site\tpages\texactitude\tmean cos\tT=T*\tT⊂T*\tT*⊂T\terrors\t\n")
	row := func(name string, s Summary) {
		fmt.Fprintf(tw, "%s\t%d\t%.1f%%\t%.3f\t%d\t%d\t%d\t%d\t\n", name, s.Pages, 100*s.Exactitude, s.MeanCos, s.Equal, s.Inside, s.Contains, s.Errors)
	}
	for _, s := range r.Sites {
		row(s.Site, s.Summary)
	}
	row("overall", r.Overall)
	fmt.Fprintf(tw, "\t\t\t\t\t\t\t\t\n")
	fmt.Fprintf(tw, "site\tpages\tprecision\trecall\tF1\taccuracy\t\t\t\n")
	row2 := func(name string, s Summary) {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t\t\t\n", name, s.Pages, s.Precision, s.Recall, s.F1, s.Accuracy)
	}
	for _, s := range r.Sites {
		row2(s.Site, s.Summary)
	}
	row2("overall", r.Overall)
	if len(r.Sources) > 0 {
		fmt.Fprintf(tw, "\t\t\t\t\t\t\t\t\n")
		fmt.Fprintf(tw, "source\tpages\tprecision\trecall\tF1\texactitude\t\t\t\n")
		for _, s := range r.Sources {
			fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.1f%%\t\t\t\n", s.Source, s.Pages, s.Precision, s.Recall, s.F1, 100*s.Exactitude)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var ms []string
	for m, n := range r.Methods {
		ms = append(ms, fmt.Sprintf("%s %d", m, n))
	}
	slices.Sort(ms)
	if _, err := fmt.Fprintf(w, "\n%s: %d pages in %.2fs: %.1f pages/s; decided by: %s\n", r.Method, r.Overall.Pages, r.Seconds, r.PagesPerSecond, strings.Join(ms, ", ")); err != nil {
		return err
	}
	if r.LearnSeconds > 0 || r.LocateSeconds > 0 {
		_, err := fmt.Fprintf(w, "of which template learning %.2fs, locating content %.2fs (%.1f pages/s)\n",
			r.LearnSeconds, r.LocateSeconds, float64(r.Overall.Pages)/max(r.LocateSeconds, 1e-9))
		if err != nil || r.LearnCost == nil {
			return err
		}
		c := r.LearnCost
		_, err = fmt.Fprintf(w, "template learning cost: %d pages, %d fast distances, %d exact TEDs, %.2f CPU s (%.3f s/page), peak RSS %d MB\n",
			c.Pages, c.Fast, c.Exact, c.CPUSeconds, c.CPUSeconds/max(float64(c.Pages), 1), c.PeakRSSMB)
		return err
	}
	return nil
}

// WritePages lists every page, failing ones first.
func (r *Report) WritePages(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "id\tsite\tcos\tP\tR\tF1\trelation\tmethod\tselector / error\n")
	for _, p := range r.Pages {
		what := p.Selector
		if p.Err != "" {
			what = "error: " + p.Err
		}
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%.3f\t%.3f\t%.3f\t%s\t%s\t%s\n", p.ID, p.Site, p.Cos, p.Precision, p.Recall, p.F1, p.Relation, p.Method, what)
	}
	return tw.Flush()
}

// Prediction is one line of a predictions file: the page's title, body,
// date (ISO 8601, absent when unknown) and author as extracted, apart.
type Prediction struct {
	ID     string `json:"id"`
	Source string `json:"source,omitempty"`
	Title  string `json:"title"`
	Body   string `json:"body"`
	Date   string `json:"date,omitempty"`
	Author string `json:"author,omitempty"`
	// Text is what was scored: the title line, a blank line, the body.
	Text  string `json:"text"`
	Error string `json:"error,omitempty"`
	// Method decided; Confidence is its calibrated confidence (the word
	// F1 expected), PageType the page's kind (pagetype.Types).
	Method     string  `json:"method,omitempty"`
	Confidence float64 `json:"confidence"`
	PageType   string  `json:"page_type,omitempty"`
}

// WritePredictions writes one JSON line per page, in id order, failed pages
// included (empty text and an error).
func (r *Report) WritePredictions(w io.Writer) error {
	ps := make([]PageResult, len(r.Pages))
	copy(ps, r.Pages)
	sortByID(ps)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, p := range ps {
		if err := enc.Encode(Prediction{ID: p.ID, Source: p.Source, Title: p.Title, Body: p.Body, Date: p.Date, Author: p.Author, Text: p.Text, Error: p.Err,
			Method: p.Method, Confidence: p.Confidence, PageType: p.PageType}); err != nil {
			return err
		}
	}
	return nil
}

func sortByID(ps []PageResult) {
	slices.SortFunc(ps, func(a, b PageResult) int { return strings.Compare(a.ID, b.ID) })
}
