package pagemeta

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

// TestHeadlineOfPageType: on a service's or a listing's page, the
// chooser takes the title the page states over an h1 that is a slogan
// or a category's name; on an article (or a page of unknown kind) the
// hand rules' headline stays.
func TestHeadlineOfPageType(t *testing.T) {
	tests := []struct {
		file, pageType, extracted, want string
	}{
		{"service.html", "service", "Kitchen Renovation That Lasts for Decades", "Kitchen Renovation Services"},
		{"service.html", "article", "Kitchen Renovation That Lasts for Decades", "Kitchen Renovation That Lasts for Decades"},
		{"service.html", "", "Kitchen Renovation That Lasts for Decades", "Kitchen Renovation That Lasts for Decades"},
		{"listing.html", "listing", "Engineering", "Remote Data Engineer Jobs"},
		{"listing.html", "article", "Engineering", "Engineering"},
	}
	for _, tt := range tests {
		m := readTitlePage(t, tt.file)
		if got := m.HeadlineOf(tt.extracted, tt.pageType); got != tt.want {
			t.Errorf("%s as %q: headline %q, want %q", tt.file, tt.pageType, got, tt.want)
		}
	}
}

// TestTitleCandidates: the candidates are distinct (case and
// typographic quotes aside), each with every feature the model weighs,
// and a stated title's sides are offered.
func TestTitleCandidates(t *testing.T) {
	m := readTitlePage(t, "listing.html")
	cs := m.TitleCandidates("Remote data engineer jobs", "listing")
	seen := map[string]bool{}
	for _, c := range cs {
		if seen[normKey(c.Text)] {
			t.Errorf("candidate %q twice", c.Text)
		}
		seen[normKey(c.Text)] = true
		if len(c.Features) != len(titleFeatureNames) || len(c.Features) != len(titleWeights) {
			t.Errorf("candidate %q: %d features, %d names, %d weights", c.Text, len(c.Features), len(titleFeatureNames), len(titleWeights))
		}
	}
	for _, want := range []string{"engineering", "remote data engineer jobs", "open roles board"} {
		if !seen[want] {
			t.Errorf("no candidate %q among %v", want, cs)
		}
	}
	if got := (Meta{}).HeadlineOf("A title", "service"); got != "A title" {
		t.Errorf("empty meta: %q", got)
	}
}

func readTitlePage(t *testing.T, name string) Meta {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "titles", name))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := treediff.Parse(name, src, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return Extract(tree, src, Options{URL: "https://example.org/page", NoLanguage: true})
}
