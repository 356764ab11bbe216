package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// ErrNotFound is returned (wrapped) when a requested entity does not exist.
var ErrNotFound = errors.New("not found")

// Store persists Gleaner's pages and learning results. Every method is safe
// for concurrent use; writes of one call are atomic (one transaction).
type Store interface {
	// PutSite creates the site or leaves an existing one unchanged.
	PutSite(ctx context.Context, name string) error
	// Sites lists the sites by name, with their page counts.
	Sites(ctx context.Context) ([]Site, error)

	// PutPages inserts or updates pages in one transaction: a page is the
	// same page as a stored one when its Key (dataset and manifest id, or
	// dataset and URL) matches. It fills each page's ID and Hash, creates the
	// sites, and replaces the gold annotation when Gold is set.
	PutPages(ctx context.Context, pages []*Page) error
	// Page returns one page with its content (HTML, capture, gold).
	Page(ctx context.Context, id int64) (*Page, error)
	// PageByKey returns the page of dataset with the given manifest id, or
	// with the given URL when it has no manifest id.
	PageByKey(ctx context.Context, dataset, key string) (*Page, error)
	// Pages lists pages matching q in ID order.
	Pages(ctx context.Context, q PageQuery) ([]*Page, error)

	// CreateRun records the start of a learning run and fills its ID and
	// StartedAt.
	CreateRun(ctx context.Context, r *Run) error
	// FinishRun stores the run's outcome (K, Silhouette, Status, Message,
	// FinishedAt: now when zero) with its clusters and memberships, in one
	// transaction. The run's RunID fields are set from r.ID.
	FinishRun(ctx context.Context, r *Run, clusters []Cluster, members []Membership) error
	// PutMemberships inserts or replaces memberships of finished runs, keyed
	// by (RunID, PageID): a new page assigned to an existing template joins
	// the run without re-clustering.
	PutMemberships(ctx context.Context, members []Membership) error
	// Run returns one run.
	Run(ctx context.Context, id int64) (*Run, error)
	// LatestRun returns the most recent run of site with the given status
	// ("" for any status).
	LatestRun(ctx context.Context, site, status string) (*Run, error)
	// Runs lists the runs of site ("" for all sites), newest first.
	Runs(ctx context.Context, site string) ([]*Run, error)
	// Clusters lists the clusters of a run by cluster ID.
	Clusters(ctx context.Context, runID int64) ([]Cluster, error)
	// Memberships lists the page memberships of a run by page ID.
	Memberships(ctx context.Context, runID int64) ([]Membership, error)

	// Distances looks up cached distances for the given pairs in view; pairs
	// absent from the cache are absent from the result. Pairs need not be
	// canonical; the result is keyed by the canonical pair.
	Distances(ctx context.Context, view string, pairs []Pair) (map[Pair]Distance, error)
	// PutDistances inserts or replaces cached distances in one transaction,
	// canonicalising each pair.
	PutDistances(ctx context.Context, ds []Distance) error

	// PutExtractions inserts or replaces extractions, keyed by (PageID,
	// RunID), in one transaction.
	PutExtractions(ctx context.Context, xs []Extraction) error
	// Extractions lists extractions matching q by page ID then run ID.
	Extractions(ctx context.Context, q ExtractionQuery) ([]Extraction, error)
	// PutRules replaces the rules of each run present in rules (all rules of
	// one run are written together) in one transaction.
	PutRules(ctx context.Context, rules []Rule) error
	// Rules lists the rules learned in a run, by cluster then field.
	Rules(ctx context.Context, runID int64) ([]Rule, error)

	// Exchanges lists the HTTP exchanges stored with a page (see
	// Page.Exchanges) in the order they were sent.
	Exchanges(ctx context.Context, pageID int64) ([]Exchange, error)

	// Close releases the store.
	Close() error
}

// Site is a group of pages sharing templates: by default the registrable
// domain of their URLs (see SiteOf).
type Site struct {
	Name      string
	CreatedAt time.Time
	Pages     int // number of stored pages
}

