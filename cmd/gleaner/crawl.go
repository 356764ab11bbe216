package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gleaner/gleaner/crawler"
	"github.com/gleaner/gleaner/eval"
	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/store"
)

func init() {
	register(&command{
		name:  "crawl",
		short: "focused crawl: render, learn templates, extract and judge relevance as it goes (resumable; pause|resume|status|harvest)",
		run:   runCrawl,
	})
}

const crawlUsage = `Usage:
  gleaner crawl [--db PATH] [--config crawl.yaml] [flags] [SEED_URL...]
  gleaner crawl pause|resume --name N [--db PATH]
  gleaner crawl status [--name N] [--db PATH]
  gleaner crawl harvest [--pages 200] [--seed 1]

Crawls from seed URLs towards the topic given by seed terms (and an optional
Boolean formula): each page is rendered, stored, assigned to its site's
templates, extracted, and judged relevant on its extracted text; the frontier
(SQLite or PostgreSQL, in --db) is ordered by OPIC, Shark-Search or
breadth-first. Killed at any moment, the same command continues the crawl
(--name identifies it). On PostgreSQL the crawl is shared: "gleaner worker"
processes, on this or other machines, may join it at any time.
Flags override the config file (YAML or JSON, see crawler/testdata/crawl.yaml).

With --fixtures the bundled fixture web is served on loopback, seeded, allowed
and its topic (energy) used; the summary then scores harvest rate and
extraction F1 against the fixtures' ground truth.

"harvest" crawls the fixture web with each strategy and prints the harvest
rate after --pages pages (plain HTTP, one worker: reproducible).

Flags:
`

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
		switch args[0] {
		case "pause", "resume", "status":
			return runCrawlControl(ctx, args[0], args[1:], stdout, stderr)
		case "harvest":
			return runCrawlHarvest(ctx, args[1:], stdout, stderr)
		}
	}
	fs := newFlagSet("crawl", stderr)
	fs.Usage = func() { fmt.Fprint(stderr, crawlUsage); fs.PrintDefaults() }
	db := addDBFlag(fs)
	configPath := fs.String("config", "", "crawl configuration `file` (.yaml, .yml or .json)")
	name := fs.String("name", "", "crawl `name` (default: from the config, else \"crawl\")")
	var terms, include, exclude, langs, allow listFlag
	fs.Var(&terms, "terms", "seed `terms` of the topic (comma-separated or repeated)")
	formula := fs.String("formula", "", "Boolean `formula` a relevant page must satisfy, e.g. \"(wind | solar) & ^football\"")
	strategy := fs.String("strategy", "", "frontier order: opic (default), shark or bfs")
	workers := fs.Int("workers", 0, "pages fetched at once (default 4)")
	delay := fs.Duration("delay", 0, "least time between two fetches of one host (default 1s; robots.txt Crawl-delay wins when longer)")
	timeout := fs.Duration("timeout", 0, "cap per page (default 30s)")
	userAgent := fs.String("user-agent", "", "User-Agent of the crawler")
	maxPages := fs.Int("max-pages", 0, "stop after this many pages requested")
	maxDocs := fs.Int("max-docs", 0, "stop after this many relevant documents")
	maxTokens := fs.Int64("max-tokens", 0, "stop once the relevant documents hold this many words")
	maxDepth := fs.Int("max-depth", 0, "do not follow links of pages this many irrelevant hops from a relevant page")
	maxDuration := fs.Duration("max-duration", 0, "stop after this long")
	exhaust := fs.Bool("exhaust-relevant", false, "stop when no queued URL comes from a relevant page")
	minBytes := fs.Int64("min-bytes", 0, "drop pages with less HTML")
	maxBytes := fs.Int64("max-bytes", 0, "drop pages with more HTML (default 8 MiB)")
	minTokens := fs.Int("min-tokens", 0, "drop pages whose extracted text has fewer words")
	fs.Var(&langs, "lang", "keep pages in these `languages` (ISO 639-1, comma-separated)")
	fs.Var(&include, "include", "follow only URLs matching this `regexp` (repeatable)")
	fs.Var(&exclude, "exclude", "never follow URLs matching this `regexp` (repeatable)")
	fs.Var(&allow, "allow-host", "allow this private/loopback `host[:port]` (repeatable)")
	learnAt := fs.Int("learn-at", 0, "learn a site's templates once it has this many pages (default 8; negative: never)")
	threshold := fs.Float64("threshold", 0, "fixed relevance threshold (default: calibrated on the first pages)")
	plain := fs.Bool("plain", false, "plain HTTP fetch, no browser (static sites)")
	record := fs.Bool("record", false, "keep each page's HTTP exchanges as served, for export --format warc,wacz")
	warcFlags := addWARCFollowFlags(fs)
	tabs := fs.Int("tabs", 2, "browser tabs (pages rendered at once)")
	chromium := fs.String("chromium", "", "Chromium `binary`")
	withFixtures := fs.Bool("fixtures", false, "serve the bundled fixture web and crawl it on its on-topic theme")
	fixturesAddr := fs.String("fixtures-addr", "127.0.0.1:8700", "address of the first fixture site (fixed, so a rerun resumes)")
	fixturesSeed := fs.Int64("fixtures-seed", 1, "seed of the fixture web")
	corpusOut := fs.String("corpus", "", "write the relevant documents as JSON Lines to `file` at the end")
	graphOut := fs.String("graph", "", "write the hyperlink graph to `dir`/links.csv and links.graphml at the end")
	quiet := fs.Bool("quiet", false, "no progress display")
	seedArgs, err := parseInterspersed(fs, args)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *timeout < 0 || *maxDuration < 0 || *delay < 0 {
		return fmt.Errorf("%w: --timeout, --max-duration and --delay must not be negative", errUsage)
	}
	var cfg crawler.Config
	if *configPath != "" {
		c, err := crawler.LoadConfig(*configPath)
		if err != nil {
			return err
		}
		cfg = c
	}
	var srv *fixtures.Server
	if *withFixtures {
		var err error
		srv, err = fixtures.Start(ctx, fixtures.Options{Seed: *fixturesSeed, Addr: *fixturesAddr, Slow: -1})
		if err != nil {
			return fmt.Errorf("--fixtures: %w", err)
		}
		defer srv.Close()
		for _, s := range srv.Sites {
			cfg.Seeds = append(cfg.Seeds, s.Base+"/")
			u, _ := url.Parse(s.Base)
			cfg.AllowHosts = append(cfg.AllowHosts, u.Host)
		}
		if len(cfg.Terms) == 0 {
			for _, l := range []fixtures.Lang{fixtures.English, fixtures.French, fixtures.German} {
				cfg.Terms = append(cfg.Terms, fixtures.TopicKeywords(fixtures.OnTopic, l)...)
			}
		}
		if cfg.Name == "" {
			cfg.Name = "fixtures"
		}
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["name"] {
		cfg.Name = *name
	}
	if cfg.Name == "" {
		cfg.Name = "crawl"
	}
	cfg.Seeds = append(cfg.Seeds, seedArgs...)
	cfg.Terms = append(cfg.Terms, terms...)
	cfg.Include = append(cfg.Include, include...)
	cfg.Exclude = append(cfg.Exclude, exclude...)
	cfg.Languages = append(cfg.Languages, langs...)
	cfg.AllowHosts = append(cfg.AllowHosts, allow...)
	for fl, apply := range map[string]func(){
		"formula": func() { cfg.Formula = *formula }, "strategy": func() { cfg.Strategy = *strategy },
		"workers": func() { cfg.Workers = *workers }, "delay": func() { cfg.Delay = *delay },
		"timeout": func() { cfg.Timeout = *timeout }, "user-agent": func() { cfg.UserAgent = *userAgent },
		"max-pages": func() { cfg.MaxPages = *maxPages }, "max-docs": func() { cfg.MaxDocs = *maxDocs },
		"max-tokens": func() { cfg.MaxTokens = *maxTokens }, "max-depth": func() { cfg.MaxDepth = *maxDepth },
		"max-duration": func() { cfg.MaxDuration = *maxDuration }, "exhaust-relevant": func() { cfg.ExhaustRelevant = *exhaust },
		"min-bytes": func() { cfg.MinBytes = *minBytes }, "max-bytes": func() { cfg.MaxBytes = *maxBytes },
		"min-tokens": func() { cfg.MinTokens = *minTokens }, "learn-at": func() { cfg.LearnAt = *learnAt },
		"threshold": func() { cfg.Threshold = *threshold }, "record": func() { cfg.Record = *record },
	} {
		if set[fl] {
			apply()
		}
	}
	if len(cfg.Seeds) == 0 {
		return fmt.Errorf("%w: no seed URL (arguments, config seeds, or --fixtures)", errUsage)
	}
	if err := warcFlags.check(cfg.Record); err != nil {
		return err
	}
	if *delay < 0 || *workers < 0 || *tabs < 1 {
		return fmt.Errorf("%w: --delay and --workers must not be negative, --tabs at least 1", errUsage)
	}

	if !*plain {
		r, err := cfg.Renderer(*chromium, *tabs, func(format string, a ...any) { fmt.Fprintf(stderr, format+"\n", a...) })
		if err != nil {
			return err
		}
		defer r.Close()
		cfg.Fetcher = r
		if cfg.Workers == 0 {
			cfg.Workers = *tabs
		}
	}
	st, err := store.Open(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()

	prog := newProgress(stdout, *quiet)
	cfg.Progress = prog.update
	cfg.Logf = prog.logf
	c, err := crawler.New(st, cfg)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	fmt.Fprintf(stdout, "crawl %s: %d seeds, strategy %s, db %s\n", cfg.Name, len(cfg.Seeds), orString(cfg.Strategy, "opic"), *db)
	stopWARC := warcFlags.start(ctx, st, crawler.Dataset(cfg.Name), stderr)
	defer stopWARC()
	sum, runErr := c.Run(ctx)
	prog.done()
	if err := stopWARC(); err != nil && runErr == nil {
		return err
	}
	printCrawlSummary(stdout, sum)
	if err := crawlOutcome(cfg.Name, sum, runErr); err != nil {
		return err
	}
	if sum.Stop == crawler.StopPaused {
		fmt.Fprintf(stdout, "crawl %s paused: run the same command again to continue it\n", cfg.Name)
		return nil
	}
	if *corpusOut != "" {
		if err := writeCorpus(ctx, st, cfg.Name, *corpusOut, stdout); err != nil {
			return err
		}
	}
	if *graphOut != "" {
		if err := writeCrawlGraph(ctx, st, cfg.Name, *graphOut, stdout); err != nil {
			return err
		}
	}
	if srv != nil {
		if err := scoreOnFixtures(ctx, st, cfg.Name, srv.Web, stdout); err != nil {
			return err
		}
	}
	return st.Close()
}

// errInterrupted is wrapped by the error of a crawl stopped by a signal.
var errInterrupted = errors.New("interrupted: run the same command again to continue it")

// crawlOutcome is the error a finished run exits with: its own, an
// interruption, or a crawl whose every URL was refused by the guard.
func crawlOutcome(name string, sum crawler.Summary, runErr error) error {
	switch {
	case runErr != nil:
		return runErr
	case sum.Stop == crawler.StopCancelled:
		return fmt.Errorf("crawl %s: %w", name, errInterrupted)
	case sum.Counters.Tried == 0 && sum.Counters.Outcomes[crawler.OutcomeForbidden] > 0:
		return fmt.Errorf("crawl %s: nothing fetched: %d URLs refused by the guard (a private, loopback or link-local target needs --allow-host)",
			name, sum.Counters.Outcomes[crawler.OutcomeForbidden])
	}
	return nil
}

// writeCorpus writes the crawl's relevant documents to path, through a
// temporary file renamed at the end: an interrupted write leaves no
// truncated corpus under the name.
func writeCorpus(ctx context.Context, st *store.DB, name, path string, stdout io.Writer) error {
	n := 0
	err := writeAtomic(path, func(w io.Writer) error {
		var err error
		n, err = crawler.WriteCorpus(ctx, st, name, w)
		return err
	})
	if err != nil {
		return fmt.Errorf("--corpus: %w", err)
	}
	fmt.Fprintf(stdout, "corpus: %d documents in %s\n", n, path)
	return nil
}

func orString(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func writeCrawlGraph(ctx context.Context, st *store.DB, name, dir string, stdout io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--graph: %w", err)
	}
	n := 0
	err := writeAtomic(filepath.Join(dir, "links.csv"), func(fc io.Writer) error {
		return writeAtomic(filepath.Join(dir, "links.graphml"), func(fg io.Writer) error {
			var err error
			n, err = crawler.WriteGraph(ctx, st, name, fc, fg)
			return err
		})
	})
	if err != nil {
		return fmt.Errorf("--graph: %w", err)
	}
	fmt.Fprintf(stdout, "graph: %d edges in %s/links.csv and links.graphml\n", n, dir)
	return nil
}

func printCrawlSummary(w io.Writer, s crawler.Summary) {
	fmt.Fprintf(w, "crawl %s stopped: %s after %v, %d URLs processed by this run\n", s.Name, orString(s.Stop, "error"), s.Elapsed.Round(time.Millisecond), s.Pages)
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

// scoreOnFixtures prints the ground-truth harvest rate of the crawl and the
// extraction scores of its validated article pages against their gold.
func scoreOnFixtures(ctx context.Context, st *store.DB, name string, web *fixtures.Web, w io.Writer) error {
	fetched, err := crawler.Fetched(ctx, st, name)
	if err != nil {
		return err
	}
	rel := 0
	for _, f := range fetched {
		if web.Relevant(f.URL) {
			rel++
		}
	}
	docs, err := crawler.Corpus(ctx, st, name)
	if err != nil {
		return err
	}
	var scores []eval.PageScore
	methods := map[string]int{}
	onTopic := 0
	for _, d := range docs {
		info, err := web.Classify(d.URL)
		if err != nil || info.Article == nil {
			continue
		}
		if info.Relevant {
			onTopic++
		}
		pred := d.Text
		if d.Title != "" {
			pred = d.Title + "\n\n" + d.Text
		}
		scores = append(scores, eval.ScorePage(d.URL, d.Site, info.Article.Gold(), pred))
		methods[d.Method]++
	}
	if len(fetched) > 0 {
		p, r := judgement(fetched, web)
		fmt.Fprintf(w, "fixtures ground truth: %d of %d fetched pages on topic (harvest rate %.3f); %d of %d kept documents on topic; relevance judgement precision %.3f recall %.3f\n",
			rel, len(fetched), float64(rel)/float64(len(fetched)), onTopic, len(docs), p, r)
	}
	if len(scores) > 0 {
		s := eval.Summarize(scores)
		fmt.Fprintf(w, "extraction vs gold on %d kept article pages: shingle P %.3f R %.3f F1 %.3f, mean cos %.3f, exact %d (methods %v)\n",
			s.Pages, s.Precision, s.Recall, s.F1, s.MeanCos, s.Exact, methods)
	}
	return nil
}

// judgement scores the crawler's relevance decisions on the pages it judged
// (validated or irrelevant) against the fixtures' ground truth.
func judgement(fetched []crawler.FetchedURL, web *fixtures.Web) (precision, recall float64) {
	var tp, fp, fn int
	for _, f := range fetched {
		if f.Outcome != crawler.OutcomeValidated && f.Outcome != crawler.OutcomeIrrelevant {
			continue
		}
		truth := web.Relevant(f.URL)
		switch {
		case f.Relevant && truth:
			tp++
		case f.Relevant:
			fp++
		case truth:
			fn++
		}
	}
	if tp+fp > 0 {
		precision = float64(tp) / float64(tp+fp)
	}
	if tp+fn > 0 {
		recall = float64(tp) / float64(tp+fn)
	}
	return precision, recall
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
	if _, err := os.Stat(*db); err != nil && !store.IsPostgresURL(*db) {
		return fmt.Errorf("crawl %s: database %s: %w", sub, *db, err)
	}
	open := store.Open
	if sub == "status" {
		open = store.OpenReadOnly // works on a database it may not write
	}
	st, err := open(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	if *name == "" {
		names, err := crawler.Crawls(ctx, st)
		if err != nil {
			return err
		}
		if len(names) == 0 {
			fmt.Fprintf(stdout, "no crawl in %s\n", *db)
		}
		for _, n := range names {
			cnt, err := crawler.CrawlCounters(ctx, st, n)
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "crawl %s: %s; harvest rate %.3f\n", n, cnt, cnt.HarvestRate())
		}
		return st.Close()
	}
	if err := crawlExists(ctx, st, *name); err != nil {
		return fmt.Errorf("crawl %s: %w", sub, err)
	}
	switch sub {
	case "pause":
		err = crawler.Pause(ctx, st, *name)
	case "resume":
		err = crawler.Resume(ctx, st, *name)
	}
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("crawl %s: no crawl named %q in %s", sub, *name, *db)
	}
	if err != nil {
		return err
	}
	cnt, err := crawler.CrawlCounters(ctx, st, *name)
	if err != nil {
		return err
	}
	switch sub {
	case "pause":
		fmt.Fprintf(stdout, "crawl %s paused (a running crawler stops after the pages in flight; \"gleaner crawl resume --name %s\" then rerun to continue)\n", *name, *name)
	case "resume":
		fmt.Fprintf(stdout, "crawl %s resumed: rerun the crawl command to continue it\n", *name)
	}
	fmt.Fprintf(stdout, "crawl %s: %s; harvest rate %.3f\n", *name, cnt, cnt.HarvestRate())
	return st.Close()
}

// crawlExists fails when db holds no crawl named name.
func crawlExists(ctx context.Context, st *store.DB, name string) error {
	names, err := crawler.Crawls(ctx, st)
	if err != nil {
		return err
	}
	for _, n := range names {
		if n == name {
			return nil
		}
	}
	return fmt.Errorf("no crawl named %q: %w", name, store.ErrNotFound)
}

// runCrawlHarvest prints the harvest-rate table of the three strategies on
// the fixture web.
func runCrawlHarvest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
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
	var bfs float64
	for _, s := range []string{"bfs", "opic", "shark"} {
		st, err := store.Open(ctx, filepath.Join(dir, s+".db"))
		if err != nil {
			return err
		}
		cfg := crawler.Config{Name: "harvest-" + s, Strategy: s, Workers: 1, Delay: -1, MaxPages: *pages, LearnAt: -1, Timeout: 5 * time.Second}
		for _, site := range srv.Sites {
			cfg.Seeds = append(cfg.Seeds, site.Base+"/")
			u, _ := url.Parse(site.Base)
			cfg.AllowHosts = append(cfg.AllowHosts, u.Host)
		}
		for _, l := range []fixtures.Lang{fixtures.English, fixtures.French, fixtures.German} {
			cfg.Terms = append(cfg.Terms, fixtures.TopicKeywords(fixtures.OnTopic, l)...)
		}
		c, err := crawler.New(st, cfg)
		if err != nil {
			st.Close()
			return err
		}
		sum, err := c.Run(ctx)
		if err != nil {
			st.Close()
			return err
		}
		fetched, err := crawler.Fetched(ctx, st, cfg.Name)
		st.Close()
		if err != nil {
			return err
		}
		if len(fetched) > *pages {
			fetched = fetched[:*pages]
		}
		rel := 0
		for _, f := range fetched {
			if srv.Relevant(f.URL) {
				rel++
			}
		}
		p, r := judgement(fetched, srv.Web)
		h := 0.0
		if len(fetched) > 0 {
			h = float64(rel) / float64(len(fetched))
		}
		if s == "bfs" {
			bfs = h
		}
		ratio := "-"
		if bfs > 0 {
			ratio = fmt.Sprintf("%.2fx", h/bfs)
		}
		fmt.Fprintf(stdout, "%-8s %6d %8.3f %8s %7.3f   precision %.3f recall %.3f\n", s, len(fetched), h, ratio, sum.Counters.HarvestRate(), p, r)
	}
	return nil
}

