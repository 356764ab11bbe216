package main

import (
	"cmp"
	"context"
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/gleaner/gleaner/crawlcorpus"
	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/fixturescore"
	"github.com/gleaner/gleaner/statusline"
	"github.com/gleaner/gleaner/store"
)

// crawlUsage is the usage text of gleaner crawl.
//
//go:embed usage/crawl.txt
var crawlUsage string

// listFlag is a repeatable or comma-separated string flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

func runCrawl(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		if sub, ok := crawlSubcommands[args[0]]; ok {
			return sub(ctx, args[0], args[1:], stdout, stderr)
		}
	}
	f, err := parseCrawlFlags(args, stderr)
	if err != nil {
		return err
	}
	cfg, err := f.config()
	if err != nil {
		return err
	}
	srv, err := startCrawlFixtures(ctx, f, &cfg)
	if err != nil {
		return err
	}
	if srv != nil {
		defer srv.Close()
	}
	return f.crawl(ctx, cfg, srv, stdout, stderr)
}

// crawl runs the crawl cfg, with what the command line overrides, its
// renderer and the store of --db.
func (f *crawlFlags) crawl(ctx context.Context, cfg crawler.Config, srv *fixtures.Server, stdout, stderr io.Writer) error {
	if err := f.override(&cfg); err != nil {
		return err
	}
	closeRenderer, err := f.useRenderer(&cfg, stderr)
	if err != nil {
		return err
	}
	defer closeRenderer()
	st, err := store.Open(ctx, f.db)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := crawlAndReport(ctx, st, cfg, f, srv, stdout, stderr); err != nil {
		return err
	}
	return st.Close()
}

// crawlSubcommands are the subcommands of gleaner crawl, by name.
var crawlSubcommands = map[string]func(ctx context.Context, sub string, args []string, stdout, stderr io.Writer) error{
	"pause": runCrawlControl, "resume": runCrawlControl, "status": runCrawlControl, "harvest": runCrawlHarvest,
}

// useRenderer makes the crawl render its pages in Chromium, unless
// --plain; the function returned closes the browser.
func (f *crawlFlags) useRenderer(cfg *crawler.Config, stderr io.Writer) (func(), error) {
	if f.plain {
		return func() {}, nil
	}
	r, err := cfg.Renderer(f.chromium, f.tabs, func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) })
	if err != nil {
		return nil, err
	}
	cfg.Fetcher = r
	cfg.Workers = cmp.Or(cfg.Workers, f.tabs)
	return func() { r.Close() }, nil
}

// crawlFlags are the options of gleaner crawl.
type crawlFlags struct {
	fs                                           *flag.FlagSet
	db, configPath, name, formula, strategy, ua  string
	chromium, fixturesAddr, corpusOut, graphOut  string
	terms, include, exclude, langs, allow, seeds listFlag
	workers, maxPages, maxDocs, maxDepth         int
	minTokens, learnAt, tabs                     int
	delay, timeout, maxDuration                  time.Duration
	maxTokens, minBytes, maxBytes, fixturesSeed  int64
	threshold                                    float64
	exhaust, plain, fixtures, quiet              bool
	record                                       *recordFlags
	warc                                         *warcFollowFlags
}