// Page is one fetched, rendered or imported page.
type Page struct {
	ID   int64
	Site string
	URL  string
	// Dataset names the collection the page was imported from (e.g. the
	// manifest's folder name); "" for crawled pages.
	Dataset string
	// ManifestID is the page's id in its dataset's manifest, "" otherwise.
	ManifestID string
	// Label is an annotation of the page, such as the era of a Big9 page;
	// evaluation compares clusters with it.
	Label string

	FetchedAt   time.Time // zero when unknown (imported files)
	Status      int       // HTTP status; 0 when not fetched over HTTP
	Error       string    // why fetching or rendering failed, "" if it did not
	ContentType string    // HTTP Content-Type, "" when unknown

	RawHTML      []byte // bytes as received or read from disk
	RenderedHTML []byte // DOM serialised after rendering; nil when not rendered
	// Hash is the hex SHA-256 of the HTML used (see Page.HTML); PutPages
	// computes it.
	Hash    string
	Capture *Capture // rendering metadata; nil when not rendered
	Gold    *Gold    // annotation; nil when the page has none
	// Exchanges, when not nil, replace the HTTP exchanges stored with the
	// page (PutPages); reading a page does not fill them (see
	// Store.Exchanges).
	Exchanges []Exchange
	// Version numbers the later captures of a URL in a dataset: 0 for
	// its first (every page but a monitor's recheck), n for the capture
	// after n others. Each capture is a page of its own, with its own ID,
	// HTML and exchanges, so an earlier capture stays as it was fetched
	// and a later one is new to what follows the store (export.Follow).
	Version int

	CreatedAt time.Time // first stored
	UpdatedAt time.Time // last stored
}

// HTML returns the page's HTML used for learning and extraction: the rendered
// DOM when there is one, else the raw bytes.
func (p *Page) HTML() []byte {
	if len(p.RenderedHTML) > 0 {
		return p.RenderedHTML
	}
	return p.RawHTML
}

// Key returns the identity of the page within its dataset: the manifest id
// when set, else the URL; a later capture (Version n > 0) adds
// " (capture n+1)", which no URL holds (a URL has no raw space).
func (p *Page) Key() string {
	k := p.URL
	if p.ManifestID != "" {
		k = p.ManifestID
	}
	if p.Version > 0 {
		k += fmt.Sprintf(" (capture %d)", p.Version+1)
	}
	return k
}

// Name returns how the page is shown to users: the manifest id for imported
// pages, else the URL.
func (p *Page) Name() string { return p.Key() }

