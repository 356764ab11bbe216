package dashboard

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestCharts(t *testing.T) {
	pts := []point{{PageID: 1, X: 0, Y: 0, Cluster: 0, Medoid: true}, {PageID: 2, X: 1, Y: 2, Cluster: 0},
		{PageID: 3, X: -1, Y: 5, Cluster: 1, Outlier: true, Label: `<script>x</script>`}}
	nan := math.NaN()
	for _, c := range []struct {
		name  string
		svg   string
		count map[string]int
		not   []string
	}{
		{"scatter", string(scatterSVG(pts)), map[string]int{`class="mark`: 3, `class="mark medoid"`: 1, `class="mark outlier"`: 1, `href="/pages/`: 3}, []string{"<script>", "NaN"}},
		{"scatter of one page", string(scatterSVG(pts[:1])), map[string]int{`class="mark`: 1}, []string{"NaN", "Inf"}},
		{"empty scatter", string(scatterSVG(nil)), map[string]int{`class="mark`: 0}, nil},
		{"heat map 3×3", string(heatmapSVG([]string{"a", "b", "<c>"}, [][]float64{{0, .5, nan}, {.5, 0, 1}, {nan, 1, 0}}, []int{2})),
			map[string]int{`class="cell"`: 9, `not computed`: 2, `class="band"`: 2}, []string{"<c>"}},
		{"empty heat map", string(heatmapSVG(nil, nil, nil)), map[string]int{`class="cell"`: 0}, nil},
		{"progress", string(progressSVG([]sample{{At: time.Second, Tried: 3, Validated: 1}, {At: 2 * time.Second, Tried: 9, Validated: 4}}, true)),
			map[string]int{`<polyline`: 2, `xmlns=`: 1}, []string{"NaN"}},
		{"no progress yet", string(progressSVG(nil, false)), map[string]int{"no data yet": 1, "<polyline": 0}, nil},
		{"silhouette", string(silhouetteSVG(map[int]float64{2: .3, 3: .5, 4: .4}, 3)), map[string]int{`<polyline`: 1, `class="mark-x"`: 1}, []string{"NaN"}},
	} {
		for s, n := range c.count {
			if got := strings.Count(c.svg, s); got != n {
				t.Errorf("%s: %d × %q, want %d", c.name, got, s, n)
			}
		}
		for _, s := range c.not {
			if strings.Contains(c.svg, s) {
				t.Errorf("%s: contains %q", c.name, s)
			}
		}
	}
}
