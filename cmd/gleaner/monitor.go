package main

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/fixturescore"
	"github.com/gleaner/gleaner/monitor"
	"github.com/gleaner/gleaner/relevance"
	"github.com/gleaner/gleaner/store"
)

// monitorUsage is the usage text of gleaner monitor.
//
//go:embed usage/monitor.txt
var monitorUsage string

// monitorFlags are the command's options.
type monitorFlags struct {
	db, name, out           string
	rounds                  int
	every, delay            time.Duration
	asJSON, updates, fixtrs bool
	seed                    int64
	articles, perRound      int
	allow, chromium, terms  string
	render                  bool
	record                  *recordFlags
	warc                    *warcFollowFlags
	threshold               float64
	workers                 int
}

func parseMonitorFlags(args []string, stderr io.Writer) (*monitorFlags, []string, error) {
	fs := newFlagSet("monitor", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, monitorUsage); fs.PrintDefaults() }
	f := &monitorFlags{}
	fs.StringVar(&f.db, "db", defaultDB, "database `path` (SQLite; created if missing) or PostgreSQL URL")
	fs.StringVar(&f.name, "name", "default", "monitor `name` (its state in the store)")
	fs.StringVar(&f.out, "out", "", "append each round's new documents to this JSONL `file`")
	fs.IntVar(&f.rounds, "rounds", 1, "rounds to run (0: until interrupted)")
	fs.DurationVar(&f.every, "every", 15*time.Minute, "time between the starts of two rounds (not with --fixtures)")
	fs.DurationVar(&f.delay, "delay", time.Second, "minimum time between two requests to one host")
	fs.BoolVar(&f.asJSON, "json", false, "one JSON object per round")
	fs.BoolVar(&f.updates, "updates", false, "re-fetch known articles that sources list as modified (conditional GET); a changed page is fetched again and stored as a new capture")
	fs.BoolVar(&f.fixtrs, "fixtures", false, "watch the fixture newsroom on 127.0.0.1 and score each round")
	fs.Int64Var(&f.seed, "seed", 1, "seed of the fixture web")
	fs.IntVar(&f.articles, "articles", 16, "initial articles per fixture site")
	fs.IntVar(&f.perRound, "per-round", 3, "articles each fixture site publishes per round")
	fs.IntVar(&f.workers, "workers", 4, "sites whose pages are fetched at once (one request per host at a time)")
	fs.BoolVar(&f.render, "render", false, "fetch new article pages with Chromium (scripts run); sources stay plain HTTP")
	fs.StringVar(&f.chromium, "chromium", "", "Chromium `binary` for --render")
	f.record = addRecordFlags(fs, "every page fetched (the document and, with --render, its subresources; the rechecks of --updates too, a 304 as a revisit)")
	fs.StringVar(&f.terms, "terms", "", "focus: comma-separated `terms` (a lexicon, as in crawl); articles scoring under --threshold are left out")
	fs.Float64Var(&f.threshold, "threshold", 0, "focus score an article needs (default the crawler's, 1)")
	f.warc = addWARCFollowFlags(fs)
	fs.StringVar(&f.allow, "allow-hosts", "", "comma-separated `hosts` the target guard lets through (e.g. an intranet site)")
	if err := fs.Parse(args); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	if err := f.check(fs.NArg()); err != nil {
		return nil, nil, err
	}
	if err := f.warc.check(f.record.on); err != nil {
		return nil, nil, err
	}
	return f, fs.Args(), nil
}

// check rejects bad values, and sites given with --fixtures or none
// without.
func (f *monitorFlags) check(sites int) error {
	switch {
	case f.workers < 1:
		return fmt.Errorf("%w: --workers %d: want at least 1", errUsage, f.workers)
	case f.threshold < 0:
		return fmt.Errorf("%w: --threshold %v: want 0 or more", errUsage, f.threshold)
	case f.rounds < 0:
		return fmt.Errorf("%w: --rounds %d: want 0 or more", errUsage, f.rounds)
	case f.fixtrs && sites > 0:
		return fmt.Errorf("%w: --fixtures takes no site URL", errUsage)
	case !f.fixtrs && sites == 0:
		return fmt.Errorf("%w: give the home page URLs of the sites to watch, or --fixtures", errUsage)
	case f.fixtrs && f.rounds == 0:
		return fmt.Errorf("%w: --fixtures needs --rounds (at most %d)", errUsage, fixtures.NewsRounds+1)
	}
	return nil
}

