package sitelearn

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// Options tunes Site.
type Options struct {
	cluster.Options
	// Relearn learns from scratch even when the latest run could take the
	// site's new pages by assignment.
	Relearn bool
	// Parse bounds the parsing of each page.
	Parse treediff.ParseOptions
	// MaxPages bounds the pages a run learns from (default 200): a larger
	// site, or one relearned after drift, is learned from a sample of that
	// many pages drawn with the seed, and its other pages are then placed
	// on the templates found, a chunk at a time (cluster.Model.Assign, a
	// distance per template), so that time and memory stay bounded.
	MaxPages int
}

// Modes of a SiteRun.
const (
	ModeLearned   = "learned"   // clustered from scratch
	ModeAssigned  = "assigned"  // new pages assigned to the previous run's templates
	ModeRelearned = "relearned" // assignment showed drift, so clustered from scratch
	ModeUnchanged = "unchanged" // no new page since the latest run with the same parameters
)

// SiteRun is the stored outcome of Site for one site.
type SiteRun struct {
	Site string
	Mode string
	// Note says why the mode was chosen (drift counts, previous run).
	Note     string
	Run      *store.Run
	Clusters []store.Cluster
	Members  []store.Membership
	// Names maps page IDs to how reports name them (manifest id, else URL).
	Names map[int64]string
	// Params is the run's decoded parameters.
	Params RunParams
	// Result is the in-memory result when the run clustered (nil otherwise).
	Result *cluster.Result
	// Cost is what this call spent: parsing the pages and learning, or
	// assigning the new pages (Pages is the pages parsed; zero when
	// unchanged).
	Cost cluster.Cost

	meter cluster.Meter
}

// RunParams is what a run records in store.Run.Params: its options and what
// the store's tables do not hold.
type RunParams struct {
	Mode    string `json:"mode"`
	BaseRun int64  `json:"base_run,omitempty"` // the run whose templates were used (assign)
	// Owner is the process that learned the run (see ReapRuns).
	Owner *RunOwner `json:"owner,omitempty"`
	// Assigned lists the pages assigned to the templates since they were
	// learned (page IDs), so that drift is judged on all of them.
	Assigned          []int64 `json:"assigned,omitempty"`
	MaxK              int     `json:"max_k"`
	MinSilhouette     float64 `json:"min_silhouette"`
	Medoid            string  `json:"medoid"`
	Restarts          int     `json:"restarts"`
	LandmarkThreshold int     `json:"landmark_threshold"`
	LandmarkCount     int     `json:"landmark_count"`
	FarDistance       float64 `json:"far_distance"`
	FarMADs           float64 `json:"far_mads"`
	Landmarks         []int64 `json:"landmarks,omitempty"` // page IDs
	// Sampled is the number of pages learned from when the site had more
	// than Options.MaxPages (the others were placed on the templates).
	Sampled   int     `json:"sampled,omitempty"`
	Stress    float64 `json:"stress"`
	Distances int     `json:"distances"`
	Computed  int     `json:"computed"`
	// The run's cost (SiteRun.Cost): exact and fast distances computed, CPU
	// seconds, the process's peak RSS in bytes.
	Fast       int     `json:"fast,omitempty"`
	Exact      int     `json:"exact,omitempty"`
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	PeakRSS    int64   `json:"peak_rss,omitempty"`
	// PagesDigest identifies the pages of the run and their content, so
	// that a later run notices pages changed in place.
	PagesDigest string `json:"pages_digest"`
	// Per cluster ID: both medoid candidates and the outlier radius.
	CentroidMedoids map[int]int64   `json:"centroid_medoids"`
	TrueMedoids     map[int]int64   `json:"true_medoids"`
	Far             map[int]float64 `json:"far"`
}

