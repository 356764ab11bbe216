package tagger

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gleaner/gleaner/chain/segment"
)

// DefaultApertiumDir is where Debian installs Apertium language data.
const DefaultApertiumDir = "/usr/share/apertium"

// alignWindow is how far past the previous unit a unit's surface may
// start in the request (bytes).
const alignWindow = 256

// maxAnswer bounds one answer of a tagger process (bytes).
const maxAnswer = 64 << 20

// apertiumCodes are the codes Apertium packages use for a language.
var apertiumCodes = map[string][]string{
	"en": {"eng", "en"}, "fr": {"fra", "fr"}, "de": {"deu", "de"}, "es": {"spa", "es"},
	"it": {"ita", "it"}, "pt": {"por", "pt"}, "ca": {"cat", "ca"}, "nl": {"nld", "nl"},
}

// FindApertium returns the analyser (.automorf.bin) and tagger model
// (.prob) for lang under dir (DefaultApertiumDir when empty): those of the
// first installed pair, by name, whose source language is lang. It returns
// an error naming what was looked for when none is installed.
func FindApertium(dir, lang string) (automorf, prob string, err error) {
	if dir == "" {
		dir = DefaultApertiumDir
	}
	codes := apertiumCodes[lang]
	if codes == nil {
		codes = []string{lang}
	}
	var found []string
	for _, code := range codes {
		m, _ := filepath.Glob(filepath.Join(dir, "apertium-*", code+"-*.automorf.bin"))
		found = append(found, m...)
	}
	sort.Strings(found)
	for _, morf := range found {
		p := strings.TrimSuffix(morf, ".automorf.bin") + ".prob"
		if _, err := os.Stat(p); err == nil {
			return morf, p, nil
		}
	}
	return "", "", fmt.Errorf("no Apertium analyser and tagger for %q under %s (looked for apertium-*/{%s}-*.automorf.bin with a .prob)", lang, dir, strings.Join(codes, ","))
}

// Apertium tags with lt-proc and apertium-tagger kept running.
//
// apertium-tagger changes its own model when it meets an ambiguity class
// its model lacks (find_similar_ambiguity_class assigns through a
// reference to the model's open class), so its answers would depend on
// the documents it saw before. It runs with -d, which reports such
// classes on stderr; a tagger that reported anything is replaced before
// the next request. Every document is thus tagged by a tagger in its
// initial state, and results do not depend on order or concurrency. The
// analyser (the costly model to load) never restarts.
type Apertium struct {
	lang  string
	name  string
	morph *pipeline
	tag   *pipeline
}

// NewApertium prepares an Apertium tagger for lang from the language data
// under dir; the processes start on the first Tag.
func NewApertium(dir, lang string) (*Apertium, error) {
	morf, prob, err := FindApertium(dir, lang)
	if err != nil {
		return nil, err
	}
	for _, bin := range []string{"lt-proc", "apertium-tagger"} {
		if _, err := exec.LookPath(bin); err != nil {
			return nil, fmt.Errorf("apertium tagger for %s: %w", lang, err)
		}
	}
	return &Apertium{
		lang:  lang,
		name:  "apertium:" + strings.TrimSuffix(filepath.Base(morf), ".automorf.bin"),
		morph: newPipeline([]string{"lt-proc", "-z", "-w", morf}),
		tag:   &pipeline{argv: [][]string{{"apertium-tagger", "-d", "-z", "-g", "-p", prob}}, probe: true},
	}, nil
}

// Restarts reports how many times the tagger process was started (1 when
// it never had to be replaced).
func (a *Apertium) Restarts() int {
	a.tag.mu.Lock()
	defer a.tag.mu.Unlock()
	return a.tag.restarts
}

// Name is "apertium:" and the language pair whose data tags.
func (a *Apertium) Name() string { return a.name }

// Close stops the processes.
func (a *Apertium) Close() error { return errors.Join(a.morph.close(), a.tag.close()) }

// lu is one lexical unit of Apertium's stream: surface form and analyses
// (several when the surface contracts words: du = de+le).
type lu struct {
	surface string
	parts   []analysis
	unknown bool
}

