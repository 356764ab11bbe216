package cluster

import "math"

// Point is a position in the 2-D embedding of a site's pages.
type Point [2]float64

func (p Point) dist(q Point) float64 { return math.Hypot(p[0]-q[0], p[1]-q[1]) }

// torgerson is a classical (Torgerson) MDS solution in two dimensions; it
// keeps what landmark MDS needs to place further points.
type torgerson struct {
	coords []Point
	// pinv[k] is eigenvector k divided by sqrt(eigenvalue k) (zero when the
	// eigenvalue is not positive): the rows of the pseudo-inverse of the
	// landmark configuration.
	pinv [2][]float64
	// meanSq is the column mean of the squared distances.
	meanSq []float64
}

// classicalMDS embeds the full distance matrix d (n×n) in the plane: double
// centring of the squared distances, B = -½·J·D²·J, then the two leading
// eigenpairs of B, x_k = v_k·sqrt(λ_k).
func classicalMDS(d [][]float64) *torgerson {
	n := len(d)
	t := &torgerson{coords: make([]Point, n), meanSq: make([]float64, n)}
	if n == 0 {
		return t
	}
	sq := make([][]float64, n)
	total := 0.0
	for i := range d {
		sq[i] = make([]float64, n)
		for j := range d[i] {
			sq[i][j] = d[i][j] * d[i][j]
			t.meanSq[j] += sq[i][j] / float64(n)
		}
	}
	for _, v := range t.meanSq {
		total += v / float64(n)
	}
	b := make([][]float64, n)
	for i := range b {
		b[i] = make([]float64, n)
		for j := range b[i] {
			// sq is symmetric, so row means equal column means.
			b[i][j] = -0.5 * (sq[i][j] - t.meanSq[i] - t.meanSq[j] + total)
		}
	}
	vals, vecs := symEigen(b)
	for k := 0; k < 2; k++ {
		t.pinv[k] = make([]float64, n)
		if k >= n || vals[k] <= 1e-12 {
			continue
		}
		s := math.Sqrt(vals[k])
		for i := 0; i < n; i++ {
			t.coords[i][k] = vecs[i][k] * s
			t.pinv[k][i] = vecs[i][k] / s
		}
	}
	return t
}

// place triangulates a point from its distances to the landmarks this
// solution was computed on (de Silva & Tenenbaum's landmark MDS):
// x_k = -½ · Σ_l pinv[k][l]·(δ_l² − meanSq_l).
func (t *torgerson) place(delta []float64) Point {
	var p Point
	for k := 0; k < 2; k++ {
		for l, dl := range delta {
			p[k] += -0.5 * t.pinv[k][l] * (dl*dl - t.meanSq[l])
		}
	}
	return p
}

// smacof refines x (changed in place) to reduce the raw stress
// Σ_{i<j} (‖x_i − x_j‖ − d_ij)² by Guttman transforms (de Leeuw's SMACOF with
// unit weights), which never increase the stress. It returns Kruskal's
// stress-1, sqrt(raw stress / Σ d_ij²).
func smacof(d [][]float64, x []Point, maxIter int, tol float64) float64 {
	n := len(x)
	if n < 2 {
		return 0
	}
	prev := stress(d, x)
	next := make([]Point, n)
	for it := 0; it < maxIter; it++ {
		for i := 0; i < n; i++ {
			var acc Point
			for j := 0; j < n; j++ {
				if i == j {
					continue
				}
				dij := x[i].dist(x[j])
				r := 0.0
				if dij > 1e-12 {
					r = d[i][j] / dij
				}
				// B(X)·X row i: Σ_j r_ij (x_i − x_j).
				acc[0] += r * (x[i][0] - x[j][0])
				acc[1] += r * (x[i][1] - x[j][1])
			}
			next[i] = Point{acc[0] / float64(n), acc[1] / float64(n)}
		}
		copy(x, next)
		s := stress(d, x)
		if prev-s <= tol*prev {
			prev = s
			break
		}
		prev = s
	}
	den := 0.0
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			den += d[i][j] * d[i][j]
		}
	}
	if den == 0 {
		return 0
	}
	return math.Sqrt(prev / den)
}

func stress(d [][]float64, x []Point) float64 {
	s := 0.0
	for i := range x {
		for j := i + 1; j < len(x); j++ {
			e := x[i].dist(x[j]) - d[i][j]
			s += e * e
		}
	}
	return s
}

// placeStress moves p to reduce Σ_l (‖p − y_l‖ − δ_l)² with the landmarks y
// fixed: the Guttman transform restricted to one free point.
func placeStress(p Point, y []Point, delta []float64, maxIter int) Point {
	if len(y) == 0 {
		return p
	}
	for it := 0; it < maxIter; it++ {
		var acc Point
		for l, yl := range y {
			acc[0] += yl[0]
			acc[1] += yl[1]
			if dl := p.dist(yl); dl > 1e-12 {
				acc[0] += delta[l] * (p[0] - yl[0]) / dl
				acc[1] += delta[l] * (p[1] - yl[1]) / dl
			}
		}
		q := Point{acc[0] / float64(len(y)), acc[1] / float64(len(y))}
		moved := q.dist(p)
		p = q
		if moved < 1e-9 {
			break
		}
	}
	return p
}
