package cluster

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"

	"github.com/gleaner/gleaner/treediff"
)

// MedoidRule says which page represents a cluster.
type MedoidRule uint8

const (
	// TrueMedoid is the member with the least mean tree edit distance to the
	// other members (measured on the original distances, not the
	// embedding). It is the default: on big9-dev the pair-diff extraction
	// scores slightly better with it than with the centroid medoid (F1
	// 0.9870 against 0.9863, 63 pages with the exact gold text against 61).
	TrueMedoid MedoidRule = iota
	// CentroidMedoid is the thesis's choice: the member nearest the cluster's
	// centroid in the 2-D embedding.
	CentroidMedoid
)

func (r MedoidRule) String() string {
	switch r {
	case CentroidMedoid:
		return "centroid"
	case TrueMedoid:
		return "true"
	}
	return fmt.Sprintf("medoid(%d)", uint8(r))
}

// ParseMedoidRule reads a rule as written on a command line ("centroid",
// "true").
func ParseMedoidRule(s string) (MedoidRule, error) {
	switch s {
	case "centroid":
		return CentroidMedoid, nil
	case "true":
		return TrueMedoid, nil
	}
	return 0, fmt.Errorf("unknown medoid rule %q (want centroid or true)", s)
}

// Options tunes Learn. Zero fields take the defaults listed with each.
type Options struct {
	// Seed drives every random choice (landmarks, k-means++ seeds): the
	// same pages and seed give the same clusters.
	Seed int64
	// MaxK bounds the number of clusters tried (default 8; never more than
	// the number of pages less one).
	MaxK int
	// MinSilhouette is the mean silhouette the best k > 1 must reach to be
	// kept; below it the site is one template, k = 1 (default 0.25, where
	// Kaufman & Rousseeuw's scale starts to call structure "weak" rather
	// than absent).
	MinSilhouette float64
	// Restarts is the number of k-means runs per k, the best kept (default 10).
	Restarts int
	// LandmarkThreshold is the largest number of pages learned from the full
	// distance matrix (default 60); larger sites use landmarks.
	LandmarkThreshold int
	// Landmarks is the number of landmark pages used above the threshold
	// (default 30, at most half the threshold).
	Landmarks int
	// Medoid chooses each cluster's representative (default TrueMedoid).
	Medoid MedoidRule
	// FarDistance is the least normalised distance to the nearest medoid
	// that makes a page an outlier (default 0.35); see the package doc.
	FarDistance float64
	// FarMADs widens a cluster's outlier radius beyond FarDistance for
	// clusters whose members are spread: median + FarMADs robust standard
	// deviations of the members' distances to the medoid (default 4).
	FarMADs float64
	// DriftFraction and DriftMinPages make Model.Drift ask for relearning
	// when at least DriftMinPages pages were assigned and more than
	// DriftFraction of them were far from every medoid (defaults 0.25 and 5).
	DriftFraction float64
	DriftMinPages int
	// Workers is the number of tree edit distances computed at once
	// (default runtime.NumCPU()).
	Workers int
	// Cache, when set, keeps tree edit distances by page content hash across
	// runs so that a re-run computes only pairs it has not seen.
	Cache DistanceCache
	// TED bounds each tree edit distance computation.
	TED treediff.Options
	// Distance is the distance pages are clustered on (default
	// FastDistance).
	Distance DistanceKind
	// TieMargin is how close (in normalised distance) a page's two nearest
	// medoids must be for the exact tree edit distance to choose between
	// them, with FastDistance (default 0.03).
	TieMargin float64
	// Reduce tunes the reduction of tag trees before the exact tree edit
	// distances that break near ties.
	Reduce treediff.ReduceOptions
}