// progress shows the crawl's progress: a status line rewritten in place on
// a terminal, a log line every few seconds otherwise.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	tty      bool
	quiet    bool
	last     time.Time
	shown    bool
	interval time.Duration
}

func newProgress(w io.Writer, quiet bool) *progress {
	p := &progress{w: w, quiet: quiet, interval: 5 * time.Second}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.tty, p.interval = true, 200*time.Millisecond
		}
	}
	return p
}

func (p *progress) update(pr crawler.Progress) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Since(p.last) < p.interval {
		return
	}
	p.last = time.Now()
	c := pr.Counters
	line := fmt.Sprintf("%6.1fs %5.1f pages/s  frontier %d  tried %d  validated %d  harvest %.2f  irrelevant %d dup/lang %d http %d timeout %d size %d no-extract %d",
		pr.Elapsed.Seconds(), pr.PagesPerSecond, pr.Frontier, c.Tried, c.Validated, c.HarvestRate(), c.Outcomes[crawler.OutcomeIrrelevant],
		c.Outcomes[crawler.OutcomeDuplicate]+c.Outcomes[crawler.OutcomeLanguage], c.Outcomes[crawler.OutcomeHTTPError],
		c.Outcomes[crawler.OutcomeTimeout], c.Outcomes[crawler.OutcomeSize], c.Outcomes[crawler.OutcomeNoExtract])
	if p.tty {
		fmt.Fprintf(p.w, "\r\033[K%s", line)
		p.shown = true
	} else {
		fmt.Fprintln(p.w, line)
	}
}

func (p *progress) logf(format string, a ...any) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
	fmt.Fprintf(p.w, format+"\n", a...)
}

func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.shown {
		fmt.Fprintln(p.w)
		p.shown = false
	}
}
