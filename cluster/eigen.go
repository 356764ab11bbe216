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
		off := 0.0
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				off += m[p][q] * m[p][q]
			}
		}
		if off < 1e-22 {
			break
		}
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				if math.Abs(m[p][q]) < 1e-300 {
					continue
				}
				theta := (m[q][q] - m[p][p]) / (2 * m[p][q])
				t := 1 / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
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
		}
	}
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
		// Fix the sign (largest component positive) so results do not depend
		// on rotation order details.
		big := 0
		for i := 0; i < n; i++ {
			if math.Abs(v[i][o]) > math.Abs(v[big][o])+1e-12 {
				big = i
			}
		}
		sign := 1.0
		if v[big][o] < 0 {
			sign = -1
		}
		for i := 0; i < n; i++ {
			vecs[i][k] = sign * v[i][o]
		}
	}
	return vals, vecs
}