// Site learns the templates of one stored site and records the run:
// clusters, memberships with 2-D coordinates, silhouette per k. When the
// latest finished run used the same seed and medoid rule, only the pages
// added since are compared with its medoids (cluster.Model.Assign); if that
// shows drift the site is learned again from scratch, and if no page was
// added the latest run is returned unchanged.
func Site(ctx context.Context, st store.Store, site string, opt Options) (*SiteRun, error) {
	opt.Options = opt.Options.WithDefaults()
	if opt.Cache == nil {
		opt.Cache = Cache(st)
	}
	metas, err := st.Pages(ctx, store.PageQuery{Site: site})
	if err != nil {
		return nil, fmt.Errorf("learn %s: %w", site, err)
	}
	if len(metas) == 0 {
		return nil, fmt.Errorf("learn %s: no pages stored for this site", site)
	}
	sr := &SiteRun{Site: site, Names: map[int64]string{}, meter: cluster.StartMeter()}
	for _, p := range metas {
		sr.Names[p.ID] = p.Name()
	}
	if !opt.Relearn {
		done, err := sr.tryAssign(ctx, st, metas, opt)
		if err != nil || done {
			return sr, err
		}
	}
	return sr, sr.learn(ctx, st, metas, opt)
}

// loadPages parses the pages with the given IDs, a chunk at a time so that
// only one chunk of HTML is in memory.
func loadPages(ctx context.Context, st store.Store, ids []int64, popt treediff.ParseOptions) ([]cluster.Page, error) {
	const chunk = 32
	byID := make(map[int64]cluster.Page, len(ids))
	for start := 0; start < len(ids); start += chunk {
		ps, err := st.Pages(ctx, store.PageQuery{IDs: ids[start:min(start+chunk, len(ids))], WithContent: true})
		if err != nil {
			return nil, err
		}
		for _, p := range ps {
			// Compact: a site's pages are held at once, and only their
			// profiles and reduced trees are read.
			pg := cluster.NewPage(p.Name(), p.Hash, p.HTML(), popt).Compact(treediff.ReduceOptions{})
			if pg.Err == nil && len(p.HTML()) == 0 {
				pg.Err = errors.New("no HTML stored")
			}
			if p.Error != "" && len(p.HTML()) == 0 {
				pg.Err = fmt.Errorf("fetch failed: %s", p.Error)
			}
			byID[p.ID] = pg
		}
	}
	out := make([]cluster.Page, len(ids))
	for i, id := range ids {
		p, ok := byID[id]
		if !ok {
			return nil, fmt.Errorf("page %d vanished from the store", id)
		}
		out[i] = p
	}
	return out, nil
}

// learn learns the site's templates from scratch from a sample of its
// pages, places the others on them, and records the run.
func (sr *SiteRun) learn(ctx context.Context, st store.Store, metas []*store.Page, opt Options) error {
	all := make([]int64, len(metas))
	for i, p := range metas {
		all[i] = p.ID
	}
	ids, rest := samplePages(all, opt.MaxPages, opt.Seed)
	pages, err := loadPages(ctx, st, ids, opt.Parse)
	if err != nil {
		return fmt.Errorf("learn %s: %w", sr.Site, err)
	}
	run := newRun(sr.Site, opt.Seed)
	if err := st.CreateRun(ctx, run); err != nil {
		return fmt.Errorf("learn %s: %w", sr.Site, err)
	}
	res, err := cluster.Learn(ctx, pages, opt.Options)
	if err != nil {
		return sr.failRun(ctx, st, run, err)
	}
	if sr.Mode == "" {
		sr.Mode = ModeLearned
	}
	sr.Result = res
	members := learnedMemberships(res, ids)
	placed, lc, err := placeRest(ctx, st, res, rest, opt)
	if err != nil {
		return sr.failRun(ctx, st, run, err)
	}
	members = append(members, placed...)
	sr.Cost = sr.meter.Stop(len(pages)+len(rest), res.Cost.Fast+lc.Fast, res.Cost.Exact+lc.Exact)
	p := sr.learnedParams(res, ids, metas, opt)
	clusters := learnedClusters(res, ids, members, &p)
	run.K, run.Silhouette, run.Pages, run.Status = res.K, res.Silhouette, len(members), store.RunDone
	run.Message = sr.learnedMessage(res, len(ids), len(all))
	if len(rest) > 0 {
		p.Sampled = len(ids)
	}
	return sr.finish(ctx, st, run, p, clusters, members)
}

// failRun records run as failed by err (even when ctx has ended) and
// returns err.
func (sr *SiteRun) failRun(ctx context.Context, st store.Store, run *store.Run, err error) error {
	run.Status, run.Message = store.RunFailed, err.Error()
	if ferr := st.FinishRun(context.WithoutCancel(ctx), run, nil, nil); ferr != nil {
		err = errors.Join(err, ferr)
	}
	return fmt.Errorf("learn %s: %w", sr.Site, err)
}