func parseCrawlFlags(args []string, stderr io.Writer) (*crawlFlags, error) {
	fs := newFlagSet("crawl", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, crawlUsage); fs.PrintDefaults() }
	f := &crawlFlags{fs: fs}
	fs.StringVar(&f.db, "db", defaultDB, "database `path` (SQLite; created if missing)")
	fs.StringVar(&f.configPath, "config", "", "crawl configuration `file` (.yaml, .yml or .json)")
	fs.StringVar(&f.name, "name", "", "crawl `name` (default: from the config, else \"crawl\")")
	fs.Var(&f.terms, "terms", "seed `terms` of the topic (comma-separated or repeated)")
	fs.StringVar(&f.formula, "formula", "", "Boolean `formula` a relevant page must satisfy, e.g. \"(wind | solar) & ^football\"")
	fs.StringVar(&f.strategy, "strategy", "", "frontier order: opic (default), shark or bfs")
	fs.IntVar(&f.workers, "workers", 0, "pages fetched at once (default 4)")
	fs.DurationVar(&f.delay, "delay", 0, "least time between two fetches of one host (default 1s; robots.txt Crawl-delay wins when longer)")
	fs.DurationVar(&f.timeout, "timeout", 0, "cap per page (default 30s)")
	fs.StringVar(&f.ua, "user-agent", "", "User-Agent of the crawler")
	fs.IntVar(&f.maxPages, "max-pages", 0, "stop after this many pages requested")
	fs.IntVar(&f.maxDocs, "max-docs", 0, "stop after this many relevant documents")
	fs.Int64Var(&f.maxTokens, "max-tokens", 0, "stop once the relevant documents hold this many words")
	fs.IntVar(&f.maxDepth, "max-depth", 0, "do not follow links of pages this many irrelevant hops from a relevant page")
	fs.DurationVar(&f.maxDuration, "max-duration", 0, "stop after this long")
	fs.BoolVar(&f.exhaust, "exhaust-relevant", false, "stop when no queued URL comes from a relevant page")
	fs.Int64Var(&f.minBytes, "min-bytes", 0, "drop pages with less HTML")
	fs.Int64Var(&f.maxBytes, "max-bytes", 0, "drop pages with more HTML (default 8 MiB)")
	fs.IntVar(&f.minTokens, "min-tokens", 0, "drop pages whose extracted text has fewer words")
	fs.Var(&f.langs, "lang", "keep pages in these `languages` (ISO 639-1, comma-separated)")
	fs.Var(&f.include, "include", "follow only URLs matching this `regexp` (repeatable)")
	fs.Var(&f.exclude, "exclude", "never follow URLs matching this `regexp` (repeatable)")
	fs.Var(&f.allow, "allow-host", "allow this private/loopback `host[:port]` (repeatable)")
	fs.IntVar(&f.learnAt, "learn-at", 0, "learn a site's templates once it has this many pages (default 8; negative: never)")
	fs.Float64Var(&f.threshold, "threshold", 0, "fixed relevance threshold (default: calibrated on the first pages)")
	fs.BoolVar(&f.plain, "plain", false, "plain HTTP fetch, no browser (static sites)")
	f.record = addRecordFlags(fs, "each page (the document and, rendered, its subresources)")
	f.warc = addWARCFollowFlags(fs)
	fs.IntVar(&f.tabs, "tabs", 2, "browser tabs (pages rendered at once)")
	fs.StringVar(&f.chromium, "chromium", "", "Chromium `binary`")
	fs.BoolVar(&f.fixtures, "fixtures", false, "serve the bundled fixture web and crawl it on its on-topic theme")
	fs.StringVar(&f.fixturesAddr, "fixtures-addr", "127.0.0.1:8700", "address of the first fixture site (fixed, so a rerun resumes)")
	fs.Int64Var(&f.fixturesSeed, "fixtures-seed", 1, "seed of the fixture web")
	fs.StringVar(&f.corpusOut, "corpus", "", "write the relevant documents as JSON Lines to `file` at the end")
	fs.StringVar(&f.graphOut, "graph", "", "write the hyperlink graph to `dir`/links.csv and links.graphml at the end")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress display")
	seeds, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errUsage, err)
	}
	f.seeds = seeds
	if f.timeout < 0 || f.maxDuration < 0 || f.delay < 0 {
		return nil, fmt.Errorf("%w: --timeout, --max-duration and --delay must not be negative", errUsage)
	}
	return f, nil
}

// config is the crawl configuration of --config (empty without).
func (f *crawlFlags) config() (crawler.Config, error) {
	if f.configPath == "" {
		return crawler.Config{Record: true}, nil // as a file without "record"
	}
	return crawler.LoadConfig(f.configPath)
}

// startCrawlFixtures serves the fixture web with --fixtures (nil without)
// and points cfg at it: its home pages as seeds, its hosts allowed, its
// theme's keywords as terms unless the config has some.
func startCrawlFixtures(ctx context.Context, f *crawlFlags, cfg *crawler.Config) (*fixtures.Server, error) {
	if !f.fixtures {
		return nil, nil
	}
	srv, err := fixtures.Start(ctx, fixtures.Options{Seed: f.fixturesSeed, Addr: f.fixturesAddr, Slow: -1})
	if err != nil {
		return nil, fmt.Errorf("--fixtures: %w", err)
	}
	cfg.Seeds = append(cfg.Seeds, srv.HomePages()...)
	cfg.AllowHosts = append(cfg.AllowHosts, srv.Hosts()...)
	if len(cfg.Terms) == 0 {
		cfg.Terms = fixtures.OnTopicKeywords()
	}
	cfg.Name = cmp.Or(cfg.Name, "fixtures")
	return srv, nil
}

