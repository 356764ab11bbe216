package crawler

import "testing"

// TestKindOf names the kind of a crawled page from its outcome and its
// extraction's page type, and CheckKind accepts exactly the kinds.
func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		outcome        Outcome
		pageType, want string
	}{
		{OutcomeValidated, "article", KindArticle},
		{OutcomeValidated, "", KindArticle},
		{OutcomeValidated, "forum", KindArticle},
		{OutcomeValidated, "listing", KindHub},
		{OutcomeValidated, "collection", KindHub},
		{OutcomeIrrelevant, "article", KindOffTopic},
		{OutcomeIrrelevant, "listing", KindOffTopic},
		{OutcomeDuplicate, "article", "duplicate"},
		{OutcomeLanguage, "", "language"},
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
