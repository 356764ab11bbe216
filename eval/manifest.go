package eval

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/store"
)

// Page is one annotated page of a dataset.
type Page struct {
	ID   string
	Site string
	URL  string
	// Label is the page's annotation (era) used to judge template clusters.
	Label string
	// Source is the manifest's era column: the benchmark or period the page
	// comes from ("" without that column).
	Source string
	// Gold is the annotated text: the headline line, then the body.
	Gold string
}

// Dataset is an annotated dataset read from a manifest (see package
// dataset for the format).
type Dataset struct {
	Manifest *dataset.Manifest
	// SiteMode is how pages were grouped into sites: the manifest's site
	// column when it has one, else the registrable domain of the URL.
	SiteMode store.SiteMode
	Pages    []Page
	// Src holds each page's HTML bytes (nil when they could not be read)
	// and Errs why not, by page index.
	Src  [][]byte
	Errs []error
}

// LoadDataset reads a manifest, its pages' HTML and their gold texts. A page
// whose HTML cannot be read stays in the dataset with its error (it is
// scored as an empty extraction); a page without a readable gold is an
// error, as nothing could score it.
func LoadDataset(manifest string) (*Dataset, error) {
	m, err := dataset.ReadManifest(manifest)
	if err != nil {
		return nil, err
	}
	ds := &Dataset{Manifest: m, SiteMode: store.SiteFromDomain}
	if slices.Contains(m.Columns, "site") {
		ds.SiteMode = dataset.SiteFromManifest
	}
	opt := dataset.Options{SiteMode: ds.SiteMode}
	for _, e := range m.Entries {
		gf := m.GoldFile(e)
		if gf == "" {
			return nil, fmt.Errorf("%s:%d: page %s has no gold_path: nothing to score it against", m.Path, e.Line, e.ID)
		}
		if _, err := os.Stat(gf); err != nil {
			return nil, fmt.Errorf("%s:%d: page %s: gold: %w", m.Path, e.Line, e.ID, err)
		}
		site, err := m.Site(e, ds.SiteMode)
		if err != nil {
			return nil, err
		}
		p := Page{ID: e.ID, Site: site, URL: e.URL, Label: e.Label, Source: e.Fields["era"]}
		sp, err := m.Page(e, opt)
		var src []byte
		if err == nil {
			src = sp.RawHTML
			if sp.Gold != nil {
				p.Gold = sp.Gold.Text
			}
		} else {
			// The gold file exists: the HTML is what failed. Score the
			// gold anyway.
			b, gerr := os.ReadFile(gf)
			if gerr != nil {
				return nil, fmt.Errorf("%s:%d: page %s: gold: %w", m.Path, e.Line, e.ID, gerr)
			}
			p.Gold = dataset.ParseGold(dataset.DecodeGold(b)).Text
		}
		ds.Pages = append(ds.Pages, p)
		ds.Src = append(ds.Src, src)
		ds.Errs = append(ds.Errs, err)
	}
	if len(ds.Pages) == 0 {
		return nil, fmt.Errorf("manifest %s: no pages", manifest)
	}
	return ds, nil
}

// SplitList splits a comma-separated list, trimming spaces and dropping
// empty items (a flag's value such as "readability, cleaneval").
func SplitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
