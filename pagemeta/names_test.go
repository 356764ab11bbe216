package pagemeta

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestBylineSentenceTail: a paragraph's text after a link, led by a
// lower-case "by" and ending its sentence, is no byline.
func TestBylineSentenceTail(t *testing.T) {
	m := extractFile(t, "byline-sentence-tail.html")
	if want := []string{"Tomas Lindqvist"}; !reflect.DeepEqual(m.Authors, want) {
		t.Errorf("authors %q from %q, want %q", m.Authors, m.Sources.Authors, want)
	}
	cases := map[string]bool{
		"by Harbor Risk Review.": true, "by Jane Doe": false, "By Jane Doe.": false, "by Jane Doe, 2021": false,
	}
	for text, want := range cases {
		if got := sentenceTail(text); got != want {
			t.Errorf("sentenceTail(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestProfileHandle: an author stated as a profile URL of the page's own
// site, "~" or "@" before the handle, names that member; another site's
// profile or a plain path names no one.
func TestProfileHandle(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "author-profile-url.html"))
	if err != nil {
		t.Fatal(err)
	}
	m := Extract(parse(t, "profile", src), src, Options{URL: "https://hashboard.example/s/x1/why", NoLanguage: true})
	if want := []string{"kpark"}; !reflect.DeepEqual(m.Authors, want) || m.Sources.Authors != "meta" {
		t.Errorf("authors %q from %q, want %q from meta", m.Authors, m.Sources.Authors, want)
	}
	cases := []struct{ v, want string }{
		{"https://www.hashboard.example/@kpark/", "kpark"},
		{"https://social.example/~kpark", ""},
		{"https://hashboard.example/author/kpark", ""},
		{"https://hashboard.example/~", ""},
		{"%zz", ""},
	}
	for _, c := range cases {
		if got := profileHandle(c.v, "hashboard.example"); got != c.want {
			t.Errorf("profileHandle(%q) = %q, want %q", c.v, got, c.want)
		}
	}
}
