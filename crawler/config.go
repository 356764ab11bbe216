package crawler

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/fetchpolicy"
	"gopkg.in/yaml.v3"
)

// Config describes a crawl. It is stored with the crawl (JSON) and can be
// read from a YAML or JSON file (LoadConfig); zero fields take the defaults
// written beside them.
type Config struct {
	// Name identifies the crawl in the store: running the same name again
	// resumes it. Its pages are stored in dataset "crawl:<Name>".
	Name string `yaml:"name" json:"name"`

	// Seeds are the start URLs.
	Seeds []string `yaml:"seeds" json:"seeds,omitempty"`
	// Terms are the seed terms of the topic lexicon (each of weight 1;
	// phrases count word by word).
	Terms []string `yaml:"terms" json:"terms,omitempty"`
	// Formula, optional, is a Boolean condition a page's extracted text must
	// satisfy to be relevant, e.g. "(wind | solar) & ^football".
	Formula string `yaml:"formula" json:"formula,omitempty"`
	// Threshold fixes the relevance threshold on the lexicon score and turns
	// calibration off; 0 starts at relevance.DefaultThreshold and calibrates it after
	// the first CalibrateAfter pages (see Crawler).
	Threshold float64 `yaml:"threshold" json:"threshold,omitempty"`
	// CalibrateAfter is the number of scored pages of the first iteration,
	// from which the lexicon is expanded and the threshold calibrated
	// (default 30; negative: never).
	CalibrateAfter int `yaml:"calibrate_after" json:"calibrate_after,omitempty"`

	// Strategy orders the frontier: opic (default), shark or bfs.
	Strategy string `yaml:"strategy" json:"strategy,omitempty"`
	// Workers is how many pages are fetched at once (default 4).
	Workers int `yaml:"workers" json:"workers,omitempty"`
	// Delay is the least time between two fetches of one host (default
	// 1s); a robots.txt Crawl-delay longer than it wins.
	Delay time.Duration `yaml:"delay" json:"delay,omitempty"`
	// Timeout bounds one fetch (default 30s).
	Timeout time.Duration `yaml:"timeout" json:"timeout,omitempty"`
	// UserAgent identifies the crawler (default DefaultUserAgent).
	UserAgent string `yaml:"user_agent" json:"user_agent,omitempty"`

	// Stop criteria; zero means no limit.
	//
	// MaxPages stops after this many URLs were requested (Babouk's "tried").
	MaxPages int `yaml:"max_pages" json:"max_pages,omitempty"`
	// MaxDocs stops after this many validated (relevant) documents.
	MaxDocs int `yaml:"max_docs" json:"max_docs,omitempty"`
	// MaxTokens stops once the validated documents hold this many words.
	MaxTokens int64 `yaml:"max_tokens" json:"max_tokens,omitempty"`
	// MaxDepth does not follow the links of a page this many irrelevant hops
	// away from the last relevant page (Nguyen: a relevant page has depth
	// 0, its irrelevant child 1…).
	MaxDepth int `yaml:"max_depth" json:"max_depth,omitempty"`
	// MaxDuration stops a run after this long.
	MaxDuration time.Duration `yaml:"max_duration" json:"max_duration,omitempty"`
	// ExhaustRelevant stops when no queued URL was found on a relevant page
	// or is a seed (the relevant frontier is exhausted); the crawl always
	// stops when the whole frontier is.
	ExhaustRelevant bool `yaml:"exhaust_relevant" json:"exhaust_relevant,omitempty"`

	// Filters.
	//
	// MinBytes and MaxBytes bound a page's HTML (default 0 and 8 MiB);
	// larger responses are cut while reading and counted as too large.
	MinBytes int64 `yaml:"min_bytes" json:"min_bytes,omitempty"`
	MaxBytes int64 `yaml:"max_bytes" json:"max_bytes,omitempty"`
	// MinTokens is the least number of words of extracted text (default 0).
	MinTokens int `yaml:"min_tokens" json:"min_tokens,omitempty"`
	// MIMETypes are the accepted media types (default text/html,
	// application/xhtml+xml, text/plain).
	MIMETypes []string `yaml:"mime_types" json:"mime_types,omitempty"`
	// Languages, when set, keeps pages whose extracted text is in one of
	// these ISO 639-1 languages (chain/langid).
	Languages []string `yaml:"languages" json:"languages,omitempty"`
	// Include, when set, follows only URLs matching one of these regular
	// expressions; Exclude never follows URLs matching one.
	Include []string `yaml:"include" json:"include,omitempty"`
	Exclude []string `yaml:"exclude" json:"exclude,omitempty"`
	// NearDuplicateBits is the SimHash distance under which two extracted
	// texts are near-duplicates (default 3; negative: no filter).
	NearDuplicateBits int `yaml:"near_duplicate_bits" json:"near_duplicate_bits,omitempty"`
	// HostPageCap bounds the URLs queued per host (default 5000), a guard
	// against spider traps with the URL checks of Trap.
	HostPageCap int `yaml:"host_page_cap" json:"host_page_cap,omitempty"`
	// Trap rejects trap-like URLs (length, repeated path segments, depth).
	Trap fetchpolicy.TrapGuard `yaml:"trap" json:"trap,omitempty"`
	// AllowHosts are exceptions to the guard against private, loopback and
	// link-local targets (host or host:port), e.g. the fixture sites.
	AllowHosts []string `yaml:"allow_hosts" json:"allow_hosts,omitempty"`

	// Learning while crawling.
	//
	// LearnAt is how many stored pages a site needs before its templates are
	// learned (default 8); afterwards, each time the site's page count
	// doubles, the new pages are assigned to the templates (relearned on
	// drift). Negative: no template learning (single-page extraction).
	LearnAt int `yaml:"learn_at" json:"learn_at,omitempty"`
	// Seed drives the randomised steps of template learning.
	Seed int64 `yaml:"seed" json:"seed,omitempty"`
	// Retries is how many times a URL is fetched again after a transient
	// failure (a 5xx status, a refused or dropped connection; not a
	// timeout) before it counts as an HTTP error (default 2; negative: none).
	Retries int `yaml:"retries" json:"retries,omitempty"`
	// LeaseTTL is how long a URL stays leased by a crawler before another
	// may take it over (default 10m); a crawler that died on this machine
	// is detected at once.
	LeaseTTL time.Duration `yaml:"lease_ttl" json:"lease_ttl,omitempty"`
	// HostBackoff is how long a host that could not be reached (DNS, a
	// refused or dropped connection) is left alone before its URLs are
	// tried again; it doubles with each further failure in a row (default
	// 30s).
	HostBackoff time.Duration `yaml:"host_backoff" json:"host_backoff,omitempty"`
	// OutageHosts: when this many different hosts could not be reached in a
	// row, with no page fetched in between, the network is taken to be
	// down (default 3; negative: never): the crawl pauses, its URLs left
	// queued and their attempts untouched, and resumes by itself when a
	// suspended host answers again.
	OutageHosts int `yaml:"outage_hosts" json:"outage_hosts,omitempty"`
	// OutageWait is how long a general outage is waited out before the run
	// stops with ErrOutage (default 10m).
	OutageWait time.Duration `yaml:"outage_wait" json:"outage_wait,omitempty"`

	// Record keeps each page's HTTP exchanges as served with it, for
	// `gleaner export --format warc,wacz` (browser.RecordOptions, with its
	// default bounds; a configuration file records unless it says
	// "record: false", as the command line does); RecordMedia keeps
	// images, audio, video and fonts too (the renderer then downloads
	// them), RecordSecrets the values of cookies and authorizations. A
	// renderer given as Fetcher must be made with RecordOptions itself.
	Record        bool `yaml:"record" json:"record,omitempty"`
	RecordMedia   bool `yaml:"record_media" json:"record_media,omitempty"`
	RecordSecrets bool `yaml:"record_secrets" json:"record_secrets,omitempty"`

	// Fetcher fetches pages (default: a plain HTTP fetcher guarded against
	// forbidden targets). Give a browser.Renderer to render pages.
	Fetcher browser.Fetcher `yaml:"-" json:"-"`
	// Logf receives one line per notable event (default: none).
	Logf func(format string, args ...any) `yaml:"-" json:"-"`
	// Progress, when set, is called after each processed URL.
	Progress func(Progress) `yaml:"-" json:"-"`
}

