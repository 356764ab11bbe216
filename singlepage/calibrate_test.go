package singlepage

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/gleaner/gleaner/internal/sharedpages"
	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/treediff"
)

func TestFitIsotonic(t *testing.T) {
	tests := []struct {
		name   string
		x, y   []float64
		wantX  []float64
		wantY  []float64
		probes map[float64]float64
	}{
		{"increasing stays", []float64{0.1, 0.2, 0.3}, []float64{0, 0.5, 1}, []float64{0.1, 0.2, 0.3}, []float64{0, 0.5, 1},
			map[float64]float64{0: 0, 0.15: 0.25, 0.3: 1, 2: 1}},
		{"violators pooled", []float64{0.3, 0.1, 0.2, 0.4}, []float64{0.2, 0, 0.6, 1}, []float64{0.1, 0.25, 0.4}, []float64{0, 0.4, 1},
			map[float64]float64{0.25: 0.4, 0.325: 0.7}},
		{"decreasing becomes flat", []float64{1, 2, 3}, []float64{0.9, 0.6, 0.3}, []float64{2}, []float64{0.6},
			map[float64]float64{-1: 0.6, 5: 0.6}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := FitIsotonic(tt.x, tt.y)
			if !near(m.X, tt.wantX) || !near(m.Y, tt.wantY) {
				t.Fatalf("knots %v %v, want %v %v", m.X, m.Y, tt.wantX, tt.wantY)
			}
			for x, want := range tt.probes {
				if got := m.At(x); math.Abs(got-want) > 1e-9 {
					t.Errorf("At(%v) = %v, want %v", x, got, want)
				}
			}
		})
	}
	if got := (Isotonic{}).At(0.5); got != 0 {
		t.Errorf("empty map At = %v", got)
	}
}

func near(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-9 {
			return false
		}
	}
	return true
}

