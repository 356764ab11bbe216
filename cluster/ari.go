package cluster

import "fmt"

// AdjustedRandIndex compares two labellings of the same items (Hubert &
// Arabie 1985): 1 for identical partitions (up to renaming), about 0 for
// independent ones, possibly negative. Labels are compared by equality only.
// It returns 1 when both partitions put every item in one group or every item
// alone (the index is 0/0 there and the partitions agree), and an error when
// the labellings differ in length.
func AdjustedRandIndex[A, B comparable](a []A, b []B) (float64, error) {
	if len(a) != len(b) {
		return 0, fmt.Errorf("adjusted Rand index: labellings of %d and %d items", len(a), len(b))
	}
	type cell struct {
		x A
		y B
	}
	nij := map[cell]int{}
	ai := map[A]int{}
	bj := map[B]int{}
	for i := range a {
		nij[cell{a[i], b[i]}]++
		ai[a[i]]++
		bj[b[i]]++
	}
	c2 := func(n int) float64 { return float64(n) * float64(n-1) / 2 }
	var index, sa, sb float64
	for _, n := range nij {
		index += c2(n)
	}
	for _, n := range ai {
		sa += c2(n)
	}
	for _, n := range bj {
		sb += c2(n)
	}
	total := c2(len(a))
	if total == 0 {
		return 1, nil
	}
	expected := sa * sb / total
	maxIndex := (sa + sb) / 2
	if maxIndex == expected {
		return 1, nil
	}
	return (index - expected) / (maxIndex - expected), nil
}
