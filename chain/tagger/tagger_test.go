package tagger

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/chain/segment"
)

func tagText(t *testing.T, tg Tagger, text, lang string) [][]Token {
	t.Helper()
	sents := FromSegments(segment.Sentences(segment.Tokenize(text, lang), text, lang))
	if err := tg.Tag(context.Background(), sents); err != nil {
		t.Fatalf("%s: %v", tg.Name(), err)
	}
	return sents
}

func newApertium(t *testing.T, lang string) *Apertium {
	t.Helper()
	a, err := NewApertium("", lang)
	if err != nil {
		t.Skipf("Apertium for %s is not installed (scripts/setup.sh installs it): %v", lang, err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// TestAccuracy scores each tagger on the hand-checked samples of
// testdata/gold (form TAB UPOS TAB lemma, in the segmenter's tokens).
func TestAccuracy(t *testing.T) {
	for _, tc := range []struct {
		lang            string
		minUPOS, minLem float64
	}{{"en", 0.80, 0.90}, {"fr", 0.80, 0.90}} {
		t.Run(tc.lang, func(t *testing.T) {
			a := newApertium(t, tc.lang)
			text, err := os.ReadFile(filepath.Join("testdata", "gold", tc.lang+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			gold := readGold(t, filepath.Join("testdata", "gold", tc.lang+".tsv"))
			var got []Token
			for _, s := range tagText(t, a, string(text), tc.lang) {
				got = append(got, s...)
			}
			if len(got) != len(gold) {
				t.Fatalf("%d tokens, gold has %d", len(got), len(gold))
			}
			upos, lem := 0, 0
			for i, g := range gold {
				if got[i].Text != g[0] {
					t.Fatalf("token %d is %q, gold %q", i, got[i].Text, g[0])
				}
				if got[i].UPOS == g[1] {
					upos++
				} else {
					t.Logf("UPOS %s: %s, gold %s", g[0], got[i].UPOS, g[1])
				}
				if got[i].Lemma == g[2] {
					lem++
				} else {
					t.Logf("lemma %s: %s, gold %s", g[0], got[i].Lemma, g[2])
				}
			}
			accU, accL := float64(upos)/float64(len(gold)), float64(lem)/float64(len(gold))
			t.Logf("%s (%s): UPOS accuracy %.3f, lemma accuracy %.3f on %d tokens", tc.lang, a.Name(), accU, accL, len(gold))
			if accU < tc.minUPOS || accL < tc.minLem {
				t.Errorf("accuracy below %.2f/%.2f", tc.minUPOS, tc.minLem)
			}
		})
	}
}

func readGold(t *testing.T, path string) [][3]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][3]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		p := strings.Split(sc.Text(), "\t")
		if len(p) == 3 {
			out = append(out, [3]string{p[0], p[1], p[2]})
		}
	}
	return out
}

func TestApertiumGolden(t *testing.T) {
	tests := []struct {
		lang, text string
		want       string // form/UPOS/lemma of each token
	}{
		{"fr", "Les chats du voisin mangeaient.", "Les/DET/le chats/NOUN/chat du/ADP/de+le voisin/NOUN/voisin mangeaient/VERB/manger ./PUNCT/."},
		{"en", "She doesn't like the cats.", "She/PRON/she does/AUX/do n't/PART/not like/VERB/like the/DET/the cats/NOUN/cat ./PUNCT/."},
		{"en", "Write to a@b.org at 10:30 with [x] ^y$ <z>.", "Write/VERB/write to/ADP/to a@b.org/X/a@b.org at/ADP/at 10:30/NUM/10:30 with/ADP/with [/PUNCT/[ x/NOUN/x ]/PUNCT/] ^/SYM/^ y/NOUN/y $/SYM/$ </SYM/< z/NOUN/z >/SYM/> ./PUNCT/."},
	}
	for _, tc := range tests {
		a := newApertium(t, tc.lang)
		var got []string
		for _, s := range tagText(t, a, tc.text, tc.lang) {
			for _, tok := range s {
				got = append(got, tok.Text+"/"+tok.UPOS+"/"+tok.Lemma)
			}
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%s %q:\n got %s\nwant %s", tc.lang, tc.text, g, tc.want)
		}
	}
}

// TestApertiumLongLived checks that many requests go through the same
// processes, and that a cancelled request leaves a working tagger.
func TestApertiumLongLived(t *testing.T) {
	a := newApertium(t, "fr")
	tagText(t, a, "Bonjour.", "fr")
	pid := a.morph.cmds[0].Process.Pid
	for range 50 {
		s := tagText(t, a, "Il est parti hier soir.", "fr")
		if s[0][2].Lemma != "partir" {
			t.Fatalf("lemma of parti: %q", s[0][2].Lemma)
		}
	}
	if a.morph.cmds[0].Process.Pid != pid {
		t.Fatal("the analyser was restarted between requests")
	}
	if n := a.Restarts(); n != 1 {
		t.Errorf("tagger started %d times for plain sentences", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sents := FromSegments(segment.Sentences(segment.Tokenize("Un test.", "fr"), "Un test.", "fr"))
	if err := a.Tag(ctx, sents); err == nil {
		t.Fatal("cancelled request succeeded")
	}
	if s := tagText(t, a, "Il est parti.", "fr"); s[0][2].Lemma != "partir" {
		t.Fatalf("after cancel: %+v", s)
	}
}

func TestTreeTaggerFake(t *testing.T) {
	// TreeTagger cannot be installed from Debian: a stand-in speaking its
	// protocol (look-ahead, block-buffered output) checks the adapter.
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("python3 needed for the fake TreeTagger")
	}
	tt, err := NewTreeTagger("en", "testdata/fake-tree-tagger", "testdata/english-fake.par")
	if err != nil {
		t.Fatal(err)
	}
	defer tt.Close()
	for range 3 {
		var got []string
		for _, s := range tagText(t, tt, "The cats were sleeping on 3 mats. She sings zorbly.", "en") {
			for _, tok := range s {
				got = append(got, tok.Text+"/"+tok.UPOS+"/"+tok.Lemma)
			}
		}
		want := "The/DET/the cats/NOUN/cat were/VERB/be sleeping/VERB/sleep on/ADP/on 3/NUM/3 mats/NOUN/mat ./PUNCT/. She/PRON/she sings/VERB/sing zorbly/NOUN/zorbly ./PUNCT/."
		if g := strings.Join(got, " "); g != want {
			t.Fatalf("got  %s\nwant %s", g, want)
		}
	}
	if _, err := NewTreeTagger("en", "testdata/none", "x.par"); err == nil {
		t.Error("missing binary accepted")
	}
}

func TestStemmer(t *testing.T) {
	s, err := NewStemmer("de")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, sent := range tagText(t, s, "Die Kinder spielten am 3. Mai im Garten.", "de") {
		for _, tok := range sent {
			got = append(got, tok.Text+"/"+tok.UPOS+"/"+tok.Lemma)
		}
	}
	want := "Die/_/die Kinder/_/kind spielten/_/spielt am/_/am 3. Mai/NUM/3. Mai im/_/im Garten/_/gart ./PUNCT/."
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
	if !strings.Contains(s.Name(), "no POS tagger") {
		t.Errorf("name %q does not say there is no tagger", s.Name())
	}
	if _, err := NewStemmer("xx"); err == nil {
		t.Error("stemmer for xx")
	}
}

// TestApertiumOddAndLarge sends characters of Apertium's stream syntax,
// control characters and a large document (far beyond a pipe buffer).
func TestApertiumOddAndLarge(t *testing.T) {
	a := newApertium(t, "fr")
	odd := "Le chat\x00 mange ^$[]{}/\\@<> \x01\x7f des souris * # ~ ."
	for _, s := range tagText(t, a, odd, "fr") {
		for _, tok := range s {
			if tok.UPOS == "" || tok.UPOS == "_" || tok.Lemma == "" {
				t.Errorf("token %q left without analysis: %+v", tok.Text, tok)
			}
		}
	}
	big := strings.Repeat("Le conseil municipal a voté le budget de la ville pour l'année prochaine. ", 4000)
	sents := tagText(t, a, big, "fr")
	if len(sents) != 4000 || sents[3999][1].Lemma != "conseil" || sents[3999][4].Lemma != "voter" {
		t.Errorf("%d sentences; last %+v", len(sents), sents[len(sents)-1][:4])
	}
}

func TestParseStream(t *testing.T) {
	units, err := parseStream([]byte(`^taux d'intérêt/taux<n><m><sp># d'intérêt$ ^du/de<pr>+le<det><def><m><sg>$[\]x]^\^/*\^$ ^a\/b/a\/b<n>$`))
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, u := range units {
		s := u.surface + "="
		for _, p := range u.parts {
			s += p.lemma + ":" + strings.Join(p.tags, ".") + ";"
		}
		if u.unknown {
			s += "?"
		}
		got = append(got, s)
	}
	want := "taux d'intérêt=taux d'intérêt:n.m.sp; du=de:pr;le:det.def.m.sg; ^=? a/b=a/b:n;"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
	if _, err := parseStream([]byte("^open/unit")); err == nil {
		t.Error("unterminated unit accepted")
	}
}

// TestApertiumHistoryIndependent: apertium-tagger rewrites its model when
// it meets an unknown ambiguity class; documents tagged after such a one
// must still get the tags a fresh tagger gives them.
func TestApertiumHistoryIndependent(t *testing.T) {
	render := func(s [][]Token) string {
		var b strings.Builder
		for _, sent := range s {
			for _, tok := range sent {
				b.WriteString(tok.Text + "/" + tok.XPOS + " ")
			}
		}
		return b.String()
	}
	target := "There is a lot of software that is not written to take advantage of multiple cores, he says. I think so."
	fresh := newApertium(t, "en")
	want := render(tagText(t, fresh, target, "en"))
	a := newApertium(t, "en")
	for _, prefix := range []string{"It is known as instructions per clock.", "I, Claudius, ran Windows.", "Known known known."} {
		tagText(t, a, prefix, "en")
		if got := render(tagText(t, a, target, "en")); got != want {
			t.Errorf("after %q:\n got %s\nwant %s", prefix, got, want)
		}
	}
	if a.Restarts() < 2 {
		t.Errorf("tagger never replaced (%d starts): the new-class detection is not working", a.Restarts())
	}
}

// TestRecoverFromDeadProcesses: a tagger process that died is started
// again and the request still succeeds.
func TestRecoverFromDeadProcesses(t *testing.T) {
	a := newApertium(t, "fr")
	tagText(t, a, "Il est parti.", "fr")
	a.morph.cmds[0].Process.Kill()
	a.tag.mu.Lock()
	if a.tag.cmds != nil {
		a.tag.cmds[0].Process.Kill()
	}
	a.tag.mu.Unlock()
	if s := tagText(t, a, "Il est parti.", "fr"); s[0][2].Lemma != "partir" {
		t.Fatalf("after the processes died: %+v", s[0][2])
	}
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		return
	}
	tt, err := NewTreeTagger("en", "testdata/fake-tree-tagger", "testdata/english-fake.par")
	if err != nil {
		t.Fatal(err)
	}
	defer tt.Close()
	tagText(t, tt, "The cats.", "en")
	tt.p.cmds[0].Process.Kill()
	if s := tagText(t, tt, "The cats.", "en"); s[0][1].Lemma != "cat" {
		t.Fatalf("treetagger after its death: %+v", s[0][1])
	}
}