// roundLine is the summary of a round as printed.
type roundLine struct {
	*monitor.Report
	NewPrecision       *float64 `json:"new_precision,omitempty"`
	NewRecall          *float64 `json:"new_recall,omitempty"`
	UnchangedRefetched *int     `json:"unchanged_refetched,omitempty"`
	// TextF1 is the shingle F1 of the new documents' title and text
	// against the fixtures' gold, over the TextScored documents whose body
	// the fetch could see (a script-made body needs --render).
	TextF1         *float64 `json:"text_f1,omitempty"`
	TextScored     *int     `json:"text_scored,omitempty"`
	RequestsPerNew float64  `json:"requests_per_new"`
}

func runMonitor(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "docs" {
		return runMonitorDocs(ctx, args[1:], stdout, stderr)
	}
	f, sites, err := parseMonitorFlags(args, stderr)
	if err != nil {
		return err
	}
	cfg := f.config(sites)
	var srv *fixtures.Server
	if f.fixtrs {
		if srv, err = startMonitorFixtures(ctx, f, &cfg); err != nil {
			return err
		}
		defer srv.Close()
	}
	fetcher, err := monitorFetcher(f, cfg, stderr)
	if err != nil {
		return err
	}
	if fetcher != nil {
		defer fetcher.Close()
		cfg.Fetcher = fetcher
	}
	db, err := store.Open(ctx, f.db)
	if err != nil {
		return err
	}
	defer db.Close()
	m, err := monitor.Open(ctx, db, cfg)
	if err != nil {
		return err
	}
	stopWARC := f.warc.start(ctx, db, stderr, monitor.Dataset(f.name), monitor.HubDataset(f.name))
	defer stopWARC()
	if err := monitorLoop(ctx, m, f, srv, stdout); err != nil {
		return err
	}
	return stopWARC()
}

// monitorFetcher is the fetcher of new pages: Chromium with --render, a
// recording plain fetcher without (recording is on by default), else nil
// (--record=false: the monitor's own GET). Either passes the monitor's
// guard and keeps the exchanges --record asks.
func monitorFetcher(f *monitorFlags, cfg monitor.Config, stderr io.Writer) (browser.ClosingFetcher, error) {
	rec := f.record.options()
	if !f.render {
		if !rec.On {
			return nil, nil
		}
		return browser.NewFetcher(cfg.Guard, false, browser.Options{PageTimeout: 30 * time.Second, MaxHTMLBytes: 8 << 20,
			UserAgent: "gleaner-monitor", Record: rec})
	}
	opt := browser.Options{ExecPath: f.chromium, Tabs: 1, PageTimeout: 30 * time.Second, MaxHTMLBytes: 8 << 20, Record: rec,
		Logf: func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) }}
	// Chromium's own requests and connections pass the monitor's guard.
	return browser.NewFetcher(cfg.Guard, true, opt)
}

// config is the monitor's configuration the flags give.
func (f *monitorFlags) config(sites []string) monitor.Config {
	cfg := monitor.Config{Name: f.name, Sites: sites, Updates: f.updates, Delay: f.delay, Threshold: f.threshold, Workers: f.workers,
		Record: f.record.options()}
	if terms := eval.SplitList(f.terms); len(terms) > 0 {
		cfg.Focus = relevance.NewLexicon(terms)
	}
	cfg.Guard.Allowed = eval.SplitList(f.allow)
	return cfg
}

// startMonitorFixtures serves the fixture newsroom and points cfg at its
// sites, allowed, without delay.
func startMonitorFixtures(ctx context.Context, f *monitorFlags, cfg *monitor.Config) (*fixtures.Server, error) {
	srv, err := fixtures.Start(ctx, fixtures.Options{Seed: f.seed, Articles: f.articles, NewsPerRound: f.perRound, Slow: -1, CrawlDelay: -1})
	if err != nil {
		return nil, err
	}
	cfg.Delay = 0
	cfg.Sites = append(cfg.Sites, srv.HomePages()...)
	cfg.Guard.Allowed = append(cfg.Guard.Allowed, srv.Hosts()...)
	return srv, nil
}

