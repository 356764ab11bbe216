package chain

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

func newChain(t testing.TB) *Chain {
	c, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func haveApertium() bool {
	_, err := exec.LookPath("apertium-tagger")
	return err == nil
}

// TestGolden checks sentences, tokens and lemmas of small texts in the
// three languages; German has no Apertium tagger in Debian, so its lemmas
// are stems and the document says so.
func TestGolden(t *testing.T) {
	tests := []struct {
		text, lang string
		sents      []string // tokens joined by spaces
		lemmas     string   // lemmas of the first sentence
		tagger     string   // prefix of Document.Tagger
	}{
		{"Le 3 mai 2024, M. Dupont a vendu sa maison 250 000 €. Il est parti à Lyon !",
			"fr", []string{"Le 3 mai 2024 , M. Dupont a vendu sa maison 250 000 € .", "Il est parti à Lyon !"},
			"le 3 mai 2024 , M. Dupont avoir vendre son maison 250 000 € .", "apertium:"},
		{"Dr. Brown doesn't live in the U.S. anymore. She moved to Paris on 2024-05-03, see https://example.org.",
			"en", []string{"Dr. Brown does n't live in the U.S. anymore .", "She moved to Paris on 2024-05-03 , see https://example.org ."},
			"Dr. Brown do not live in the U.S. anymore .", "apertium:"},
		{"Die Kinder spielten z. B. im Garten. Danach gingen sie nach Hause.",
			"de", []string{"Die Kinder spielten z. B. im Garten .", "Danach gingen sie nach Hause ."},
			"die kind spielt z. b. im gart .", "snowball-stems:de"},
	}
	c := newChain(t)
	for _, tc := range tests {
		if tc.tagger == "apertium:" && !haveApertium() {
			t.Logf("Apertium not installed: skipping %s lemmas", tc.lang)
			continue
		}
		doc, err := c.Process(context.Background(), Input{ID: tc.lang, Text: tc.text})
		if err != nil {
			t.Fatal(err)
		}
		if doc.Lang != tc.lang {
			t.Errorf("%s: language %q (%.2f)", tc.lang, doc.Lang, doc.LangConfidence)
		}
		if !strings.HasPrefix(doc.Tagger, tc.tagger) {
			t.Errorf("%s: tagger %q, want %s…", tc.lang, doc.Tagger, tc.tagger)
		}
		var got []string
		for _, s := range doc.Blocks[0].Sentences {
			var w []string
			for _, tok := range s.Tokens {
				w = append(w, tok.Text)
			}
			got = append(got, strings.Join(w, " "))
		}
		if strings.Join(got, "\n") != strings.Join(tc.sents, "\n") {
			t.Errorf("%s sentences:\n got %q\nwant %q", tc.lang, got, tc.sents)
		}
		var lem []string
		for _, tok := range doc.Blocks[0].Sentences[0].Tokens {
			lem = append(lem, tok.Lemma)
		}
		if g := strings.Join(lem, " "); g != tc.lemmas {
			t.Errorf("%s lemmas:\n got %s\nwant %s", tc.lang, g, tc.lemmas)
		}
	}
}

func TestBlocksSeparateSentences(t *testing.T) {
	c := newChain(t)
	// A caption without final stop must not run into the next block.
	doc, err := c.Process(context.Background(), Input{Lang: "en", Blocks: []string{"Photo: the harbour at dawn", "The ship left early. It was late."}})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Blocks) != 2 || len(doc.Blocks[0].Sentences) != 1 || len(doc.Blocks[1].Sentences) != 2 {
		t.Fatalf("blocks/sentences: %+v", doc.Blocks)
	}
	if doc.LangConfidence != 1 {
		t.Errorf("given language has confidence %v", doc.LangConfidence)
	}
}

