// Command fittitle fits the headline chooser of pagemeta (Meta.Headline)
// on annotated pages with gold titles, cross-validated by site, and
// writes its weights as pagemeta/title_model.go.
//
// For every page it extracts the title with the single-page method
// (singlepage.Extract), reads the page's metadata (pagemeta.Extract) and
// its headline candidates (Meta.TitleCandidates: the hand rules' choice,
// the h1, the stated titles without the site's name, whole and each side
// of a separator, the extracted title) with their features; a candidate
// is right when it is the gold title (case, typographic quotes and
// dashes aside, as evalcmp --meta compares). It fits a conditional logit
// (a softmax over each page's candidates) on the pages where one
// candidate is right, reports per set and page type the share of exact
// titles of the hand rules, of the chooser on folds that never split a
// site (held out) and fitted on all, and of the best candidate, then
// writes the weights fitted on all pages.
//
// Rerun it, from the repository root, whenever the candidates, their
// features or the extraction change:
//
//	go run ./pagemeta/internal/fittitle \
//	  --manifest ../shared/data/wcxb-dev/manifest.tsv \
//	  --manifest ../shared/data/big9-dev/manifest.tsv \
//	  --records /tmp/fittitle.jsonl
//
// (--reuse fits again from --records without extracting; --write=false
// reports without writing the model; --choose article reports the
// chooser deciding articles too, held out, as pagemeta.ChoosesTitle
// would need before it took them).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/pagemeta"
	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/treediff"
)

// record is one page's gold title and candidates.
type record struct {
	Set  string `json:"set"`
	ID   string `json:"id"`
	Era  string `json:"era"`
	Site string `json:"site"`
	Gold string `json:"gold"`
	URL  string `json:"url"`
	HTML string `json:"html"`
	// Extracted and PageType are the single-page method's title and page
	// type (what --reuse keeps: the candidates are read again).
	Extracted string                    `json:"extracted"`
	PageType  string                    `json:"page_type"`
	Cands     []pagemeta.TitleCandidate `json:"-"`
}

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "fittitle:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("fittitle", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var manifests listFlag
	fl.Var(&manifests, "manifest", "manifest with gold titles (repeatable)")
	records := fl.String("records", "", "cache of the extracted candidates (JSON lines)")
	reuse := fl.Bool("reuse", false, "read --records instead of extracting")
	write := fl.Bool("write", true, "write pagemeta/title_model.go")
	out := fl.String("out", "pagemeta/title_model.go", "where --write writes the model")
	alsoChosen = nil
	fl.Var(&alsoChosen, "choose", "a page type the chooser is tried on besides those it decides, for the report (repeatable; with --write=false)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	recs, err := loadRecords(ctx, manifests, *records, *reuse, stderr)
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return errors.New("no pages with a gold title")
	}
	w := fitAll(recs)
	report(stdout, recs, heldOut(recs), w)
	if !*write {
		return nil
	}
	return os.WriteFile(*out, []byte(goSource(w)), 0o644)
}

// loadRecords extracts the manifests' records (and caches them in
// path), or reads them from path when reuse is set.
func loadRecords(ctx context.Context, manifests []string, path string, reuse bool, stderr io.Writer) ([]record, error) {
	if reuse {
		recs, err := readRecords(path)
		if err != nil {
			return nil, err
		}
		for i := range recs {
			if err := recs[i].read(); err != nil {
				return nil, err
			}
		}
		return recs, nil
	}
	var recs []record
	for _, mf := range manifests {
		rs, err := extract(ctx, mf, stderr)
		if err != nil {
			return nil, err
		}
		recs = append(recs, rs...)
	}
	if path != "" {
		return recs, writeRecords(path, recs)
	}
	return recs, nil
}

// extract reads one manifest's pages with a gold title.
func extract(ctx context.Context, manifest string, stderr io.Writer) ([]record, error) {
	m, err := dataset.ReadManifest(manifest)
	if err != nil {
		return nil, err
	}
	set := filepath.Base(filepath.Dir(manifest))
	var recs []record
	for i, e := range m.Entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		gold, era, err := goldTitle(m, e)
		if err != nil {
			return nil, err
		}
		if gold == "" {
			continue
		}
		src, err := dataset.ReadPage(m.HTMLFile(e), 0)
		if err != nil {
			return nil, fmt.Errorf("page %s: %w", e.ID, err)
		}
		r := record{Set: set, ID: e.ID, Era: era, Site: e.Site, Gold: gold, URL: e.URL, HTML: m.HTMLFile(e)}
		r.extract(src)
		recs = append(recs, r)
		if (i+1)%100 == 0 {
			fmt.Fprintf(stderr, "%s: %d/%d\n", set, i+1, len(m.Entries))
		}
	}
	return recs, nil
}

// extract reads r's page with the single-page method and its headline
// candidates, as evalcmp --meta reads its headline.
func (r *record) extract(src []byte) {
	t, err := treediff.Parse(r.ID, src, treediff.ParseOptions{})
	if err != nil {
		return
	}
	res, _ := singlepage.Extract(t, singlepage.Options{Source: src})
	r.Extracted, r.PageType = res.Title, res.PageType
	m := pagemeta.Extract(t, src, pagemeta.Options{URL: r.URL, NoLanguage: true})
	r.Cands = m.TitleCandidates(r.Extracted, r.PageType)
}

// read reads r's candidates again from its page, with the extracted
// title and page type it keeps.
func (r *record) read() error {
	src, err := dataset.ReadPage(r.HTML, 0)
	if err != nil {
		return err
	}
	t, err := treediff.Parse(r.ID, src, treediff.ParseOptions{})
	if err != nil {
		return nil
	}
	m := pagemeta.Extract(t, src, pagemeta.Options{URL: r.URL, NoLanguage: true})
	r.Cands = m.TitleCandidates(r.Extracted, r.PageType)
	return nil
}

// goldTitle is a page's gold title and page type: meta/<id>.json beside
// the manifest, else the gold text's first line (Big9's gold starts with
// the headline) and the manifest's era.
func goldTitle(m *dataset.Manifest, e dataset.Entry) (string, string, error) {
	b, err := os.ReadFile(filepath.Join(m.Dir, "meta", e.ID+".json"))
	if err == nil {
		var g struct {
			Title    string `json:"title"`
			PageType string `json:"page_type"`
		}
		if err := json.Unmarshal(b, &g); err != nil {
			return "", "", fmt.Errorf("gold metadata of %s: %w", e.ID, err)
		}
		return strings.TrimSpace(g.Title), firstOf(g.PageType, e.Label), nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", "", err
	}
	gf := m.GoldFile(e)
	if gf == "" {
		return "", "", nil
	}
	b, err = os.ReadFile(gf)
	if err != nil {
		return "", "", err
	}
	text, _, err := treediff.Decode(b, "")
	if err != nil {
		return "", "", err
	}
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	return strings.TrimSpace(line), e.Label, nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func writeRecords(path string, recs []record) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

func readRecords(path string) ([]record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var recs []record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, err
		}
		recs = append(recs, r)
	}
	return recs, sc.Err()
}