// learnedMemberships are the memberships of the pages learned from, whose
// IDs are ids.
func learnedMemberships(res *cluster.Result, ids []int64) []store.Membership {
	members := make([]store.Membership, len(res.Members))
	for i, m := range res.Members {
		members[i] = store.Membership{PageID: ids[i], Cluster: m.Cluster, X: m.Point[0], Y: m.Point[1],
			Distance: m.Distance, Outlier: m.Outlier, Reason: m.Reason}
	}
	return members
}

// learnedParams are the parameters of a run that learned res from the
// pages ids of the site's pages metas.
func (sr *SiteRun) learnedParams(res *cluster.Result, ids []int64, metas []*store.Page, opt Options) RunParams {
	p := RunParams{Mode: sr.Mode, Owner: currentOwner(), PagesDigest: pagesDigest(metas),
		Stress: res.Stress, Distances: res.Distances, Computed: res.Computed,
		CentroidMedoids: map[int]int64{}, TrueMedoids: map[int]int64{}, Far: map[int]float64{}}
	p.setOptions(opt.Options)
	p.setCost(sr.Cost)
	for _, l := range res.Landmarks {
		p.Landmarks = append(p.Landmarks, ids[l])
	}
	return p
}

// learnedClusters are the clusters of res with their sizes among members;
// their medoids and radii are recorded in p.
func learnedClusters(res *cluster.Result, ids []int64, members []store.Membership, p *RunParams) []store.Cluster {
	sizes := map[int]int{}
	for _, m := range members {
		sizes[m.Cluster]++
	}
	var clusters []store.Cluster
	for _, c := range res.Clusters {
		clusters = append(clusters, store.Cluster{ID: c.ID, Medoid: ids[c.Medoid], Size: sizes[c.ID]})
		p.CentroidMedoids[c.ID], p.TrueMedoids[c.ID], p.Far[c.ID] = ids[c.CentroidMedoid], ids[c.TrueMedoid], c.Far
	}
	return clusters
}

// learnedMessage is the message of a run that learned res from sampled of
// the site's total pages.
func (sr *SiteRun) learnedMessage(res *cluster.Result, sampled, total int) string {
	msg := res.Status + ": " + res.Message
	if sampled < total {
		msg += fmt.Sprintf("; learned from a sample of %d of %d pages, the others placed on its templates", sampled, total)
	}
	if sr.Note != "" {
		msg = sr.Note + "; " + msg
	}
	for _, w := range res.Warnings {
		msg += "; warning: " + w
	}
	return msg
}

func (sr *SiteRun) finish(ctx context.Context, st store.Store, run *store.Run, p RunParams, clusters []store.Cluster, members []store.Membership) error {
	raw, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("learn %s: %w", sr.Site, err)
	}
	run.Params = raw
	if err := st.FinishRun(ctx, run, clusters, members); err != nil {
		return fmt.Errorf("learn %s: %w", sr.Site, err)
	}
	sr.Run, sr.Clusters, sr.Members, sr.Params = run, clusters, members, p
	return nil
}

// tryAssign handles the site from its latest run when that is possible:
// returns done = false when the site must be learned from scratch.
func (sr *SiteRun) tryAssign(ctx context.Context, st store.Store, metas []*store.Page, opt Options) (bool, error) {
	ru, err := latestReusable(ctx, st, sr.Site, metas, opt)
	if err != nil || ru == nil {
		return false, err
	}
	if len(ru.fresh) == 0 {
		sr.Mode, sr.Note = ModeUnchanged, fmt.Sprintf("no new page since run %d", ru.prev.ID)
		sr.Run, sr.Clusters, sr.Members, sr.Params = ru.prev, ru.clusters, ru.members, ru.params
		return true, nil
	}
	ru.model, err = loadModel(ctx, st, ru.params, ru.clusters, opt)
	if errors.Is(err, ErrNoTemplate) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("learn %s: %w", sr.Site, err)
	}
	if err := ru.assign(ctx, st, opt); err != nil {
		return false, fmt.Errorf("learn %s: %w", sr.Site, err)
	}
	drift, msg := ru.model.Drift(append(ru.assignedSince(), ru.as...))
	if drift {
		sr.Mode, sr.Note = ModeRelearned, fmt.Sprintf("drift since run %d: %s", ru.prev.ID, msg)
		return false, nil
	}
	sr.Note = fmt.Sprintf("%d new pages assigned to the templates of run %d: %s", len(ru.fresh), ru.prev.ID, msg)
	return true, sr.recordAssigned(ctx, st, ru, metas, opt)
}