// Defaults of Config.
const (
	DefaultUserAgent = "Gleaner/0.1 (+https://github.com/gleaner/gleaner; focused crawler)"
	DefaultWorkers   = 4
	DefaultDelay     = time.Second
)

var defaultMIME = []string{"text/html", "application/xhtml+xml", "text/plain"}

func (c Config) withDefaults() Config {
	c = c.withFetchDefaults()
	if c.Strategy == "" {
		c.Strategy = "opic"
	}
	if c.Workers <= 0 {
		c.Workers = DefaultWorkers
	}
	if c.NearDuplicateBits == 0 {
		c.NearDuplicateBits = 3
	}
	if c.HostPageCap <= 0 {
		c.HostPageCap = 5000
	}
	if c.CalibrateAfter == 0 {
		c.CalibrateAfter = 30
	}
	if c.LearnAt == 0 {
		c.LearnAt = 8
	}
	if c.LeaseTTL <= 0 {
		c.LeaseTTL = 10 * time.Minute
	}
	if c.Logf == nil {
		c.Logf = func(string, ...any) {}
	}
	return c
}

// withFetchDefaults sets the defaults of how pages are fetched: delay,
// timeout, user agent, size and type bounds, retries and outage handling.
func (c Config) withFetchDefaults() Config {
	if c.Delay == 0 {
		c.Delay = DefaultDelay
	}
	c.Delay = max(c.Delay, 0)
	if c.Timeout <= 0 {
		c.Timeout = 30 * time.Second
	}
	if c.UserAgent == "" {
		c.UserAgent = DefaultUserAgent
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = 8 << 20
	}
	if len(c.MIMETypes) == 0 {
		c.MIMETypes = slices.Clone(defaultMIME)
	}
	if c.Retries == 0 {
		c.Retries = 2
	}
	if c.HostBackoff <= 0 {
		c.HostBackoff = 30 * time.Second
	}
	if c.OutageHosts == 0 {
		c.OutageHosts = 3
	}
	if c.OutageWait <= 0 {
		c.OutageWait = 10 * time.Minute
	}
	return c
}

