package cluster

import (
	"context"
	"fmt"
	"sync"

	"github.com/gleaner/gleaner/treediff"
)

// Template is a learned template of a site as Assign uses it: its medoid
// page and the distance beyond which a page is far from it.
type Template struct {
	Cluster int
	Medoid  Page
	Far     float64
}

// Model assigns new pages of a site to the templates learned from earlier
// ones, comparing each page with the medoids only, and tells when the
// templates no longer fit (drift).
type Model struct {
	Templates []Template
	opt       Options
	// mu guards profiled and last. The medoids' pq-gram profiles are
	// computed once per model (profiled), so that a monitor round placing
	// one page does not profile every medoid again.
	mu       sync.Mutex
	profiled bool
	last     Cost
}

// NewModel returns a model over templates (for instance medoids loaded from a
// stored run); opt supplies the workers, cache and drift thresholds.
func NewModel(templates []Template, opt Options) *Model {
	return &Model{Templates: templates, opt: opt.WithDefaults()}
}

// Model returns the templates Learn found: one per cluster of two pages or
// more (a lone page is an outlier, not a template), or the single page of a
// one-page site.
func (r *Result) Model() *Model {
	var ts []Template
	for _, c := range r.Clusters {
		if len(c.Members) > 1 || len(r.Clusters) == 1 && len(c.Members) == 1 {
			far := c.Far
			if far == 0 {
				far = r.opt.FarDistance
			}
			ts = append(ts, Template{Cluster: c.ID, Medoid: r.pages[c.Medoid], Far: far})
		}
	}
	return &Model{Templates: ts, opt: r.opt}
}

// Assignment is where Assign put a page.
type Assignment struct {
	// Cluster is the nearest template's cluster, -1 when the page could not
	// be used.
	Cluster int
	// Distance is the normalised distance (Options.Distance) to that
	// template's medoid.
	Distance float64
	// Far reports that the page is beyond the template's radius: it fits no
	// learned template.
	Far bool
	// Reason says why the page is far or unusable.
	Reason string
}

// Assign places each page with its nearest template by distance to the
// medoids: len(pages) × len(Templates) distances of Options.Distance,
// computed in parallel and cached like Learn's, the medoids profiled once
// per model; with FastDistance the exact tree edit distance between reduced
// trees decides between medoids within Options.TieMargin of the nearest.
// Pages with Err set are returned unassigned.
func (m *Model) Assign(ctx context.Context, pages []Page) ([]Assignment, error) {
	if len(m.Templates) == 0 {
		return nil, fmt.Errorf("assign: the model has no template")
	}
	all, usable, err := m.withMedoids(pages)
	if err != nil {
		return nil, err
	}
	if err := m.profile(ctx); err != nil {
		return nil, fmt.Errorf("assign: %w", err)
	}
	for t := range m.Templates {
		all[t] = m.Templates[t].Medoid
	}
	meter := StartMeter()
	o, err := newDistanceOracle(ctx, all, usable, m.opt)
	if err != nil {
		return nil, fmt.Errorf("assign: %w", err)
	}
	pairs := m.templatePairs(len(usable))
	ds, err := o.distances(ctx, pairs)
	if err != nil {
		return nil, fmt.Errorf("assign: %w", err)
	}
	out := unusableAssignments(pages)
	nt := len(m.Templates)
	for x := 0; x < len(pairs); x += nt {
		u := pairs[x][0]
		a, err := m.place(ctx, o, u, ds[x:x+nt])
		if err != nil {
			return nil, fmt.Errorf("assign: %w", err)
		}
		out[usable[u]-nt] = a
	}
	fast, exact := o.counts()
	m.mu.Lock()
	m.last = meter.Stop(len(usable)-nt, fast, exact)
	m.mu.Unlock()
	return out, nil
}

// withMedoids returns the templates' medoids followed by pages, and the
// indexes of those with a tree. A medoid without one is an error.
func (m *Model) withMedoids(pages []Page) (all []Page, usable []int, err error) {
	all = make([]Page, 0, len(m.Templates)+len(pages))
	for _, t := range m.Templates {
		all = append(all, t.Medoid)
	}
	all = append(all, pages...)
	for i, p := range all {
		if p.Err == nil && p.Tree != nil && p.Tree.Root != nil {
			usable = append(usable, i)
		} else if i < len(m.Templates) {
			return nil, nil, fmt.Errorf("assign: template %d medoid %s has no tree", m.Templates[i].Cluster, p.Name)
		}
	}
	return all, usable, nil
}

