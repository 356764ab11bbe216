package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/gleaner/gleaner/crawlcorpus"
	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/export"
	"github.com/gleaner/gleaner/monitor"
	"github.com/gleaner/gleaner/store"
)

// selectFlags are export's flags choosing the documents of a crawl or a
// monitor: the selection of "gleaner monitor docs" (monitor.Selection),
// by kind and relevance for both, by round, language and time for a
// monitor.
type selectFlags struct {
	crawl, monitor, lang, since, until, kind string
	round                                    int
	minRelevance                             float64
}

func addSelectFlags(fs *flag.FlagSet) *selectFlags {
	f := &selectFlags{}
	fs.StringVar(&f.crawl, "crawl", "", "export only the documents of this `crawl` (articles by default; --kind all: every page it stored, for an archive)")
	fs.StringVar(&f.monitor, "monitor", "", "export only the documents of this `monitor` (with --site: its host:port)")
	f.addSelection(fs, "with --monitor: ", "with --crawl or --monitor: ")
	return f
}

// addSelection adds the flags of a selection (monitor.Selection), their
// help prefixed with monitorOnly (round, language, time) or either (kind,
// relevance).
func (f *selectFlags) addSelection(fs *flag.FlagSet, monitorOnly, either string) {
	fs.IntVar(&f.round, "round", 0, monitorOnly+"documents first stored in this `round` (0: all)")
	fs.StringVar(&f.lang, "lang", "", monitorOnly+"documents in this `language` (ISO 639-1)")
	fs.StringVar(&f.since, "since", "", monitorOnly+"documents first seen at or after this `time` (RFC 3339 or YYYY-MM-DD)")
	fs.StringVar(&f.until, "until", "", monitorOnly+"documents first seen before this `time`")
	fs.StringVar(&f.kind, "kind", monitor.KindArticle.String(), either+"documents of this `kind`: article, hub (found on a template of the site's hubs) or all; a crawl's also off-topic, duplicate…")
	fs.Float64Var(&f.minRelevance, "min-relevance", 0, either+"documents whose focus score (relevance) is at least this")
}

// check rejects selection flags without the crawl or monitor they select
// from, flags that do not go with them, and bad values.
func (f *selectFlags) check(opt export.CorpusOptions) error {
	if err := f.checkScope(opt); err != nil {
		return err
	}
	if f.round < 0 {
		return fmt.Errorf("%w: --round %d: want a round number", errUsage, f.round)
	}
	if f.crawl == "" {
		return checkKind(f.kind)
	}
	if err := crawlcorpus.CheckKind(f.kind); err != nil {
		return fmt.Errorf("%w: --kind: %v", errUsage, err)
	}
	return nil
}

// checkScope rejects flags that select from no crawl or monitor, and
// flags that do not go together.
func (f *selectFlags) checkScope(opt export.CorpusOptions) error {
	switch {
	case f.monitor == "" && f.monitorOnly():
		return fmt.Errorf("%w: --round, --lang, --since and --until select a monitor's documents: give --monitor", errUsage)
	case f.monitor+f.crawl == "" && f.selects():
		return fmt.Errorf("%w: --kind and --min-relevance select a crawl's or a monitor's documents: give --crawl or --monitor", errUsage)
	case f.monitor != "" && f.crawl != "":
		return fmt.Errorf("%w: --monitor does not go with --crawl", errUsage)
	case f.monitor+f.crawl != "" && (opt.Gold || opt.RunID != 0):
		// Gold and runs are not what a crawl or a monitor kept.
		return fmt.Errorf("%w: --crawl and --monitor do not go with --gold or --run", errUsage)
	}
	return nil
}

// monitorOnly reports whether a flag that selects a monitor's documents
// alone is given.
func (f *selectFlags) monitorOnly() bool {
	return f.round != 0 || f.lang != "" || f.since != "" || f.until != ""
}

// selects reports whether the kind or the relevance is chosen.
func (f *selectFlags) selects() bool {
	return f.kind != monitor.KindArticle.String() || f.minRelevance != 0
}

// selection is the monitor.Selection the flags give (a crawl's kind, one
// of more kinds than a monitor's, is read by selectCrawl).
func (f *selectFlags) selection(site string) (monitor.Selection, error) {
	sel := monitor.Selection{Round: f.round, Site: site, Lang: f.lang, MinRelevance: f.minRelevance}
	var err error
	if f.crawl == "" {
		if sel.Kind, err = monitor.ParseKind(f.kind); err != nil {
			return sel, fmt.Errorf("%w: --kind: %v", errUsage, err)
		}
	}
	if sel.Since, err = parseWhen("--since", f.since); err != nil {
		return sel, err
	}
	sel.Until, err = parseWhen("--until", f.until)
	return sel, err
}

// open opens the store for export; with --crawl or --monitor, it selects
// their documents into opt (their pages, in their dataset, with what the
// crawl or monitor said of each).
func (f *selectFlags) open(ctx context.Context, path string, opt *export.CorpusOptions) (store.Store, error) {
	if f.monitor == "" && f.crawl == "" {
		return openForExport(ctx, path)
	}
	sel, err := f.selection(opt.Site)
	if err != nil {
		return nil, err
	}
	// The crawl's and the monitor's tables are migrated on open, so not
	// read-only.
	db, err := store.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	if f.crawl != "" {
		err = f.selectCrawl(ctx, db, sel, opt)
	} else {
		err = f.selectMonitor(ctx, db, sel, opt)
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// selectMonitor restricts opt to the pages of the monitor's selected
// documents.
func (f *selectFlags) selectMonitor(ctx context.Context, db *store.DB, sel monitor.Selection, opt *export.CorpusOptions) error {
	m, err := monitor.Open(ctx, db, monitor.Config{Name: f.monitor})
	if err != nil {
		return err
	}
	pages, err := m.Captures(ctx, sel)
	if err != nil {
		return err
	}
	opt.Site = "" // the monitor's site (host:port), selected above
	judged := map[int64]export.Judgement{}
	for id, d := range pages {
		judged[id] = export.Judgement{Kind: d.Kind.String(), Relevance: d.Relevance, Template: d.Template}
	}
	opt.SelectDocuments(monitor.Dataset(f.monitor), judged)
	if len(opt.PageIDs) == 0 {
		return fmt.Errorf("export: monitor %q: no document selected with a page in the store", f.monitor)
	}
	return nil
}

// selectCrawl restricts opt to the pages of the crawl's selected
// documents.
func (f *selectFlags) selectCrawl(ctx context.Context, db *store.DB, sel monitor.Selection, opt *export.CorpusOptions) error {
	if err := crawler.Exists(ctx, db, f.crawl); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	docs, err := crawlcorpus.Documents(ctx, db, f.crawl, f.kind, sel.MinRelevance)
	if err != nil {
		return err
	}
	opt.SelectDocuments(crawler.Dataset(f.crawl), crawlcorpus.Judgements(docs))
	if len(opt.PageIDs) == 0 {
		return fmt.Errorf("export: crawl %q: no document of kind %s with relevance %v or more", f.crawl, f.kind, sel.MinRelevance)
	}
	return nil
}

// checkKind rejects a --kind that names no document kind.
func checkKind(k string) error {
	if _, err := monitor.ParseKind(k); err != nil {
		return fmt.Errorf("%w: --kind: %v", errUsage, err)
	}
	return nil
}

// parseWhen reads a --since/--until time: RFC 3339 or a day.
func parseWhen(flag, v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%w: %s %q: want RFC 3339 (2026-03-02T18:00:00Z) or a day (2026-03-02)", errUsage, flag, v)
}
