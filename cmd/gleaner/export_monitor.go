package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/gleaner/gleaner/export"
	"github.com/gleaner/gleaner/monitor"
	"github.com/gleaner/gleaner/store"
)

// monitorSelectFlags are export's flags choosing a monitor's documents
// (the selection of "gleaner monitor docs").
type monitorSelectFlags struct {
	name, lang, since, until, kind string
	round                          int
	minRelevance                   float64
}

func addMonitorSelectFlags(fs *flag.FlagSet) *monitorSelectFlags {
	f := &monitorSelectFlags{}
	fs.StringVar(&f.name, "monitor", "", "export only the documents of this `monitor` (with --site: its host:port)")
	fs.IntVar(&f.round, "round", 0, "with --monitor: documents first stored in this `round`")
	fs.StringVar(&f.lang, "lang", "", "with --monitor: documents in this `language` (ISO 639-1)")
	fs.StringVar(&f.since, "since", "", "with --monitor: documents first seen at or after this `time`")
	fs.StringVar(&f.until, "until", "", "with --monitor: documents first seen before this `time`")
	fs.StringVar(&f.kind, "kind", monitor.KindArticle.String(), "with --monitor: documents of this `kind` (article, hub or all)")
	fs.Float64Var(&f.minRelevance, "min-relevance", 0, "with --monitor: documents whose focus score is at least this")
	return f
}

// check rejects selection flags without --monitor, and flags that do not
// go with it.
func (f *monitorSelectFlags) check(opt export.CorpusOptions) error {
	if f.name == "" {
		if f.round != 0 || f.lang != "" || f.since != "" || f.until != "" {
			return fmt.Errorf("%w: --round, --lang, --since and --until select a monitor's documents: give --monitor", errUsage)
		}
		return nil
	}
	if opt.Dataset != "" || opt.Gold || opt.RunID != 0 {
		return fmt.Errorf("%w: --monitor does not go with --crawl, --gold or --run", errUsage)
	}
	if f.round < 0 {
		return fmt.Errorf("%w: --round %d: want a round number", errUsage, f.round)
	}
	_, err := checkKind(f.kind)
	return err
}

// open opens the store for export; with --monitor, it selects the
// monitor's documents into opt (their pages, in the monitor's dataset).
func (f *monitorSelectFlags) open(ctx context.Context, path string, opt *export.CorpusOptions) (store.Store, error) {
	if f.name == "" {
		return openForExport(ctx, path)
	}
	sel := monitor.Selection{Round: f.round, Site: opt.Site, Lang: f.lang, Kind: monitor.DocKind(f.kind), MinRelevance: f.minRelevance}
	var err error
	if sel.Since, err = parseWhen("--since", f.since); err != nil {
		return nil, err
	}
	if sel.Until, err = parseWhen("--until", f.until); err != nil {
		return nil, err
	}
	// The monitor's tables are migrated on open, so not read-only.
	db, err := store.Open(ctx, path)
	if err != nil {
		return nil, err
	}
	if err := f.selectPages(ctx, db, sel, opt); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// selectPages restricts opt to the pages of the selected documents.
func (f *monitorSelectFlags) selectPages(ctx context.Context, db *store.DB, sel monitor.Selection, opt *export.CorpusOptions) error {
	m, err := monitor.Open(ctx, db, monitor.Config{Name: f.name})
	if err != nil {
		return err
	}
	docs, err := m.Documents(ctx, sel)
	if err != nil {
		return err
	}
	opt.Site = "" // the monitor's site (host:port), selected above
	opt.Dataset = monitor.Dataset(f.name)
	opt.PageIDs = make([]int64, 0, len(docs))
	for _, d := range docs {
		if d.PageID != 0 {
			opt.PageIDs = append(opt.PageIDs, d.PageID)
		}
	}
	if len(opt.PageIDs) == 0 {
		return fmt.Errorf("export: monitor %q: no document selected (%d without a page in the store)", f.name, len(docs))
	}
	return nil
}
