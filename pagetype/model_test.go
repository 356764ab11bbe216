package pagetype

import "testing"

// TestClassify checks the fitted classifier on clear pages of each
// kind it was fitted on (the pages are the package's own, not the data's).
func TestClassify(t *testing.T) {
	for _, want := range []string{Article, Collection, Forum, Product, Documentation} {
		tr, src := readTypePage(t, want)
		got, probs := Classify(tr, src)
		if got != want {
			t.Errorf("%s page classified %s (%.2f)", want, got, probs)
		}
		sum := 0.0
		for _, p := range probs {
			sum += p
		}
		if sum < 0.999 || sum > 1.001 {
			t.Errorf("%s: probabilities sum to %v", want, sum)
		}
	}
}
