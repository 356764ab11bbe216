package monitor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/browser/wire"
	"github.com/gleaner/gleaner/capture"
	"github.com/gleaner/gleaner/chain/langid"
	"github.com/gleaner/gleaner/fetchpolicy"
	"github.com/gleaner/gleaner/relevance"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/store/monitoring"
)

// Config says what to watch and how.
type Config struct {
	// Name keys the monitor's state in the store (default "default").
	Name string
	// Sites are the home pages of the sites watched.
	Sites []string
	// Guard refuses what must not be fetched; loopback fixture hosts must be
	// listed in its Allowed.
	Guard fetchpolicy.TargetGuard
	// UserAgent is sent with every request (default "gleaner-monitor").
	UserAgent string
	// Delay is the minimum time between two requests to one host (a
	// robots.txt Crawl-delay, when longer, wins).
	Delay time.Duration
	// Fetcher, when set, fetches new article pages (e.g. a
	// browser.Renderer for Chromium); nil fetches them with a plain GET.
	// Sources and conditional re-fetches always use a plain GET.
	Fetcher browser.Fetcher
	// Updates re-fetches known articles that a source lists as modified
	// since they were fetched (conditional GET). A changed page is
	// fetched again with Fetcher (rendered and recorded as it records)
	// and stored as a capture of its own, a new version of the document.
	Updates bool
	// Record keeps the exchanges of the conditional re-fetches, as
	// Fetcher keeps a page's: a 304 answer is then stored as a capture
	// of its own (a WARC revisit of the capture it confirms). Set it
	// when Fetcher records.
	Record browser.RecordOptions
	// Workers is how many sites' pages are fetched at once (default 4;
	// one request at a time per host whatever it is).
	Workers int
	// MaxInterval bounds a source's interval in rounds (default 8).
	MaxInterval int
	// Timeout bounds one request (default 30s).
	Timeout time.Duration
	// Now is the clock (default time.Now): first-seen times and relative
	// dates ("7 hours ago") are resolved against it.
	Now func() time.Time
	// Focus, when set, keeps only the articles whose title and text score
	// at least Threshold on this lexicon (relevance.Lexicon, as in a focused
	// crawl); the others are recorded as off-focus, not stored.
	Focus *relevance.Lexicon
	// Threshold is the focus score an article needs (default
	// relevance.DefaultThreshold).
	Threshold float64
	// Languages restricts language identification (default en, fr, de, es,
	// it, nl, pt).
	Languages []string
	// LearnAt is how many stored pages a site needs before its templates
	// are learned (default 4; negative: never, every document keeps its
	// single-page text).
	LearnAt int
	// LearnTimeout bounds one site's learning in a round (default 1m);
	// LearnBudget all of a round's learning (default 5m): a site past it
	// is learned next round.
	LearnTimeout, LearnBudget time.Duration
	// Seed drives the random choices of template learning.
	Seed int64
}

