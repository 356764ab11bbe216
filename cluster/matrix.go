package cluster

import "fmt"

// Matrix is a symmetric n×n matrix of distances with a zero diagonal, stored
// as its upper triangle.
type Matrix struct {
	n int
	d []float64
}

// NewMatrix returns an n×n matrix of zeros.
func NewMatrix(n int) *Matrix {
	if n < 0 {
		n = 0
	}
	return &Matrix{n: n, d: make([]float64, n*(n-1)/2+1)}
}

// MatrixFrom builds a Matrix from full rows. It fails unless rows is square,
// symmetric, with a zero diagonal and distances in [0, 1].
func MatrixFrom(rows [][]float64) (*Matrix, error) {
	m := NewMatrix(len(rows))
	for i, r := range rows {
		if len(r) != len(rows) {
			return nil, fmt.Errorf("distance matrix row %d has %d values, want %d", i, len(r), len(rows))
		}
		if r[i] != 0 {
			return nil, fmt.Errorf("distance matrix: d(%d,%d) = %g, want 0", i, i, r[i])
		}
		for j := i + 1; j < len(r); j++ {
			if r[j] != rows[j][i] {
				return nil, fmt.Errorf("distance matrix not symmetric: d(%d,%d) = %g but d(%d,%d) = %g", i, j, r[j], j, i, rows[j][i])
			}
			if !(r[j] >= 0 && r[j] <= 1) {
				return nil, fmt.Errorf("distance matrix: d(%d,%d) = %g, outside [0,1]", i, j, r[j])
			}
			m.Set(i, j, r[j])
		}
	}
	return m, nil
}

// Len is n.
func (m *Matrix) Len() int { return m.n }

func (m *Matrix) index(i, j int) int {
	if i > j {
		i, j = j, i
	}
	// Rows 0..i-1 of the strict upper triangle hold i*n - i*(i+1)/2 cells.
	return i*m.n - i*(i+1)/2 + (j - i - 1)
}

// At returns d(i, j).
func (m *Matrix) At(i, j int) float64 {
	if i == j {
		return 0
	}
	return m.d[m.index(i, j)]
}

// Set sets d(i, j) and d(j, i); setting the diagonal is ignored.
func (m *Matrix) Set(i, j int, v float64) {
	if i == j {
		return
	}
	m.d[m.index(i, j)] = v
}

// Normalize maps a unit-cost tree edit distance ted between trees of n1 and
// n2 nodes into [0, 1]: 2·ted / (n1 + n2 + ted). See the package doc for why
// not ted / max(n1, n2).
func Normalize(ted float64, n1, n2 int) float64 {
	s := float64(n1+n2) + ted
	if s <= 0 || ted <= 0 {
		return 0
	}
	v := 2 * ted / s
	if v > 1 {
		v = 1
	}
	return v
}