// reuse is a site's latest run that its new pages can be placed on: the
// run, its parameters, clusters and memberships, the pages not in it, and
// once placed, the model and the new pages' assignments.
type reuse struct {
	prev     *store.Run
	params   RunParams
	clusters []store.Cluster
	members  []store.Membership
	fresh    []int64
	model    *cluster.Model
	as       []cluster.Assignment
}

// latestReusable returns the site's latest finished run when its pages
// can be placed on it: learned with the same options and seed, none of its
// pages removed or changed. It returns nil when the site must be learned
// again.
func latestReusable(ctx context.Context, st store.Store, site string, metas []*store.Page, opt Options) (*reuse, error) {
	prev, err := st.LatestRun(ctx, site, store.RunDone)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("learn %s: %w", site, err)
	}
	pp, ok := sameParams(prev, opt)
	if !ok {
		return nil, nil // other parameters: learn again
	}
	ru := &reuse{prev: prev, params: pp}
	if ru.clusters, err = st.Clusters(ctx, prev.ID); err != nil {
		return nil, fmt.Errorf("learn %s: %w", site, err)
	}
	if ru.members, err = st.Memberships(ctx, prev.ID); err != nil {
		return nil, fmt.Errorf("learn %s: %w", site, err)
	}
	if !ru.splitPages(metas) {
		return nil, nil // pages removed or their content changed: learn again
	}
	return ru, nil
}

// sameParams returns the parameters of run prev, and whether it was
// learned with opt's options and seed.
func sameParams(prev *store.Run, opt Options) (RunParams, bool) {
	var pp, want RunParams
	want.setOptions(opt.Options)
	if err := json.Unmarshal(prev.Params, &pp); err != nil || prev.Seed != opt.Seed || pp.options() != want.options() {
		return pp, false
	}
	return pp, true
}

// splitPages sets the pages of metas not in the run apart as fresh and
// reports whether the run's pages are all still there, unchanged.
func (ru *reuse) splitPages(metas []*store.Page) bool {
	known := map[int64]bool{}
	for _, m := range ru.members {
		known[m.PageID] = true
	}
	var kept []*store.Page
	for _, p := range metas {
		if known[p.ID] {
			kept = append(kept, p)
		} else {
			ru.fresh = append(ru.fresh, p.ID)
		}
	}
	return len(kept) == len(known) && pagesDigest(kept) == ru.params.PagesDigest
}

// assign places the fresh pages on the model's templates.
func (ru *reuse) assign(ctx context.Context, st store.Store, opt Options) error {
	newPages, err := loadPages(ctx, st, ru.fresh, opt.Parse)
	if err != nil {
		return err
	}
	ru.as, err = ru.model.Assign(ctx, newPages)
	return err
}

// assignedSince returns the run's pages assigned since its templates were
// learned, as assignments: drift is judged on every one of them, not only
// on the new batch.
func (ru *reuse) assignedSince() []cluster.Assignment {
	assigned := map[int64]bool{}
	for _, id := range ru.params.Assigned {
		assigned[id] = true
	}
	var since []cluster.Assignment
	for _, m := range ru.members {
		if assigned[m.PageID] {
			since = append(since, cluster.Assignment{Cluster: m.Cluster, Distance: m.Distance, Far: m.Outlier})
		}
	}
	return since
}

