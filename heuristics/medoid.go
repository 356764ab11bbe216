package heuristics

import (
	"sync"
	"sync/atomic"

	"github.com/gleaner/gleaner/treediff"
)

// medoidInfo is what comparing a page with a template medoid derives from
// the medoid alone: its token view, the keys of its short blocks (moved
// template text), its view elements by path (comparable nodes) and their
// word counts, and its template lines (see Medoids).
type medoidInfo struct {
	viewOnce, keysOnce, pathsOnce, linesOnce sync.Once

	view   *treediff.Tree
	keys   map[string]bool
	byPath map[string]*treediff.Node
	counts []atomic.Pointer[map[string]float64]
	lines  templateLines
}

// Medoids keeps, per medoid tree, what comparing pages with that medoid
// derives from it alone (medoidInfo): every page of a cluster is compared
// with the same medoid, so each is computed once, on first use, and shared
// by the pages (and goroutines) compared with it. It is safe for
// concurrent use and its zero value is ready. It holds the trees it has
// seen: keep one for a site or a run (ExtractSite keeps one per call when
// ExtractOptions.Medoids is nil). It assumes, as everywhere in Gleaner,
// that a tree is not modified once built (Prune and View make new trees).
type Medoids struct {
	mu    sync.Mutex
	infos map[*treediff.Tree]*medoidInfo
}

// of returns the medoidInfo of t, made on first use; a nil m makes a new
// one each time (nothing shared).
func (m *Medoids) of(t *treediff.Tree) *medoidInfo {
	if m == nil {
		return &medoidInfo{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.infos == nil {
		m.infos = map[*treediff.Tree]*medoidInfo{}
	}
	info, ok := m.infos[t]
	if !ok {
		info = &medoidInfo{}
		m.infos[t] = info
	}
	return info
}

// tokenView is t.View(treediff.TokenView); t is the tree m belongs to.
func (m *medoidInfo) tokenView(t *treediff.Tree) *treediff.Tree {
	m.viewOnce.Do(func() { m.view = t.View(treediff.TokenView) })
	return m.view
}

// blockKeys is the set of blockKeys of the token view of t.
func (m *medoidInfo) blockKeys(t *treediff.Tree) map[string]bool {
	m.keysOnce.Do(func() { m.keys = blockKeySet(m.tokenView(t)) })
	return m.keys
}

// comparables returns the comparable-node finder of the token view of t,
// its index of paths built already.
func (m *medoidInfo) comparables(t *treediff.Tree) comparables {
	m.pathsOnce.Do(func() {
		v := m.tokenView(t)
		m.byPath = pathIndex(v)
		m.counts = make([]atomic.Pointer[map[string]float64], len(v.Nodes))
	})
	return comparables{medoid: m.tokenView(t), byPath: m.byPath, counts: m.counts}
}

// templateLines is newTemplateLines(t).
func (m *medoidInfo) templateLines(t *treediff.Tree) templateLines {
	m.linesOnce.Do(func() { m.lines = newTemplateLines(t) })
	return m.lines
}
