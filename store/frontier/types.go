package frontier

import (
	"fmt"
	"strings"
	"time"

	"github.com/gleaner/gleaner/relevance"
)

// State is where a URL is in the frontier; stored as its text.
type State string

// URL states in the frontier.
const (
	Queued State = "queued" // waiting to be fetched
	Leased State = "leased" // taken by a running crawler (its lease owner) until its lease expires
	Done   State = "done"   // finished, with an Outcome
)

// String is the state as stored.
func (s State) String() string { return string(s) }

// Outcome is how a finished URL ended: the Babouk counters (see Counters).
// Stored as its text.
type Outcome string

// Outcomes of a finished URL.
const (
	Validated   Outcome = "validated"   // relevant page, kept in the corpus
	Irrelevant  Outcome = "irrelevant"  // below the relevance threshold
	Duplicate   Outcome = "duplicate"   // near-duplicate text, or a redirect to a page already fetched
	Language    Outcome = "language"    // language not asked for
	HTTPError   Outcome = "http-error"  // 4xx/5xx status or network error
	Timeout     Outcome = "timeout"     // fetch deadline exceeded
	Size        Outcome = "size"        // too small or too large (bytes or tokens)
	MIME        Outcome = "mime"        // not an accepted document type
	NoExtract   Outcome = "no-extract"  // no content could be extracted
	NoIndex     Outcome = "noindex"     // meta robots noindex
	Robots      Outcome = "robots"      // disallowed by robots.txt (not fetched)
	Forbidden   Outcome = "forbidden"   // refused target (SSRF guard, not fetched)
	Alias       Outcome = "alias"       // the final URL of a redirect fetched under another URL
	Interrupted Outcome = "interrupted" // stopped before the end (context cancelled); requeued on resume
)

// String is the outcome as stored and counted.
func (o Outcome) String() string { return string(o) }

// Fetched reports whether a URL with this outcome was requested (Babouk's
// "tried").
func (o Outcome) Fetched() bool {
	for _, f := range fetchedOutcomes {
		if o == f {
			return true
		}
	}
	return false
}

// Kept reports whether a URL with this outcome had its text judged (its
// fingerprint counts against near-duplicates).
func (o Outcome) Kept() bool { return o == Validated || o == Irrelevant }

// fetchedOutcomes are the outcomes of URLs that were actually requested.
var fetchedOutcomes = []Outcome{Validated, Irrelevant, Duplicate, Language, HTTPError, Timeout, Size, MIME, NoExtract, NoIndex}

// Counters are the outcome counts of a crawl, derived from its frontier.
type Counters struct {
	Queued, Leased int
	// Tried counts the URLs requested; the others split them (and Robots,
	// Forbidden, Alias count URLs not requested).
	Tried     int
	Outcomes  map[Outcome]int
	Validated int
	Tokens    int64
}

// Add counts one more finished URL of outcome o with tokens words.
func (c *Counters) Add(o Outcome, tokens int) {
	if c.Outcomes == nil {
		c.Outcomes = map[Outcome]int{}
	}
	c.Outcomes[o]++
	if o.Fetched() {
		c.Tried++
	}
	if o == Validated {
		c.Validated++
		c.Tokens += int64(tokens)
	}
}

// Clone returns a copy that shares nothing with c.
func (c Counters) Clone() Counters {
	out := c
	out.Outcomes = make(map[Outcome]int, len(c.Outcomes))
	for k, v := range c.Outcomes {
		out.Outcomes[k] = v
	}
	return out
}

// HarvestRate is validated / tried (0 when nothing was tried).
func (c Counters) HarvestRate() float64 {
	if c.Tried == 0 {
		return 0
	}
	return float64(c.Validated) / float64(c.Tried)
}