type analysis struct {
	lemma string
	tags  []string
}

// Tag implements Tagger: the sentences go in one request, one a line.
func (a *Apertium) Tag(ctx context.Context, sents [][]Token) error {
	plain, spans := request(sents)
	// A stuck process must not hang the chain: the request gets a
	// deadline proportional to its size.
	ctx, cancel := context.WithTimeout(ctx, requestTimeout(len(plain)))
	defer cancel()
	units, err := a.analyse(ctx, plain)
	if err != nil {
		return fmt.Errorf("apertium %s: %w", a.lang, err)
	}
	alignGroups(sents, spans, placeUnits(plain, units), a.lang)
	if a.lang == "en" {
		englishRules(sents)
	}
	return nil
}

// tokenSpan is token t of sentence s, at [start, end) of the request.
type tokenSpan struct{ s, t, start, end int }

// request writes the sentences one a line, their tokens separated as in
// the text, and returns it with each token's place in it.
func request(sents [][]Token) (string, []tokenSpan) {
	var req strings.Builder
	var spans []tokenSpan
	for si, s := range sents {
		for ti := range s {
			t := &s[ti]
			if ti > 0 && s[ti-1].End < t.Start {
				req.WriteByte(' ')
			}
			start := req.Len()
			req.WriteString(t.Text)
			spans = append(spans, tokenSpan{si, ti, start, req.Len()})
		}
		req.WriteByte('\n')
	}
	return req.String(), spans
}