func TestWordOverlap(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"", "", 1},
		{"words", "", 0},
		{"The cat sat.", "the CAT sat", 1},
		{"a a b", "a b b", 2.0 / 3},
		{"one two three four", "one two", 2 * 0.5 * 1 / 1.5},
		{"alpha", "beta", 0},
	}
	for _, tt := range tests {
		if got := WordOverlap(tt.a, tt.b); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("WordOverlap(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestCalibratedResult checks what every extraction now reports: the page
// type, the method's own confidence apart, a calibrated confidence in
// [0, 1], and the evidence; the agreement with go-trafilatura is measured
// only when the second opinion may run.
func TestCalibratedResult(t *testing.T) {
	tr, src := readTypePage(t, "article")
	tests := []struct {
		name      string
		second    float64
		wantAgree bool
	}{
		{"second opinion allowed", 0, true},
		{"second opinion off", -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Extract(tr, Options{Source: src, SecondOpinionBelow: tt.second})
			if err != nil {
				t.Fatal(err)
			}
			if r.PageType != pagetype.Article {
				t.Errorf("page type %q", r.PageType)
			}
			if r.Evidence == nil || r.RawConfidence != r.Evidence.Raw || r.Evidence.Method != r.Method {
				t.Fatalf("evidence %+v (raw %v, method %s)", r.Evidence, r.RawConfidence, r.Method)
			}
			if r.Confidence < 0 || r.Confidence > 1 {
				t.Errorf("confidence %v", r.Confidence)
			}
			checkMeasured(t, *r.Evidence, tt.wantAgree)
			if v := r.Evidence.Vector(); len(v) != len(EvidenceNames) {
				t.Errorf("%d values, %d names", len(v), len(EvidenceNames))
			}
		})
	}
}

// checkMeasured checks what a single-page result's evidence measured, on a
// plain article: go-trafilatura's agreement and the chooser's probability
// when the second opinion ran (asked), the body's lines, and no compared
// body.
func checkMeasured(t *testing.T, e Evidence, asked bool) {
	t.Helper()
	if got := e.Agreement >= 0; got != asked {
		t.Errorf("agreement %v, measured %v, want %v", e.Agreement, got, asked)
	}
	if asked && e.Agreement < 0.9 {
		t.Errorf("go-trafilatura disagrees on a plain article: %v", e.Agreement)
	}
	if got := e.Chooser >= 0; got != asked {
		t.Errorf("chooser %v, weighed %v, want %v", e.Chooser, got, asked)
	}
	if e.Block != -1 || e.Lines == 0 {
		t.Errorf("block agreement %v, %d lines", e.Block, e.Lines)
	}
}

func TestReadShape(t *testing.T) {
	tests := []struct {
		name string
		body string
		want Shape
	}{
		{"empty", "", Shape{}},
		{"prose", "A first paragraph of the article, long enough to be prose.\n\nA second one, also long enough.", Shape{Lines: 2}},
		{"comments", "The article's only paragraph, which is long enough.\n\nAnn, 3 March 2024\nFirst!\nReply\n\nBob, 4 March 2024\nSecond.\nReply",
			Shape{Lines: 7, RepeatShare: 2.0 / 7, FigureShare: 2.0 / 7}},
		{"case and punctuation do not make a line new", "Share this:\nshare this", Shape{Lines: 2, RepeatShare: 1}},
		{"a long line with a figure is prose", "In 2024 the council voted on the river plan again after a year.", Shape{Lines: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ReadShape(tt.body)
			if got.Lines != tt.want.Lines || math.Abs(got.RepeatShare-tt.want.RepeatShare) > 1e-9 ||
				math.Abs(got.FigureShare-tt.want.FigureShare) > 1e-9 {
				t.Errorf("ReadShape = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestWithBlockBody(t *testing.T) {
	tests := []struct {
		name, body, block string
		want              float64
		known             bool
	}{
		{"same words", "The council met.", "the council met", 1, true},
		{"half", "one two", "one two three four five six", 0.5, true},
		{"no block body", "one two", "", 0, false},
		{"no body", "", "one two", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := WithBlockBody(Result{Body: tt.body}, tt.block)
			if r.blockKnown != tt.known || math.Abs(r.block-tt.want) > 1e-9 {
				t.Errorf("block %v (known %v), want %v (%v)", r.block, r.blockKnown, tt.want, tt.known)
			}
		})
	}
}

func TestCalibrateEmptyPage(t *testing.T) {
	r := Calibrate(Result{Confidence: 0.3}, &treediff.Tree{}, nil, true)
	if r.Confidence != 0.3 || r.PageType != "" || r.Evidence != nil {
		t.Errorf("empty page: %+v", r)
	}
}

// BenchmarkCalibrate measures, on parsed big9-dev pages, what calibrating
// a single-page result costs beside the extraction itself: the evidence
// without the agreement (page structure, page type) and with it (one
// go-trafilatura run on the page).
//
//	go test ./singlepage -run '^$' -bench Calibrate
func BenchmarkCalibrate(b *testing.B) {
	pages := sharedpages.Pages(b, "big9-dev")
	results := make([]Result, len(pages))
	for i, p := range pages {
		r, err := BlockModel(p.Tree, Options{Source: p.Src}.WithDefaults(), nil)
		if err != nil {
			b.Fatal(err)
		}
		results[i] = r
	}
	for _, bc := range []struct {
		name string
		run  func(i int)
	}{
		{"extract-single", func(i int) {
			if _, err := BlockModel(pages[i].Tree, Options{Source: pages[i].Src}.WithDefaults(), nil); err != nil {
				b.Fatal(err)
			}
		}},
		{"calibrate", func(i int) { Calibrate(results[i], pages[i].Tree, pages[i].Src, false) }},
		{"calibrate+agreement", func(i int) { Calibrate(results[i], pages[i].Tree, pages[i].Src, true) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			n := 0
			for b.Loop() {
				bc.run(n % len(pages))
				n++
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "pages/s")
		})
	}
}

// readTypePage reads and parses one of package pagetype's test pages.
func readTypePage(t *testing.T, name string) (*treediff.Tree, []byte) {
	t.Helper()
	return parsePath(t, filepath.Join("..", "pagetype", "testdata", "pagetype", name+".html"))
}