// WithDefaults returns o with each option left unset at its default.
func (o Options) WithDefaults() Options {
	if o.MaxK <= 0 {
		o.MaxK = 8
	}
	if o.MinSilhouette == 0 {
		o.MinSilhouette = 0.25
	}
	if o.Restarts <= 0 {
		o.Restarts = 10
	}
	if o.LandmarkThreshold <= 0 {
		o.LandmarkThreshold = 60
	}
	if o.Landmarks <= 0 {
		o.Landmarks = 30
	}
	if o.Landmarks > o.LandmarkThreshold/2 {
		o.Landmarks = max(o.LandmarkThreshold/2, 2)
	}
	if o.FarDistance <= 0 {
		o.FarDistance = 0.35
	}
	if o.FarMADs <= 0 {
		o.FarMADs = 4
	}
	if o.DriftFraction <= 0 {
		o.DriftFraction = 0.25
	}
	if o.DriftMinPages <= 0 {
		o.DriftMinPages = 5
	}
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	if o.TieMargin <= 0 {
		o.TieMargin = 0.03
	}
	return o
}

// Site statuses reported in Result.Status.
const (
	StatusLearned   = "learned"   // k chosen by silhouette (k may be 1)
	StatusOnePage   = "one-page"  // a single usable page: nothing to compare
	StatusIdentical = "identical" // every usable page has the same tag tree
	StatusTooFew    = "too-few"   // two usable pages: too few to split
	StatusNoPages   = "no-pages"  // no page could be parsed
)

// Result is what Learn found for one site.
type Result struct {
	// Status is one of the Status constants; Message says it in words.
	Status  string
	Message string
	// K is the number of clusters kept.
	K int
	// Silhouette is the mean silhouette of the best k-means partition for
	// each k ≥ 2 tried, on the original distances.
	Silhouette map[int]float64
	// Clusters lists the templates, by ID from 0.
	Clusters []Cluster
	// Members has one entry per input page, in input order.
	Members []Member
	// Outliers lists the pages that are alone in their cluster, too far from
	// every medoid, or unusable, in input order.
	Outliers []Outlier
	// Stress is Kruskal's stress-1 of the embedding (of the landmarks when
	// landmarks were used).
	Stress float64
	// Landmarks lists the pages (input indices) whose distances to every
	// page were computed, when the site was above the landmark threshold.
	Landmarks []int
	// Distances counts the clustering distances the run needed; Computed
	// is how many of them were not found in the cache.
	Distances, Computed int
	// Cost is what the run spent.
	Cost Cost
	// Warnings lists what the run could not do as asked, such as pairs of
	// pages too large to compare within Options.TED's budget (counted as
	// distance 1).
	Warnings []string

	pages []Page // the input, for Model
	opt   Options
}

// Cluster is one template of a site.
type Cluster struct {
	ID      int
	Members []int // input indices, increasing
	// Centroid is the mean position of the members in the embedding.
	Centroid Point
	// CentroidMedoid and TrueMedoid are the members chosen by each rule;
	// Medoid is the one Options.Medoid selected.
	CentroidMedoid, TrueMedoid, Medoid int
	// Far is the distance to Medoid beyond which a page is far from this
	// template (see the package doc).
	Far float64
}

// Member places one input page.
type Member struct {
	// Cluster is the page's cluster ID, -1 for a page that could not be used.
	Cluster int
	Point   Point
	// Distance is the normalised tree edit distance to the cluster's medoid.
	Distance float64
	Outlier  bool
	Reason   string
}

// Outlier is a page that is not paired with a template medoid, and why.
type Outlier struct {
	Page   int // input index
	Reason string
}

// ErrNoPages is returned by Learn when given no page at all.
var ErrNoPages = errors.New("no pages to learn from")

// Learn groups one site's pages by template: normalised tree edit distances
// between their tag trees, an MDS embedding in the plane, k-means for each k
// up to Options.MaxK, k chosen by silhouette, medoids and outliers. Pages
// whose Err is set are reported as outliers and otherwise left out. The
// distances are computed on Options.Workers goroutines and the computation
// stops when ctx is done.
func Learn(ctx context.Context, pages []Page, opt Options) (*Result, error) {
	if len(pages) == 0 {
		return nil, ErrNoPages
	}
	opt = opt.WithDefaults()
	meter := StartMeter()
	var usable []int
	for i, p := range pages {
		if p.Err == nil && p.Tree != nil && p.Tree.Root != nil {
			usable = append(usable, i)
		}
	}
	if len(usable) < 2 {
		// Nothing to compare: a site of one page is not learned.
		opt.Distance = ExactDistance
	}
	o, err := newDistanceOracle(ctx, pages, usable, opt)
	if err != nil {
		return nil, err
	}
	res, err := learn(ctx, o, opt)
	if err != nil {
		return nil, err
	}
	res.pages = pages
	res.expand(len(pages), usable, func(i int) string {
		if pages[i].Err != nil {
			return "unusable: " + pages[i].Err.Error()
		}
		return "unusable: no tree"
	})
	res.Distances, res.Computed = o.asked, o.computed
	if over := o.overBudgetPairs(); len(over) > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d pairs over the tree edit distance budget, counted as distance 1 (first: %s)", len(over), over[0]))
	}
	fast, exact := o.counts()
	res.Cost = meter.Stop(len(usable), fast, exact)
	return res, nil
}