// String prints the counters as one line, Babouk's order.
func (c Counters) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "tried %d, validated %d, irrelevant %d, duplicate %d, language %d, http-error %d, timeout %d, size %d, mime %d, no-extract %d",
		c.Tried, c.Validated, c.Outcomes[Irrelevant], c.Outcomes[Duplicate], c.Outcomes[Language],
		c.Outcomes[HTTPError], c.Outcomes[Timeout], c.Outcomes[Size], c.Outcomes[MIME], c.Outcomes[NoExtract])
	for _, o := range []Outcome{NoIndex, Robots, Forbidden, Alias} {
		if n := c.Outcomes[o]; n > 0 {
			fmt.Fprintf(&b, ", %s %d", o, n)
		}
	}
	fmt.Fprintf(&b, "; queued %d", c.Queued)
	return b.String()
}

// Priority is what the frontier keeps per URL to order it.
type Priority struct {
	// Score orders the frontier: highest first.
	Score float64
	// Inherited is Shark-Search's inherited score, passed down to children.
	Inherited float64
}

// Merge combines the priority a queued URL has with one from another
// parent (a crawl strategy's rule).
type Merge func(old, add Priority) Priority

// Entry is one frontier row.
type Entry struct {
	URL          string
	Host         string
	State        State
	Outcome      Outcome
	Priority     Priority
	Depth, Hops  int
	Parent       string
	Anchor       string
	FromRelevant bool
	Seq          int64
	LeaseOwner   string
	PageID       int64
	Attempts     int // fetches that failed transiently and were retried
}

// Link is a URL found on a page (or a seed), to enqueue.
type Link struct {
	URL          string
	Host         string
	Priority     Priority
	Depth, Hops  int
	Parent       string
	Anchor       string
	FromRelevant bool
}

// EdgeKind is what an edge between two URLs is; stored as its text.
type EdgeKind string

// Kinds of edges.
const (
	LinkEdge     EdgeKind = "link"     // a hyperlink
	RedirectEdge EdgeKind = "redirect" // a redirect hop
)

// String is the kind as stored.
func (k EdgeKind) String() string { return string(k) }

// Edge is a hyperlink or redirect between two URLs.
type Edge struct {
	Source, Target string
	Kind           EdgeKind
	Anchor         string
}

// Record is what processing a URL decided, committed at once (Commit).
type Record struct {
	URL      string
	Outcome  Outcome
	Detail   string
	PageID   int64
	FetchSeq int64
	Score    float64
	Relevant bool
	Tokens   int
	SimHash  relevance.SimHash
	Depth    int // the page's own depth (0 when relevant)
	Aliases  []string
	Links    []Link
	Edges    []Edge
	// Merge combines priorities of a URL found again (the strategy's).
	Merge Merge
	// HostPageCap bounds the URLs queued per host (0: no cap).
	HostPageCap int
}

// CrawlRow is the stored state of a crawl.
type CrawlRow struct {
	Config     string
	Lexicon    map[string]float64
	Threshold  float64
	Calibrated bool
	Paused     bool
	Owner      string
	OwnerUntil time.Time
}

// FetchedURL is one URL of a crawl that was requested, in fetch order.
type FetchedURL struct {
	URL      string
	Outcome  Outcome
	Relevant bool // the crawler's judgement
	Score    float64
	PageID   int64
	Depth    int
}

// Counter names a sequence of a crawl's row.
type Counter string

// The crawl's sequences.
const (
	// NextSeq numbers URLs in the order they were discovered.
	NextSeq Counter = "next_seq"
	// NextFetchSeq numbers pages in the order they were fetched.
	NextFetchSeq Counter = "next_fetch_seq"
)

// LeaseResult says what Next found.
type LeaseResult int

// What Next found.
const (
	Got      LeaseResult = iota // a queued URL, now leased
	Takeover                    // an expired lease of another worker, taken over
	Wait                        // nothing ready now (hosts busy or waiting): ask again
	Budget                      // MaxPages requested or leased already
	Empty                       // nothing queued or leased anywhere: the crawl is over
)

// LeaseRequest is what a worker asks Next for.
type LeaseRequest struct {
	TTL          time.Duration
	MaxPages     int      // 0: no limit
	OnlyRelevant bool     // only URLs found on relevant pages
	Skip         []string // hosts this worker is fetching from or has suspended
	// Ready, when set, tells whether a host may be fetched now (a
	// process's own politeness); the shared frontier reads the hosts'
	// slots in the database instead.
	Ready func(host string) bool
}
