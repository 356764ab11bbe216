package crawler

import "fmt"

// Strategy orders the frontier: which discovered URL is fetched next.
type Strategy uint8

const (
	// BreadthFirst fetches URLs in the order of their depth, then discovery.
	BreadthFirst Strategy = iota
	// OPIC gives each seed a cash of 1; a fetched page's cash, plus its
	// relevance, scaled by its relevance, is split among its outlinks
	// (equally, or by LinkSims.Weight when the page's links are scored),
	// and a URL's priority is the cash it has received (Abiteboul 2003, as
	// used by Babouk).
	OPIC
	// SharkSearch scores a link from its parent's relevance (inherited) and
	// from its anchor text and the words around it (neighbourhood), with
	// δ = 0.5, β = 0.8, γ = 0.1 (Hersovici et al. 1998, as in de Groc's thesis).
	SharkSearch
)

// Shark-Search constants.
const (
	SharkDelta = 0.5
	SharkBeta  = 0.8
	SharkGamma = 0.1
)

// ParseStrategy reads a strategy name: bfs, opic or shark.
func ParseStrategy(s string) (Strategy, error) {
	switch s {
	case "bfs", "breadth-first":
		return BreadthFirst, nil
	case "opic":
		return OPIC, nil
	case "shark", "shark-search":
		return SharkSearch, nil
	}
	return 0, fmt.Errorf("unknown crawl strategy %q (want bfs, opic or shark)", s)
}

func (s Strategy) String() string {
	switch s {
	case BreadthFirst:
		return "bfs"
	case OPIC:
		return "opic"
	case SharkSearch:
		return "shark"
	}
	return fmt.Sprintf("strategy(%d)", uint8(s))
}

// SeedPriority is the priority of a seed URL.
func (s Strategy) SeedPriority() Priority {
	switch s {
	case OPIC:
		return Priority{Score: 1}
	case SharkSearch:
		return Priority{Score: 1, Inherited: 1}
	}
	return Priority{Score: 0}
}

// FetchedPage is what a strategy knows of a page whose links it scores.
type FetchedPage struct {
	Priority Priority
	Depth    int
	// Sim is the page's relevance in [0, 1].
	Sim      float64
	Relevant bool
	// Links is the number of outlinks the page's cash is split among.
	Links int
	// LinkWeights, when positive, is the sum of LinkSims.Weight over the
	// outlinks: OPIC then splits the cash in proportion to each link's
	// weight instead of equally.
	LinkWeights float64
}

// LinkSims is the relevance in [0, 1] of a link's anchor text and of the
// words around it.
type LinkSims struct {
	Anchor, Context float64
}

// Weight is the link's share of its page's OPIC cash, before normalisation:
// a floor of 0.1 (a link with no topical word still gets some) plus the
// better of its anchor and context relevance. Navigation links to
// off-topic sections, present on every page, would otherwise accumulate as
// much cash as the on-topic links beside them.
func (l LinkSims) Weight() float64 { return 0.1 + max(l.Anchor, l.Context) }

// Child returns the priority of a link found on parent.
func (s Strategy) Child(parent FetchedPage, link LinkSims) Priority {
	switch s {
	case OPIC:
		n := parent.Links
		if n < 1 {
			n = 1
		}
		share := 1 / float64(n)
		if parent.LinkWeights > 0 {
			share = link.Weight() / parent.LinkWeights
		}
		// The page distributes its cash plus its own relevance: without
		// that injection cash only decays with every hop and the order
		// falls back to breadth-first. A small floor keeps tunnels through
		// irrelevant pages reachable.
		return Priority{Score: (parent.Priority.Score + parent.Sim) * (0.05 + 0.95*parent.Sim) * share}
	case SharkSearch:
		var inh float64
		if parent.Relevant {
			inh = SharkDelta * parent.Sim
		} else {
			inh = SharkDelta * parent.Priority.Inherited
		}
		ctx := link.Context
		if link.Anchor > 0 {
			ctx = 1
		}
		neigh := SharkBeta*link.Anchor + (1-SharkBeta)*ctx
		return Priority{Score: SharkGamma*inh + (1-SharkGamma)*neigh, Inherited: inh}
	}
	return Priority{Score: -float64(parent.Depth + 1)}
}

// Merge combines the priority a URL already has with one from another
// parent: OPIC accumulates cash, the others keep the better.
func (s Strategy) Merge(old, add Priority) Priority {
	if s == OPIC {
		return Priority{Score: old.Score + add.Score}
	}
	if add.Score > old.Score {
		return add
	}
	return old
}