// LearnMatrix is Learn on distances already computed: d holds normalised
// distances in [0, 1] between n pages. Above the landmark threshold it still
// reads only the landmark columns, as Learn would compute them.
func LearnMatrix(ctx context.Context, d *Matrix, opt Options) (*Result, error) {
	if d == nil || d.Len() == 0 {
		return nil, ErrNoPages
	}
	opt = opt.WithDefaults()
	o := &matrixOracle{m: d}
	res, err := learn(ctx, o, opt)
	if err != nil {
		return nil, err
	}
	res.Distances = o.asked
	return res, nil
}

// oracle gives the distances between the pages being learned (indices
// 0..n-1), a batch at a time so that an implementation can compute them in
// parallel.
type oracle interface {
	len() int
	name(i int) string
	distances(ctx context.Context, pairs [][2]int) ([]float64, error)
	// exact gives the distances that decide near ties (the same as
	// distances when those are exact).
	exact(ctx context.Context, pairs [][2]int) ([]float64, error)
}

type matrixOracle struct {
	m     *Matrix
	asked int
}

func (o *matrixOracle) len() int          { return o.m.Len() }
func (o *matrixOracle) name(i int) string { return fmt.Sprintf("page %d", i) }
func (o *matrixOracle) distances(ctx context.Context, pairs [][2]int) ([]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out := make([]float64, len(pairs))
	for k, p := range pairs {
		out[k] = o.m.At(p[0], p[1])
	}
	o.asked += len(pairs)
	return out, nil
}

func (o *matrixOracle) exact(ctx context.Context, pairs [][2]int) ([]float64, error) {
	return o.distances(ctx, pairs)
}

// learner holds one run's state over the n usable pages.
type learner struct {
	o   oracle
	opt Options
	n   int
	ref []int       // reference pages: all pages, or the landmarks
	d   [][]float64 // d[i][r] = distance from page i to page ref[r]
	pos []Point
}

func learn(ctx context.Context, o oracle, opt Options) (*Result, error) {
	n := o.len()
	res := &Result{Silhouette: map[int]float64{}, opt: opt}
	if n < 2 {
		trivialResult(res, n)
		return res, nil
	}
	l := &learner{o: o, opt: opt, n: n}
	if err := l.references(ctx); err != nil {
		return nil, err
	}
	res.Stress = l.embed()
	if len(l.ref) < n {
		res.Landmarks = slices.Clone(l.ref)
	}
	labels := l.templates(res)
	if err := l.finish(ctx, res, labels); err != nil {
		return nil, err
	}
	return res, nil
}

// trivialResult fills res for a site of n < 2 usable pages: nothing to
// learn from, or a single page, an outlier in a template of its own.
func trivialResult(res *Result, n int) {
	if n == 0 {
		res.Status, res.Message = StatusNoPages, "no page of the site could be used"
		return
	}
	res.Status, res.Message = StatusOnePage, "a single page: nothing to compare it with"
	res.K = 1
	res.Clusters = []Cluster{{ID: 0, Members: []int{0}}}
	res.Members = []Member{{Cluster: 0, Outlier: true, Reason: "only page of its site: no other page to compare with"}}
	res.Outliers = []Outlier{{Page: 0, Reason: res.Members[0].Reason}}
}

