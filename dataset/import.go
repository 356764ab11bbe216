package dataset

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sort"

	"github.com/gleaner/gleaner/store"
)

// SiteFromManifest takes a page's site from the manifest's site column
// instead of its URL.
const SiteFromManifest store.SiteMode = "manifest"

// Options tune loading and importing a collection.
type Options struct {
	// SiteMode maps a page to its site: store.SiteFromDomain (the default),
	// store.SiteFromHost or SiteFromManifest.
	SiteMode store.SiteMode
	// Dataset overrides the collection's name in the store.
	Dataset string
	// MaxFileBytes bounds each HTML or gold file (default 64 MiB): a larger
	// file is an error, not a silent truncation.
	MaxFileBytes int64
	// BatchBytes bounds the HTML held in memory per transaction (default
	// 256 MiB). A collection below it is imported in one transaction, all or
	// nothing.
	BatchBytes int64
}

func (o Options) withDefaults() Options {
	if o.SiteMode == "" {
		o.SiteMode = store.SiteFromDomain
	}
	if o.MaxFileBytes <= 0 {
		o.MaxFileBytes = 64 << 20
	}
	if o.BatchBytes <= 0 {
		o.BatchBytes = 256 << 20
	}
	return o
}

// ParseSiteMode parses "domain", "host" or "manifest".
func ParseSiteMode(s string) (store.SiteMode, error) {
	if store.SiteMode(s) == SiteFromManifest {
		return SiteFromManifest, nil
	}
	return store.ParseSiteMode(s)
}

// Site returns the site of e under mode.
func (m *Manifest) Site(e Entry, mode store.SiteMode) (string, error) {
	if mode == SiteFromManifest {
		if e.Site == "" {
			return "", fmt.Errorf("%s: page %s: empty site column (site mode %q)", m.where(e), e.name(), mode)
		}
		return e.Site, nil
	}
	s, err := store.SiteOf(e.URL, mode)
	if err != nil {
		return "", fmt.Errorf("%s: page %s: %w", m.where(e), e.name(), err)
	}
	return s, nil
}

func (e Entry) name() string {
	if e.ID != "" {
		return e.ID
	}
	return e.URL
}

// where names the list line of e, or the folder.
func (m *Manifest) where(e Entry) string {
	if m.Path != "" && e.Line > 0 {
		return fmt.Sprintf("%s:%d", m.Path, e.Line)
	}
	return m.Dir
}

// Page reads e's files into a page ready for store.Store.PutPages: raw HTML
// bytes unchanged, gold decoded (see DecodeGold, ParseGold).
func (m *Manifest) Page(e Entry, opt Options) (*store.Page, error) {
	opt = opt.withDefaults()
	site, err := m.Site(e, opt.SiteMode)
	if err != nil {
		return nil, err
	}
	html, err := ReadPage(m.HTMLFile(e), opt.MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: page %s: HTML: %w", m.where(e), e.name(), err)
	}
	p := &store.Page{Site: site, URL: e.URL, Dataset: m.Name, ManifestID: e.ID, Label: e.Label, RawHTML: html}
	if opt.Dataset != "" {
		p.Dataset = opt.Dataset
	}
	if gf := m.GoldFile(e); gf != "" {
		b, err := ReadPage(gf, opt.MaxFileBytes)
		if err != nil {
			return nil, fmt.Errorf("%s: page %s: gold: %w", m.where(e), e.name(), err)
		}
		g := ParseGold(DecodeGold(b))
		p.Gold = &g
	}
	return p, nil
}