// extended returns the memberships and clusters of a new run: the
// previous memberships plus the assigned pages, placed beside their medoid
// in the plane.
func (ru *reuse) extended() ([]store.Membership, []store.Cluster) {
	pos := map[int64]store.Membership{}
	for _, m := range ru.members {
		pos[m.PageID] = m
	}
	sizes := map[int]int{}
	var out []store.Membership
	for _, m := range ru.members {
		m.RunID = 0
		out = append(out, m)
		sizes[m.Cluster]++
	}
	medoidOf := map[int]int64{}
	for _, c := range ru.clusters {
		medoidOf[c.ID] = c.Medoid
	}
	for i, a := range ru.as {
		m := store.Membership{PageID: ru.fresh[i], Cluster: a.Cluster, Distance: a.Distance, Outlier: a.Far, Reason: a.Reason}
		if a.Cluster >= 0 {
			mp := pos[medoidOf[a.Cluster]]
			m.X, m.Y = mp.X+a.Distance, mp.Y
			sizes[a.Cluster]++
		}
		out = append(out, m)
	}
	var outClusters []store.Cluster
	for _, c := range ru.clusters {
		c.RunID, c.Size = 0, sizes[c.ID]
		outClusters = append(outClusters, c)
	}
	return out, outClusters
}

// recordAssigned records a new run of the site: ru's run extended with
// the fresh pages' assignments.
func (sr *SiteRun) recordAssigned(ctx context.Context, st store.Store, ru *reuse, metas []*store.Page, opt Options) error {
	out, outClusters := ru.extended()
	run := newRun(sr.Site, opt.Seed)
	if err := st.CreateRun(ctx, run); err != nil {
		return fmt.Errorf("learn %s: %w", sr.Site, err)
	}
	prev, pp := ru.prev, ru.params
	run.K, run.Silhouette, run.Pages, run.Status = prev.K, prev.Silhouette, len(out), store.RunDone
	run.Message = sr.Note
	if pp.Mode != ModeAssigned {
		pp.BaseRun = prev.ID
	}
	ts := ru.model.Templates
	lc := ru.model.LastCost()
	sr.Cost = sr.meter.Stop(len(ru.as)+len(ts), lc.Fast, lc.Exact)
	pp.setCost(sr.Cost)
	pp.Mode, pp.Computed, pp.Distances, pp.Owner = ModeAssigned, 0, len(ru.as)*len(ts), currentOwner()
	pp.Assigned = append(pp.Assigned, ru.fresh...)
	pp.PagesDigest = pagesDigest(metas)
	sr.Mode = ModeAssigned
	return sr.finish(ctx, st, run, pp, outClusters, out)
}

// defaultMaxPages is Options.MaxPages' default: learning from 200 pages
// takes about 7,000 fast distances (landmarks: (Landmarks + k) per page)
// and holds 200 compact pages.
const defaultMaxPages = 200

// samplePages splits ids into the pages learned from, at most limit
// (default defaultMaxPages) drawn with seed and kept in their order, and
// the rest.
func samplePages(ids []int64, limit int, seed int64) (sample, rest []int64) {
	if limit <= 0 {
		limit = defaultMaxPages
	}
	if len(ids) <= limit {
		return ids, nil
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x73616d70)) // "samp"
	in := make([]bool, len(ids))
	for _, i := range rng.Perm(len(ids))[:limit] {
		in[i] = true
	}
	for i, id := range ids {
		if in[i] {
			sample = append(sample, id)
		} else {
			rest = append(rest, id)
		}
	}
	return sample, rest
}

// placeRest places the pages left out of the learning sample on the
// templates learned (res), loading them a chunk at a time; it returns their memberships, placed beside their medoid in the
// plane, and the assignment's cost.
func placeRest(ctx context.Context, st store.Store, res *cluster.Result, rest []int64, opt Options) ([]store.Membership, cluster.Cost, error) {
	var cost cluster.Cost
	if len(rest) == 0 {
		return nil, cost, nil
	}
	model := res.Model()
	pos := map[int]cluster.Point{}
	for _, c := range res.Clusters {
		pos[c.ID] = res.Members[c.Medoid].Point
	}
	var out []store.Membership
	const chunk = 32
	for start := 0; start < len(rest); start += chunk {
		part := rest[start:min(start+chunk, len(rest))]
		if len(model.Templates) == 0 {
			for _, id := range part {
				out = append(out, store.Membership{PageID: id, Cluster: -1, Outlier: true,
					Reason: "not in the learning sample, and the sample found no template"})
			}
			continue
		}
		pages, err := loadPages(ctx, st, part, opt.Parse)
		if err != nil {
			return nil, cost, err
		}
		as, err := model.Assign(ctx, pages)
		if err != nil {
			return nil, cost, err
		}
		cost.Add(model.LastCost())
		for i, a := range as {
			m := store.Membership{PageID: part[i], Cluster: a.Cluster, Distance: a.Distance, Outlier: a.Far, Reason: a.Reason}
			if a.Cluster >= 0 {
				m.X, m.Y = pos[a.Cluster][0]+a.Distance, pos[a.Cluster][1]
			}
			out = append(out, m)
		}
	}
	return out, cost, nil
}