// templates decides the number of templates res.K, with its status and
// message, and returns each page's template.
func (l *learner) templates(res *Result) []int {
	labels := make([]int, l.n)
	res.K = 1
	switch {
	case l.spread() == 0:
		res.Status = StatusIdentical
		res.Message = fmt.Sprintf("all %d pages have the same tag tree: one template", l.n)
	case l.n == 2:
		res.Status = StatusTooFew
		res.Message = "two pages: too few to split, one template"
	default:
		res.Status = StatusLearned
		bestK, bestS, bestLab := l.bestK(res)
		if bestK > 1 && bestS >= l.opt.MinSilhouette {
			res.K, labels = bestK, bestLab
			res.Message = fmt.Sprintf("k = %d by mean silhouette %.3f", bestK, bestS)
		} else if bestK > 1 {
			res.Message = fmt.Sprintf("one template: best mean silhouette %.3f (k = %d) is below %.2f", bestS, bestK, l.opt.MinSilhouette)
		} else {
			res.Message = "one template: no k > 1 could be scored"
		}
	}
	return labels
}

// spread is the largest distance from a page to a reference page.
func (l *learner) spread() float64 {
	spread := 0.0
	for i := range l.d {
		for _, v := range l.d[i] {
			spread = max(spread, v)
		}
	}
	return spread
}

// bestK runs k-means for k from 2 to Options.MaxK (seeded per k), records
// each k's mean silhouette in res and returns the best k, its silhouette
// and labels: k = 1 and no labels when none could be scored.
func (l *learner) bestK(res *Result) (int, float64, []int) {
	bestK, bestS, bestLab := 1, math.Inf(-1), []int(nil)
	for k := 2; k <= min(l.opt.MaxK, l.n-1); k++ {
		rng := rand.New(rand.NewPCG(uint64(l.opt.Seed), uint64(k)))
		lab, groups := kmeans(l.pos, k, l.opt.Restarts, rng)
		if groups < k {
			break // fewer distinct positions than k: larger k cannot do better
		}
		s, ok := silhouette(lab, groups, l.ref, func(i, r int) float64 { return l.d[i][r] })
		if !ok {
			continue
		}
		res.Silhouette[k] = s
		if s > bestS+1e-12 {
			bestK, bestS, bestLab = k, s, lab
		}
	}
	return bestK, bestS, bestLab
}

// references computes the distances from every page to the reference
// pages: all of them up to the landmark threshold, else Options.Landmarks
// landmarks picked alternately at random and farthest-first (max-min), so
// that both the bulk of the site and its rare templates are sampled.
func (l *learner) references(ctx context.Context) error {
	if l.n <= l.opt.LandmarkThreshold {
		return l.allReferences(ctx)
	}
	return l.landmarks(ctx)
}

