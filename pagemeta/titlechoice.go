package pagemeta

import (
	"math"
	"strings"
	"unicode"

	"github.com/gleaner/gleaner/treediff"
)

// titleInputs is what the headline chooser reads of a page besides its
// h1 (Meta.headings): the titles it states, as written, the site's name
// and host, and whether it says it is an article.
type titleInputs struct {
	stated     []sourced
	site, host string
	article    bool
}

// Where a title candidate comes from (candidate.from, a bit set).
const (
	fromRule    = 1 << iota // the hand rules' headline (headlineRule)
	fromH1                  // an h1, without a site suffix
	fromH1First             // the page's first h1
	fromOG                  // og:title or twitter:title, without the site's name
	fromLD                  // JSON-LD headline
	fromDC                  // headline, dc.title or title meta tags
	fromTitle               // the <title>, without the site's name
	fromExtract             // the extraction method's title
	fromSide                // one side of a stated title's separator
)

// maxTitleHeadings bounds the h1 a page offers as candidates: past a
// few, h1 are a listing's item titles, not the page's.
const maxTitleHeadings = 8

// TitleCandidate is one headline the chooser weighs: its text and the
// features the model reads (titleFeatureNames).
type TitleCandidate struct {
	Text     string
	Features []float64
}

// candidate is a headline candidate and the sources that give it.
type candidate struct {
	text string
	from int
}

// titleCandidates gathers the distinct headlines a page offers: the
// hand rules' choice, its h1, its stated titles without the site's name
// (whole, and each side of their separator) and the extracted title.
func (m Meta) titleCandidates(extracted string) []candidate {
	var cs []candidate
	index := map[string]int{}
	add := func(t string, from int) {
		t = cleanHeadline(strings.Join(strings.Fields(t), " "))
		key := normKey(t)
		if key == "" {
			return
		}
		if i, ok := index[key]; ok {
			cs[i].from |= from
			return
		}
		index[key] = len(cs)
		cs = append(cs, candidate{t, from})
	}
	add(m.headlineRule(extracted), fromRule)
	for i, h := range m.headings {
		if i >= maxTitleHeadings {
			break
		}
		from := fromH1
		if i == 0 {
			from |= fromH1First
		}
		add(cutSiteSuffix(h, m.titleIn.site, m.titleIn.host), from)
	}
	for _, st := range m.titleIn.stated {
		v := strings.Join(strings.Fields(st.value), " ")
		add(cutSiteName(v, m.titleIn.site, m.titleIn.host), statedFrom(st.source))
		for _, side := range sides(v) {
			add(side, fromSide)
		}
	}
	add(cutPipe(cleanHeadline(extracted)), fromExtract)
	return cs
}

// statedFrom is the candidate source of a stated title's source label
// (statedTitlesOf).
func statedFrom(source string) int {
	switch source {
	case "og":
		return fromOG
	case "json-ld":
		return fromLD
	case "title":
		return fromTitle
	}
	return fromDC
}

// sides are the parts of t before its first separator and after its
// last, when it has one: a headline beside a section's or a site's name
// that does not say it is the site's.
func sides(t string) []string {
	for _, sep := range titleSeparators {
		if i := strings.Index(t, sep); i > 0 {
			j := strings.LastIndex(t, sep)
			return []string{t[:i], t[j+len(sep):]}
		}
	}
	return nil
}

// normKey is a headline as titles compare: lower-cased, typographic
// quotes and dashes as plain ones, spaces collapsed.
func normKey(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(keyReplacer.Replace(s)), " "))
}

var keyReplacer = strings.NewReplacer("\u2018", "'", "\u2019", "'", "\u201c", `"`, "\u201d", `"`,
	"\u2013", "-", "\u2014", "-", "\u00a0", " ", "\u2026", "...")

// TitleCandidates are the page's headline candidates with the features
// the chooser's model reads, for fitting it (pagemeta/internal/fittitle).
func (m Meta) TitleCandidates(extracted, pageType string) []TitleCandidate {
	cs := m.titleCandidates(extracted)
	out := make([]TitleCandidate, len(cs))
	for i := range cs {
		out[i] = TitleCandidate{cs[i].text, m.titleFeatures(cs, i, pageType)}
	}
	return out
}

// titleFeatureNames name the features of titleFeatures, in order.
var titleFeatureNames = []string{"rule", "h1", "h1_first", "og", "ld", "dc", "title", "extracted", "side_only",
	"sources", "log_words", "overlap", "all_caps", "separator", "names_site", "h1_sole", "h1_article",
	"title_article", "short", "colon_end", "h1_many", "rule_article", "rule_h1", "rel_words"}

// typedSources are the candidate sources crossed with the page's type
// (titleFeatures): which one names the page depends on its kind (an
// article's headline is its h1, a shop's or a service's page is named
// by its stated title, the h1 a slogan).
var typedSources = []struct {
	name string
	from int
}{{"rule", fromRule}, {"h1_first", fromH1First}, {"stated", fromOG | fromTitle | fromDC | fromLD}, {"side", fromSide}}

// nonArticleTypes are the page types (pagetype.Types) crossed with the
// sources; an article's, or an unknown type's, is the reference.
var nonArticleTypes = []string{"forum", "product", "collection", "listing", "documentation", "service"}

func init() {
	for _, t := range nonArticleTypes {
		for _, s := range typedSources {
			titleFeatureNames = append(titleFeatureNames, s.name+"_"+t)
		}
	}
}

