package crawlcorpus

import (
	"testing"

	"github.com/gleaner/gleaner/store/frontier"
)

// TestKindOf names the kind of a crawled page from its outcome and its
// extraction's page type, and CheckKind accepts exactly the kinds.
func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		outcome        frontier.Outcome
		pageType, want string
	}{
		{frontier.Validated, "article", KindArticle},
		{frontier.Validated, "", KindArticle},
		{frontier.Validated, "forum", KindArticle},
		{frontier.Validated, "listing", KindHub},
		{frontier.Validated, "collection", KindHub},
		{frontier.Irrelevant, "article", KindOffTopic},
		{frontier.Irrelevant, "listing", KindOffTopic},
		{frontier.Duplicate, "article", "duplicate"},
		{frontier.Language, "", "language"},
	} {
		got := kindOf(tc.outcome, tc.pageType)
		if got != tc.want {
			t.Errorf("kindOf(%q, %q) = %q, want %q", tc.outcome, tc.pageType, got, tc.want)
		}
		if err := CheckKind(got); err != nil {
			t.Errorf("CheckKind(%q): %v", got, err)
		}
	}
	for _, k := range []string{"", "validated", "irrelevant", "forbidden", "Article"} {
		if CheckKind(k) == nil {
			t.Errorf("CheckKind(%q) accepted", k)
		}
	}
}