func (c Config) withDefaults() Config {
	if c.Name == "" {
		c.Name = "default"
	}
	if c.UserAgent == "" {
		c.UserAgent = "gleaner-monitor"
	}
	if c.Workers <= 0 {
		c.Workers = 4
	}
	if c.MaxInterval <= 0 {
		c.MaxInterval = 8
	}
	if c.Timeout <= 0 {
		c.Timeout = 30 * time.Second
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Focus != nil && c.Threshold == 0 {
		c.Threshold = relevance.DefaultThreshold
	}
	if len(c.Languages) == 0 {
		c.Languages = []string{"en", "fr", "de", "es", "it", "nl", "pt"}
	}
	return c.withLearningDefaults()
}

// withLearningDefaults sets the template learning's defaults.
func (c Config) withLearningDefaults() Config {
	if c.LearnAt == 0 {
		c.LearnAt = 4
	}
	if c.LearnTimeout <= 0 {
		c.LearnTimeout = time.Minute
	}
	if c.LearnBudget <= 0 {
		c.LearnBudget = 5 * time.Minute
	}
	return c
}

// ErrConfig is wrapped by errors about a bad Config.
var ErrConfig = errors.New("bad monitor configuration")

// Monitor runs rounds over its sites' sources. It is not safe for
// concurrent use; several processes may share a store but not a monitor
// name.
type Monitor struct {
	mu       sync.Mutex // held while a fetched page is read and stored
	db       *store.DB
	repo     *monitoring.Repo // the monitor's own state
	cfg      Config
	client   *http.Client
	polite   *fetchpolicy.Politeness
	robots   *fetchpolicy.Robots
	langs    *langid.Identifier
	requests atomic.Int64
	shapes   map[string]map[string]bool // site → URL shapes of its articles
	hashes   []storedHash               // fingerprints of the stored documents
	roundNew map[string]bool            // URLs first listed in the current round
	zones    map[string]*time.Location  // site → zone of the dates its sources give
	deferred []fetched                  // copies waiting for their original, within a round
	seeds    map[string]bool            // the configured sites' URLs, as sources
	recorder *wire.Recorder             // of Config.Record, nil when off
	recBase  http.RoundTripper          // the guarded transport it records
}

// Report sums up one round.
type Report struct {
	Round       int  `json:"round"`
	Resumed     bool `json:"resumed,omitempty"`   // an interrupted round redone
	Sources     int  `json:"sources"`             // sources checked
	NotModified int  `json:"not_modified"`        // of which answered 304
	New         int  `json:"new"`                 // articles stored
	Updated     int  `json:"updated"`             // known articles re-fetched and changed
	Duplicates  int  `json:"duplicates"`          // URLs linked to a stored article
	Hubs        int  `json:"hubs"`                // candidate pages that were not articles
	OffFocus    int  `json:"off_focus,omitempty"` // articles under the focus threshold
	Errors      int  `json:"errors"`
	// Templated counts the round's new articles extracted against their
	// site's learned template (pair diff with its medoid, its rules);
	// Reextracted the articles of earlier rounds whose single-page text
	// a template replaced.
	Templated   int `json:"templated"`
	Reextracted int `json:"reextracted,omitempty"`
	// HubTemplate counts the round's documents found on a template of
	// the site's hubs: kind "hub", left out of New and of the default
	// selection.
	HubTemplate int `json:"hub_template,omitempty"`
	// Notes say why a site given as a seed yielded nothing on its first
	// check (an HTTP error, a listing of no URL, a page of no link).
	Notes []string `json:"notes,omitempty"`
	// Requests counts the HTTP requests sent (robots.txt included; with
	// Config.Fetcher, one per page rendered, its subresources not counted).
	Requests int `json:"requests"`
	// Documents are the articles first stored in this round.
	Documents []Document `json:"-"`
}

// Open prepares a monitor on db (creating its tables).
func Open(ctx context.Context, db *store.DB, cfg Config) (*Monitor, error) {
	cfg = cfg.withDefaults()
	for _, s := range cfg.Sites {
		u, err := url.Parse(s)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, fmt.Errorf("monitor: site %q: want an absolute http(s) URL: %w", s, ErrConfig)
		}
	}
	repo, err := monitoring.Open(ctx, db, cfg.Name)
	if err != nil {
		return nil, err
	}
	langs, err := langid.New(cfg.Languages)
	if err != nil {
		return nil, fmt.Errorf("monitor: %w: %w", err, ErrConfig)
	}
	m := &Monitor{db: db, repo: repo, cfg: cfg, polite: &fetchpolicy.Politeness{Delay: cfg.Delay}, langs: langs}
	m.client = &http.Client{Transport: &counter{next: cfg.Guard.Transport(), n: &m.requests}, Timeout: cfg.Timeout,
		CheckRedirect: m.checkRedirect}
	m.robots = &fetchpolicy.Robots{Client: m.client, UserAgent: cfg.UserAgent}
	if cfg.Record.On {
		m.recorder, m.recBase = wire.NewRecorder(cfg.Record), cfg.Guard.Transport()
	}
	return m, nil
}

// counter counts the requests that leave the monitor.
type counter struct {
	next http.RoundTripper
	n    *atomic.Int64
}

func (c *counter) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.next.RoundTrip(r)
}

// checkRedirect holds every redirect hop to the guard and robots.txt.
func (m *Monitor) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return fmt.Errorf("url %s: more than 10 redirects", via[0].URL)
	}
	if err := m.cfg.Guard.Check(req.Context(), req.URL); err != nil {
		return err
	}
	if ok, _, err := m.robots.Allowed(req.Context(), req.URL); err != nil || !ok {
		return fmt.Errorf("url %s: redirect to a URL robots.txt disallows: %w", req.URL, errDisallowed)
	}
	return nil
}