// override sets in cfg what the command line gives: the flags given win
// over the config file, the lists add to its own.
func (f *crawlFlags) override(cfg *crawler.Config) error {
	set := map[string]bool{}
	f.fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if set["name"] {
		cfg.Name = f.name
	}
	cfg.Name = cmp.Or(cfg.Name, "crawl")
	cfg.Seeds = append(cfg.Seeds, f.seeds...)
	cfg.Terms = append(cfg.Terms, f.terms...)
	cfg.Include = append(cfg.Include, f.include...)
	cfg.Exclude = append(cfg.Exclude, f.exclude...)
	cfg.Languages = append(cfg.Languages, f.langs...)
	cfg.AllowHosts = append(cfg.AllowHosts, f.allow...)
	for fl, apply := range f.setters(cfg) {
		if set[fl] {
			apply()
		}
	}
	if len(cfg.Seeds) == 0 {
		return fmt.Errorf("%w: no seed URL (arguments, config seeds, or --fixtures)", errUsage)
	}
	if err := f.warc.check(cfg.Record); err != nil {
		return err
	}
	if f.workers < 0 || f.tabs < 1 {
		return fmt.Errorf("%w: --delay and --workers must not be negative, --tabs at least 1", errUsage)
	}
	return nil
}

// setters set each flag's value in cfg, by flag name.
func (f *crawlFlags) setters(cfg *crawler.Config) map[string]func() {
	return map[string]func(){
		"formula": func() { cfg.Formula = f.formula }, "strategy": func() { cfg.Strategy = f.strategy },
		"workers": func() { cfg.Workers = f.workers }, "delay": func() { cfg.Delay = f.delay },
		"timeout": func() { cfg.Timeout = f.timeout }, "user-agent": func() { cfg.UserAgent = f.ua },
		"max-pages": func() { cfg.MaxPages = f.maxPages }, "max-docs": func() { cfg.MaxDocs = f.maxDocs },
		"max-tokens": func() { cfg.MaxTokens = f.maxTokens }, "max-depth": func() { cfg.MaxDepth = f.maxDepth },
		"max-duration": func() { cfg.MaxDuration = f.maxDuration }, "exhaust-relevant": func() { cfg.ExhaustRelevant = f.exhaust },
		"min-bytes": func() { cfg.MinBytes = f.minBytes }, "max-bytes": func() { cfg.MaxBytes = f.maxBytes },
		"min-tokens": func() { cfg.MinTokens = f.minTokens }, "learn-at": func() { cfg.LearnAt = f.learnAt },
		"threshold": func() { cfg.Threshold = f.threshold }, "record": func() { cfg.Record = f.record.on },
		"record-media": func() { cfg.RecordMedia = f.record.media }, "record-secrets": func() { cfg.RecordSecrets = f.record.secrets },
	}
}

// crawlAndReport runs the crawl, prints its summary and writes the outputs
// the flags ask for.
func crawlAndReport(ctx context.Context, st *store.DB, cfg crawler.Config, f *crawlFlags, srv *fixtures.Server, stdout, stderr io.Writer) error {
	prog := statusline.New(stdout, f.quiet)
	cfg.Progress = func(pr crawler.Progress) { prog.Update(func() string { return progressLine(pr) }) }
	cfg.Logf = prog.Logf
	c, err := crawler.New(st, cfg)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	fmt.Fprintf(stdout, "crawl %s: %d seeds, strategy %s, db %s\n", cfg.Name, len(cfg.Seeds), cmp.Or(cfg.Strategy, "opic"), f.db)
	stopWARC := f.warc.start(ctx, st, stderr, crawler.Dataset(cfg.Name))
	defer stopWARC()
	sum, runErr := c.Run(ctx)
	prog.Done()
	if err := stopWARC(); err != nil && runErr == nil {
		return err
	}
	printCrawlSummary(stdout, sum)
	if err := sum.Err(cfg.Name, runErr); err != nil {
		return err
	}
	if sum.Stop == crawler.StopPaused {
		fmt.Fprintf(stdout, "crawl %s paused: run the same command again to continue it\n", cfg.Name)
		return nil
	}
	return writeCrawlOutputs(ctx, st, cfg.Name, f, srv, stdout)
}

