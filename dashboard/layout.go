package dashboard

import (
	"fmt"
	"html/template"
	"sort"
	"strings"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/selector"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

// Layout drawing limits: the width it is drawn at, the tallest page part
// drawn, the most boxes drawn (largest first).
const (
	layoutW      = 360.0
	layoutMaxH   = 8000
	layoutBoxes  = 1500
	layoutMinDim = 6
)

// layoutSVG draws a rendered page from its stored layout: each visible
// element box outlined, the element the extraction selected (the one whose
// selector.Of is selector) filled. It returns "" for a page
// without layout, and whether the selected element was found.
func layoutSVG(p *store.Page, selector string) (template.HTML, bool, error) {
	if p.Capture == nil || len(p.Capture.Layout) == 0 {
		return "", false, nil
	}
	l, err := browser.ParseLayout(p.Capture.Layout)
	if err != nil || l == nil || len(l.Boxes) == 0 {
		return "", false, err
	}
	target, found := selectedBox(p, l, selector)
	w, h := float64(max(l.Width, 1)), float64(min(max(l.Height, 1), layoutMaxH))
	k := layoutW / w
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="layout" viewBox="0 0 %g %.0f" role="img" aria-label="layout of the rendered page">`, layoutW, h*k)
	fmt.Fprintf(&b, `<rect x="0" y="0" width="%g" height="%.0f" fill="#fff" stroke="#ccc"/>`, layoutW, h*k)
	for _, bx := range drawnBoxes(l, h) {
		fmt.Fprintf(&b, `<rect class="box" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#9aa5b8" stroke-width="0.5"/>`,
			float64(bx.X)*k, float64(bx.Y)*k, float64(bx.W)*k, float64(bx.H)*k)
	}
	if found {
		fmt.Fprintf(&b, `<rect class="extracted" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f28e2b" fill-opacity="0.35" stroke="#e4572e" stroke-width="2"/>`,
			float64(target.X)*k, float64(target.Y)*k, float64(target.W)*k, float64(target.H)*k)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()), found, nil
}

// selectedBox finds the box of the element sel designates in the
// tree parsed from the page's HTML (the tree the layout is keyed on).
func selectedBox(p *store.Page, l *browser.Layout, sel string) (browser.Box, bool) {
	if sel == "" {
		return browser.Box{}, false
	}
	t, err := treediff.Parse(p.Name(), p.HTML(), treediff.ParseOptions{ContentType: p.ContentType})
	if err != nil {
		return browser.Box{}, false
	}
	var box browser.Box
	found := false
	t.Root.Walk(func(n *treediff.Node) bool {
		if !found && n.Kind == treediff.Element && selector.Of(n) == sel {
			box, found = l.Box(n)
		}
		return !found
	})
	return box, found
}

// drawnBoxes are the visible boxes large enough to see above height h,
// largest first, at most layoutBoxes.
func drawnBoxes(l *browser.Layout, h float64) []browser.Box {
	var out []browser.Box
	for _, b := range l.Boxes {
		if b.Visible && b.W >= layoutMinDim && b.H >= layoutMinDim && float64(b.Y) < h {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		ai, aj := out[i].W*out[i].H, out[j].W*out[j].H
		if ai != aj {
			return ai > aj
		}
		return out[i].Y < out[j].Y || out[i].Y == out[j].Y && out[i].X < out[j].X
	})
	return out[:min(len(out), layoutBoxes)]
}
