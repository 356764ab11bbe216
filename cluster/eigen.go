package cluster

import (
	"math"
	"sort"
)

// symEigen returns the eigenvalues of the symmetric matrix a (row-major n×n,
// left unchanged) in decreasing order and the matching unit eigenvectors as
// columns of vecs (vecs[i][k] is component i of eigenvector k). It uses cyclic
// Jacobi rotations: O(n³) per sweep, exact to rounding, and only ever called on
// matrices of at most a few hundred rows (the full matrix below the landmark
// threshold, the landmark matrix above it).
func symEigen(a [][]float64) (vals []float64, vecs [][]float64) {
	n := len(a)
	m := make([][]float64, n)
	v := make([][]float64, n)
	for i := range m {
		m[i] = append([]float64(nil), a[i]...)
		v[i] = make([]float64, n)
		v[i][i] = 1
	}
	for sweep := 0; sweep < 100; sweep++ {
		if offDiagonal(m) < 1e-22 {
			break
		}
		jacobiSweep(m, v)
	}
	return sortedEigen(m, v)
}

// offDiagonal is the sum of squares of m's elements above the diagonal:
// the sweeps stop once it is negligible.
func offDiagonal(m [][]float64) float64 {
	off := 0.0
	for p := range m {
		for q := p + 1; q < len(m); q++ {
			off += m[p][q] * m[p][q]
		}
	}
	return off
}

// jacobiSweep zeroes each element above the diagonal of m in turn by a
// Jacobi rotation, applied to m on both sides and accumulated in v.
func jacobiSweep(m, v [][]float64) {
	for p := range m {
		for q := p + 1; q < len(m); q++ {
			if math.Abs(m[p][q]) < 1e-300 {
				continue
			}
			c, s := jacobiRotation(m, p, q)
			rotate(m, v, p, q, c, s)
		}
	}
}

// jacobiRotation returns the cosine and sine of the rotation in the (p, q)
// plane that zeroes m[p][q] (the smaller of the two angles).
func jacobiRotation(m [][]float64, p, q int) (c, s float64) {
	theta := (m[q][q] - m[p][p]) / (2 * m[p][q])
	t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
	if theta < 0 {
		t = -t
	}
	c = 1 / math.Sqrt(t*t+1)
	return c, t * c
}

// rotate applies the rotation (c, s) in the (p, q) plane to m's columns,
// then its rows, and to v's columns.
func rotate(m, v [][]float64, p, q int, c, s float64) {
	n := len(m)
	for k := 0; k < n; k++ {
		mkp, mkq := m[k][p], m[k][q]
		m[k][p] = c*mkp - s*mkq
		m[k][q] = s*mkp + c*mkq
	}
	for k := 0; k < n; k++ {
		mpk, mqk := m[p][k], m[q][k]
		m[p][k] = c*mpk - s*mqk
		m[q][k] = s*mpk + c*mqk
	}
	for k := 0; k < n; k++ {
		vkp, vkq := v[k][p], v[k][q]
		v[k][p] = c*vkp - s*vkq
		v[k][q] = s*vkp + c*vkq
	}
}

// sortedEigen returns the eigenvalues on m's diagonal in decreasing order
// and the matching columns of v, each signed so its largest component is
// positive.
func sortedEigen(m, v [][]float64) (vals []float64, vecs [][]float64) {
	n := len(m)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return m[order[x]][order[x]] > m[order[y]][order[y]] })
	vals = make([]float64, n)
	vecs = make([][]float64, n)
	for i := range vecs {
		vecs[i] = make([]float64, n)
	}
	for k, o := range order {
		vals[k] = m[o][o]
		sign := columnSign(v, o)
		for i := 0; i < n; i++ {
			vecs[i][k] = sign * v[i][o]
		}
	}
	return vals, vecs
}

// columnSign is the sign of column o's largest component (the first of
// near equals): fixing it makes results independent of rotation order
// details.
func columnSign(v [][]float64, o int) float64 {
	big := 0
	for i := range v {
		if math.Abs(v[i][o]) > math.Abs(v[big][o])+1e-12 {
			big = i
		}
	}
	if v[big][o] < 0 {
		return -1
	}
	return 1
}
