package pagetype

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

func readTypePage(t *testing.T, name string) (*treediff.Tree, []byte) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "pagetype", name+".html"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := treediff.Parse(name, src, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr, src
}

// feature returns the named value of Features.
func feature(t *testing.T, f []float64, name string) float64 {
	t.Helper()
	i := slices.Index(FeatureNames, name)
	if i < 0 {
		t.Fatalf("no feature %q", name)
	}
	return f[i]
}

// TestPageTypeFeatures checks that each kind of page shows the cues of its
// kind and not those of the others.
func TestPageTypeFeatures(t *testing.T) {
	tests := []struct {
		page      string
		present   []string // features > 0
		absent    []string // features == 0
		wantMoreP bool     // most words in paragraphs
	}{
		{"article", []string{"ld article", "og article", "url date", "url slug", "url article", "log time"},
			[]string{"ld product", "log pre", "log card group", "log prices"}, true},
		{"collection", []string{"ld collection", "log card group", "card group share", "log prices", "url list", "og website"},
			[]string{"ld article", "log pre"}, false},
		{"forum", []string{"ld forum", "log post group", "post group share", "log forum words", "url forum", "log blockquote"},
			[]string{"ld product", "log pre"}, false},
		{"product", []string{"ld product", "og product", "log prices", "log shop words", "log itemprop price", "log form", "url product"},
			[]string{"ld article", "log card group"}, false},
		{"documentation", []string{"ld doc", "log pre", "log code", "code share", "log table", "log doc words", "url doc"},
			[]string{"ld product", "log prices"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.page, func(t *testing.T) {
			tr, src := readTypePage(t, tt.page)
			f := Features(tr, src)
			if len(f) != len(FeatureNames) {
				t.Fatalf("%d features, %d names", len(f), len(FeatureNames))
			}
			for _, n := range tt.present {
				if feature(t, f, n) <= 0 {
					t.Errorf("%s = %v, want > 0", n, feature(t, f, n))
				}
			}
			for _, n := range tt.absent {
				if feature(t, f, n) != 0 {
					t.Errorf("%s = %v, want 0", n, feature(t, f, n))
				}
			}
			if got := feature(t, f, "p share") > 0.5; got != tt.wantMoreP {
				t.Errorf("p share = %.2f", feature(t, f, "p share"))
			}
		})
	}
}

func TestPageTypeFeaturesEmpty(t *testing.T) {
	for _, tr := range []*treediff.Tree{nil, {}} {
		if f := Features(tr, nil); len(f) != len(FeatureNames) {
			t.Errorf("%d features for an empty page", len(f))
		}
	}
	tr, err := treediff.Parse("x", []byte("<p>"), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range Features(tr, []byte(`<script type="application/ld+json">{"@type": [</script>`)) {
		if v != v || v < 0 {
			t.Errorf("%s = %v on a page without words", FeatureNames[i], v)
		}
	}
}

func TestURLShape(t *testing.T) {
	tests := []struct {
		url  string
		want map[int]float64
	}{
		{"", map[int]float64{0: 0}},
		{"https://example.com/", map[int]float64{0: 1, 7: 1, 1: 0}},
		{"https://example.com/blog/2024/05/how-we-moved-to-a-new-office.html?ref=x",
			map[int]float64{0: 1, 2: 1, 4: 1, 5: 0.6, 6: 1, 7: 0, 12: 1}},
		{"https://example.com/t/some-topic/12345", map[int]float64{3: 1, 8: 1, 9: 0}},
		{"%zz", map[int]float64{0: 0}},
	}
	for _, tt := range tests {
		got := urlShape(tt.url)
		for i, v := range tt.want {
			if got[i] != v {
				t.Errorf("urlShape(%q)[%d] = %v, want %v", tt.url, i, got[i], v)
			}
		}
	}
}
