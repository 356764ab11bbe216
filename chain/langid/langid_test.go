package langid

import "testing"

func TestDetect(t *testing.T) {
	id, err := New([]string{"en", "fr", "de"})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ text, want string }{
		{"The European Central Bank kept its interest rates unchanged on Thursday.", "en"},
		{"La Banque centrale européenne a maintenu ses taux d'intérêt jeudi.", "fr"},
		{"Die Europäische Zentralbank hat ihre Leitzinsen am Donnerstag nicht verändert.", "de"},
		{"12345 !!!", ""},
	}
	for _, tc := range tests {
		got, conf := id.Detect(tc.text)
		if got != tc.want {
			t.Errorf("Detect(%q) = %q (%.2f), want %q", tc.text, got, conf, tc.want)
		}
		if tc.want != "" && (conf <= 0 || conf > 1) {
			t.Errorf("Detect(%q) confidence %.2f", tc.text, conf)
		}
	}
	if _, err := New([]string{"klingon"}); err == nil {
		t.Error("unknown code accepted")
	}
	// A restricted set never answers outside itself.
	id2, _ := New([]string{"fr", "de"})
	if got, _ := id2.Detect("The cat is on the mat and the dog is in the garden."); got != "fr" && got != "de" {
		t.Errorf("restricted to fr, de: got %q", got)
	}
}