// validName accepts crawl names usable in a dataset name and on a command line.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// checkDurations rejects negative durations that the defaults would
// otherwise silently replace (Delay may be negative: no delay).
func (c Config) checkDurations() error {
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"timeout", c.Timeout}, {"max_duration", c.MaxDuration}, {"lease_ttl", c.LeaseTTL}, {"host_backoff", c.HostBackoff}, {"outage_wait", c.OutageWait}} {
		if d.v < 0 {
			return fmt.Errorf("crawl %s: %s %v must not be negative", c.Name, d.name, d.v)
		}
	}
	return nil
}

// check reports what is wrong with a configuration.
func (c Config) check() error {
	if !validName.MatchString(c.Name) {
		return fmt.Errorf("crawl name %q: want 1 to 64 letters, digits, '.', '_' or '-'", c.Name)
	}
	if len(c.Terms) == 0 && c.Formula == "" {
		return fmt.Errorf("crawl %s: no topic: give seed terms or a formula", c.Name)
	}
	if c.negativeLimit() {
		return fmt.Errorf("crawl %s: limits must not be negative", c.Name)
	}
	if c.Threshold < 0 {
		return fmt.Errorf("crawl %s: threshold %v must not be negative", c.Name, c.Threshold)
	}
	if c.MinBytes > 0 && c.MaxBytes > 0 && c.MinBytes > c.MaxBytes {
		return fmt.Errorf("crawl %s: min_bytes %d above max_bytes %d", c.Name, c.MinBytes, c.MaxBytes)
	}
	return nil
}

// negativeLimit reports whether a limit or filter is negative.
func (c Config) negativeLimit() bool {
	return min(int64(c.MaxPages), int64(c.MaxDocs), c.MaxTokens, int64(c.MaxDepth), int64(c.MaxDuration), c.MinBytes, int64(c.MinTokens)) < 0
}

// LoadConfig reads a crawl configuration from a YAML (.yaml, .yml) or JSON
// (.json) file. Unknown keys are errors, so that a misspelt limit is not
// silently ignored.
func LoadConfig(path string) (Config, error) {
	c := Config{Record: true}
	b, err := os.ReadFile(path)
	if err != nil {
		return c, fmt.Errorf("crawl config: %w", err)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".yaml", ".yml":
		dec := yaml.NewDecoder(bytes.NewReader(b))
		dec.KnownFields(true)
		if err := dec.Decode(&c); err != nil {
			return c, fmt.Errorf("crawl config %s: %w", path, err)
		}
	case ".json":
		// JSON is read as YAML, of which it is a subset: durations may be
		// written as in YAML ("30s", "1m30s"), and still in nanoseconds.
		b, err = durationsAsStrings(b)
		if err != nil {
			return c, fmt.Errorf("crawl config %s: %w", path, err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		dec.KnownFields(true)
		if err := dec.Decode(&c); err != nil {
			return c, fmt.Errorf("crawl config %s: %w", path, err)
		}
	default:
		return c, fmt.Errorf("crawl config %s: unknown format (want .yaml, .yml or .json)", path)
	}
	return c, nil
}

// durationKeys are the JSON keys of Config's durations.
var durationKeys = []string{"delay", "timeout", "max_duration", "lease_ttl", "host_backoff"}

// durationsAsStrings rewrites a JSON configuration's durations given in
// nanoseconds as duration strings ("2000000000" -> "2000000000ns").
func durationsAsStrings(b []byte) ([]byte, error) {
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	for _, k := range durationKeys {
		if n, ok := m[k].(json.Number); ok {
			m[k] = n.String() + "ns"
		}
	}
	return json.Marshal(m)
}

// compileAll compiles regular expressions, naming the bad one.
func compileAll(what string, exprs []string) ([]*regexp.Regexp, error) {
	var out []*regexp.Regexp
	for _, e := range exprs {
		re, err := regexp.Compile(e)
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w", what, e, err)
		}
		out = append(out, re)
	}
	return out, nil
}
