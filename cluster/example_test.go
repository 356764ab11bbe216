package cluster_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/gleaner/gleaner/cluster"
	"github.com/gleaner/gleaner/treediff"
)

func ExampleNormalize() {
	// A tree edit distance of 30 between trees of 100 and 120 nodes.
	fmt.Printf("%.3f\n", cluster.Normalize(30, 100, 120))
	// Output: 0.240
}

func ExampleAdjustedRandIndex() {
	clusters := []int{0, 0, 0, 1, 1, 1}
	eras := []string{"2005", "2005", "2005", "2009", "2009", "2009"}
	ari, _ := cluster.AdjustedRandIndex(clusters, eras)
	fmt.Printf("%.2f\n", ari)
	// Output: 1.00
}

func ExampleLearnMatrix() {
	// Six pages: 0-2 share one template, 3-5 another.
	d, _ := cluster.MatrixFrom([][]float64{
		{0, .05, .08, .70, .72, .69},
		{.05, 0, .06, .71, .70, .73},
		{.08, .06, 0, .69, .74, .70},
		{.70, .71, .69, 0, .04, .07},
		{.72, .70, .74, .04, 0, .05},
		{.69, .73, .70, .07, .05, 0},
	})
	res, err := cluster.LearnMatrix(context.Background(), d, cluster.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("k = %d, silhouette at k = 2: %.2f\n", res.K, res.Silhouette[2])
	for _, c := range res.Clusters {
		fmt.Printf("cluster %d: pages %v, medoid %d\n", c.ID, c.Members, c.Medoid)
	}
	// Output:
	// k = 2, silhouette at k = 2: 0.92
	// cluster 0: pages [0 1 2], medoid 1
	// cluster 1: pages [3 4 5], medoid 4
}

// page builds a small page in one of two layouts with n paragraphs.
func page(name string, table bool, n int) cluster.Page {
	body := "<div id=nav><a>home</a><a>news</a></div><div class=story><h1>Title</h1>" +
		strings.Repeat("<p>text</p>", n) + "</div><div id=footer><p>(c)</p></div>"
	if table {
		body = "<table><tr><td><table><tr><td>menu</td></tr><tr><td>links</td></tr></table></td><td><b>Title</b>" +
			strings.Repeat("<br>text", n) + "</td></tr></table>"
	}
	return cluster.NewPage(name, "", []byte("<html><body>"+body+"</body></html>"), treediff.ParseOptions{})
}

func ExampleModel_Assign() {
	var pages []cluster.Page
	for i := 3; i < 7; i++ {
		pages = append(pages, page(fmt.Sprintf("div-%d", i), false, i), page(fmt.Sprintf("table-%d", i), true, i))
	}
	ctx := context.Background()
	res, err := cluster.Learn(ctx, pages, cluster.Options{Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("k =", res.K)
	as, err := res.Model().Assign(ctx, []cluster.Page{page("new-div", false, 9), page("new-table", true, 2)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, a := range as {
		fmt.Printf("cluster %d (medoid %s), far: %v\n", a.Cluster, pages[res.Clusters[a.Cluster].Medoid].Name, a.Far)
	}
	// Output:
	// k = 2
	// cluster 0 (medoid div-5), far: false
	// cluster 1 (medoid table-5), far: false
}
