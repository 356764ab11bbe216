package dashboard

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"sort"
	"strings"
	"time"
)

// palette colours clusters (Tableau 10 and two more).
var palette = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#1b9e77", "#7570b3"}

func clusterColor(c int) string {
	if c < 0 {
		return "#888888"
	}
	return palette[c%len(palette)]
}

// point is one page of the MDS scatter.
type point struct {
	PageID  int64
	Label   string // shown on hover
	X, Y    float64
	Cluster int
	Medoid  bool
	Outlier bool
}

// chart sizes.
const (
	scatterW, scatterH = 560.0, 420.0
	heatSize           = 420.0
	lineW, lineH       = 560.0, 220.0
	pad                = 28.0
)

// scale maps [lo, hi] onto [a, b]; a flat range maps to the middle.
func scale(v, lo, hi, a, b float64) float64 {
	if hi-lo < 1e-12 {
		return (a + b) / 2
	}
	return a + (v-lo)/(hi-lo)*(b-a)
}

func bounds(vs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	return lo, hi
}

// scatterSVG draws the pages' MDS coordinates, one mark per page linking to
// it: a disc per page, a square for a medoid, a ring for an outlier.
func scatterSVG(pts []point) template.HTML {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="scatter" viewBox="0 0 %g %g" role="img" aria-label="MDS scatter of %d pages">`, scatterW, scatterH, len(pts))
	fmt.Fprintf(&b, `<rect class="frame" x="0.5" y="0.5" width="%g" height="%g" fill="none" stroke="#ccc"/>`, scatterW-1, scatterH-1)
	xs, ys := make([]float64, len(pts)), make([]float64, len(pts))
	for i, p := range pts {
		xs[i], ys[i] = p.X, p.Y
	}
	x0, x1 := bounds(xs)
	y0, y1 := bounds(ys)
	for _, p := range pts {
		x := scale(p.X, x0, x1, pad, scatterW-pad)
		y := scale(p.Y, y0, y1, scatterH-pad, pad)
		fmt.Fprintf(&b, `<a href="/pages/%d">`, p.PageID)
		col := clusterColor(p.Cluster)
		attrs := fmt.Sprintf(`class="mark%s" data-page="%d" data-cluster="%d"`, markKind(p), p.PageID, p.Cluster)
		switch {
		case p.Medoid:
			fmt.Fprintf(&b, `<rect %s x="%.1f" y="%.1f" width="12" height="12" fill="%s" stroke="#000" stroke-width="2">`, attrs, x-6, y-6, col)
		case p.Outlier:
			fmt.Fprintf(&b, `<circle %s cx="%.1f" cy="%.1f" r="5" fill="#fff" stroke="%s" stroke-width="2.5">`, attrs, x, y, col)
		default:
			fmt.Fprintf(&b, `<circle %s cx="%.1f" cy="%.1f" r="5" fill="%s" fill-opacity="0.85">`, attrs, x, y, col)
		}
		fmt.Fprintf(&b, `<title>%s</title>%s</a>`, html.EscapeString(p.Label), map[bool]string{true: "</rect>", false: "</circle>"}[p.Medoid])
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func markKind(p point) string {
	switch {
	case p.Medoid:
		return " medoid"
	case p.Outlier:
		return " outlier"
	}
	return ""
}

// heatCell colours a normalised distance from dark (0, alike) to light
// (1, different); a distance not in the cache is hatched grey.
func heatCell(d float64, ok bool) string {
	if !ok {
		return "#d9d9d9"
	}
	v := math.Max(0, math.Min(1, d))
	// dark blue to yellow through teal
	r := int(30 + v*220)
	g := int(40 + v*190)
	bl := int(110 - v*80)
	return fmt.Sprintf("#%02x%02x%02x", r, g, bl)
}

// heatmapSVG draws the n×n matrix dist (NaN: unknown) with the pages in
// the given order; bands separates clusters (the row where each starts).
func heatmapSVG(labels []string, dist [][]float64, bands []int) template.HTML {
	n := len(dist)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="heatmap" viewBox="0 0 %g %g" role="img" aria-label="%d×%d distance matrix" shape-rendering="crispEdges">`, heatSize, heatSize, n, n)
	if n == 0 {
		b.WriteString(`</svg>`)
		return template.HTML(b.String())
	}
	c := heatSize / float64(n)
	for i := range n {
		for j := range n {
			d := dist[i][j]
			known := !math.IsNaN(d)
			fmt.Fprintf(&b, `<rect class="cell" x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"><title>%s × %s: %s</title></rect>`,
				float64(j)*c, float64(i)*c, c+0.02, c+0.02, heatCell(d, known), html.EscapeString(labels[i]), html.EscapeString(labels[j]), distText(d))
		}
	}
	for _, k := range bands {
		if k > 0 && k < n {
			fmt.Fprintf(&b, `<line class="band" x1="0" y1="%.2f" x2="%g" y2="%.2f" stroke="#fff" stroke-width="1.5"/>`, float64(k)*c, heatSize, float64(k)*c)
			fmt.Fprintf(&b, `<line class="band" x1="%.2f" y1="0" x2="%.2f" y2="%g" stroke="#fff" stroke-width="1.5"/>`, float64(k)*c, float64(k)*c, heatSize)
		}
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

func distText(d float64) string {
	if math.IsNaN(d) {
		return "not computed"
	}
	return fmt.Sprintf("%.3f", d)
}

// series is one line of a line chart.
type series struct {
	Name  string
	Color string
	X, Y  []float64
}

// lineSVG draws series over shared axes, with the axis ranges printed and
// an optional marked x (e.g. the chosen k).
func lineSVG(class, xLabel string, ss []series, mark float64, standalone bool) template.HTML {
	var xs, ys []float64
	for _, s := range ss {
		xs, ys = append(xs, s.X...), append(ys, s.Y...)
	}
	ys = append(ys, 0)
	var b strings.Builder
	ns := map[bool]string{true: ` xmlns="http://www.w3.org/2000/svg"`}[standalone]
	fmt.Fprintf(&b, `<svg%s class="%s" viewBox="0 0 %g %g" role="img" font-family="sans-serif" font-size="11">`, ns, class, lineW, lineH)
	fmt.Fprintf(&b, `<rect x="%g" y="%g" width="%g" height="%g" fill="none" stroke="#ccc"/>`, pad+12, pad/2, lineW-pad-20, lineH-pad*1.5-8)
	if len(xs) == 0 {
		fmt.Fprintf(&b, `<text x="%g" y="%g" fill="#666">no data yet</text></svg>`, lineW/2-30, lineH/2)
		return template.HTML(b.String())
	}
	x0, x1 := bounds(xs)
	y0, y1 := bounds(ys)
	px := func(v float64) float64 { return scale(v, x0, x1, pad+12, lineW-8) }
	py := func(v float64) float64 { return scale(v, y0, y1, lineH-pad-8, pad/2) }
	if !math.IsNaN(mark) {
		fmt.Fprintf(&b, `<line class="mark-x" x1="%.1f" x2="%.1f" y1="%g" y2="%g" stroke="#999" stroke-dasharray="4 3"/>`, px(mark), px(mark), pad/2, lineH-pad-8)
	}
	for i, s := range ss {
		var pts []string
		for k := range s.X {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(s.X[k]), py(s.Y[k])))
		}
		fmt.Fprintf(&b, `<polyline class="series" points="%s" fill="none" stroke="%s" stroke-width="2"/>`, strings.Join(pts, " "), s.Color)
		if len(s.X) < 40 {
			for k := range s.X {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`, px(s.X[k]), py(s.Y[k]), s.Color)
			}
		}
		fmt.Fprintf(&b, `<text x="%g" y="%g" fill="%s">%s</text>`, pad+20, pad/2+14+float64(i)*14, s.Color, html.EscapeString(s.Name))
	}
	axisLabels(&b, xLabel, x0, x1, y0, y1)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// axisLabels writes the ranges of both axes and the x axis' name.
func axisLabels(b *strings.Builder, xLabel string, x0, x1, y0, y1 float64) {
	fmt.Fprintf(b, `<text x="%g" y="%g" fill="#444">%s</text><text x="%g" y="%g" fill="#444">%s</text>`, pad+12, lineH-6, num(x0), lineW-40, lineH-6, num(x1))
	fmt.Fprintf(b, `<text x="2" y="%g" fill="#444">%s</text><text x="2" y="%g" fill="#444">%s</text>`, lineH-pad-8, num(y0), pad/2+10, num(y1))
	fmt.Fprintf(b, `<text x="%g" y="%g" fill="#444">%s</text>`, lineW/2-20, lineH-6, html.EscapeString(xLabel))
}

func num(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e9 {
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%.2f", v)
}

// progressSVG charts tried and validated pages over a crawl's time.
func progressSVG(samples []sample, standalone bool) template.HTML {
	tried := series{Name: "tried", Color: "#4e79a7"}
	valid := series{Name: "validated", Color: "#59a14f"}
	for _, s := range samples {
		t := s.At.Round(time.Millisecond).Seconds()
		tried.X, tried.Y = append(tried.X, t), append(tried.Y, float64(s.Tried))
		valid.X, valid.Y = append(valid.X, t), append(valid.Y, float64(s.Validated))
	}
	return lineSVG("progress", "seconds", []series{tried, valid}, math.NaN(), standalone)
}

// silhouetteSVG charts the mean silhouette per k tried, marking the
// chosen k.
func silhouetteSVG(sil map[int]float64, chosen int) template.HTML {
	ks := make([]int, 0, len(sil))
	for k := range sil {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	s := series{Name: "mean silhouette", Color: "#b07aa1"}
	for _, k := range ks {
		s.X, s.Y = append(s.X, float64(k)), append(s.Y, sil[k])
	}
	return lineSVG("silhouette", "k", []series{s}, float64(chosen), false)
}
