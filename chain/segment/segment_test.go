package segment

import (
	"strings"
	"testing"
)

func texts(toks []Token) []string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.Text
	}
	return out
}

func TestTokenize(t *testing.T) {
	tests := []struct {
		lang, in string
		want     []string
		kinds    map[string]Kind
	}{
		{"fr", "L'homme qu'il a vu aujourd'hui coûte 12,50 € et pèse 3 kg.",
			[]string{"L'", "homme", "qu'", "il", "a", "vu", "aujourd'hui", "coûte", "12,50 €", "et", "pèse", "3 kg", "."},
			map[string]Kind{"12,50 €": Money, "3 kg": Measure}},
		{"en", "Mr. Smith doesn't know it's $5,000 at https://example.com/a?b=1.",
			[]string{"Mr.", "Smith", "does", "n't", "know", "it", "'s", "$5,000", "at", "https://example.com/a?b=1", "."},
			map[string]Kind{"Mr.": Abbrev, "$5,000": Money, "https://example.com/a?b=1": URL}},
		{"de", "Am 3. Mai 2024 kam z.B. Dr. Müller um 14:30 an (ca. 20 %).",
			[]string{"Am", "3. Mai 2024", "kam", "z.B.", "Dr.", "Müller", "um", "14:30", "an", "(", "ca.", "20 %", ")", "."},
			map[string]Kind{"3. Mai 2024": Date, "z.B.": Abbrev, "14:30": Time, "20 %": Measure}},
		{"en", "Write to jane.doe@example.org on 2024-05-03, or call 1,234 times.",
			[]string{"Write", "to", "jane.doe@example.org", "on", "2024-05-03", ",", "or", "call", "1,234", "times", "."},
			map[string]Kind{"jane.doe@example.org": Email, "2024-05-03": Date, "1,234": Number}},
		{"fr", "Le 1er mai 2023, M. Dupont est-il venu ?",
			[]string{"Le", "1er mai 2023", ",", "M.", "Dupont", "est", "-il", "venu", "?"},
			map[string]Kind{"1er mai 2023": Date}},
	}
	for _, tc := range tests {
		toks := Tokenize(tc.in, tc.lang)
		got := texts(toks)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("Tokenize(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
		for _, tok := range toks {
			if tc.in[tok.Start:tok.End] != tok.Text {
				t.Errorf("token %q offsets %d:%d point at %q", tok.Text, tok.Start, tok.End, tc.in[tok.Start:tok.End])
			}
			if k, ok := tc.kinds[tok.Text]; ok && tok.Kind != k {
				t.Errorf("%q: kind %v, want %v", tok.Text, tok.Kind, k)
			}
		}
	}
}

func TestSentences(t *testing.T) {
	tests := []struct {
		lang, in string
		want     []string
	}{
		{"en", "Mr. Smith went to Washington. He arrived on Jan. 5 at 3 p.m. and left. \"Why?\" she asked. It costs $3.50 etc. Next one.",
			[]string{"Mr. Smith went to Washington .", "He arrived on Jan. 5 at 3 p.m. and left .", "\" Why ? \" she asked .", "It costs $3.50 etc.", "Next one ."}},
		{"fr", "M. Dupont est arrivé. Il a dit : « Bonjour ! » Puis il est parti...\nTitre sans point\nFin.",
			[]string{"M. Dupont est arrivé .", "Il a dit : « Bonjour ! »", "Puis il est parti ...", "Titre sans point", "Fin ."}},
		{"de", "Das ist z. B. gut. Die Firma (gegr. 1900) wuchs. Am 3. Oktober war Feiertag.",
			[]string{"Das ist z. B. gut .", "Die Firma ( gegr. 1900 ) wuchs .", "Am 3. Oktober war Feiertag ."}},
	}
	for _, tc := range tests {
		toks := Tokenize(tc.in, tc.lang)
		var got []string
		for _, s := range Sentences(toks, tc.in, tc.lang) {
			got = append(got, strings.Join(texts(s), " "))
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("Sentences(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func checkTokens(t *testing.T, text string, toks []Token) {
	t.Helper()
	end := 0
	for _, tok := range toks {
		if tok.Start < end || tok.End <= tok.Start || tok.End > len(text) || text[tok.Start:tok.End] != tok.Text {
			t.Fatalf("bad token %+v after offset %d in %q", tok, end, text)
		}
		end = tok.End
	}
}

func TestTokenizeBadInput(t *testing.T) {
	for _, text := range []string{
		"caf\xe9 \xff\xfe ok.", "\x00\x01 a\u200bb", strings.Repeat("a", 100000), strings.Repeat("1,", 5000),
		"http://" + strings.Repeat("x", 3000), strings.Repeat(".", 1000) + "A", "'' -- '", "",
	} {
		for _, lang := range []string{"en", "fr", "de", ""} {
			toks := Tokenize(text, lang)
			checkTokens(t, text, toks)
			n := 0
			for _, s := range Sentences(toks, text, lang) {
				n += len(s)
			}
			if n != len(toks) {
				t.Fatalf("sentences hold %d of %d tokens", n, len(toks))
			}
		}
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{"L'homme a 3 kg.", "Mr. Smith's $5 at www.x.org.", "z.B. 3. Mai 2024", "a-t-il ?"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		toks := Tokenize(text, "")
		checkTokens(t, text, toks)
		n := 0
		for _, s := range Sentences(toks, text, "") {
			if len(s) == 0 {
				t.Fatal("empty sentence")
			}
			n += len(s)
		}
		if n != len(toks) {
			t.Fatalf("sentences hold %d of %d tokens", n, len(toks))
		}
	})
}

// BenchmarkTokenize measures tokenization and sentence splitting of a
// French news paragraph (MB/s over its bytes).
func BenchmarkTokenize(b *testing.B) {
	text := strings.Repeat("Le 3 mai 2024, M. Dupont a vendu sa maison 250 000 € à Lyon (voir https://example.fr/a). L'acheteur, qu'il connaissait depuis 2019, a payé 12,5 % de plus. ", 50)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Sentences(Tokenize(text, "fr"), text, "fr")
	}
}

func TestNoTokenAcrossLines(t *testing.T) {
	text := "Publié le 3\nmai 2024 pour 12\n€ et 5\nkm."
	for _, tok := range Tokenize(text, "fr") {
		if strings.Contains(tok.Text, "\n") {
			t.Errorf("token %q spans a line break", tok.Text)
		}
	}
}
