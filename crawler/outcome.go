package crawler

import "github.com/gleaner/gleaner/store/frontier"

// State is where a URL is in a crawl's frontier (frontier.State).
type State = frontier.State

// URL states in the frontier.
const (
	StateQueued = frontier.Queued // waiting to be fetched
	StateLeased = frontier.Leased // taken by a running crawler until its lease expires
	StateDone   = frontier.Done   // finished, with an Outcome
)

// Outcome is how a finished URL ended (frontier.Outcome): the Babouk
// counters (see Counters).
type Outcome = frontier.Outcome

// Outcomes of a finished URL.
const (
	OutcomeValidated   = frontier.Validated   // relevant page, kept in the corpus
	OutcomeIrrelevant  = frontier.Irrelevant  // below the relevance threshold
	OutcomeDuplicate   = frontier.Duplicate   // near-duplicate text, or a redirect to a page already fetched
	OutcomeLanguage    = frontier.Language    // language not asked for
	OutcomeHTTPError   = frontier.HTTPError   // 4xx/5xx status or network error
	OutcomeTimeout     = frontier.Timeout     // fetch deadline exceeded
	OutcomeSize        = frontier.Size        // too small or too large (bytes or tokens)
	OutcomeMIME        = frontier.MIME        // not an accepted document type
	OutcomeNoExtract   = frontier.NoExtract   // no content could be extracted
	OutcomeNoIndex     = frontier.NoIndex     // meta robots noindex
	OutcomeRobots      = frontier.Robots      // disallowed by robots.txt (not fetched)
	OutcomeForbidden   = frontier.Forbidden   // refused target (SSRF guard, not fetched)
	OutcomeAlias       = frontier.Alias       // the final URL of a redirect fetched under another URL
	OutcomeInterrupted = frontier.Interrupted // stopped before the end (context cancelled); requeued on resume
)

// Counters are the outcome counts of a crawl, derived from its frontier.
type Counters = frontier.Counters

// FetchedURL is one URL of a crawl that was requested, in fetch order.
type FetchedURL = frontier.FetchedURL

// Priority is what the frontier keeps per URL to order it.
type Priority = frontier.Priority

// ErrLeaseLost is returned when a worker commits a URL whose lease expired
// and was taken over by another worker: the other's outcome stands.
var ErrLeaseLost = frontier.ErrLeaseLost
