package relevance

import (
	"strings"
	"testing"
)

func TestFormula(t *testing.T) {
	tests := []struct {
		formula string
		text    string
		want    bool
	}{
		{"(graphe | graphes) & (^image)", "Un graphe orienté", true},
		{"(graphe | graphes) & (^image)", "Des graphes et une image", false},
		{"(graphe | graphes) & (^image)", "Rien à voir", false},
		{"vélo ^voiture", "Le VÉLO en ville", true},
		{"vélo ^voiture", "vélo et voiture", false},
		{"a | b & c", "a", true},
		{"a | b & c", "b", false},
		{"a | b & c", "c b", true},
		{"^(x | y)", "z", true},
		{"^^x", "x", true},
	}
	for _, tt := range tests {
		f, err := ParseFormula(tt.formula)
		if err != nil {
			t.Fatalf("ParseFormula(%q): %v", tt.formula, err)
		}
		if got := f.Match(tt.text); got != tt.want {
			t.Errorf("%q on %q = %v, want %v", tt.formula, tt.text, got, tt.want)
		}
	}
}

func TestFormulaErrors(t *testing.T) {
	for _, bad := range []string{"", "  ", "a &", "(a | b", "a | | b", ")", "a $ b", "^", strings.Repeat("(", 200) + "a" + strings.Repeat(")", 200)} {
		if _, err := ParseFormula(bad); err == nil {
			t.Errorf("ParseFormula(%q): no error", bad)
		} else if !strings.Contains(err.Error(), "formula") {
			t.Errorf("ParseFormula(%q): error %q does not name the formula", bad, err)
		}
	}
}

func TestFormulaWords(t *testing.T) {
	f, err := ParseFormula("(graphe | graphes) & ^image")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(f.Words(), ",")
	if got != "graphe,graphes" {
		t.Errorf("Words = %s, want graphe,graphes", got)
	}
}

func TestLexiconScoreAndExpand(t *testing.T) {
	l := NewLexicon([]string{"cycling", "bicycle"})
	on := "Cycling in the city: a bicycle lane opens, cyclists cheer the new bicycle parking."
	off := "The stock market closed higher as investors weighed interest rates."
	if l.Score(on) <= l.Score(off) {
		t.Fatalf("on-topic score %.3f <= off-topic %.3f", l.Score(on), l.Score(off))
	}
	if l.Score(off) != 0 {
		t.Errorf("off-topic score = %v, want 0", l.Score(off))
	}
	relevant := []string{
		"Cyclists ride the new lane; the bicycle lane has helmets rules for cyclists.",
		"A lane for cyclists: helmets are advised, the lane is wide.",
		"Cyclists want helmets and a safer lane.",
	}
	reference := []string{
		"The market and the investors: the rates rose and the market fell.",
		"Investors and the market: rates are the news of the day.",
	}
	added := l.Expand(relevant, reference, ExpandOptions{MaxTerms: 5})
	if len(added) == 0 {
		t.Fatal("Expand added no term")
	}
	terms := map[string]float64{}
	for _, a := range added {
		terms[a.Term] = a.Weight
		if a.Weight <= 0 || a.Weight > 1 {
			t.Errorf("term %q weight %v outside (0, 1]", a.Term, a.Weight)
		}
	}
	if _, ok := terms["cyclists"]; !ok {
		t.Errorf("Expand did not add 'cyclists': %v", added)
	}
	if _, ok := terms["the"]; ok {
		t.Errorf("Expand added 'the', common to both corpora: %v", added)
	}
}

func TestCalibrateThreshold(t *testing.T) {
	scores := []float64{0, 0.1, 0.2, 0.1, 0, 3.1, 2.9, 3.3, 0.3, 2.8}
	th, err := CalibrateThreshold(scores)
	if err != nil {
		t.Fatal(err)
	}
	if th <= 0.3 || th >= 2.8 {
		t.Errorf("threshold %v not between the two modes", th)
	}
	if _, err := CalibrateThreshold([]float64{1, 1, 1, 1}); err == nil {
		t.Error("equal scores: no error")
	}
	if _, err := CalibrateThreshold([]float64{1}); err == nil {
		t.Error("one score: no error")
	}
}

func TestSimHash(t *testing.T) {
	a := "The council voted on Tuesday to extend the bicycle lane network across the old town and the river banks, with works starting in spring."
	b := "The council voted on Tuesday to extend the bicycle lane network across the old town and the river banks, with works starting in April."
	c := "Shares of the chip maker fell sharply after it cut its forecast for the third quarter, citing weak demand from phone makers."
	ha, hb, hc := NewSimHash(a), NewSimHash(b), NewSimHash(c)
	if ha.Distance(hb) >= ha.Distance(hc) {
		t.Errorf("near-duplicate distance %d >= unrelated distance %d", ha.Distance(hb), ha.Distance(hc))
	}
	var d NearDuplicates
	if d.Seen(ha) {
		t.Error("first text seen as duplicate")
	}
	if !d.Seen(ha) {
		t.Error("same text not seen as duplicate")
	}
	if d.Seen(hc) {
		t.Error("unrelated text seen as duplicate")
	}
}