// writeCrawlOutputs writes the corpus and the graph the flags ask for,
// and scores the crawl on the fixtures it crawled.
func writeCrawlOutputs(ctx context.Context, st *store.DB, name string, f *crawlFlags, srv *fixtures.Server, stdout io.Writer) error {
	if f.corpusOut != "" {
		n, err := crawlcorpus.WriteCorpusFile(ctx, st, name, f.corpusOut)
		if err != nil {
			return fmt.Errorf("--corpus: %w", err)
		}
		fmt.Fprintf(stdout, "corpus: %d documents in %s\n", n, f.corpusOut)
	}
	if f.graphOut != "" {
		n, err := crawlcorpus.WriteGraphFiles(ctx, st, name, f.graphOut)
		if err != nil {
			return fmt.Errorf("--graph: %w", err)
		}
		fmt.Fprintf(stdout, "graph: %d edges in %s/links.csv and links.graphml\n", n, f.graphOut)
	}
	if srv == nil {
		return nil
	}
	sc, err := fixturescore.ScoreCrawl(ctx, st, name, srv.Web)
	if err != nil {
		return err
	}
	printCrawlScore(stdout, sc)
	return nil
}

func printCrawlSummary(w io.Writer, s crawler.Summary) {
	fmt.Fprintf(w, "crawl %s stopped: %s after %v, %d URLs processed by this run\n", s.Name, cmp.Or(s.Stop, "error"), s.Elapsed.Round(time.Millisecond), s.Pages)
	fmt.Fprintf(w, "  %s\n", s.Counters)
	fmt.Fprintf(w, "  harvest rate (validated/tried) %.3f, %d words kept, threshold %.3f\n", s.Counters.HarvestRate(), s.Counters.Tokens, s.Threshold)
	var terms []string
	for i, t := range s.Lexicon {
		if i == 12 {
			terms = append(terms, fmt.Sprintf("… (%d terms)", len(s.Lexicon)))
			break
		}
		terms = append(terms, fmt.Sprintf("%s %.2f", t.Term, t.Weight))
	}
	fmt.Fprintf(w, "  lexicon: %s\n", strings.Join(terms, ", "))
}

// printCrawlScore prints a crawl's scores against the fixtures' ground
// truth.
func printCrawlScore(w io.Writer, sc fixturescore.Crawl) {
	if sc.Fetched > 0 {
		fmt.Fprintf(w, "fixtures ground truth: %d of %d fetched pages on topic (harvest rate %.3f); %d of %d kept documents on topic; relevance judgement precision %.3f recall %.3f\n",
			sc.OnTopic, sc.Fetched, sc.HarvestRate(), sc.KeptOnTopic, sc.Kept, sc.Precision, sc.Recall)
	}
	if s := sc.Extraction; s.Pages > 0 {
		fmt.Fprintf(w, "extraction vs gold on %d kept article pages: shingle P %.3f R %.3f F1 %.3f, mean cos %.3f, exact %d (methods %v)\n",
			s.Pages, s.Precision, s.Recall, s.F1, s.MeanCos, s.Exact, sc.Methods)
	}
}

func runCrawlControl(ctx context.Context, sub string, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("crawl "+sub, stderr)
	fs.Usage = func() { fmt.Fprint(stderr, crawlUsage); fs.PrintDefaults() }
	db := addDBFlag(fs)
	name := fs.String("name", "", "crawl `name` (required)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if (*name == "" && sub != "status") || fs.NArg() > 0 {
		if helpAsked(args) {
			return fmt.Errorf("%w: help", errUsage)
		}
		return fmt.Errorf("%w: crawl %s takes --name N and no argument", errUsage, sub)
	}
	st, err := openCrawlDB(ctx, sub, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	if *name == "" {
		err = printCrawls(ctx, st, *db, stdout)
	} else {
		err = controlCrawl(ctx, st, sub, *name, *db, stdout)
	}
	if err != nil {
		return err
	}
	return st.Close()
}

// openCrawlDB opens the existing database of crawl sub: read-only for
// status, which works on a database it may not write.
func openCrawlDB(ctx context.Context, sub, db string) (*store.DB, error) {
	if _, err := os.Stat(db); err != nil && !store.IsPostgresURL(db) {
		return nil, fmt.Errorf("crawl %s: database %s: %w", sub, db, err)
	}
	if sub == "status" {
		return store.OpenReadOnly(ctx, db)
	}
	return store.Open(ctx, db)
}

// printCrawls prints the counters of every crawl of st.
func printCrawls(ctx context.Context, st *store.DB, db string, stdout io.Writer) error {
	names, err := crawler.Crawls(ctx, st)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		fmt.Fprintf(stdout, "no crawl in %s\n", db)
	}
	for _, n := range names {
		if err := printCrawlCounters(ctx, st, n, stdout); err != nil {
			return err
		}
	}
	return nil
}

