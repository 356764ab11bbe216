package siteextract

import (
	"reflect"
	"testing"
)

func TestPartners(t *testing.T) {
	cases := []struct {
		name    string
		members []Member
		medoids map[int]int
		want    []int
	}{
		{"members to the medoid, the medoid to its nearest member",
			[]Member{{0, 0, false}, {0, 0.3, false}, {0, 0.1, false}, {0, 0.2, false}},
			map[int]int{0: 0}, []int{2, 0, 0, 0}},
		{"ties go to the earlier page",
			[]Member{{0, 0.2, false}, {0, 0.2, false}, {0, 0, false}},
			map[int]int{0: 2}, []int{2, 2, 0}},
		{"outliers and unplaced pages get none, nor is an outlier a medoid's partner",
			[]Member{{0, 0, false}, {0, 0.05, true}, {-1, 0, false}, {0, 0.2, false}},
			map[int]int{0: 0}, []int{3, -1, -1, 0}},
		{"a medoid alone in its cluster gets none",
			[]Member{{0, 0, false}, {1, 0, false}, {1, 0.1, false}},
			map[int]int{0: 0, 1: 1}, []int{-1, 2, 1}},
		{"a cluster whose medoid is not among the pages gets none",
			[]Member{{4, 0.1, false}, {4, 0.2, false}},
			map[int]int{}, []int{-1, -1}},
		{"no pages", nil, nil, []int{}},
	}
	for _, c := range cases {
		if got := Partners(c.members, c.medoids); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: Partners = %v, want %v", c.name, got, c.want)
		}
	}
}
