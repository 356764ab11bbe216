package cluster

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

// blobs returns n points in dim dimensions around k well-separated centres
// (spread sd around unit-scale centres), their true labels and the distance
// matrix scaled into [0, 1].
func blobs(seed uint64, k, perCluster, dim int, sep, sd float64) (*Matrix, []int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	centres := make([][]float64, k)
	for c := range centres {
		centres[c] = make([]float64, dim)
		centres[c][c%dim] = sep * float64(1+c/dim)
	}
	var pts [][]float64
	var labels []int
	for c := 0; c < k; c++ {
		for i := 0; i < perCluster; i++ {
			p := make([]float64, dim)
			for j := range p {
				p[j] = centres[c][j] + sd*rng.NormFloat64()
			}
			pts = append(pts, p)
			labels = append(labels, c)
		}
	}
	return euclid(pts), labels
}

func euclid(pts [][]float64) *Matrix {
	n := len(pts)
	m := NewMatrix(n)
	mx := 0.0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			s := 0.0
			for d := range pts[i] {
				s += (pts[i][d] - pts[j][d]) * (pts[i][d] - pts[j][d])
			}
			m.Set(i, j, math.Sqrt(s))
			mx = max(mx, math.Sqrt(s))
		}
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			m.Set(i, j, m.At(i, j)/mx)
		}
	}
	return m
}

func labelsOf(r *Result) []int {
	out := make([]int, len(r.Members))
	for i, m := range r.Members {
		out[i] = m.Cluster
	}
	return out
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct {
		ted    float64
		n1, n2 int
		want   float64
	}{
		{0, 10, 10, 0},
		{20, 10, 10, 1}, // delete all, insert all: the bound
		{10, 10, 10, 2.0 / 3},
		{1, 1, 0, 1}, // against the empty tree
		{0, 0, 0, 0},
		{5, 100, 100, 10.0 / 205},
	} {
		if got := Normalize(tc.ted, tc.n1, tc.n2); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Normalize(%g, %d, %d) = %g, want %g", tc.ted, tc.n1, tc.n2, got, tc.want)
		}
	}
}