// analyse runs the request plain through the morphological analyser, then
// the tagger, and returns the tagged units; a failed process is restarted
// once.
func (a *Apertium) analyse(ctx context.Context, plain string) ([]lu, error) {
	var analysed []byte
	err := retryOnce(ctx, func() error {
		return a.morph.roundTrip(ctx, []byte(escapeStream(plain)+"\n\x00"), func(r *bufio.Reader) error {
			var err error
			analysed, err = readUntilNUL(r)
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	var units []lu
	err = retryOnce(ctx, func() error {
		return a.tag.roundTrip(ctx, append(analysed, 0), func(r *bufio.Reader) error {
			b, err := readUntilNUL(r)
			if err != nil {
				return err
			}
			units, err = parseStream(b)
			return err
		})
	})
	return units, err
}

// placedUnit is a unit found at [start, end) of the request.
type placedUnit struct {
	start, end int
	u          *lu
}

// placeUnits finds each unit's surface in the request plain, in order.
// Units follow each other with only blanks and unanalysed characters
// between them: a surface found far ahead is not this unit's (Apertium
// rewrote it), and would misalign the rest; such a unit is left out.
func placeUnits(plain string, units []lu) []placedUnit {
	var pl []placedUnit
	cur := 0
	for i := range units {
		u := &units[i]
		window := plain[cur:min(len(plain), cur+alignWindow+len(u.surface))]
		j := strings.Index(window, u.surface)
		if u.surface == "" || j < 0 {
			continue
		}
		pl = append(pl, placedUnit{cur + j, cur + j + len(u.surface), u})
		cur += j + len(u.surface)
	}
	return pl
}

// alignGroups analyses the tokens from the units placed over them. Tokens
// and units overlap in groups: one unit over two tokens (does|n't =
// do+not), two units over one token (a-t-il), or one to one. A token no
// unit overlaps is tagged by its kind, or guessed.
func alignGroups(sents [][]Token, spans []tokenSpan, pl []placedUnit, lang string) {
	k := 0
	for i := 0; i < len(spans); {
		t := &sents[spans[i].s][spans[i].t]
		for k < len(pl) && pl[k].end <= spans[i].start {
			k++
		}
		if k >= len(pl) || pl[k].start >= spans[i].end {
			if !byKind(t) && t.UPOS == "_" {
				guess(t)
			}
			i++
			continue
		}
		j, m := groupEnd(spans, pl, i, k)
		applyGroup(spannedTokens(sents, spans[i:j]), placedUnits(pl[k:m]), lang)
		i, k = j, m
	}
}

// spannedTokens returns the tokens of sents at spans.
func spannedTokens(sents [][]Token, spans []tokenSpan) []*Token {
	toks := make([]*Token, 0, len(spans))
	for _, sp := range spans {
		toks = append(toks, &sents[sp.s][sp.t])
	}
	return toks
}

// placedUnits returns the units of pl.
func placedUnits(pl []placedUnit) []*lu {
	over := make([]*lu, 0, len(pl))
	for _, p := range pl {
		over = append(over, p.u)
	}
	return over
}

// groupEnd returns the ends (exclusive) of the group of tokens starting at
// token i and of units starting at unit k, which overlap: the group
// extends while its last unit reaches into the next token.
func groupEnd(spans []tokenSpan, pl []placedUnit, i, k int) (int, int) {
	j, m := i+1, k+1
	for {
		for m < len(pl) && pl[m].start < spans[j-1].end {
			m++
		}
		if j < len(spans) && pl[m-1].end > spans[j].start {
			j++
			continue
		}
		return j, m
	}
}

// requestTimeout bounds one request to a tagger process: 30 s, plus a
// second per 10 KB of text.
func requestTimeout(n int) time.Duration {
	return 30*time.Second + time.Duration(n/10000)*time.Second
}

// retryOnce runs f again when it failed for another reason than ctx: a
// tagger process that died is restarted by the retry.
func retryOnce(ctx context.Context, f func() error) error {
	err := f()
	if err != nil && ctx.Err() == nil {
		err = f()
	}
	return err
}

// applyGroup analyses tokens from the units that overlap them.
func applyGroup(toks []*Token, over []*lu, lang string) {
	switch {
	case len(toks) == 1:
		if !byKind(toks[0]) {
			applyUnits(toks[0], over, lang)
		}
	case len(over) == 1 && len(over[0].parts) == len(toks):
		applyContraction(toks, over[0], lang)
	case len(over) == 1 && !over[0].unknown && len(over[0].parts) == 1:
		applyMultiword(toks, over, lang)
	default:
		// Each token takes the units that overlap it.
		for _, t := range toks {
			if !byKind(t) {
				applyUnits(t, over, lang)
			}
		}
	}
}

// applyContraction analyses the tokens of a contraction cut by the
// segmenter from the unit u: one part per token.
func applyContraction(toks []*Token, u *lu, lang string) {
	for i, t := range toks {
		if !byKind(t) {
			applyUnits(t, []*lu{{surface: t.Text, parts: u.parts[i : i+1]}}, lang)
		}
	}
}

// applyMultiword analyses the tokens of a multiword unit (next year,
// d'accord), over's only unit: its part of speech for every token, its
// lemma split over the tokens when the words match.
func applyMultiword(toks []*Token, over []*lu, lang string) {
	words := strings.FieldsFunc(over[0].parts[0].lemma, func(r rune) bool { return r == ' ' || r == '\'' || r == '’' })
	for i, t := range toks {
		if byKind(t) {
			continue
		}
		applyUnits(t, over, lang)
		if i > 0 {
			// Function words inside a multiword unit (taux d'intérêt,
			// state of the art) keep their own class.
			if pos, ok := innerFunctionWords[lang][strings.ToLower(t.Text)]; ok {
				t.UPOS, t.Feats = pos, ""
			}
		}
		multiwordLemma(t, i, words, len(toks))
	}
}

// multiwordLemma sets the lemma of t, token i of n in a multiword unit
// whose lemma's words are words: its own word when there is one per
// token (an elided one in full), else its text, the first token keeping
// the unit's lemma.
func multiwordLemma(t *Token, i int, words []string, n int) {
	switch {
	case len(words) == n:
		t.Lemma = words[i]
		if l, ok := elidedLemma[strings.ToLower(strings.TrimRight(t.Text, "'’"))]; ok {
			t.Lemma = l
		}
	case i > 0:
		t.Lemma = strings.ToLower(t.Text)
	}
}

// innerFunctionWords are the closed-class words found inside multiword
// units, with their UPOS.
var innerFunctionWords = map[string]map[string]string{
	"fr": {"de": "ADP", "d'": "ADP", "d’": "ADP", "à": "ADP", "en": "ADP", "pour": "ADP", "sur": "ADP",
		"l'": "DET", "l’": "DET", "le": "DET", "la": "DET", "les": "DET", "et": "CCONJ"},
	"en": {"of": "ADP", "in": "ADP", "on": "ADP", "for": "ADP", "to": "ADP", "at": "ADP", "by": "ADP",
		"the": "DET", "a": "DET", "an": "DET", "and": "CCONJ", "or": "CCONJ"},
}

// elidedLemma gives the full form of French elided words (d' -> de).
var elidedLemma = map[string]string{
	"l": "le", "d": "de", "j": "je", "m": "me", "n": "ne", "s": "se", "t": "te", "c": "ce",
	"qu": "que", "jusqu": "jusque", "lorsqu": "lorsque", "puisqu": "puisque", "quoiqu": "quoique",
}

// applyUnits gives t the analysis of the units it overlaps.
func applyUnits(t *Token, over []*lu, lang string) {
	over, done := abbreviationUnits(t, over)
	if done {
		return
	}
	if len(over) == 1 && over[0].unknown {
		guess(t)
		return
	}
	var m merged
	for _, u := range over {
		if u.unknown {
			m.addUnknown(u)
			continue
		}
		for _, p := range u.parts {
			m.addPart(p, u.surface, lang)
		}
	}
	if len(m.parts) > 1 && m.upos != "" {
		t.Parts = m.parts
	}
	if m.upos == "" {
		guess(t)
		return
	}
	t.Lemma = strings.Join(m.lemmas, "+")
	t.UPOS, t.XPOS, t.Feats = m.upos, strings.Join(m.xpos, "+"), m.feats
}

// abbreviationUnits returns the units to analyse the abbreviation t from
// when Apertium cut its dot off (M. = M + .): the word alone. An initial
// (analysed as a number) is tagged as a name at once, and done is true.
func abbreviationUnits(t *Token, over []*lu) (units []*lu, done bool) {
	if t.Kind != segment.Abbrev || len(over) <= 1 {
		return over, false
	}
	u := over[0]
	if len(u.parts) > 0 && len(u.parts[0].tags) > 0 && u.parts[0].tags[0] == "num" {
		t.UPOS, t.XPOS, t.Lemma = "PROPN", "abbr", t.Text
		return nil, true
	}
	return over[:1], false
}

// merged is a token's analysis gathered from the units it overlaps, part
// by part: the token's UPOS and features are its first analysed part's.
type merged struct {
	lemmas, xpos []string
	parts        []Part
	upos, feats  string
}

// addUnknown adds a unit Apertium did not analyse.
func (m *merged) addUnknown(u *lu) {
	m.lemmas = append(m.lemmas, strings.ToLower(u.surface))
	m.parts = append(m.parts, Part{Lemma: strings.ToLower(u.surface), UPOS: "X", XPOS: "unknown"})
}

// addPart adds the analysis p of a unit whose surface is surface.
func (m *merged) addPart(p analysis, surface, lang string) {
	lemma := p.lemma
	if lemma == "prpers" { // Apertium's lemma for all English personal pronouns
		lemma = strings.ToLower(surface)
	}
	m.lemmas = append(m.lemmas, lemma)
	pu, pf := partUD(p.tags, lemma, lang)
	part := Part{Lemma: lemma, UPOS: pu, Feats: pf}
	if len(p.tags) > 0 {
		part.XPOS = p.tags[0]
		m.xpos = append(m.xpos, p.tags[0])
	}
	m.parts = append(m.parts, part)
	if m.upos == "" {
		m.upos, m.feats = pu, pf
	}
}

// partUD is the UPOS and features of an analysis with tags and lemma in
// lang: Apertium's pronoun-or-determiner is a pronoun in English, a
// determiner elsewhere; English "not" is a particle.
func partUD(tags []string, lemma, lang string) (string, string) {
	pu, pf := apertiumUD(tags)
	if pu == "PRON|DET" {
		pu = "DET"
		if lang == "en" {
			pu = "PRON"
		}
	}
	if lang == "en" && lemma == "not" {
		pu = "PART"
	}
	return pu, pf
}

// englishRules brings Apertium's English tags to UD conventions: a
// capitalised noun inside a sentence (Thursday, Bank of England) is a
// proper noun, since English capitalises names only; "to" before an
// infinitive is a particle.
func englishRules(sents [][]Token) {
	for _, s := range sents {
		for i := range s {
			t := &s[i]
			if capitalisedNoun(s, i) {
				t.UPOS, t.Lemma = "PROPN", t.Text
			}
			if t.Lemma == "to" && i+1 < len(s) && strings.Contains(s[i+1].Feats, "VerbForm=Inf") {
				t.UPOS = "PART"
			}
		}
	}
}

// capitalisedNoun reports whether token i of sentence s is a capitalised
// noun inside the sentence (not after punctuation, which may open one).
func capitalisedNoun(s []Token, i int) bool {
	t := &s[i]
	r, _ := utf8.DecodeRuneInString(t.Text)
	return i > 0 && t.UPOS == "NOUN" && unicode.IsUpper(r) && s[i-1].UPOS != "PUNCT"
}

func readUntilNUL(r interface{ ReadSlice(byte) ([]byte, error) }) ([]byte, error) {
	var out []byte
	for {
		chunk, err := r.ReadSlice(0)
		out = append(out, chunk...)
		if len(out) > maxAnswer {
			return nil, errors.New("answer too large")
		}
		if err == nil {
			return out[:len(out)-1], nil
		}
		if err != bufio.ErrBufferFull {
			return nil, fmt.Errorf("reading answer: %w", err)
		}
	}
}

// escapeStream escapes the characters that have a meaning in Apertium's
// stream format.
func escapeStream(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`^$[]{}/\@<>`, r) {
			b.WriteByte('\\')
		}
		if r == 0 {
			r = ' '
		}
		b.WriteRune(r)
	}
	return b.String()
}

// parseStream reads ^surface/lemma<tag>…+lemma<tag>$ units, skipping the
// blanks between them.
func parseStream(b []byte) ([]lu, error) {
	var units []lu
	s := string(b)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '[':
			i = superblankEnd(s, i)
		case '^':
			fields, end, err := readUnit(s, i)
			if err != nil {
				return units, err
			}
			units = append(units, parseUnit(fields))
			i = end
		}
	}
	return units, nil
}