// ErrNoTemplate is returned (wrapped) by LoadModel for a run with no
// cluster of two pages or more.
var ErrNoTemplate = errors.New("no template: every cluster has one page")

// LoadModel returns the templates of a finished stored run (its clusters
// as st.Clusters returns them), ready to assign new pages: the clusters of
// two pages or more (or the only cluster), with their medoid pages and
// outlier radii.
func LoadModel(ctx context.Context, st store.Store, run *store.Run, clusters []store.Cluster, opt Options) (*cluster.Model, error) {
	opt.Options = opt.Options.WithDefaults()
	if opt.Cache == nil {
		opt.Cache = Cache(st)
	}
	var p RunParams
	if len(run.Params) > 0 {
		if err := json.Unmarshal(run.Params, &p); err != nil {
			return nil, fmt.Errorf("run %d: parameters: %w", run.ID, err)
		}
	}
	return loadModel(ctx, st, p, clusters, opt)
}

func loadModel(ctx context.Context, st store.Store, p RunParams, clusters []store.Cluster, opt Options) (*cluster.Model, error) {
	var ids []int64
	var tClusters []store.Cluster
	for _, c := range clusters {
		if c.Size > 1 || len(clusters) == 1 {
			ids = append(ids, c.Medoid)
			tClusters = append(tClusters, c)
		}
	}
	if len(ids) == 0 {
		return nil, ErrNoTemplate
	}
	medoids, err := loadPages(ctx, st, ids, opt.Parse)
	if err != nil {
		return nil, err
	}
	ts := make([]cluster.Template, len(medoids))
	for i, c := range tClusters {
		far := p.Far[c.ID]
		if far == 0 {
			far = opt.FarDistance
		}
		ts[i] = cluster.Template{Cluster: c.ID, Medoid: medoids[i], Far: far}
	}
	return cluster.NewModel(ts, opt.Options), nil
}

// Outliers lists the run's outliers in page ID order.
func (sr *SiteRun) Outliers() []store.Membership {
	var out []store.Membership
	for _, m := range sr.Members {
		if m.Outlier {
			out = append(out, m)
		}
	}
	return out
}

// MembersOf lists the page IDs of a cluster in page ID order.
func (sr *SiteRun) MembersOf(cluster int) []int64 {
	var out []int64
	for _, m := range sr.Members {
		if m.Cluster == cluster {
			out = append(out, m.PageID)
		}
	}
	return out
}

// pagesDigest hashes the IDs and content hashes of pages (in ID order).
func pagesDigest(pages []*store.Page) string {
	ps := slices.Clone(pages)
	slices.SortFunc(ps, func(a, b *store.Page) int { return cmp.Compare(a.ID, b.ID) })
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "%d %s\n", p.ID, p.Hash)
	}
	return store.ContentHash([]byte(b.String()))
}

// setOptions records the options that shape a run's clusters.
func (p *RunParams) setOptions(o cluster.Options) {
	p.MaxK, p.MinSilhouette, p.Medoid, p.Restarts = o.MaxK, o.MinSilhouette, o.Medoid.String(), o.Restarts
	p.LandmarkThreshold, p.LandmarkCount, p.FarDistance, p.FarMADs = o.LandmarkThreshold, o.Landmarks, o.FarDistance, o.FarMADs
}

// setCost records a run's cost.
func (p *RunParams) setCost(c cluster.Cost) {
	p.Fast, p.Exact, p.CPUSeconds, p.PeakRSS = c.Fast, c.Exact, c.CPU.Seconds(), c.PeakRSS
}

// options returns the recorded options, comparable.
func (p *RunParams) options() [8]any {
	return [8]any{p.MaxK, p.MinSilhouette, p.Medoid, p.Restarts, p.LandmarkThreshold, p.LandmarkCount, p.FarDistance, p.FarMADs}
}