func TestMatrixFromRejects(t *testing.T) {
	for name, rows := range map[string][][]float64{
		"ragged":       {{0, 1}, {1}},
		"asymmetric":   {{0, 0.5}, {0.4, 0}},
		"diagonal":     {{0.1, 0.5}, {0.5, 0}},
		"out of range": {{0, 1.5}, {1.5, 0}},
		"NaN":          {{0, math.NaN()}, {math.NaN(), 0}},
	} {
		if _, err := MatrixFrom(rows); err == nil {
			t.Errorf("%s: MatrixFrom accepted %v", name, rows)
		}
	}
	m, err := MatrixFrom([][]float64{{0, 0.2, 0.3}, {0.2, 0, 0.4}, {0.3, 0.4, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if m.At(2, 1) != 0.4 || m.At(0, 2) != 0.3 || m.At(1, 1) != 0 {
		t.Errorf("MatrixFrom: got d(2,1)=%g d(0,2)=%g d(1,1)=%g", m.At(2, 1), m.At(0, 2), m.At(1, 1))
	}
}

func TestSymEigen(t *testing.T) {
	a := [][]float64{{4, 1, 0}, {1, 3, 1}, {0, 1, 2}}
	vals, vecs := symEigen(a)
	if !(vals[0] >= vals[1] && vals[1] >= vals[2]) {
		t.Fatalf("eigenvalues not decreasing: %v", vals)
	}
	// A v = λ v for each pair, and the trace is preserved.
	for k := range vals {
		for i := range a {
			av := 0.0
			for j := range a {
				av += a[i][j] * vecs[j][k]
			}
			if math.Abs(av-vals[k]*vecs[i][k]) > 1e-9 {
				t.Errorf("pair %d: (Av)_%d = %g, λv = %g", k, i, av, vals[k]*vecs[i][k])
			}
		}
	}
	if s := vals[0] + vals[1] + vals[2]; math.Abs(s-9) > 1e-9 {
		t.Errorf("trace %g, want 9", s)
	}
}

func TestClassicalMDSRecoversPlanarDistances(t *testing.T) {
	pts := [][]float64{{0, 0}, {3, 0}, {0, 4}, {1, 1}, {2, 3}, {5, 5}}
	m := euclid(pts)
	d := make([][]float64, len(pts))
	for i := range d {
		d[i] = make([]float64, len(pts))
		for j := range d[i] {
			d[i][j] = m.At(i, j)
		}
	}
	x := classicalMDS(d).coords
	for i := range x {
		for j := range x {
			if got := x[i].dist(x[j]); math.Abs(got-d[i][j]) > 1e-9 {
				t.Errorf("embedded d(%d,%d) = %g, want %g", i, j, got, d[i][j])
			}
		}
	}
	if s := smacof(d, x, 50, 1e-9); s > 1e-6 {
		t.Errorf("stress of an exact embedding = %g", s)
	}
}

func TestSMACOFLowersStress(t *testing.T) {
	m, _ := blobs(7, 3, 8, 6, 1, 0.3) // six dimensions do not fit the plane exactly
	d := make([][]float64, m.Len())
	for i := range d {
		d[i] = make([]float64, m.Len())
		for j := range d[i] {
			d[i][j] = m.At(i, j)
		}
	}
	x := classicalMDS(d).coords
	before := stress(d, x)
	smacof(d, x, 300, 1e-9)
	if after := stress(d, x); after > before+1e-12 {
		t.Errorf("SMACOF raised the raw stress from %g to %g", before, after)
	}
}

func TestAdjustedRandIndex(t *testing.T) {
	for _, tc := range []struct {
		a, b []int
		want float64
	}{
		{[]int{0, 0, 1, 1}, []int{1, 1, 0, 0}, 1},
		{[]int{0, 0, 1, 1}, []int{0, 0, 1, 2}, 0.5714285714285715}, // scikit-learn's value
		{[]int{0, 0, 0, 0}, []int{0, 1, 2, 3}, 0},
		{[]int{0, 0, 1, 2}, []int{0, 0, 1, 1}, 0.5714285714285715},
		{[]int{0, 1, 0, 1}, []int{0, 0, 1, 1}, -0.5},
		{[]int{3}, []int{4}, 1},
	} {
		got, err := AdjustedRandIndex(tc.a, tc.b)
		if err != nil || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("ARI(%v, %v) = %g, %v; want %g", tc.a, tc.b, got, err, tc.want)
		}
	}
	if _, err := AdjustedRandIndex([]int{1, 2}, []string{"a"}); err == nil {
		t.Error("ARI of labellings of different lengths: no error")
	}
}

func TestSilhouette(t *testing.T) {
	// Two tight pairs far apart: a = 0.1, b = 0.9 for everyone, s = 8/9.
	m, _ := MatrixFrom([][]float64{
		{0, 0.1, 0.9, 0.9},
		{0.1, 0, 0.9, 0.9},
		{0.9, 0.9, 0, 0.1},
		{0.9, 0.9, 0.1, 0},
	})
	ref := []int{0, 1, 2, 3}
	s, ok := silhouette([]int{0, 0, 1, 1}, 2, ref, func(i, r int) float64 { return m.At(i, ref[r]) })
	if !ok || math.Abs(s-8.0/9) > 1e-12 {
		t.Errorf("silhouette = %g, %v; want %g", s, ok, 8.0/9)
	}
	// A singleton scores 0: (0 + 3 × s') / 4 with the other three sharing.
	s2, _ := silhouette([]int{0, 0, 0, 1}, 2, ref, func(i, r int) float64 { return m.At(i, ref[r]) })
	if s2 >= s {
		t.Errorf("a worse partition scores %g ≥ %g", s2, s)
	}
}

func TestLearnMatrixFindsBlobs(t *testing.T) {
	for _, tc := range []struct {
		name            string
		k, per, dim     int
		sep, sd         float64
		wantK           int
		landmarks       bool
		maxDistancesPer int // distances asked per page, when landmarks are used
	}{
		{name: "two templates", k: 2, per: 10, dim: 4, sep: 1, sd: 0.05, wantK: 2},
		{name: "three templates", k: 3, per: 12, dim: 4, sep: 1, sd: 0.08, wantK: 3},
		{name: "five templates", k: 5, per: 8, dim: 5, sep: 1, sd: 0.05, wantK: 5},
		{name: "one template", k: 1, per: 30, dim: 30, sep: 1, sd: 0.2, wantK: 1},
		{name: "three templates over landmarks", k: 3, per: 70, dim: 4, sep: 1, sd: 0.08, wantK: 3, landmarks: true, maxDistancesPer: 35},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, truth := blobs(42, tc.k, tc.per, tc.dim, tc.sep, tc.sd)
			res, err := LearnMatrix(context.Background(), m, Options{Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if res.K != tc.wantK {
				t.Fatalf("k = %d, want %d (silhouette %v, %s)", res.K, tc.wantK, res.Silhouette, res.Message)
			}
			if ari, _ := AdjustedRandIndex(labelsOf(res), truth); ari < 1 {
				t.Errorf("ARI = %g, want 1", ari)
			}
			if got := len(res.Landmarks) > 0; got != tc.landmarks {
				t.Errorf("landmarks used = %v, want %v", got, tc.landmarks)
			}
			if tc.landmarks && res.Distances > tc.maxDistancesPer*m.Len() {
				t.Errorf("%d distances for %d pages, want at most %d per page", res.Distances, m.Len(), tc.maxDistancesPer)
			}
			for _, c := range res.Clusters {
				if truth[c.Medoid] != truth[c.Members[0]] || truth[c.TrueMedoid] != truth[c.Members[0]] {
					t.Errorf("cluster %d: medoid %d or true medoid %d outside the cluster", c.ID, c.Medoid, c.TrueMedoid)
				}
			}
			if len(res.Outliers) != 0 {
				t.Errorf("outliers in clean blobs: %v", res.Outliers)
			}
		})
	}
}

func TestLearnMatrixOutliers(t *testing.T) {
	// Two blobs plus one page far from both (as far as the blobs from each
	// other) and one lone page in a corner of its own.
	rng := rand.New(rand.NewPCG(9, 9))
	var pts [][]float64
	for c := 0; c < 2; c++ {
		for i := 0; i < 10; i++ {
			pts = append(pts, []float64{float64(c) + 0.03*rng.NormFloat64(), 0.03 * rng.NormFloat64(), 0})
		}
	}
	pts = append(pts, []float64{0.5, 0.9, 0}) // between, far from both
	m := euclid(pts)
	res, err := LearnMatrix(context.Background(), m, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range res.Outliers {
		if o.Page == 20 {
			found = true
			if o.Reason == "" {
				t.Error("outlier without a reason")
			}
		} else {
			t.Errorf("page %d flagged: %s", o.Page, o.Reason)
		}
	}
	if !found {
		t.Errorf("page 20 not an outlier; k = %d, outliers %v", res.K, res.Outliers)
	}
}

func TestLearnMatrixDeterministic(t *testing.T) {
	m, _ := blobs(5, 4, 20, 6, 1, 0.25) // overlapping: k-means has choices to make
	big, _ := blobs(5, 3, 40, 6, 1, 0.2)
	for _, d := range []*Matrix{m, big} {
		a, err := LearnMatrix(context.Background(), d, Options{Seed: 11})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := LearnMatrix(context.Background(), d, Options{Seed: 11})
		if !reflect.DeepEqual(a.Members, b.Members) || !reflect.DeepEqual(a.Clusters, b.Clusters) ||
			!reflect.DeepEqual(a.Silhouette, b.Silhouette) || !reflect.DeepEqual(a.Landmarks, b.Landmarks) {
			t.Errorf("%d pages: two runs with seed 11 differ", d.Len())
		}
	}
}

func TestLearnMatrixSmallSites(t *testing.T) {
	ctx := context.Background()
	if _, err := LearnMatrix(ctx, NewMatrix(0), Options{}); !errors.Is(err, ErrNoPages) {
		t.Errorf("no pages: err = %v, want ErrNoPages", err)
	}
	for _, tc := range []struct {
		name       string
		m          *Matrix
		wantStatus string
		outliers   int
	}{
		{"one page", NewMatrix(1), StatusOnePage, 1},
		{"two pages", func() *Matrix { m := NewMatrix(2); m.Set(0, 1, 0.2); return m }(), StatusTooFew, 0},
		{"identical pages", NewMatrix(7), StatusIdentical, 0},
	} {
		res, err := LearnMatrix(ctx, tc.m, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if res.Status != tc.wantStatus || res.K != 1 || len(res.Clusters) != 1 || len(res.Outliers) != tc.outliers || res.Message == "" {
			t.Errorf("%s: status %q k %d clusters %d outliers %v message %q", tc.name, res.Status, res.K, len(res.Clusters), res.Outliers, res.Message)
		}
	}
}

func TestLearnMatrixCancelled(t *testing.T) {
	m, _ := blobs(1, 2, 10, 3, 1, 0.1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := LearnMatrix(ctx, m, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: err = %v", err)
	}
}

func TestParseMedoidRule(t *testing.T) {
	for s, want := range map[string]MedoidRule{"centroid": CentroidMedoid, "true": TrueMedoid} {
		if got, err := ParseMedoidRule(s); err != nil || got != want || got.String() != s {
			t.Errorf("ParseMedoidRule(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseMedoidRule("middle"); err == nil {
		t.Error("ParseMedoidRule(middle): no error")
	}
}

func TestLearnOverBudgetWarns(t *testing.T) {
	pages := perturbedSite(t, 6)
	res, err := Learn(context.Background(), pages, Options{Seed: 1, Distance: ExactDistance, TED: treediff.Options{MaxCells: 100}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "15 pairs over the tree edit distance budget") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// mapCache is a DistanceCache in memory.
type mapCache struct {
	m    map[Pair]CachedDistance
	puts int
}

func (c *mapCache) Get(_ context.Context, pairs []Pair) (map[Pair]CachedDistance, error) {
	out := map[Pair]CachedDistance{}
	for _, p := range pairs {
		if d, ok := c.m[p]; ok {
			out[p] = d
		}
	}
	return out, nil
}

func (c *mapCache) Put(_ context.Context, ds []CachedDistance) error {
	for _, d := range ds {
		if d.B < d.A {
			return errors.New("pair not canonical")
		}
		c.m[d.Pair] = d
		c.puts++
	}
	return nil
}

func TestLearnDistanceCache(t *testing.T) {
	pages := perturbedSite(t, 12)
	for i := range pages {
		pages[i].Hash = pages[i].Name
	}
	c := &mapCache{m: map[Pair]CachedDistance{}}
	first, err := Learn(context.Background(), pages, Options{Seed: 1, Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	if first.Computed == 0 || c.puts != first.Computed {
		t.Fatalf("first run: %d computed, %d cached", first.Computed, c.puts)
	}
	again, err := Learn(context.Background(), pages, Options{Seed: 1, Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	if again.Computed != 0 || again.K != first.K || !reflect.DeepEqual(labelsOf(again), labelsOf(first)) {
		t.Errorf("second run: %d computed, k %d (was %d)", again.Computed, again.K, first.K)
	}
}

func TestCompactPagesLearnAlike(t *testing.T) {
	// Compact pages (profile from the full tree, reduced tree kept) give the
	// clusters and distances of full ones, and a model of compact medoids
	// places pages as one of full medoids does.
	pages := perturbedSite(t, 24)
	compact := make([]Page, len(pages))
	for i, p := range pages {
		compact[i] = p.Compact(treediff.ReduceOptions{})
		if compact[i].Tree.Len() > p.Tree.Len() {
			t.Fatalf("page %d: compact tree larger (%d > %d nodes)", i, compact[i].Tree.Len(), p.Tree.Len())
		}
	}
	ctx := context.Background()
	a, err := Learn(ctx, pages, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Learn(ctx, compact, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Members, b.Members) || a.K != b.K {
		t.Fatalf("compact pages learned otherwise: k %d vs %d", a.K, b.K)
	}
	fresh := perturbedSite(t, 30)[24:]
	as, err := a.Model().Assign(ctx, fresh)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := b.Model().Assign(ctx, fresh)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(as, bs) {
		t.Errorf("assignments differ: %+v vs %+v", as, bs)
	}
}

func TestAssignAfterCancelledProfile(t *testing.T) {
	// A model whose first Assign was cancelled while profiling its medoids
	// still assigns with a live context.
	pages := perturbedSite(t, 24)
	res, err := Learn(context.Background(), pages, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Model()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Assign(ctx, pages[:2]); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Assign: err %v", err)
	}
	as, err := m.Assign(context.Background(), pages[:2])
	if err != nil || len(as) != 2 || as[0].Cluster != res.Members[0].Cluster || as[1].Cluster != res.Members[1].Cluster {
		t.Fatalf("Assign after a cancelled one: %+v, %v", as, err)
	}
	if c := m.LastCost(); c.Pages != 2 || c.Fast != 2*len(m.Templates) {
		t.Errorf("cost %+v, want 2 pages and %d fast distances", c, 2*len(m.Templates))
	}
}

func TestDecideFar(t *testing.T) {
	// The exact distance decides only with the fast distance, a radius at
	// the floor, and a fast distance between half the floor and the floor.
	opt := Options{}.WithDefaults() // floor 0.35
	exact := func(context.Context) (float64, error) { return 0.5, nil }
	tests := []struct {
		name      string
		d, far    float64
		dist      DistanceKind
		want      float64
		wantExact bool
	}{
		{"near: fast decides", 0.1, 0.35, FastDistance, 0.1, false},
		{"borderline: exact decides", 0.25, 0.35, FastDistance, 0.5, true},
		{"at the floor: exact decides", 0.35, 0.35, FastDistance, 0.5, true},
		{"beyond the floor: fast decides", 0.4, 0.35, FastDistance, 0.4, false},
		{"wider radius: fast decides", 0.25, 0.5, FastDistance, 0.25, false},
		{"exact distance: nothing more", 0.25, 0.35, ExactDistance, 0.25, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := opt
			o.Distance = tc.dist
			got, measure, err := decideFar(context.Background(), tc.d, tc.far, o, exact)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want || strings.Contains(measure, "reduced") != tc.wantExact {
				t.Errorf("decideFar(%v, %v) = %v (%s), want %v (exact %v)", tc.d, tc.far, got, measure, tc.want, tc.wantExact)
			}
		})
	}
	boom := errors.New("boom")
	if _, _, err := decideFar(context.Background(), 0.25, 0.35, opt, func(context.Context) (float64, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Errorf("exact failure: err %v", err)
	}
}