var errDisallowed = errors.New("disallowed by robots.txt")

// response is what a (conditional) GET brought back.
type response struct {
	status       int
	finalURL     string
	body         []byte
	etag         string
	lastModified string
	contentType  string
	// With Config.Fetcher: whether the page is a rendered DOM, and the
	// HTTP exchanges it recorded (browser.RecordOptions), stored with it.
	rendered  bool
	exchanges []store.Exchange
}

// maxDrainBytes bounds what is read of an answer not used (an error
// page, a 304).
const maxDrainBytes = 64 << 10

// maxPageBytes bounds an HTML page; sources have feeds.MaxBytes.
const maxPageBytes = 8 << 20

// get fetches u politely (one request per host at a time, Delay or
// Crawl-delay apart, robots.txt obeyed), conditionally when etag or
// lastModified is given; read reads the body (bounded).
func (m *Monitor) get(ctx context.Context, raw, etag, lastModified string, read func(string, *http.Response) ([]byte, error)) (*response, error) {
	return m.getWith(ctx, m.client, raw, etag, lastModified, read)
}

// getRecorded is get through a client recording its round trips when
// Config.Record is on: the response carries their exchanges.
func (m *Monitor) getRecorded(ctx context.Context, raw, etag, lastModified string, read func(string, *http.Response) ([]byte, error)) (*response, error) {
	if m.recorder == nil {
		return m.get(ctx, raw, etag, lastModified, read)
	}
	rt := m.recorder.Transport(m.recBase)
	client := *m.client
	client.Transport = &counter{next: rt, n: &m.requests}
	resp, err := m.getWith(ctx, &client, raw, etag, lastModified, read)
	if err != nil {
		return nil, err
	}
	xs, _ := rt.Exchanges()
	resp.exchanges = capture.Exchanges(xs)
	return resp, nil
}

// getWith is get with client.
func (m *Monitor) getWith(ctx context.Context, client *http.Client, raw, etag, lastModified string, read func(string, *http.Response) ([]byte, error)) (*response, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("url %q: %w", raw, err)
	}
	if err := m.cfg.Guard.Check(ctx, u); err != nil {
		return nil, err
	}
	release, err := m.admit(ctx, u)
	if err != nil {
		return nil, err
	}
	delay := time.Duration(0)
	defer func() { release(delay) }()
	_, delay, _ = m.robots.Allowed(ctx, u)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return nil, fmt.Errorf("url %s: %w", raw, err)
	}
	req.Header.Set("User-Agent", m.cfg.UserAgent)
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	if lastModified != "" {
		req.Header.Set("If-Modified-Since", lastModified)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := &response{status: resp.StatusCode, finalURL: resp.Request.URL.String(),
		etag: resp.Header.Get("ETag"), lastModified: resp.Header.Get("Last-Modified"),
		contentType: resp.Header.Get("Content-Type")}
	if resp.StatusCode == http.StatusOK {
		if out.body, err = read(raw, resp); err != nil {
			return nil, err
		}
	} else {
		// Read to its end (a 304 has none): a recorded answer is whole,
		// and the connection is reused.
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxDrainBytes))
	}
	return out, nil
}

// admit reserves u's host and reads its robots.txt within that slot, as
// package crawler does: a robots.txt fetch is a fetch of the host too.
func (m *Monitor) admit(ctx context.Context, u *url.URL) (func(time.Duration), error) {
	release, err := m.polite.Acquire(ctx, u.Host)
	if err != nil {
		return nil, err
	}
	cached := m.robots.Cached(u)
	allowed, delay, rerr := m.robots.Allowed(ctx, u)
	if !cached {
		release(delay)
		if release, err = m.polite.Acquire(ctx, u.Host); err != nil {
			return nil, err
		}
	}
	if rerr != nil {
		release(delay)
		return nil, rerr
	}
	if !allowed && u.Path != "/robots.txt" {
		release(delay)
		return nil, fmt.Errorf("url %s: %w", u, errDisallowed)
	}
	return release, nil
}

// site names a URL's site: its host (with port).
func site(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Host)
}

// canonical returns the form under which the monitor knows a URL.
func canonical(base *url.URL, ref string) (string, error) {
	u, err := fetchpolicy.Canonicalize(base, ref)
	if err != nil {
		return "", err
	}
	return u.String(), nil
}