// monitorLoop runs the rounds and prints them.
func monitorLoop(ctx context.Context, m *monitor.Monitor, f *monitorFlags, srv *fixtures.Server, stdout io.Writer) error {
	known := map[string]bool{}
	for i := 0; f.rounds == 0 || i < f.rounds; i++ {
		start := time.Now()
		if err := monitorRound(ctx, m, f, srv, known, stdout); err != nil {
			return err
		}
		if srv != nil || (f.rounds != 0 && i == f.rounds-1) {
			continue
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Until(start.Add(f.every))):
		}
	}
	return nil
}

// monitorRound runs one round (on the fixtures: their next round, scored),
// prints it and appends its documents to --out.
func monitorRound(ctx context.Context, m *monitor.Monitor, f *monitorFlags, srv *fixtures.Server, known map[string]bool, stdout io.Writer) error {
	next, err := m.NextRound(ctx)
	if err != nil {
		return err
	}
	if srv != nil {
		srv.SetRound(next - 1)
		srv.ResetHits()
	}
	rep, err := m.Round(ctx)
	if err != nil {
		return err
	}
	line := roundLine{Report: rep}
	if rep.New > 0 {
		line.RequestsPerNew = float64(rep.Requests) / float64(rep.New)
	}
	if srv != nil {
		scoreRound(&line, srv, known, f.render)
	}
	if err := printRound(stdout, line, f.asJSON); err != nil {
		return err
	}
	return monitor.AppendDocuments(f.out, rep.Documents)
}

// scoreRound scores the round on the fixtures' newsroom.
func scoreRound(line *roundLine, srv *fixtures.Server, known map[string]bool, rendered bool) {
	sc := fixturescore.ScoreRound(srv, line.Round, line.Documents, known, rendered)
	line.NewPrecision, line.NewRecall, line.UnchangedRefetched = &sc.NewPrecision, &sc.NewRecall, &sc.UnchangedRefetched
	line.TextScored = &sc.TextScored
	if sc.TextScored > 0 {
		line.TextF1 = &sc.TextF1
	}
}

func printRound(w io.Writer, line roundLine, asJSON bool) error {
	if asJSON {
		b, err := json.Marshal(line)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	r := line.Report
	s := fmt.Sprintf("round %d: %d sources checked (%d not modified), %d new, %d updated, %d duplicates, %d hubs, %d errors, %d requests",
		r.Round, r.Sources, r.NotModified, r.New, r.Updated, r.Duplicates, r.Hubs, r.Errors, r.Requests)
	if r.OffFocus > 0 {
		s += fmt.Sprintf(", %d off focus", r.OffFocus)
	}
	if r.New > 0 {
		s += fmt.Sprintf(" (%.2f per new article); %d extracted against their template", line.RequestsPerNew, r.Templated)
	}
	if r.Reextracted > 0 {
		s += fmt.Sprintf(", %d earlier articles re-extracted", r.Reextracted)
	}
	if line.NewPrecision != nil {
		s += fmt.Sprintf("; new precision %.3f recall %.3f, unchanged refetched %d", *line.NewPrecision, *line.NewRecall, *line.UnchangedRefetched)
	}
	if line.TextF1 != nil {
		s += fmt.Sprintf("; text F1 %.3f on %d articles", *line.TextF1, *line.TextScored)
	}
	for _, n := range r.Notes {
		s += "\n  note: " + n
	}
	_, err := fmt.Fprintln(w, s)
	return err
}

// runMonitorDocs prints a selection of a monitor's documents as JSONL.
func runMonitorDocs(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("monitor docs", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, monitorUsage); fs.PrintDefaults() }
	db := addDBFlag(fs)
	name := fs.String("name", "default", "monitor `name`")
	site := fs.String("site", "", "documents of this site (host:port as in the documents)")
	var f selectFlags
	f.addSelection(fs, "", "")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if err := checkKind(f.kind); err != nil {
		return err
	}
	sel, err := f.selection(*site)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	m, err := monitor.Open(ctx, st, monitor.Config{Name: *name})
	if err != nil {
		return err
	}
	docs, err := m.Documents(ctx, sel)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			return err
		}
	}
	return nil
}
