package heuristics

import (
	"runtime"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/gleaner/gleaner/treediff"
)

// medoidInfo is what comparing a page with a template medoid derives from
// the medoid alone: its token view, the keys of its short blocks (moved
// template text), its view elements by path (comparable nodes) and their
// word counts, and its template lines. Every page of a cluster is compared with the same medoid,
// so each is computed once per medoid tree, on first use, and shared by
// the pages (and goroutines) compared with it.
type medoidInfo struct {
	viewOnce, keysOnce, pathsOnce, linesOnce sync.Once

	view   *treediff.Tree
	keys   map[string]bool
	byPath map[string]*treediff.Node
	counts []atomic.Pointer[map[string]float64]
	lines  templateLines
}

// medoidInfos maps a medoid tree, by weak pointer, to its *medoidInfo. An
// entry goes when its tree is collected, so the cache holds no tree alive
// (a medoidInfo refers to the tree's nodes, never to the Tree itself). It
// assumes, as everywhere in Gleaner, that a tree is not modified once
// built (Prune and View make new trees).
var medoidInfos sync.Map

// medoidOf returns the shared medoidInfo of t.
func medoidOf(t *treediff.Tree) *medoidInfo {
	k := weak.Make(t)
	if v, ok := medoidInfos.Load(k); ok {
		return v.(*medoidInfo)
	}
	v, loaded := medoidInfos.LoadOrStore(k, &medoidInfo{})
	if !loaded {
		runtime.AddCleanup(t, func(k weak.Pointer[treediff.Tree]) { medoidInfos.Delete(k) }, k)
	}
	return v.(*medoidInfo)
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