// ContentHash returns the hex SHA-256 of b, the form of Page.Hash.
func ContentHash(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// Capture is what fetching and rendering recorded about a page besides its
// DOM. It is stored as compressed JSON.
type Capture struct {
	FinalURL  string     `json:"final_url,omitempty"`
	Redirects []Redirect `json:"redirects,omitempty"`
	Title     string     `json:"title,omitempty"`
	Links     []Link     `json:"links,omitempty"`
	// Frames are the documents of same-origin iframes.
	Frames []Frame `json:"frames,omitempty"`
	// Rendered is true when a browser ran the page's scripts.
	Rendered bool `json:"rendered,omitempty"`
	// Partial is true when the page never finished loading and the DOM was
	// taken at the deadline; PartialReason says why.
	Partial       bool   `json:"partial,omitempty"`
	PartialReason string `json:"partial_reason,omitempty"`
	// Notes lists what the renderer did (consent dismissed, scroll steps…).
	Notes    []string      `json:"notes,omitempty"`
	Elapsed  time.Duration `json:"elapsed_ns,omitempty"`
	Attempts int           `json:"attempts,omitempty"`
	Requests int           `json:"requests,omitempty"`
	Blocked  int           `json:"blocked,omitempty"`
	// Layout is the renderer's layout summary (boxes, visibility), kept as
	// the renderer encoded it (browser.Layout).
	Layout json.RawMessage `json:"layout,omitempty"`
	// Failure is the kind of a failed fetch (browser.Failure), decided when
	// it failed; "" when the page was fetched.
	Failure string `json:"failure,omitempty"`
}

// Redirect is one hop of a redirect chain.
type Redirect struct {
	URL    string `json:"url"`
	Status int    `json:"status,omitempty"`
}

// Link is an outgoing link of a page.
type Link struct {
	URL    string `json:"url"`
	Text   string `json:"text,omitempty"`
	Source string `json:"source,omitempty"` // "a", "area", "pushState"…
}

// Frame is the document of an iframe of a page.
type Frame struct {
	URL  string `json:"url"`
	Path string `json:"path,omitempty"` // of the <iframe> element
	HTML string `json:"html,omitempty"`
}

// Gold is the human annotation of a page's useful content.
type Gold struct {
	Title string
	Body  string
	// Text is the annotation as a whole, as scored (for Big9: the headline
	// line, then the body).
	Text string
}

// PageQuery selects pages. Zero fields do not filter.
type PageQuery struct {
	Site    string
	Dataset string
	Label   string
	Hash    string  // pages with this content hash
	IDs     []int64 // only these pages
	AfterID int64   // pages with a larger ID (paging)
	Limit   int     // at most this many; 0 for all
	// WithContent loads HTML, capture and gold; without it pages carry only
	// their metadata and hash, which is cheap. Rendered pages can weigh
	// megabytes: to hold few at a time, list metadata first and load content
	// by IDs or with AfterID and Limit.
	WithContent bool
}

// Run statuses. A run may also store any other status word its learner
// documents.
const (
	RunRunning = "running"
	RunDone    = "done"
	RunFailed  = "failed"
)

// Run is one template-learning run over a site's pages.
type Run struct {
	ID         int64
	Site       string
	Seed       int64
	Params     json.RawMessage // the learner's parameters, as it encodes them
	StartedAt  time.Time
	FinishedAt time.Time
	K          int             // chosen number of clusters
	Silhouette map[int]float64 // mean silhouette per k tried
	Pages      int             // pages considered
	Status     string
	Message    string
}

// Cluster is one template found by a run.
type Cluster struct {
	RunID  int64
	ID     int   // cluster number within the run
	Medoid int64 // page ID of the representative page
	Size   int
}

// Membership places one page of a run in a cluster and in the 2-D embedding.
type Membership struct {
	RunID    int64
	PageID   int64
	Cluster  int     // cluster ID; the nearest cluster for outliers
	X, Y     float64 // MDS coordinates
	Distance float64 // distance to the cluster's medoid
	Outlier  bool
	Reason   string // why the page is an outlier
}

// Pair identifies two page contents by hash. A canonical pair has A <= B.
type Pair struct{ A, B string }

// MakePair returns the canonical pair of hashes a and b.
func MakePair(a, b string) Pair {
	if b < a {
		a, b = b, a
	}
	return Pair{a, b}
}

// Distance is a cached distance between two page contents in one view (e.g.
// the tag tree), with the node counts of both trees.
type Distance struct {
	Pair
	View     string
	Distance float64
	NodesA   int // nodes of A's tree
	NodesB   int // nodes of B's tree
}

// canonical returns d with A <= B, swapping node counts along.
func (d Distance) canonical() Distance {
	if d.B < d.A {
		d.A, d.B = d.B, d.A
		d.NodesA, d.NodesB = d.NodesB, d.NodesA
	}
	return d
}

// Extraction is the useful content found in a page.
type Extraction struct {
	PageID     int64
	RunID      int64 // learning run whose templates were used; 0 for none
	Title      string
	Body       string
	Selector   string // CSS selector of the chosen element
	Confidence float64
	Method     string // which method decided (pair diff, cluster rule, single page…)
	Date       string // publication date as stated by the page
	Author     string
	PageType   string    // the page's kind (article, forum, product…), "" when unknown
	CreatedAt  time.Time // set by PutExtractions when zero
}

// ExtractionQuery selects extractions. Zero fields do not filter.
type ExtractionQuery struct {
	Site   string
	PageID int64
	RunID  int64
}

// Rule is a cluster's learned extraction rule: the element signature most
// pages of the cluster chose.
type Rule struct {
	Site     string
	RunID    int64
	Cluster  int
	Field    string // what the selector extracts: "body", "title"…
	Selector string
	Support  float64 // share of the cluster's pages that chose it
}