// printCrawlCounters prints the counters of crawl name.
func printCrawlCounters(ctx context.Context, st *store.DB, name string, stdout io.Writer) error {
	cnt, err := crawler.CrawlCounters(ctx, st, name)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "crawl %s: %s; harvest rate %.3f\n", name, cnt, cnt.HarvestRate())
	return nil
}

// controlCrawl pauses, resumes or shows crawl name.
func controlCrawl(ctx context.Context, st *store.DB, sub, name, db string, stdout io.Writer) error {
	if err := crawler.Exists(ctx, st, name); err != nil {
		return fmt.Errorf("crawl %s: %w", sub, err)
	}
	var err error
	switch sub {
	case "pause":
		err = crawler.Pause(ctx, st, name)
	case "resume":
		err = crawler.Resume(ctx, st, name)
	}
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("crawl %s: no crawl named %q in %s", sub, name, db)
	}
	if err != nil {
		return err
	}
	switch sub {
	case "pause":
		fmt.Fprintf(stdout, "crawl %s paused (a running crawler stops after the pages in flight; \"gleaner crawl resume --name %s\" then rerun to continue)\n", name, name)
	case "resume":
		fmt.Fprintf(stdout, "crawl %s resumed: rerun the crawl command to continue it\n", name)
	}
	return printCrawlCounters(ctx, st, name, stdout)
}

// runCrawlHarvest prints the harvest-rate table of the three strategies on
// the fixture web.
func runCrawlHarvest(ctx context.Context, _ string, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("crawl harvest", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, crawlUsage); fs.PrintDefaults() }
	pages := fs.Int("pages", 200, "pages fetched per strategy")
	seed := fs.Int64("seed", 1, "seed of the fixture web")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *pages < 1 || fs.NArg() > 0 {
		return fmt.Errorf("%w: --pages must be positive, no argument taken", errUsage)
	}
	srv, err := fixtures.Start(ctx, fixtures.Options{Seed: *seed, Slow: -1, CrawlDelay: -1})
	if err != nil {
		return err
	}
	defer srv.Close()
	dir, err := os.MkdirTemp("", "gleaner-harvest-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fmt.Fprintf(stdout, "harvest rate after %d pages on the fixture web (seed %d; ground truth of the fixtures; crawler's own judgement)\n", *pages, *seed)
	fmt.Fprintf(stdout, "%-8s %6s %8s %8s %7s   %s\n", "strategy", "pages", "harvest", "vs bfs", "own", "own judgement vs truth (judged pages)")
	hs, err := fixturescore.Harvests(ctx, srv, []string{"bfs", "opic", "shark"}, *pages, dir)
	for _, h := range hs {
		ratio := "-"
		if hs[0].Rate > 0 {
			ratio = fmt.Sprintf("%.2fx", h.Rate/hs[0].Rate)
		}
		fmt.Fprintf(stdout, "%-8s %6d %8.3f %8s %7.3f   precision %.3f recall %.3f\n", h.Strategy, h.Pages, h.Rate, ratio, h.Own, h.Precision, h.Recall)
	}
	return err
}

// progressLine is the status line of a crawl's progress.
func progressLine(pr crawler.Progress) string {
	c := pr.Counters
	return fmt.Sprintf("%6.1fs %5.1f pages/s  frontier %d  tried %d  validated %d  harvest %.2f  irrelevant %d dup/lang %d http %d timeout %d size %d no-extract %d",
		pr.Elapsed.Seconds(), pr.PagesPerSecond, pr.Frontier, c.Tried, c.Validated, c.HarvestRate(), c.Outcomes[crawler.OutcomeIrrelevant],
		c.Outcomes[crawler.OutcomeDuplicate]+c.Outcomes[crawler.OutcomeLanguage], c.Outcomes[crawler.OutcomeHTTPError],
		c.Outcomes[crawler.OutcomeTimeout], c.Outcomes[crawler.OutcomeSize], c.Outcomes[crawler.OutcomeNoExtract])
}
