package singlepage

import (
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// An author's bio ("Jane Doe is a staff writer covering health. She has
// ...") closes or opens many articles, in an author box whose markup
// names nothing general (a plugin's class, generated class names, or
// none). What marks it is its text: it opens with the name of the
// page's stated author followed by a verb that introduces a person, and
// names that person by a pronoun. Among wcxb-dev's article bodies, 75
// paragraphs open so, 58 of them outside the gold, nearly all at either
// end of the body. Every candidate body keeps it, so it is left out of
// the body chosen for a page read as an article (withSecondOpinion).

// bioVerbs follow the author's name at the start of a bio. "Jane Doe
// covers technology for the news service" is not one: news services end
// their stories with that line, and wide-dev's gold keeps it.
var bioVerbs = map[string]bool{
	"is": true, "was": true, "has": true, "holds": true, "writes": true,
	"joined": true, "lives": true, "serves": true,
	"brings": true, "began": true, "enjoys": true, "earned": true,
	"specializes": true, "received": true, "graduated": true, "works": true,
	"worked": true, "teaches": true, "leads": true, "loves": true,
	"founded": true,
}

// honorifics may precede a name, in the metadata or in the bio.
var honorifics = map[string]bool{"dr": true, "mr": true, "mrs": true, "ms": true, "prof": true}

// bioFollowers open a bio's next paragraph besides the author's name
// ("She holds...", "When she is not writing...").
var bioFollowers = map[string]bool{"he": true, "she": true, "his": true, "her": true, "when": true}

// Bounds of a bio: its first paragraph's least words; how many paragraphs
// may follow it; how near an end of the body it lies, as the share of the
// body's words before it (an author box above the article) or after it.
const (
	minBioWords    = 5
	maxBioFollow   = 3
	bioHeadShare   = 0.1
	bioTailShare   = 0.25
	maxAuthorNames = 8
)

// authorNames cuts the page's stated authors ("Jane Doe, Bo Chen and Ann
// Lee") into names, each its lower-cased words without honorifics.
func authorNames(author string) [][]string {
	split := strings.NewReplacer(";", ",", "&", ",", "|", ",", " and ", ",").Replace(author)
	var names [][]string
	for _, part := range strings.Split(split, ",") {
		if ws := nameWords(part); len(ws) > 0 && len(names) < maxAuthorNames {
			names = append(names, ws)
		}
	}
	return names
}

// nameWords is s's lower-cased words, honorifics before the first left
// out.
func nameWords(s string) []string {
	var out []string
	for _, w := range treediff.Words(s) {
		lw := strings.ToLower(w.Text)
		if len(out) == 0 && honorifics[strings.TrimSuffix(lw, ".")] {
			continue
		}
		out = append(out, lw)
	}
	return out
}

// authorBios marks the blocks of body (the body's blocks in order) that
// are an author's bio (bioStart and up to maxBioFollow paragraphs
// continuing it, bioFollows) lying at either end of the body: an
// article that is about a person named like its author tells of them
// in its middle.
func authorBios(body []*block, names [][]string) []bool {
	out := make([]bool, len(body))
	if len(names) == 0 {
		return out
	}
	total := 0
	for _, b := range body {
		total += b.words
	}
	before := 0
	for i := 0; i < len(body); i++ {
		if !bioStart(body[i], names) {
			before += body[i].words
			continue
		}
		j, words := bioEnd(body, i, names)
		after := total - before - words
		atEnd := float64(before) <= bioHeadShare*float64(total) || float64(after) <= bioTailShare*float64(total)
		bio := atEnd && aPerson(body[i:j])
		for k := i; k < j; k++ {
			out[k] = bio
		}
		before += words
		i = j - 1
	}
	return out
}

// bioEnd returns the end of the bio starting at body[i] (the index past
// its last paragraph: up to maxBioFollow paragraphs continuing it,
// bioFollows) and its words.
func bioEnd(body []*block, i int, names [][]string) (int, int) {
	j, words := i+1, body[i].words
	for j < len(body) && j-i <= maxBioFollow && bioFollows(body[j], names) {
		words += body[j].words
		j++
	}
	return j, words
}

// aPerson reports whether a bio's paragraphs tell of a person: one of
// them names the person by a pronoun ("She joined..."). A company stated
// as the author ("Acme is a leading maker of...") tells of itself
// without one, and there its text is often the article's; a one-line
// note on the author without one ("Jane Doe is a former bureau chief.")
// closes columns whose gold keeps it (wide-dev's cleanportaleval).
func aPerson(bio []*block) bool {
	for _, b := range bio {
		for _, w := range treediff.Words(b.text) {
			if personPronouns[strings.ToLower(w.Text)] {
				return true
			}
		}
	}
	return false
}

// personPronouns name a person, not a company.
var personPronouns = map[string]bool{
	"he": true, "she": true, "his": true, "her": true, "him": true,
	"hers": true, "himself": true, "herself": true,
}

// bioStart reports a paragraph opening with an author's name (whole, or
// the first or last word of a name of several) followed by a verb that
// introduces a person ("Jane Doe is", "Jane has").
func bioStart(b *block, names [][]string) bool {
	if b.heading > 0 || b.words < minBioWords {
		return false
	}
	ws := nameWords(b.text)
	for _, name := range names {
		if k := nameAt(ws, name); k > 0 && k < len(ws) && bioVerbs[ws[k]] {
			return true
		}
	}
	return false
}

// nameAt is the number of ws's first words that spell name, whole or, for
// a name of several words, its first or last word alone; 0 when none do.
func nameAt(ws, name []string) int {
	if len(ws) >= len(name) && equalWords(ws[:len(name)], name) {
		return len(name)
	}
	if len(name) > 1 && len(ws) > 0 && (ws[0] == name[0] || ws[0] == name[len(name)-1]) {
		return 1
	}
	return 0
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// bioFollows reports a paragraph continuing a bio: it opens with a word
// of an author's name or a pronoun of a person.
func bioFollows(b *block, names [][]string) bool {
	ws := nameWords(b.text)
	if b.heading > 0 || len(ws) == 0 {
		return false
	}
	if bioFollowers[ws[0]] {
		return true
	}
	for _, name := range names {
		for _, w := range name {
			if ws[0] == w {
				return true
			}
		}
	}
	return false
}

// withoutBios returns body (paragraphs parted by blank lines), whichever
// candidate gave it, without the bios of the authors named by names
// (authorBios): go-trafilatura's body and the page's units keep them.
func withoutBios(body string, names [][]string) string {
	if len(names) == 0 || body == "" {
		return body
	}
	paras := strings.Split(body, "\n\n")
	blocks := make([]*block, len(paras))
	for i, para := range paras {
		blocks[i] = &block{text: para, words: len(treediff.Words(para))}
	}
	bios := authorBios(blocks, names)
	kept := paras[:0]
	for i, para := range paras {
		if !bios[i] {
			kept = append(kept, para)
		}
	}
	return strings.Join(kept, "\n\n")
}
