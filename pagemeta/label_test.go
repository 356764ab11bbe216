package pagemeta

import "testing"

// TestPublishedLabels: a date a publication label names is the page's,
// wherever it is when the label is a field's name; a label that starts
// a line of a list or of a reader's comment names another text's date.
func TestPublishedLabels(t *testing.T) {
	cases := []struct{ file, published, source string }{
		// "Published" and its date in a sidebar outrank a date element
		// of no stated kind under the headline (a part's).
		{"date-label-sidebar.html", "2019-04-02", "label"},
		// A label with a time only dates the day in the next text.
		{"date-label-clock.html", "2009-03-12T08:39:00Z", "label"},
		// The lines of a list of other stories ("posted …") do not
		// outrank the page's byline.
		{"date-label-list.html", "2009-07-30", "byline"},
		// A labelled line far below the headline dates a page that shows
		// no other date; a reader's comment's does not.
		{"date-label-foot.html", "2012-10-30T00:13:00Z", "label"},
		// "Posted by" a name labels no date: the next line's is the
		// text's own.
		{"date-label-posted-by.html", "", ""},
		// A version number in a footer is no date.
		{"date-version-footer.html", "", ""},
	}
	for _, c := range cases {
		m := extractFile(t, c.file)
		if m.Published != c.published || m.Sources.Published != c.source {
			t.Errorf("%s: published %q from %q, want %q from %q", c.file, m.Published, m.Sources.Published, c.published, c.source)
		}
	}
}