func TestUnknownLanguage(t *testing.T) {
	c, err := New(Config{Languages: []string{"en", "fr", "de", "pl"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	doc, err := c.Process(context.Background(), Input{Lang: "pl", Text: "Kapitan Joe wydał rozkaz odpalenia wszystkich armat."})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(doc.Tagger, "none (") || doc.Tokens() == 0 {
		t.Errorf("Polish (no tagger, no stemmer): tagger %q, %d tokens", doc.Tagger, doc.Tokens())
	}
	if _, err := New(Config{Languages: []string{"zz"}}); err == nil {
		t.Error("bad language accepted")
	}
}

var benchTexts = map[string]string{
	"fr": "La Banque centrale européenne a maintenu ses taux d'intérêt jeudi. Sa présidente a déclaré que l'inflation restait trop élevée, mais elle attend une baisse des prix l'an prochain. M. Dupont, qui travaille pour une petite entreprise à Lyon, n'est pas d'accord. « Nous attendons des taux plus bas depuis 2023 », a-t-il dit aux journalistes. Le nouveau pont ouvrira à la circulation en juin et coûtera 450 millions d'euros.",
	"en": "The European Central Bank kept its interest rates unchanged on Thursday. Its president said that inflation was still too high, but she expected prices to fall next year. Mr. Smith, who works for a small company in London, doesn't agree. \"We have been waiting for lower rates since 2023,\" he told reporters. The new bridge will open to traffic in June and cost $450 million.",
}

// BenchmarkChain measures documents per second through the whole chain
// (identification, segmentation, tagging) with the taggers kept alive.
// Each document is ten paragraphs (about 750 tokens).
func BenchmarkChain(b *testing.B) {
	for _, lang := range []string{"fr", "en"} {
		b.Run(lang, func(b *testing.B) {
			if !haveApertium() {
				b.Skip("Apertium not installed")
			}
			c := newChain(b)
			text := strings.Repeat(benchTexts[lang]+"\n\n", 10)
			ctx := context.Background()
			if _, err := c.Process(ctx, Input{Text: text}); err != nil { // start the tagger
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := c.Process(ctx, Input{ID: fmt.Sprint(i), Text: text}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
		})
	}
}

// TestConcurrent runs documents from several goroutines through a pool of
// two taggers per language; every result must equal the sequential one.
func TestConcurrent(t *testing.T) {
	c, err := New(Config{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	want := map[string]string{}
	render := func(d *Document) string {
		var b strings.Builder
		for _, bl := range d.Blocks {
			for _, s := range bl.Sentences {
				for _, tok := range s.Tokens {
					b.WriteString(tok.Text + "/" + tok.UPOS + "/" + tok.Lemma + " ")
				}
			}
		}
		return d.Lang + " " + d.Tagger + " " + b.String()
	}
	for lang, text := range benchTexts {
		d, err := c.Process(ctx, Input{Text: text})
		if err != nil {
			t.Fatal(err)
		}
		want[lang] = render(d)
	}
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			lang := []string{"fr", "en"}[g%2]
			for range 5 {
				d, err := c.Process(ctx, Input{Text: benchTexts[lang]})
				if err != nil {
					errs <- err
					return
				}
				if got := render(d); got != want[lang] {
					errs <- fmt.Errorf("%s: concurrent result differs:\n%s\n%s", lang, got, want[lang])
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkChainParallel measures documents per second with two tagger
// pipelines per language and documents processed concurrently.
func BenchmarkChainParallel(b *testing.B) {
	for _, lang := range []string{"fr", "en"} {
		b.Run(lang, func(b *testing.B) {
			if !haveApertium() {
				b.Skip("Apertium not installed")
			}
			c, err := New(Config{Workers: 2})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			text := strings.Repeat(benchTexts[lang]+"\n\n", 10)
			ctx := context.Background()
			b.SetParallelism(1) // GOMAXPROCS goroutines
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, err := c.Process(ctx, Input{Text: text}); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "docs/s")
		})
	}
}

func TestTreeTaggerPrecedenceAndTruncation(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 needed for the fake TreeTagger")
	}
	c, err := New(Config{
		TreeTagger: map[string]TreeTaggerModel{"en": {Bin: "tagger/testdata/fake-tree-tagger", Par: "tagger/testdata/english-fake.par"}},
		MaxBytes:   45,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	doc, err := c.Process(context.Background(), Input{Lang: "en", Blocks: []string{"The cats were sleeping on mats.", "She sings.", "This block is beyond the limit."}})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Tagger != "treetagger:en" {
		t.Errorf("tagger %q, want the configured TreeTagger", doc.Tagger)
	}
	if !doc.Truncated || len(doc.Blocks) != 2 {
		t.Errorf("truncated %v with %d blocks, want true and 2", doc.Truncated, len(doc.Blocks))
	}
	if tok := doc.Blocks[0].Sentences[0].Tokens[1]; tok.Lemma != "cat" || tok.UPOS != "NOUN" {
		t.Errorf("cats: %+v", tok)
	}
	// A TreeTagger that cannot start falls back to the next tagger.
	c2, _ := New(Config{TreeTagger: map[string]TreeTaggerModel{"de": {Bin: "/nonexistent/tree-tagger", Par: "x.par"}}})
	defer c2.Close()
	if got := c2.Tagger("de"); !strings.HasPrefix(got, "snowball-stems:de") {
		t.Errorf("missing TreeTagger for de: %q", got)
	}
}
