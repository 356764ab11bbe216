package siteextract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/gleaner/gleaner/heuristics"
	"github.com/gleaner/gleaner/sitelearn"
	"github.com/gleaner/gleaner/store"
)

// ErrNoTemplates is returned (wrapped) when a site has no finished
// learning run.
var ErrNoTemplates = errors.New("no learned templates")

// Templates are a site's templates as a finished learning run stored them.
type Templates struct {
	Run      *store.Run
	Clusters []store.Cluster
	Members  map[int64]store.Membership
	Medoids  map[int]int64 // cluster -> medoid page ID
	// Rules are the run's stored rules per cluster, or its base run's (see
	// the package doc).
	Rules    map[int]heuristics.Rules
	partners map[int64]int64
}

// LoadTemplates reads the templates of a site's latest finished run;
// ErrNoTemplates when it has none.
func LoadTemplates(ctx context.Context, st store.Store, site string) (*Templates, error) {
	run, err := st.LatestRun(ctx, site, store.RunDone)
	if errors.Is(err, store.ErrNotFound) {
		return nil, fmt.Errorf("site %s: %w", site, ErrNoTemplates)
	}
	if err != nil {
		return nil, fmt.Errorf("site %s: %w", site, err)
	}
	return TemplatesOf(ctx, st, run)
}

// TemplatesOf reads the templates of a finished run.
func TemplatesOf(ctx context.Context, st store.Store, run *store.Run) (*Templates, error) {
	t := &Templates{Run: run, Members: map[int64]store.Membership{}, Medoids: map[int]int64{}}
	ms, err := st.Memberships(ctx, run.ID)
	if err != nil {
		return nil, fmt.Errorf("run %d: %w", run.ID, err)
	}
	for _, m := range ms {
		t.Members[m.PageID] = m
	}
	cs, err := st.Clusters(ctx, run.ID)
	if err != nil {
		return nil, fmt.Errorf("run %d: %w", run.ID, err)
	}
	for _, c := range cs {
		t.Medoids[c.ID] = c.Medoid
	}
	t.Clusters = cs
	if t.Rules, err = storedRules(ctx, st, run); err != nil {
		return nil, fmt.Errorf("run %d: %w", run.ID, err)
	}
	t.partners = t.partnersOf()
	return t, nil
}

// Partner returns the page a stored page is compared with (Partners), false
// for none.
func (t *Templates) Partner(pageID int64) (int64, bool) {
	if t == nil {
		return 0, false
	}
	p, ok := t.partners[pageID]
	return p, ok
}

// partnersOf applies Partners to the run's members, in page ID order.
func (t *Templates) partnersOf() map[int64]int64 {
	ids := make([]int64, 0, len(t.Members))
	for id := range t.Members {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	index := make(map[int64]int, len(ids))
	members := make([]Member, len(ids))
	for i, id := range ids {
		index[id] = i
		m := t.Members[id]
		members[i] = Member{Cluster: m.Cluster, Distance: m.Distance, Outlier: m.Outlier}
	}
	medoids := map[int]int{}
	for c, id := range t.Medoids {
		if i, ok := index[id]; ok {
			medoids[c] = i
		}
	}
	out := map[int64]int64{}
	for i, j := range Partners(members, medoids) {
		if j >= 0 {
			out[ids[i]] = ids[j]
		}
	}
	return out
}

// storedRules reads the rules stored for run or, when it has none and only
// assigned pages to a base run's templates, the base run's.
func storedRules(ctx context.Context, st store.Store, run *store.Run) (map[int]heuristics.Rules, error) {
	rs, err := st.Rules(ctx, run.ID)
	if err != nil {
		return nil, err
	}
	if len(rs) > 0 {
		return rulesByCluster(rs), nil
	}
	if base := baseRun(run); base != 0 {
		if rs, err = st.Rules(ctx, base); err != nil {
			return nil, err
		}
	}
	return rulesByCluster(rs), nil
}

// baseRun is the run whose templates run assigned pages to, 0 when run
// learned its own.
func baseRun(run *store.Run) int64 {
	var p sitelearn.RunParams
	if len(run.Params) == 0 || json.Unmarshal(run.Params, &p) != nil {
		return 0
	}
	return p.BaseRun
}

// rulesByCluster gathers stored rules into each cluster's rules.
func rulesByCluster(rs []store.Rule) map[int]heuristics.Rules {
	out := map[int]heuristics.Rules{}
	for _, r := range rs {
		cur := out[r.Cluster]
		hr := heuristics.Rule{Field: r.Field, Selector: r.Selector, Support: r.Support}
		switch r.Field {
		case heuristics.FieldBody:
			cur.Body = hr
		case heuristics.FieldTitle:
			cur.Title = hr
		}
		out[r.Cluster] = cur
	}
	return out
}

// Member returns where the run put a stored page, false when the run does
// not know it.
func (t *Templates) Member(pageID int64) (store.Membership, bool) {
	if t == nil {
		return store.Membership{}, false
	}
	m, ok := t.Members[pageID]
	return m, ok
}
