package siteextract_test

import (
	"fmt"

	"github.com/gleaner/gleaner/siteextract"
)

// Page 1 is the medoid of cluster 0: the members are compared with it, and
// it with its nearest member; the outlier is extracted alone.
func ExamplePartners() {
	members := []siteextract.Member{
		{Cluster: 0, Distance: 0.30},
		{Cluster: 0, Distance: 0},
		{Cluster: 0, Distance: 0.12},
		{Cluster: 0, Distance: 0.05, Outlier: true},
	}
	fmt.Println(siteextract.Partners(members, map[int]int{0: 1}))
	// Output: [1 2 1 -1]
}