// allReferences makes every page a reference page: the full distance
// matrix.
func (l *learner) allReferences(ctx context.Context) error {
	n := l.n
	l.ref = make([]int, n)
	var pairs [][2]int
	for i := 0; i < n; i++ {
		l.ref[i] = i
		for j := i + 1; j < n; j++ {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	ds, err := l.o.distances(ctx, pairs)
	if err != nil {
		return err
	}
	l.d = make([][]float64, n)
	for i := range l.d {
		l.d[i] = make([]float64, n)
	}
	for k, p := range pairs {
		l.d[p[0]][p[1]], l.d[p[1]][p[0]] = ds[k], ds[k]
	}
	return nil
}

// landmarks picks Options.Landmarks reference pages, the first at random,
// and the distances from every page to each.
func (l *learner) landmarks(ctx context.Context) error {
	n := l.n
	rng := rand.New(rand.NewPCG(uint64(l.opt.Seed), 0x6c616e64)) // "land"
	l.d = make([][]float64, n)
	for i := range l.d {
		l.d[i] = make([]float64, 0, l.opt.Landmarks)
	}
	isRef := make([]bool, n)
	minD := make([]float64, n)
	for i := range minD {
		minD[i] = math.Inf(1)
	}
	next := rng.IntN(n)
	for len(l.ref) < l.opt.Landmarks {
		col, err := l.column(ctx, next)
		if err != nil {
			return err
		}
		isRef[next] = true
		l.ref = append(l.ref, next)
		for i, v := range col {
			l.d[i] = append(l.d[i], v)
			minD[i] = min(minD[i], v)
		}
		next = l.nextLandmark(isRef, minD, rng)
	}
	return nil
}

// nextLandmark picks the next landmark among the pages not yet chosen:
// after an odd number of landmarks the farthest from them (max-min
// distance), unless every page is at distance 0; otherwise one at random.
func (l *learner) nextLandmark(isRef []bool, minD []float64, rng *rand.Rand) int {
	var rest []int
	far := -1
	for i := 0; i < l.n; i++ {
		if isRef[i] {
			continue
		}
		rest = append(rest, i)
		if far < 0 || minD[i] > minD[far] {
			far = i
		}
	}
	if len(l.ref)%2 == 1 && minD[far] > 0 {
		return far
	}
	return rest[rng.IntN(len(rest))]
}

// column returns the distances from every page to page j.
func (l *learner) column(ctx context.Context, j int) ([]float64, error) {
	pairs := make([][2]int, 0, l.n-1)
	for i := 0; i < l.n; i++ {
		if i != j {
			pairs = append(pairs, [2]int{i, j})
		}
	}
	ds, err := l.o.distances(ctx, pairs)
	if err != nil {
		return nil, err
	}
	col := make([]float64, l.n)
	for k, p := range pairs {
		col[p[0]] = ds[k]
	}
	return col, nil
}

// embed places the pages in the plane: classical MDS then SMACOF on the
// reference pages; with landmarks, every other page is triangulated from its
// distances to the landmarks and refined against their positions.
func (l *learner) embed() float64 {
	m := len(l.ref)
	dl := make([][]float64, m)
	for a, p := range l.ref {
		dl[a] = l.d[p]
	}
	t := classicalMDS(dl)
	y := slices.Clone(t.coords)
	s := smacof(dl, y, 300, 1e-7)
	l.pos = make([]Point, l.n)
	if m == l.n {
		copy(l.pos, y)
		return s
	}
	isRef := make(map[int]int, m)
	for a, p := range l.ref {
		isRef[p] = a
	}
	for i := range l.pos {
		if a, ok := isRef[i]; ok {
			l.pos[i] = y[a]
			continue
		}
		l.pos[i] = placeStress(t.place(l.d[i]), y, l.d[i], 200)
	}
	return s
}

// finish builds the clusters, their medoids and the outliers from labels.
func (l *learner) finish(ctx context.Context, res *Result, labels []int) error {
	l.groupClusters(res, labels)
	medDist, err := l.medoids(ctx, res, labels)
	if err != nil {
		return err
	}
	return l.members(ctx, res, labels, medDist)
}

// groupClusters makes the clusters of labels with their members, and their
// centroids' sums of positions.
func (l *learner) groupClusters(res *Result, labels []int) {
	k := 0
	for _, c := range labels {
		k = max(k, c+1)
	}
	res.Clusters = make([]Cluster, k)
	for c := range res.Clusters {
		res.Clusters[c].ID = c
	}
	for i, c := range labels {
		cl := &res.Clusters[c]
		cl.Members = append(cl.Members, i)
		cl.Centroid[0] += l.pos[i][0]
		cl.Centroid[1] += l.pos[i][1]
	}
}

// medoids picks each cluster's medoid and radius, and returns the
// distances to the medoids: medDist[c][i] from page i to cluster c's.
func (l *learner) medoids(ctx context.Context, res *Result, labels []int) ([][]float64, error) {
	refIndex := make(map[int]int, len(l.ref))
	for r, p := range l.ref {
		refIndex[p] = r
	}
	medDist := make([][]float64, len(res.Clusters))
	for c := range res.Clusters {
		cl := &res.Clusters[c]
		l.pickMedoid(cl, labels)
		col, err := l.distancesTo(ctx, cl.Medoid, refIndex)
		if err != nil {
			return nil, err
		}
		medDist[c] = col
		var ds []float64
		for _, i := range cl.Members {
			if i != cl.Medoid {
				ds = append(ds, col[i])
			}
		}
		cl.Far = farRadius(ds, l.opt)
	}
	return medDist, nil
}

// pickMedoid sets cl's centroid (from the sums of its members' positions),
// the member nearest it, the true medoid, and the medoid Options.Medoid
// chooses of the two.
func (l *learner) pickMedoid(cl *Cluster, labels []int) {
	cl.Centroid[0] /= float64(len(cl.Members))
	cl.Centroid[1] /= float64(len(cl.Members))
	cl.CentroidMedoid = cl.Members[0]
	for _, i := range cl.Members {
		if l.pos[i].dist(cl.Centroid) < l.pos[cl.CentroidMedoid].dist(cl.Centroid)-1e-12 {
			cl.CentroidMedoid = i
		}
	}
	cl.TrueMedoid = l.trueMedoid(cl, labels)
	cl.Medoid = cl.CentroidMedoid
	if l.opt.Medoid == TrueMedoid {
		cl.Medoid = cl.TrueMedoid
	}
}

// distancesTo returns the distances from every page to page j: read from
// the reference distances when j is a reference page (refIndex gives its
// column), else computed.
func (l *learner) distancesTo(ctx context.Context, j int, refIndex map[int]int) ([]float64, error) {
	r, ok := refIndex[j]
	if !ok {
		return l.column(ctx, j)
	}
	col := make([]float64, l.n)
	for i := range col {
		col[i] = l.d[i][r]
	}
	return col, nil
}

// members records each page's cluster, position and distance to its
// medoid, and which pages are outliers: alone in their cluster, or beyond
// the radius of the nearest template.
func (l *learner) members(ctx context.Context, res *Result, labels []int, medDist [][]float64) error {
	res.Members = make([]Member, l.n)
	for i, c := range labels {
		m := Member{Cluster: c, Point: l.pos[i], Distance: medDist[c][i]}
		if len(res.Clusters[c].Members) == 1 {
			m.Outlier, m.Reason = true, "alone in its cluster"
		} else if err := l.judgeFar(ctx, i, &m, res.Clusters, medDist); err != nil {
			return err
		}
		res.Members[i] = m
		if m.Outlier {
			res.Outliers = append(res.Outliers, Outlier{Page: i, Reason: m.Reason})
		}
	}
	return nil
}

// judgeFar marks page i's member m an outlier when it is far from every
// medoid: the nearest template (singletons aside) is still beyond its
// radius.
func (l *learner) judgeFar(ctx context.Context, i int, m *Member, clusters []Cluster, medDist [][]float64) error {
	near, err := l.nearestTemplate(ctx, i, clusters, medDist)
	if err != nil {
		return err
	}
	cl := clusters[near]
	d, measure, err := l.farDistance(ctx, i, cl, medDist[near][i])
	if err != nil {
		return err
	}
	if d > cl.Far {
		m.Outlier = true
		m.Reason = fmt.Sprintf("far from every template: normalised %s %.3f to the nearest medoid (cluster %d, %s) exceeds %.3f",
			measure, d, near, l.o.name(cl.Medoid), cl.Far)
	}
	return nil
}

// farDistance returns the distance that decides whether page i is beyond
// the radius of its nearest template cl, given its fast distance d, and
// the name of its measure. The fixed floor Options.FarDistance was set on
// tree edit distances, and on today's pages the pq-gram distance runs
// lower (0.6 to 0.9 of it on wcxb-dev's two-page sites): where the radius is
// that floor and the fast distance lies between half the floor and the
// floor, the exact tree edit distance between reduced trees decides.
func (l *learner) farDistance(ctx context.Context, i int, cl Cluster, d float64) (float64, string, error) {
	return decideFar(ctx, d, cl.Far, l.opt, func(ctx context.Context) (float64, error) {
		ex, err := l.o.exact(ctx, [][2]int{{i, cl.Medoid}})
		if err != nil {
			return 0, err
		}
		return ex[0], nil
	})
}

// decideFar is farDistance's rule, shared with Model.Assign.
func decideFar(ctx context.Context, d, far float64, opt Options, exact func(context.Context) (float64, error)) (float64, string, error) {
	if opt.Distance != FastDistance || far > opt.FarDistance || d <= opt.FarDistance/2 || d > opt.FarDistance {
		return d, opt.Distance.measure(), nil
	}
	ex, err := exact(ctx)
	if err != nil {
		return 0, "", err
	}
	return ex, "TED between reduced trees", nil
}

// nearestTemplate returns the cluster (of two members or more) whose medoid
// is nearest page i, the exact distance deciding between medoids within
// Options.TieMargin of the nearest.
func (l *learner) nearestTemplate(ctx context.Context, i int, clusters []Cluster, medDist [][]float64) (int, error) {
	var cands []int
	var ds []float64
	for c, cl := range clusters {
		if len(cl.Members) > 1 {
			cands = append(cands, c)
			ds = append(ds, medDist[c][i])
		}
	}
	far := func(x int) float64 { return clusters[cands[x]].Far }
	best, err := breakTie(ctx, ds, l.opt.TieMargin, far, func(ctx context.Context, near []int) ([]float64, error) {
		pairs := make([][2]int, len(near))
		for x, c := range near {
			pairs[x] = [2]int{i, clusters[cands[c]].Medoid}
		}
		return l.o.exact(ctx, pairs)
	})
	if err != nil {
		return -1, err
	}
	return cands[best], nil
}

// breakTie returns the index of the least of the fast distances ds or,
// when others are within margin of it, of the least exact distance among
// those (exact measures the candidates given by index into ds). Only
// candidates within their radius far(x) compete: a page beyond every
// radius fits no template whichever is nearest, and the exact distances
// would decide nothing. It returns 0 for no candidate.
func breakTie(ctx context.Context, ds []float64, margin float64, far func(x int) float64, exact func(context.Context, []int) ([]float64, error)) (int, error) {
	best := 0
	for x, d := range ds {
		if d < ds[best] {
			best = x
		}
	}
	var near []int
	for x, d := range ds {
		if d <= ds[best]+margin && d <= far(x) {
			near = append(near, x)
		}
	}
	if len(near) < 2 {
		return best, nil
	}
	ex, err := exact(ctx, near)
	if err != nil {
		return 0, err
	}
	pick := 0
	for x := range ex {
		if ex[x] < ex[pick] {
			pick = x
		}
	}
	return near[pick], nil
}

// trueMedoid returns the member with the least mean distance to the
// cluster's reference pages (all its other members below the landmark
// threshold; its landmarks above it, an unbiased sample). A cluster without
// landmarks falls back to the centroid medoid.
func (l *learner) trueMedoid(cl *Cluster, labels []int) int {
	best, bestMean := cl.CentroidMedoid, math.Inf(1)
	for _, i := range cl.Members {
		sum, cnt := 0.0, 0
		for r, p := range l.ref {
			if p != i && labels[p] == cl.ID {
				sum += l.d[i][r]
				cnt++
			}
		}
		if cnt == 0 {
			continue
		}
		if m := sum / float64(cnt); m < bestMean-1e-12 {
			best, bestMean = i, m
		}
	}
	return best
}

// farRadius is max(FarDistance, median + FarMADs·1.4826·MAD) of the
// members' distances to their medoid: a spread-out template tolerates more.
func farRadius(ds []float64, opt Options) float64 {
	if len(ds) < 3 {
		return opt.FarDistance
	}
	med := median(ds)
	dev := make([]float64, len(ds))
	for i, v := range ds {
		dev[i] = math.Abs(v - med)
	}
	return max(opt.FarDistance, med+opt.FarMADs*1.4826*median(dev))
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// expand maps a result over the usable pages back to all n input pages: the
// unusable ones get cluster -1 and an outlier entry with reason(i).
func (res *Result) expand(n int, usable []int, reason func(i int) string) {
	members := make([]Member, n)
	for i := range members {
		members[i] = Member{Cluster: -1}
	}
	for u, i := range usable {
		members[i] = res.Members[u]
	}
	for c := range res.Clusters {
		cl := &res.Clusters[c]
		for k, u := range cl.Members {
			cl.Members[k] = usable[u]
		}
		if len(cl.Members) > 0 {
			cl.CentroidMedoid, cl.TrueMedoid, cl.Medoid = usable[cl.CentroidMedoid], usable[cl.TrueMedoid], usable[cl.Medoid]
		}
	}
	for k, r := range res.Landmarks {
		res.Landmarks[k] = usable[r]
	}
	res.Outliers = res.Outliers[:0]
	for i := range members {
		if members[i].Cluster < 0 {
			members[i].Outlier, members[i].Reason = true, reason(i)
		}
		if members[i].Outlier {
			res.Outliers = append(res.Outliers, Outlier{Page: i, Reason: members[i].Reason})
		}
	}
	res.Members = members
}
