package monitoring

import (
	"errors"
	"fmt"
)

// URLState is what became of a URL the monitor met (column
// monitor_urls.state), stored as its text.
type URLState string

// URL states.
const (
	// URLPending: listed by a source, to be fetched.
	URLPending URLState = "pending"
	// URLRecheck: a stored article a source lists as modified since, to
	// be fetched again conditionally.
	URLRecheck URLState = "recheck"
	// URLWaiting: a copy fetched while the original it names as canonical
	// was still pending; settled once the original is stored.
	URLWaiting URLState = "waiting"
	// URLArticle: stored as a document (doc_id).
	URLArticle URLState = "article"
	// URLDuplicate: linked to a stored document (doc_id) as another URL
	// of its story.
	URLDuplicate URLState = "duplicate"
	// URLHub: not an article; its page is stored for learning.
	URLHub URLState = "hub"
	// URLOffFocus: an article under the focus threshold, not stored.
	URLOffFocus URLState = "off-focus"
	// URLError: failed for good (too many attempts, refused).
	URLError URLState = "error"
)

func (s URLState) String() string { return string(s) }

// SourceKind is what a monitored source is (column monitor_sources.kind).
type SourceKind string

// Source kinds.
const (
	SourceRobots       SourceKind = "robots"
	SourceHub          SourceKind = "hub"
	SourceSitemapIndex SourceKind = "sitemap-index"
	SourceFeed         SourceKind = "feed"
	SourceSitemap      SourceKind = "sitemap"
)

func (k SourceKind) String() string { return string(k) }

// DocKind is a stored document's page kind (column monitor_docs.kind).
type DocKind string

// Document kinds.
const (
	KindArticle DocKind = "article"
	// KindHub is a page taken for an article whose learned template is
	// one of its site's hubs.
	KindHub DocKind = "hub"
	// KindAll selects documents of every kind (never stored).
	KindAll DocKind = "all"
)

func (k DocKind) String() string { return string(k) }

// ErrKind is wrapped by ParseKind's errors.
var ErrKind = errors.New("no document kind")

// ParseKind reads a document kind as a selection names it: article, hub
// or all.
func ParseKind(s string) (DocKind, error) {
	switch k := DocKind(s); k {
	case KindArticle, KindHub, KindAll:
		return k, nil
	}
	return "", fmt.Errorf("kind %q: want article, hub or all: %w", s, ErrKind)
}

// LinkReason says why a URL is linked to a stored document as its
// duplicate (column monitor_links.reason).
type LinkReason string

// Link reasons.
const (
	// LinkCanonical: the same story by its canonical link.
	LinkCanonical LinkReason = "canonical"
	// LinkNearDuplicate: a near-duplicate text on another site.
	LinkNearDuplicate LinkReason = "near-duplicate"
)

func (r LinkReason) String() string { return string(r) }