// titleFeatures are candidate i's features: which sources give it, how
// many agree, how much of it the other candidates say, its length and
// case, whether it keeps a separator or names the site, and, crossed
// with its sources, the count of the page's h1 and whether the page
// says it is an article.
func (m Meta) titleFeatures(cs []candidate, i int, pageType string) []float64 {
	x := m.plainFeatures(cs, i)
	for _, t := range nonArticleTypes {
		for _, s := range typedSources {
			x = append(x, b2f(t == pageType && cs[i].from&s.from != 0))
		}
	}
	return x
}

// plainFeatures are titleFeatures without the page type.
func (m Meta) plainFeatures(cs []candidate, i int) []float64 {
	c := cs[i]
	words := treediff.Words(c.text)
	h1s := min(len(m.headings), maxTitleHeadings)
	has := func(f int) float64 { return b2f(c.from&f != 0) }
	whole := c.from &^ (fromRule | fromSide | fromH1First)
	isH1 := has(fromH1)
	art := b2f(m.titleIn.article)
	return []float64{
		has(fromRule), isH1, has(fromH1First), has(fromOG), has(fromLD), has(fromDC), has(fromTitle), has(fromExtract),
		b2f(whole == 0 && c.from&fromSide != 0),
		float64(popCount(whole)), math.Log1p(float64(len(words))), overlapShare(cs, i), b2f(allCaps(c.text)),
		b2f(hasSeparator(c.text)), b2f(namesSite(c.text, m.titleIn.site, m.titleIn.host)),
		isH1 * b2f(h1s == 1), isH1 * art, has(fromTitle) * art, b2f(len(words) <= 2),
		b2f(strings.HasSuffix(c.text, ":")), isH1 * b2f(h1s >= 3), has(fromRule) * art, has(fromRule) * isH1,
		math.Log1p(float64(len(words))) - meanLogWords(cs),
	}
}

// meanLogWords is the mean of log(1+words) over the candidates.
func meanLogWords(cs []candidate) float64 {
	s := 0.0
	for _, c := range cs {
		s += math.Log1p(float64(len(treediff.Words(c.text))))
	}
	return s / float64(max(len(cs), 1))
}

// overlapShare is the share of candidate i's words that another
// candidate also says.
func overlapShare(cs []candidate, i int) float64 {
	ws := treediff.Words(cs[i].text)
	if len(ws) == 0 {
		return 0
	}
	others := map[string]bool{}
	for j, c := range cs {
		if j == i {
			continue
		}
		for _, w := range treediff.Words(c.text) {
			others[strings.ToLower(w.Text)] = true
		}
	}
	n := 0
	for _, w := range ws {
		if others[strings.ToLower(w.Text)] {
			n++
		}
	}
	return float64(n) / float64(len(ws))
}

// allCaps reports whether t has letters and none lower-case.
func allCaps(t string) bool {
	letters := false
	for _, r := range t {
		if unicode.IsLower(r) {
			return false
		}
		letters = letters || unicode.IsLetter(r)
	}
	return letters
}

// hasSeparator reports whether t holds a title separator.
func hasSeparator(t string) bool {
	for _, sep := range titleSeparators {
		if strings.Contains(t, sep) {
			return true
		}
	}
	return false
}

func popCount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// chooseTitle is the candidate the model scores highest (the first on
// a tie), "" when there is none.
func (m Meta) chooseTitle(extracted, pageType string) string {
	cs := m.titleCandidates(extracted)
	best, bestScore := "", math.Inf(-1)
	for i := range cs {
		if s := titleScore(m.titleFeatures(cs, i, pageType)); s > bestScore {
			best, bestScore = cs[i].text, s
		}
	}
	return best
}

// titleScore is the model's score of a candidate's features (a
// conditional logit: only the differences between one page's candidates
// count).
func titleScore(x []float64) float64 {
	s := 0.0
	for j := range x {
		if j < len(titleWeights) {
			s += titleWeights[j] * x[j]
		}
	}
	return s
}

// TitleFeatureNames name the chooser's features, in order (for the
// model's file).
func TitleFeatureNames() []string { return append([]string(nil), titleFeatureNames...) }

// ChoosesTitle reports whether the headline chooser decides the title of
// a page of type pageType: a forum's, a collection's, a listing's, a
// documentation's or a service's page, where the h1 is often a slogan,
// a section's name or a teaser, and the stated title names the page.
// On an article (or a page of unknown kind) and on a product's page, the
// h1 names the page and the hand rules find it as well as the model
// (wcxb-dev, held-out folds by site: articles 89.2% exact either way,
// products 73.2% by the rules, 70.5% by the model). Deciding the pages
// read as articles too (fittitle --choose article) gains six titles on
// wcxb-dev, of pages whose gold type is another, but loses one gold
// article and three of big9-dev's 180 news headlines (98.3% -> 96.7%);
// features weighing an h1 against the stated titles (word overlap, one
// holding the other, og:title and <title> agreeing) and the sources
// crossed with the article type did not change that.
func ChoosesTitle(pageType string) bool {
	for _, t := range chosenTypes {
		if t == pageType {
			return true
		}
	}
	return false
}

// chosenTypes are the page types whose headline the chooser decides.
var chosenTypes = []string{"forum", "collection", "listing", "documentation", "service"}