// superblankEnd returns the index of the ']' that ends the superblank
// starting at s[i] (len(s) if none).
func superblankEnd(s string, i int) int {
	for i++; i < len(s) && s[i] != ']'; i++ {
		if s[i] == '\\' {
			i++
		}
	}
	return i
}

// readUnit reads the unit starting with the '^' at s[i] to its unescaped
// '$', and returns its '/'-separated fields, unescaped, and the index of
// the '$'.
func readUnit(s string, i int) ([]string, int, error) {
	var fields []string
	var cur strings.Builder
	j := i + 1
	for ; j < len(s) && s[j] != '$'; j++ {
		switch s[j] {
		case '\\':
			j++
			if j < len(s) {
				cur.WriteByte(s[j])
			}
		case '/':
			fields = append(fields, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(s[j])
		}
	}
	if j >= len(s) {
		return nil, j, fmt.Errorf("unterminated unit at byte %d", i)
	}
	return append(fields, cur.String()), j, nil
}

// parseUnit makes a unit of its fields: the surface, then its analysis
// (the first). An analysis marked *, @ or # makes an unknown unit.
func parseUnit(fields []string) lu {
	u := lu{surface: fields[0]}
	if len(fields) < 2 {
		u.unknown = true
		return u
	}
	an := fields[1]
	if strings.HasPrefix(an, "*") || strings.HasPrefix(an, "@") || strings.HasPrefix(an, "#") {
		u.unknown = true
		return u
	}
	for _, part := range strings.Split(an, "+") {
		u.parts = append(u.parts, parseAnalysis(part))
	}
	return u
}

// parseAnalysis reads one part of an analysis, lemma<tag><tag>….
// Multiword lemmas put their invariable tail after the tags:
// taux<n><m><sp># d'intérêt is "taux d'intérêt".
func parseAnalysis(part string) analysis {
	tail := ""
	if h := strings.IndexByte(part, '#'); h > 0 {
		part, tail = part[:h], part[h+1:]
	}
	k := strings.IndexByte(part, '<')
	if k < 0 {
		return analysis{lemma: part + tail}
	}
	a := analysis{lemma: part[:k] + tail}
	for _, tag := range strings.Split(strings.Trim(part[k:], "<>"), "><") {
		a.tags = append(a.tags, tag)
	}
	return a
}

// Apertium tags -> UPOS.
var apertiumPOS = map[string]string{
	"n": "NOUN", "np": "PROPN", "vblex": "VERB", "vbser": "AUX", "vbhaver": "AUX", "vbdo": "AUX",
	"vbmod": "AUX", "vaux": "AUX", "adj": "ADJ", "adv": "ADV", "preadv": "ADV", "det": "DET",
	"predet": "DET", "prn": "PRON", "rel": "PRON", "pr": "ADP", "cnjcoo": "CCONJ", "cnjsub": "SCONJ",
	"cnjadv": "SCONJ", "num": "NUM", "ij": "INTJ", "sent": "PUNCT", "cm": "PUNCT", "lpar": "PUNCT",
	"rpar": "PUNCT", "lquest": "PUNCT", "guio": "PUNCT", "apos": "PUNCT", "quot": "PUNCT",
	"percent": "SYM", "gen": "PART", "abbr": "NOUN", "acr": "PROPN", "ord": "ADJ", "itg": "PRON",
}

// Apertium tags -> CoNLL-U features.
var apertiumFeats = map[string]string{
	"sg": "Number=Sing", "pl": "Number=Plur", "m": "Gender=Masc", "f": "Gender=Fem", "nt": "Gender=Neut",
	"p1": "Person=1", "p2": "Person=2", "p3": "Person=3", "inf": "VerbForm=Inf", "pp": "VerbForm=Part",
	"ger": "VerbForm=Ger", "pri": "Mood=Ind|Tense=Pres", "pii": "Mood=Ind|Tense=Imp", "ifi": "Mood=Ind|Tense=Past",
	"fti": "Mood=Ind|Tense=Fut", "cni": "Mood=Cnd", "prs": "Mood=Sub|Tense=Pres", "imp": "Mood=Imp",
	"past": "Tense=Past", "pres": "Tense=Pres", "def": "Definite=Def", "ind": "Definite=Ind",
	"comp": "Degree=Cmp", "sup": "Degree=Sup",
}

// apertiumUD maps an Apertium tag list to UPOS and sorted features.
func apertiumUD(tags []string) (string, string) {
	if len(tags) == 0 {
		return "", ""
	}
	upos := apertiumPOS[tags[0]]
	if upos == "" {
		upos = "X"
	}
	if tags[0] == "det" && len(tags) > 1 && tags[1] == "pos" {
		upos = "PRON|DET" // possessive: PRON in English UD, DET elsewhere (resolved by the caller)
	}
	set := map[string]bool{}
	for _, t := range tags[1:] {
		for _, f := range strings.Split(apertiumFeats[t], "|") {
			if f != "" {
				set[f] = true
			}
		}
	}
	return upos, joinFeats(set)
}

// joinFeats sorts features the way CoNLL-U wants (by name, case-insensitive).
func joinFeats(set map[string]bool) string {
	feats := make([]string, 0, len(set))
	for f := range set {
		feats = append(feats, f)
	}
	sort.Slice(feats, func(i, j int) bool { return strings.ToLower(feats[i]) < strings.ToLower(feats[j]) })
	return strings.Join(feats, "|")
}
