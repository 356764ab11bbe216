package eval

import (
	"math"
	"slices"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"Hello, World!", []string{"Hello", "World"}},
		{"l'été naïf_x 3½ -- x", []string{"l", "été", "naïf_x", "3½", "x"}},
		// A combining mark is not a word rune for Python's \w either.
		{"cafe\u0301 ok", []string{"cafe", "ok"}},
	}
	for _, tt := range tests {
		got := Tokens(tt.in)
		if len(got) == 0 && len(tt.want) == 0 {
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestShingleCounts(t *testing.T) {
	tests := []struct {
		name       string
		gold, pred string
		want       Counts
		p, r       float64
	}{
		{"identical", "a b c d e", "a b c d e", Counts{1, 0, 0}, 1, 1},
		// gold shingles abcd bcde; pred abcd: tp 1 fn 1 -> /2.
		{"cut low", "a b c d e", "a b c d", Counts{0.5, 0, 0.5}, 1, 0.5},
		// pred shingles abcd bcde cdef defg; gold abcd.
		{"cut high", "a b c d", "a b c d e f g", Counts{0.25, 0.75, 0}, 0.25, 1},
		{"empty pred", "one two", "", Counts{0, 0, 1}, 0, 0},
		{"empty gold", "", "one two", Counts{0, 1, 0}, 0, 0},
		{"both empty", "", "  ", Counts{0, 0, 0}, 1, 1},
		// Case is kept: no shingle in common.
		{"case", "The cat sat down", "the cat sat down", Counts{0, 0.5, 0.5}, 0, 0},
		// Short texts are one shingle of all their words.
		{"short", "x y", "x y", Counts{1, 0, 0}, 1, 1},
		// gold: abcd x2, bcda, cdab, dabc (5); pred abcd: tp1 fn4 -> /5.
		{"repeats", "a b c d a b c d", "a b c d", Counts{0.2, 0, 0.8}, 1, 0.2},
	}
	for _, tt := range tests {
		got := ShingleCounts(tt.gold, tt.pred)
		if !near(got.TP, tt.want.TP) || !near(got.FP, tt.want.FP) || !near(got.FN, tt.want.FN) {
			t.Errorf("%s: ShingleCounts = %+v, want %+v", tt.name, got, tt.want)
		}
		if p := got.precision(); !near(p, tt.p) {
			t.Errorf("%s: precision = %v, want %v", tt.name, p, tt.p)
		}
		if r := got.recall(); !near(r, tt.r) {
			t.Errorf("%s: recall = %v, want %v", tt.name, r, tt.r)
		}
	}
}

func TestCosine(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"a a b", "a b b", 0.8}, // (2,1)·(1,2) = 4, |.|² = 5
		{"A b", "a B", 1},       // lower-cased
		{"x", "y", 0},
		{"", "", 1},
		{"", "x", 0},
		{"a b", "a", 1 / math.Sqrt2},
	}
	for _, tt := range tests {
		if got := Cosine(tt.a, tt.b); !near(got, tt.want) {
			t.Errorf("Cosine(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestRelate(t *testing.T) {
	tests := []struct {
		t, gold string
		want    Relation
	}{
		{"Title\n\nBody  text", "Title Body\ttext\n", Equal},
		{"Body text", "Title\nBody text", Inside},
		{"Menu\nTitle\nBody text\nFooter", "Title Body text", Contains},
		{"Title other", "Title Body", Unrelated},
		{"", "Title Body", Unrelated},
	}
	for _, tt := range tests {
		if got := Relate(tt.t, tt.gold); got != tt.want {
			t.Errorf("Relate(%q, %q) = %v, want %v", tt.t, tt.gold, got, tt.want)
		}
	}
}

func TestSameTokens(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"Hello, world.", "Hello world", true},
		{"Hello world", "hello world", false},
		{"", "", true},
		{"a b", "a b c", false},
	}
	for _, tt := range tests {
		if got := SameTokens(tt.a, tt.b); got != tt.want {
			t.Errorf("SameTokens(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	pages := []PageScore{
		ScorePage("p1", "s", "a b c d e", "a b c d"), // P 1, R 0.5, cos 4/sqrt(20)
		ScorePage("p2", "s", "one two", ""),          // R 0 only, cos 0
		ScorePage("p3", "s", "", ""),                 // in neither average, accurate, cos 1
		ScorePage("p4", "s", "x y z", "x y z"),       // P 1, R 1, accurate, cos 1
	}
	got := Summarize(pages)
	cos1 := 4 / math.Sqrt(20)
	want := Summary{
		Pages: 4, Exact: 2, Exactitude: 0.5,
		MeanCos: (cos1 + 0 + 1 + 1) / 4,
		Equal:   2, Inside: 1, Contains: 0,
		Precision: 1, Recall: 0.5, // (0.5 + 0 + 1) / 3
		F1:       2 * 1 * 0.5 / 1.5,
		Accuracy: 0.5,
	}
	if got.Pages != want.Pages || got.Exact != want.Exact || !near(got.Exactitude, want.Exactitude) ||
		!near(got.MeanCos, want.MeanCos) || got.Equal != want.Equal || got.Inside != want.Inside ||
		got.Contains != want.Contains || !near(got.Precision, want.Precision) ||
		!near(got.Recall, want.Recall) || !near(got.F1, want.F1) || !near(got.Accuracy, want.Accuracy) {
		t.Errorf("Summarize =\n %+v\nwant\n %+v", got, want)
	}
	if s := Summarize(nil); s != (Summary{}) {
		t.Errorf("Summarize(nil) = %+v, want zero", s)
	}
}

func TestWordPRF(t *testing.T) {
	tests := []struct {
		name       string
		gold, pred string
		p, r, f1   float64
	}{
		{"identical up to case and punctuation", "The cat, the hat.", "the CAT the hat", 1, 1, 1},
		// pred: the x2, cat, sat (4); gold: the, cat (2); overlap the+cat 2.
		{"repeats counted once each", "the cat", "the the cat sat", 0.5, 1, 2 * 0.5 / 1.5},
		{"empty both", "", " ... ", 1, 1, 1},
		{"empty gold", "", "word", 0, 0, 0},
		{"empty pred", "word", "", 0, 0, 0},
		{"disjoint", "a b", "c d", 0, 0, 0},
	}
	for _, tt := range tests {
		p, r, f1 := WordPRF(tt.gold, tt.pred)
		if !near(p, tt.p) || !near(r, tt.r) || !near(f1, tt.f1) {
			t.Errorf("%s: WordPRF = %v %v %v, want %v %v %v", tt.name, p, r, f1, tt.p, tt.r, tt.f1)
		}
	}
}

func TestWordTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Hello, World_2!", []string{"hello", "world_2"}},
		// Python's \w+ keeps a run of Han characters as one word.
		{"東京都 Tokyo", []string{"東京都", "tokyo"}},
		{"l'Été", []string{"l", "été"}},
	}
	for _, tt := range tests {
		if got := WordTokens(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("WordTokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSnippetRates(t *testing.T) {
	tests := []struct {
		name              string
		text              string
		s                 Snippets
		found, absent     float64
		okWith, okWithout bool
	}{
		{"all right", "The Story goes on. Nothing else.", Snippets{With: []string{"the story", "goes on"}, Without: []string{"Login"}}, 1, 1, true, true},
		{"half found, menu kept", "Home Login The story", Snippets{With: []string{"the story", "the end"}, Without: []string{"Login", "Order now"}}, 0.5, 0.5, true, true},
		{"no phrases", "text", Snippets{}, 1, 1, false, false},
	}
	for _, tt := range tests {
		f, a, ow, oo := SnippetRates(tt.text, tt.s)
		if !near(f, tt.found) || !near(a, tt.absent) || ow != tt.okWith || oo != tt.okWithout {
			t.Errorf("%s: SnippetRates = %v %v %v %v", tt.name, f, a, ow, oo)
		}
	}
}

func TestSummarizeWordF1(t *testing.T) {
	s := Summarize([]PageScore{ScorePage("a", "s", "one two", "one two"), ScorePage("b", "s", "one two", "three")})
	if !near(s.WordF1, 0.5) || !near(s.WordRecall, 0.5) || !near(s.WordPrecision, 0.5) {
		t.Errorf("summary word scores %v %v %v, want 0.5 each", s.WordPrecision, s.WordRecall, s.WordF1)
	}
}
