package crawler

import (
	"math"
	"net/url"
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

func TestCanonicalize(t *testing.T) {
	base, _ := url.Parse("http://Example.COM:80/a/b/index.html?x=1")
	tests := []struct{ ref, want string }{
		{"../c/./d.html#frag", "http://example.com/a/c/d.html"},
		{"HTTPS://Example.com:443", "https://example.com/"},
		{"/p?b=2&a=1&utm_source=x", "http://example.com/p?a=1&b=2"},
		{"http://u:p@h.org/x/", "http://h.org/x/"},
		{"http://h.org:8080/x//y", "http://h.org:8080/x/y"},
	}
	for _, tt := range tests {
		u, err := Canonicalize(base, tt.ref)
		if err != nil {
			t.Fatalf("Canonicalize(%q): %v", tt.ref, err)
		}
		if u.String() != tt.want {
			t.Errorf("Canonicalize(%q) = %s, want %s", tt.ref, u, tt.want)
		}
	}
	if _, err := Canonicalize(nil, "relative/path"); err == nil {
		t.Error("relative URL with no base: no error")
	}
	if _, err := Canonicalize(nil, "http://bad host/%zz"); err == nil {
		t.Error("malformed URL: no error")
	}
}

func TestTrapGuard(t *testing.T) {
	g := TrapGuard{}
	ok, _ := url.Parse("http://h.org/news/2024/05/story.html")
	if err := g.Check(ok); err != nil {
		t.Errorf("ordinary URL refused: %v", err)
	}
	for _, bad := range []string{
		"http://h.org/a/b/a/b/a/b/a/b/",
		"http://h.org/" + strings.Repeat("x", 600),
		"http://h.org/" + strings.Repeat("d/", 20) + "end",
	} {
		u, _ := url.Parse(bad)
		if err := g.Check(u); err == nil {
			t.Errorf("trap URL %.60s accepted", bad)
		}
	}
}

func TestStrategies(t *testing.T) {
	relevant := FetchedPage{Priority: Priority{Score: 1, Inherited: 1}, Sim: 0.9, Relevant: true, Links: 4}
	irrelevant := FetchedPage{Priority: Priority{Score: 1, Inherited: 0.2}, Sim: 0.05, Links: 4}
	for _, s := range []Strategy{OPIC, SharkSearch} {
		a := s.Child(relevant, LinkSims{})
		b := s.Child(irrelevant, LinkSims{})
		if a.Score <= b.Score {
			t.Errorf("%v: child of relevant %.3f <= child of irrelevant %.3f", s, a.Score, b.Score)
		}
	}
	// Shark-Search by hand: relevant parent, anchor 0.5.
	got := SharkSearch.Child(relevant, LinkSims{Anchor: 0.5, Context: 0.1})
	inh := 0.5 * 0.9
	want := 0.1*inh + 0.9*(0.8*0.5+0.2*1)
	if math.Abs(got.Score-want) > 1e-12 || math.Abs(got.Inherited-inh) > 1e-12 {
		t.Errorf("shark = %+v, want score %v inherited %v", got, want, inh)
	}
	// No anchor similarity: the context counts.
	got = SharkSearch.Child(irrelevant, LinkSims{Anchor: 0, Context: 0.5})
	inh = 0.5 * 0.2
	want = 0.1*inh + 0.9*(0.2*0.5)
	if math.Abs(got.Score-want) > 1e-12 {
		t.Errorf("shark (context) = %v, want %v", got.Score, want)
	}
	// OPIC accumulates, the others keep the max.
	if m := OPIC.Merge(Priority{Score: 0.2}, Priority{Score: 0.3}); math.Abs(m.Score-0.5) > 1e-12 {
		t.Errorf("OPIC merge = %v", m.Score)
	}
	if m := SharkSearch.Merge(Priority{Score: 0.2}, Priority{Score: 0.3}); m.Score != 0.3 {
		t.Errorf("shark merge = %v", m.Score)
	}
	if d1, d2 := BreadthFirst.Child(FetchedPage{Depth: 1}, LinkSims{}), BreadthFirst.Child(FetchedPage{Depth: 3}, LinkSims{}); d1.Score <= d2.Score {
		t.Errorf("bfs: shallower child not first")
	}
	for _, name := range []string{"bfs", "opic", "shark"} {
		s, err := ParseStrategy(name)
		if err != nil || s.String() != name {
			t.Errorf("ParseStrategy(%q) = %v, %v", name, s, err)
		}
	}
	if _, err := ParseStrategy("dfs"); err == nil {
		t.Error("unknown strategy accepted")
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