// Check verifies, without reading them whole, that every entry's site can be
// determined and its files exist within the size limit. It reports up to 10
// problems at once.
func (m *Manifest) Check(opt Options) error {
	opt = opt.withDefaults()
	var errs []error
	bad := 0
	add := func(err error) {
		bad++
		if len(errs) < 10 {
			errs = append(errs, err)
		}
	}
	check := func(e Entry, what, path string) {
		st, err := os.Stat(path)
		switch {
		case err != nil:
			add(fmt.Errorf("%s: page %s: %s: %w", m.where(e), e.name(), what, err))
		case !st.Mode().IsRegular():
			add(fmt.Errorf("%s: page %s: %s %s: not a regular file", m.where(e), e.name(), what, path))
		case st.Size() > opt.MaxFileBytes:
			add(fmt.Errorf("%s: page %s: %s %s: %d bytes, over the limit of %d", m.where(e), e.name(), what, path, st.Size(), opt.MaxFileBytes))
		}
	}
	for _, e := range m.Entries {
		if _, err := m.Site(e, opt.SiteMode); err != nil {
			add(err)
		}
		check(e, "HTML", m.HTMLFile(e))
		if gf := m.GoldFile(e); gf != "" {
			check(e, "gold", gf)
		}
	}
	if bad > len(errs) {
		errs = append(errs, fmt.Errorf("and %d more problems", bad-len(errs)))
	}
	return errors.Join(errs...)
}

// Result counts what Import stored.
type Result struct {
	Pages int      // pages inserted or updated
	Gold  int      // of which with a gold annotation
	Sites []string // sites of the pages, sorted
}

// Import checks the whole collection (see Check) and then stores its pages,
// with their gold, in st. Pages already stored (same dataset and id, or URL
// for folders) are updated, so importing twice stores each page once. A
// collection whose HTML fits in Options.BatchBytes is written in one
// transaction; a larger one in several, and an error then says how many
// pages were stored before it (importing again completes the collection).
func Import(ctx context.Context, st store.Store, m *Manifest, opt Options) (Result, error) {
	opt = opt.withDefaults()
	if len(m.Entries) == 0 {
		return Result{}, fmt.Errorf("import %s: no pages", m.source())
	}
	if err := m.Check(opt); err != nil {
		return Result{}, fmt.Errorf("import %s: nothing imported:\n%w", m.source(), err)
	}
	im := &importer{st: st, limit: opt.BatchBytes, sites: map[string]bool{}}
	for _, e := range m.Entries {
		if err := ctx.Err(); err != nil {
			return im.fail(m, err)
		}
		p, err := m.Page(e, opt)
		if err != nil {
			return im.fail(m, err)
		}
		if err := im.add(ctx, p); err != nil {
			return im.fail(m, err)
		}
	}
	if err := im.flush(ctx); err != nil {
		return im.fail(m, err)
	}
	for s := range im.sites {
		im.res.Sites = append(im.res.Sites, s)
	}
	sort.Strings(im.res.Sites)
	return im.res, nil
}

// importer stores pages in batches of at most limit bytes of HTML (a
// larger page alone), counting what it stored.
type importer struct {
	st    store.Store
	limit int64
	batch []*store.Page
	size  int64 // of the batch's HTML
	res   Result
	sites map[string]bool
}

// add adds p to the batch, storing the batch first when p would take it
// over the limit.
func (im *importer) add(ctx context.Context, p *store.Page) error {
	if im.size > 0 && im.size+int64(len(p.RawHTML)) > im.limit {
		if err := im.flush(ctx); err != nil {
			return err
		}
	}
	im.batch = append(im.batch, p)
	im.size += int64(len(p.RawHTML))
	return nil
}

// flush stores the batch in one transaction and counts its pages.
func (im *importer) flush(ctx context.Context) error {
	if len(im.batch) == 0 {
		return nil
	}
	if err := im.st.PutPages(ctx, im.batch); err != nil {
		return err
	}
	for _, p := range im.batch {
		im.res.Pages++
		if p.Gold != nil {
			im.res.Gold++
		}
		im.sites[p.Site] = true
	}
	im.batch, im.size = im.batch[:0], 0
	return nil
}

// fail is Import's error err, saying how many pages of m were stored
// before it, and the result so far.
func (im *importer) fail(m *Manifest, err error) (Result, error) {
	if im.res.Pages == 0 {
		return Result{}, fmt.Errorf("import %s: nothing imported: %w", m.source(), err)
	}
	return im.res, fmt.Errorf("import %s: %d of %d pages stored before: %w", m.source(), im.res.Pages, len(m.Entries), err)
}

func (m *Manifest) source() string {
	if m.Path != "" {
		return m.Path
	}
	return m.Dir
}
