package terms

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os/exec"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/chain/segment"
	"github.com/gleaner/gleaner/chain/tagger"
)

// The seed's worked example (Figure 31): détresse respiratoire and
// syndrome share seven contexts of productivity 14, 16, 35, 58, 71, 112
// and 169; prox = 1.10.
func TestUperyWorkedExample(t *testing.T) {
	d := NewDistrib()
	shared := []struct {
		ctx  string
		prod int
	}{{"(patient développer, OBJ)", 14}, {"(développer, OBJ)", 16}, {"(tableau, DE)", 35}, {"(patient présenter, OBJ)", 58},
		{"(épisode, DE)", 71}, {"(présenter, OBJ)", 112}, {"(apparition, DE)", 169}}
	for _, s := range shared {
		d.Add("détresse respiratoire", s.ctx)
		d.Add("syndrome", s.ctx)
		for i := 2; i < s.prod; i++ {
			d.Add(fmt.Sprintf("other term %d", i), s.ctx)
		}
	}
	// Contexts of one term only.
	d.Add("syndrome", "(diminuer, OBJ)")
	d.Add("syndrome", "(abolir, OBJ)")
	d.Add("détresse respiratoire", "(percevoir, OBJ)")
	for _, s := range shared {
		if got := d.ContextProductivity(s.ctx); got != s.prod {
			t.Fatalf("prod%s = %d, want %d", s.ctx, got, s.prod)
		}
	}
	p := d.Proximity("détresse respiratoire", "syndrome")
	if p.A != 7 || math.Abs(p.Prox-1.10) > 0.01 {
		t.Errorf("a = %d, prox = %.4f; want 7, 1.10", p.A, p.Prox)
	}
	if math.Abs(p.J1-7.0/8) > 1e-9 || math.Abs(p.J2-7.0/9) > 1e-9 {
		t.Errorf("j1 = %v, j2 = %v; want 7/8, 7/9", p.J1, p.J2)
	}
	if n := d.Neighbours("syndrome", 1, 1); len(n) != 1 || n[0].T2 != "détresse respiratoire" {
		t.Errorf("nearest to syndrome: %+v", n)
	}
}

func TestCValue(t *testing.T) {
	// Frantzi et al.: a nested term's frequency is discounted by the mean
	// frequency of the longer terms that contain it.
	got := CValue(map[string]int{"banque centrale européenne": 3, "banque centrale": 5, "banque": 9, "taux": 4})
	want := map[string]float64{
		"banque centrale européenne": 2 * 3,            // log2(3+1) * 3
		"banque centrale":            math.Log2(3) * 2, // (5 - 3/1)
		"banque":                     1 * (9 - 4),      // (9 - (3+5)/2)
		"taux":                       4,
	}
	for _, term := range got {
		if math.Abs(term.CValue-want[term.Term]) > 1e-9 {
			t.Errorf("C-value(%s) = %v, want %v", term.Term, term.CValue, want[term.Term])
		}
	}
	if got[0].Term != "banque centrale européenne" {
		t.Errorf("ranking: %+v", got)
	}
}

func tokens(spec string) []tagger.Token {
	var out []tagger.Token
	for _, f := range strings.Fields(spec) {
		p := strings.Split(f, "/")
		out = append(out, tagger.Token{Token: segment.Token{Text: p[0], Kind: segment.Word}, UPOS: p[1], Lemma: p[2]})
	}
	return out
}

func TestCandidatesAndContexts(t *testing.T) {
	s := tokens("le/DET/le patient/NOUN/patient présente/VERB/présenter un/DET/un syndrome/NOUN/syndrome de/ADP/de détresse/NOUN/détresse respiratoire/ADJ/respiratoire aiguë/ADJ/aigu")
	var got []string
	for _, o := range Candidates(s, "fr") {
		got = append(got, o.Term)
	}
	want := "patient|syndrome|syndrome de détresse|syndrome de détresse respiratoire|syndrome de détresse respiratoire aigu|détresse|détresse respiratoire|détresse respiratoire aigu"
	if strings.Join(got, "|") != want {
		t.Errorf("candidates\n got %s\nwant %s", strings.Join(got, "|"), want)
	}
	ctx := Contexts(s, Occurrence{Term: "syndrome", Start: 4, End: 5})
	if strings.Join(ctx, " ") != "(présenter, OBJ) (DE, détresse)" {
		t.Errorf("contexts of syndrome: %q", ctx)
	}
	ctx = Contexts(s, Occurrence{Term: "patient", Start: 1, End: 2})
	if strings.Join(ctx, " ") != "(présenter, SUJ)" {
		t.Errorf("contexts of patient: %q", ctx)
	}
	// Surface function words and elision in keys.
	el := tokens("taux/NOUN/taux d'/ADP/de intérêt/NOUN/intérêt de/ADP/de la/DET/le ville/NOUN/ville")
	var keys []string
	for _, o := range Candidates(el, "fr") {
		keys = append(keys, o.Term)
	}
	if !strings.Contains(strings.Join(keys, "|"), "taux d'intérêt|") || !strings.Contains(strings.Join(keys, "|"), "intérêt de la ville") {
		t.Errorf("keys %q", keys)
	}
	// German without a tagger: capitalised words are nouns.
	de := tokens("Die/_/die Kinder/_/kind spielen/_/spiel im/_/im großen/_/groß Garten/_/gart")
	keys = nil
	for _, o := range Candidates(de, "de") {
		keys = append(keys, o.Term)
	}
	if strings.Join(keys, "|") != "kind|gart" {
		t.Errorf("German keys %q", keys)
	}
	if Candidates(s, "pl") != nil {
		t.Error("candidates for a language without pattern")
	}
}

func TestMatrix(t *testing.T) {
	m := NewMatrix()
	m.AddDocument("d1", [][]tagger.Token{tokens("les/DET/le chats/NOUN/chat mangent/VERB/manger ./PUNCT/. chat/NOUN/chat")})
	m.AddDocument("d2", [][]tagger.Token{tokens("un/DET/un chien/NOUN/chien")})
	if m.Count(0, "chat") != 2 || m.Count(1, "chat") != 0 || m.Count(0, "le") != 0 || m.Count(1, "chien") != 1 {
		t.Errorf("counts wrong: %+v", m.rows)
	}
	var b bytes.Buffer
	if err := m.WriteTSV(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != "doc\tword\tcount\nd1\tchat\t2\nd1\tmanger\t1\nd2\tchien\t1\n" {
		t.Errorf("tsv:\n%s", b.String())
	}
}

// TestOnTaggedText runs candidates and contexts over real Apertium output.
func TestOnTaggedText(t *testing.T) {
	if _, err := exec.LookPath("apertium-tagger"); err != nil {
		t.Skip("Apertium not installed")
	}
	a, err := tagger.NewApertium("", "fr")
	if err != nil {
		t.Skip(err)
	}
	defer a.Close()
	text := "La banque centrale européenne a relevé ses taux d'intérêt. Les taux d'intérêt de la banque centrale restent élevés."
	sents := tagger.FromSegments(segment.Sentences(segment.Tokenize(text, "fr"), text, "fr"))
	if err := a.Tag(context.Background(), sents); err != nil {
		t.Fatal(err)
	}
	freq := map[string]int{}
	for _, s := range sents {
		for _, o := range Candidates(s, "fr") {
			freq[o.Term]++
		}
	}
	ranked := CValue(freq)
	var top []string
	for _, r := range ranked[:3] {
		top = append(top, r.Term)
	}
	if !strings.Contains(strings.Join(top, "|"), "banque central") {
		t.Errorf("top terms %q (all %+v)", top, ranked)
	}
}