// templatePairs pairs each usable page (after the medoids among the nu
// usable ones) with every template, template after template.
func (m *Model) templatePairs(nu int) [][2]int {
	var pairs [][2]int
	for u := len(m.Templates); u < nu; u++ {
		for t := range m.Templates {
			pairs = append(pairs, [2]int{u, t})
		}
	}
	return pairs
}

// unusableAssignments returns the assignments of pages with those without
// a tree filled in: unassigned, with the reason.
func unusableAssignments(pages []Page) []Assignment {
	out := make([]Assignment, len(pages))
	for i, p := range pages {
		if p.Err != nil || p.Tree == nil || p.Tree.Root == nil {
			reason := "unusable: no tree"
			if p.Err != nil {
				reason = "unusable: " + p.Err.Error()
			}
			out[i] = Assignment{Cluster: -1, Far: true, Reason: reason}
		}
	}
	return out
}

// place assigns usable page u, whose distances to the templates are ds, to
// the nearest template (exact distances break near ties) and says whether
// it is beyond that template's radius.
func (m *Model) place(ctx context.Context, o *distanceOracle, u int, ds []float64) (Assignment, error) {
	far := func(t int) float64 { return m.Templates[t].Far }
	best, err := breakTie(ctx, ds, m.opt.TieMargin, far, func(ctx context.Context, near []int) ([]float64, error) {
		ps := make([][2]int, len(near))
		for k, t := range near {
			ps[k] = [2]int{u, t}
		}
		return o.exact(ctx, ps)
	})
	if err != nil {
		return Assignment{}, err
	}
	t := m.Templates[best]
	a := Assignment{Cluster: t.Cluster, Distance: ds[best]}
	d, measure, err := decideFar(ctx, a.Distance, t.Far, m.opt, func(ctx context.Context) (float64, error) {
		ex, err := o.exact(ctx, [][2]int{{u, best}})
		if err != nil {
			return 0, err
		}
		return ex[0], nil
	})
	if err != nil {
		return Assignment{}, err
	}
	if d > t.Far {
		a.Far = true
		a.Reason = fmt.Sprintf("far from every template: normalised %s %.3f to the nearest medoid (cluster %d, %s) exceeds %.3f",
			measure, d, t.Cluster, t.Medoid.Name, t.Far)
	}
	return a, nil
}

// LastCost is the cost of the latest Assign call (its fast and exact
// distances, CPU time and the process's peak memory).
func (m *Model) LastCost() Cost {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.last
}

// profile computes the medoids' pq-gram profiles once (FastDistance only);
// a failure (a cancelled context) is not kept: the next call tries again.
func (m *Model) profile(ctx context.Context) error {
	if m.opt.Distance != FastDistance {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.profiled {
		return nil
	}
	var trees []*treediff.Tree
	var todo []int
	for t := range m.Templates {
		if m.Templates[t].Medoid.prof == nil { // not compact
			trees = append(trees, m.Templates[t].Medoid.Tree)
			todo = append(todo, t)
		}
	}
	prof, err := profiles(ctx, trees, m.opt)
	if err != nil {
		return err
	}
	for x, t := range todo {
		m.Templates[t].Medoid.prof = prof[x]
	}
	m.profiled = true
	return nil
}

// Drift reports whether the assignments show that the site's templates have
// changed: at least Options.DriftMinPages usable pages assigned and more than
// Options.DriftFraction of them far from every template. The message gives
// the counts either way.
func (m *Model) Drift(as []Assignment) (bool, string) {
	used, far := 0, 0
	for _, a := range as {
		if a.Cluster < 0 {
			continue
		}
		used++
		if a.Far {
			far++
		}
	}
	frac := 0.0
	if used > 0 {
		frac = float64(far) / float64(used)
	}
	msg := fmt.Sprintf("%d of %d assigned pages far from every template (%.0f%%, relearn above %.0f%% of at least %d)",
		far, used, 100*frac, 100*m.opt.DriftFraction, m.opt.DriftMinPages)
	return used >= m.opt.DriftMinPages && frac > m.opt.DriftFraction, msg
}
