package pagemeta

import (
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/gleaner/gleaner/treediff"
)

// authors returns the page's authors and their source: JSON-LD, meta
// tags, itemprop=author, rel=author, then the bylines (a text starting
// with "By", "Von", "Par"… or under a byline's class). A source that
// names only the site is passed over for a later one that names someone
// else; the site's name is kept only when no source does (a blog named
// after its author, a company's post signed by the company).
func authors(s *scan, t *treediff.Tree, ld ldMeta, site, host string) ([]string, string) {
	s = bylineScan(s, t)
	// strict: names read from the page's text (see splitAuthors); a
	// desk's byline is read as its signature.
	candidates := []struct {
		raw    []string
		source string
		strict bool
	}{
		{ld.authors, "json-ld", false},
		{metaAuthors(s), "meta", false},
		{s.propAuthors, "itemprop", false},
		{s.relAuthors, "link", true},
		{bylineAuthors(s), "byline", true},
		{firstN(s.hrefAuthors, 3), "link", true},
		{deskByline(s), "byline", false},
		{firstMember(s), "link", false},
	}
	var siteOnly []string
	siteSource := ""
	for _, c := range candidates {
		names, sites := sourceNames(c.raw, c.strict, site, host)
		if signed, src := signers(s, names, sites, c.strict, site, c.source); len(signed) > 0 {
			return signed, src
		}
		if len(sites) > 0 && siteOnly == nil {
			siteOnly, siteSource = sites, c.source
		}
	}
	return siteOnly, siteSource
}

// firstMember is the first forum member linked after the headline (a
// thread's starter: its first post's author), for a page nothing else
// signs; none when the page has no headline.
func firstMember(s *scan) []string {
	h := anchor(s)
	if h < 0 {
		return nil
	}
	for _, m := range s.members {
		if m.index > h && m.text != "" {
			return []string{m.text}
		}
	}
	return nil
}

// signers are the authors one source names and where they came from:
// its names, a full name the byline shows instead of logins the head
// states, or a person the site is named after; none when it names only
// the site otherwise.
func signers(s *scan, names, sites []string, strict bool, site, source string) ([]string, string) {
	switch {
	case len(names) > 0 && !strict && logins(names):
		if shown := fullNames(bylineAuthors(s)); len(shown) > 0 {
			return shown, "byline"
		}
		return names, source
	case len(names) > 0:
		return names, source
	case !strict && personal(sites, site):
		return sites, source
	}
	return nil, ""
}

// sourceNames are the distinct names one source gives (strict for names
// read from the page's text, see splitAuthors), apart from those that
// name the site; more than maxAuthors are a list of posters, not a
// byline, and only the first is the page's.
func sourceNames(raw []string, strict bool, site, host string) (names, sites []string) {
	for _, r := range raw {
		for _, n := range splitAuthors(r, strict) {
			switch {
			case containsFold(names, n) || containsFold(sites, n):
			case namesSite(n, site, host):
				sites = append(sites, n)
			default:
				names = append(names, n)
			}
		}
	}
	if len(names) > maxAuthors {
		names = names[:1]
	}
	return names, sites
}

// maxAuthors bounds the authors one source gives: more are the posters
// of a thread or the commenters of a story.
const maxAuthors = 6

// metaAuthors are the values of the first author meta name the page has,
// else the twitter:dataN whose twitter:labelN says "Written by".
func metaAuthors(s *scan) []string {
	if vs := namedMetaAuthors(s); len(vs) > 0 {
		return vs
	}
	for i := 1; i <= 4; i++ {
		n := strconv.Itoa(i)
		if reLeadAlone.MatchString(s.meta("twitter:label" + n)) {
			if v := s.meta("twitter:data" + n); v != "" && !strings.Contains(v, "@") {
				return []string{v}
			}
		}
	}
	return nil
}

func namedMetaAuthors(s *scan) []string {
	for _, k := range []string{"author", "article:author", "byl", "dc.creator", "dcterms.creator", "sailthru.author", "parsely-author", "citation_author", "twitter:creator"} {
		var vs []string
		for _, v := range s.metas[k] {
			if !strings.HasPrefix(v, "http") && !strings.HasPrefix(v, "@") {
				vs = append(vs, v) // a profile URL or handle is not a name
			} else if h := profileHandle(v, s.host); h != "" {
				vs = append(vs, h)
			}
		}
		if len(vs) > 0 {
			return vs
		}
	}
	return nil
}

// profileHandle is the member's handle a profile URL on the page's own
// site names in its last segment, marked by "~" or "@" ("/~jdoe",
// "/@jdoe"): the user who posted, as the site writes them. "" for another
// site's URL (a social network's page) or a path without such a mark.
func profileHandle(v, host string) string {
	u, err := url.Parse(v)
	if err != nil || host == "" || strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.") != host {
		return ""
	}
	seg := path.Base(strings.TrimRight(u.Path, "/"))
	if len(seg) < 2 || seg[0] != '~' && seg[0] != '@' {
		return ""
	}
	return seg[1:]
}

// reByline is a byline's lead word in en, fr, de, es, it, pt, nl, pl;
// reStrongLead those that never start a name ("Di", "De", "Da" can).
var (
	reByline     = regexp.MustCompile(`(?i)^(?:(?:` + leadPrepositions + `|di|texte|text|de|da|tekst)\s*:?|(?:` + leadNouns + `)\s*:)\s+(.+)$`)
	reStrongLead = regexp.MustCompile(`(?i)^(?:(?:` + leadPrepositions + `)\s*:?|(?:` + leadNouns + `)\s*:)\s+(.+)$`)
)

// strongLeads are the lead words of a byline that never start a name: a
// preposition ("By", "Written by"), or a noun ("Author"), which leads a
// name only with a colon or alone on its line ("Author Spotlight",
// "Author Bio" name no one).
const (
	strongLeads      = leadPrepositions + `|` + leadNouns
	leadPrepositions = `(?:written|posted|words|text|article|recipe|authored|story|reporting|photos?|review(?:ed)?|insights?) (?:by|from)|by|von|par|por|door|przez|écrit par|geschrieben von|escrito por|scritto da`
	leadNouns        = `contributors?|author\(s\)|autor(?:in|en)?|authors?|auteurs?|autore`
)

// bylineAuthors are the names of the page's bylines: the first text with
// a lead word ("By Jane Doe", or "Written by" alone before the name),
// else the first text under an author class that reads as names.
func bylineAuthors(s *scan) []string {
	for i := range s.lines {
		if names := ledNames(s.lines, i); len(names) > 0 {
			return names
		}
	}
	for _, l := range s.lines {
		if l.cue != "author" {
			continue
		}
		if names := splitAuthors(l.text, true); len(names) > 0 {
			return names
		}
	}
	return datedBylineNames(s)
}

// ledNames are the names line i gives after its lead word ("By Jane
// Doe"), or the next line after a lead word alone ("Written by").
func ledNames(lines []line, i int) []string {
	l := lines[i]
	if m := reByline.FindStringSubmatch(l.text); m != nil && (l.cue == "author" || leadWordStrong(l.text)) && !sentenceTail(l.text) {
		if names := splitAuthors(m[1], true); len(names) > 0 {
			return names
		}
	}
	if reLeadAlone.MatchString(l.text) && i+1 < len(lines) {
		return splitAuthors(lines[i+1].text, true)
	}
	return nil
}

// sentenceTail reports whether a text led by a lower-case "by" ends a
// sentence ("… according to the survey <a>…</a> by the Review."): the
// end of a paragraph's sentence after a link, not a byline.
func sentenceTail(t string) bool {
	return strings.HasPrefix(t, "by ") && strings.HasSuffix(t, ".")
}

// bylineParts splits a byline that lists its parts ("Jane Doe | Senior
// Writer | July 2, 2025", "Dec 26, 2025 • Jane Doe").
var bylineParts = regexp.MustCompile(`\s+[|·•—]\s+`)

// datedBylineNames are the names of the first dated line just after the
// headline that lists its parts without a lead word: the parts that read
// as a name of two words or more ("Politics | May 3, 2025" names no one).
func datedBylineNames(s *scan) []string {
	for _, l := range headlineLines(s, bylineWindow/4) {
		parts := bylineParts.Split(l.text, -1)
		if len(parts) < 2 || NormalizeDate(l.text) == "" {
			continue
		}
		if names := partNames(parts); len(names) > 0 {
			return names
		}
	}
	return nil
}

// partNames are the parts of a byline that are a name of two words or
// more, not a date.
func partNames(parts []string) []string {
	var names []string
	for _, p := range parts {
		if n := splitAuthors(p, true); len(n) == 1 && len(strings.Fields(n[0])) >= 2 && NormalizeDate(p) == "" {
			names = append(names, n[0])
		}
	}
	return names
}

// deskWords sign a byline as a desk's, first or last ("The Currency
// editors", "Team Example").
var deskWords = map[string]bool{"team": true, "desk": true, "editors": true, "staff": true, "newsroom": true,
	"redaktion": true, "rédaction": true, "redacción": true, "redazione": true, "redactie": true}

// deskByline is the first byline that a desk signs ("By the Example
// Team", "Team Example" under an author's class), for a page no person
// signs.
func deskByline(s *scan) []string {
	for i, l := range s.lines {
		text, ok := bylineText(s.lines, i)
		if !ok && l.cue != "author" {
			continue
		}
		if d := deskName(text); d != "" {
			return []string{d}
		}
	}
	return nil
}

// bylineText is what line i signs after a lead word (on it, or alone
// before it on the line before); ok is false when it has none.
func bylineText(lines []line, i int) (string, bool) {
	if reLeadAlone.MatchString(lines[i].text) && i+1 < len(lines) {
		return lines[i+1].text, true
	}
	if m := reStrongLead.FindStringSubmatch(lines[i].text); m != nil && leadWordStrong(lines[i].text) {
		return m[1], true
	}
	return lines[i].text, false
}

// deskName is p when it is a desk's signature: two to five words, a
// desk word first or last, the others capitalised or "the", "of", "and".
func deskName(p string) string {
	p = strings.Trim(p, " .:-–—")
	words := strings.Fields(p)
	if len(words) < 2 || len(words) > 5 || strings.ContainsAny(p, "0123456789@?!:|") {
		return ""
	}
	if !deskWords[strings.ToLower(words[0])] && !deskWords[strings.ToLower(words[len(words)-1])] {
		return ""
	}
	if !namedDesk(words) {
		return ""
	}
	return p
}

// namedDesk reports whether a desk's words name it: each a desk word, a
// joining word or capitalised, and one at least capitalised and neither
// a role nor an author box's word.
func namedDesk(words []string) bool {
	named := false
	for _, w := range words {
		lw := strings.ToLower(w)
		switch {
		case deskWords[lw] || lw == "the" || lw == "of" || lw == "and":
		case unicode.IsUpper([]rune(w)[0]) && !notNames[lw] && !roleWord(w):
			named = true
		default:
			return false
		}
	}
	return named
}

// reLeadAlone is a byline's lead word alone on its line.
var reLeadAlone = regexp.MustCompile(`(?i)^(?:` + strongLeads + `)\s*:?$`)

// leadWordStrong reports whether a text's lead word marks a byline even
// outside a byline element: "By", "Von", "Par", "Door", "Autor:", not a
// word that also starts sentences ("de", "di", "da").
func leadWordStrong(t string) bool {
	low := strings.ToLower(t)
	for _, p := range []string{"by ", "written by ", "posted by ", "von ", "par ", "door ", "autor:", "autorin:", "auteur :", "auteur:", "przez "} {
		if strings.HasPrefix(low, p) {
			return len(treediff.Words(t)) <= 14
		}
	}
	return false
}

// roleWords mark a part of a byline that is a role, not a name.
var roleWords = []string{"staff", "writer", "editor", "reporter", "correspondent", "contributor", "journalist", "columnist",
	"redakteur", "redaktion", "rédaction", "rédacteur", "redacción", "redazione", "redação", "redactie", "redakcja",
	"photographer", "expert", "director", "manager", "team", "desk", "news", "updated", "published", "ago"}

// roleQualifiers start a role ("Senior Editor", "Our Correspondent").
var roleQualifiers = map[string]bool{"senior": true, "chief": true, "contributing": true, "special": true, "staff": true,
	"political": true, "our": true, "the": true, "a": true, "an": true, "freelance": true, "guest": true, "associate": true,
	"managing": true, "executive": true, "deputy": true, "head": true, "lead": true}

// isRole reports whether a byline part is a role: a lower-case start, two
// role words ("Times Staff Writer"), or a role word or qualifier first
// ("Editor", "Senior Editor"); "Ann Writer" is a name.
func isRole(words []string) bool {
	if len(words) > 0 && (roleQualifiers[strings.ToLower(strings.TrimRight(words[0], ","))] || roleWord(words[0])) {
		return true // "A." is an initial, not the article
	}
	n := 0
	for _, w := range words {
		if roleWord(w) {
			n++
		}
	}
	return n >= 2
}

// roleWord reports whether w starts with a role word ("Editors", "Staff").
func roleWord(w string) bool {
	lw := strings.ToLower(strings.Trim(w, ".,"))
	for _, r := range roleWords {
		if strings.HasPrefix(lw, r) {
			return true
		}
	}
	return false
}

// reParenthesis is a parenthesised part of a byline: a role or a handle
// beside the name.
var reParenthesis = regexp.MustCompile(`\s*\([^()]*\)`)

// reSplitAuthors splits a list of names.
var reSplitAuthors = regexp.MustCompile(`\s*(?:,|;|&|\||/|\b(?:and|AND|und|et|y|e|en|i|oraz)\b)\s*`)

// splitAuthors splits a byline into names: the lead word, roles, dates
// and "and" go. A byline read from the page's text (strict) keeps only
// names that start with a capital and are not a lone short word (a
// credential, "MS"); one the page states as its author (JSON-LD, meta)
// keeps handles ("jdoe") and desks ("Everfit Team").
func splitAuthors(s string, strict bool) []string {
	s = strings.Join(strings.Fields(s), " ")
	if m := reStrongLead.FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	if strict {
		s = reParenthesis.ReplaceAllString(s, "") // "Jane Doe (Senior Editor)"
	}
	out, roles := nameParts(s, strict)
	if len(out) == 0 && len(roles) == 1 {
		// A desk's signature the page states ("News Desk"), not a role
		// beside a name ("Jane Doe, Staff Writer").
		return roles
	}
	return out
}

// nameParts are the parts of a list of names that read as names, and
// those that are a role alone (a desk), for splitAuthors.
func nameParts(s string, strict bool) (out, roles []string) {
	for _, p := range reSplitAuthors.Split(s, -1) {
		p = strings.Trim(p, " .:-–—()")
		if strict {
			p = beforeRole(p)
		}
		switch {
		case plausibleName(p, strict):
			out = append(out, p)
		case !strict && p != "" && onlyRole(strings.Fields(p)) && !credential(p):
			roles = append(roles, p)
		}
	}
	return out, roles
}

// credential reports whether p is a credential after a name ("MD", "PhD").
func credential(p string) bool {
	w := strings.Fields(p)
	return len(w) == 1 && len([]rune(strings.Trim(p, "."))) <= 5 && !unicode.IsLower([]rune(p)[0])
}

// plausibleName reports whether p reads as a person's or a desk's name.
func plausibleName(p string, strict bool) bool {
	if p == "" || len(p) > 60 || strings.ContainsAny(p, "@?!:") {
		return false
	}
	words := strings.Fields(p)
	if len(words) == 0 || len(words) > 5 || strings.ContainsAny(p, "0123456789") && !handle(words, strict) {
		return false
	}
	if !strict {
		return !onlyRole(words)
	}
	return writtenName(p, words)
}

// handle reports whether a name with digits is a member's login the page
// states as its author ("LingoLover94"): one word, letters first, in
// structured data; a byline's text with digits is a date or a count.
func handle(words []string, strict bool) bool {
	return !strict && len(words) == 1 && unicode.IsLetter([]rune(words[0])[0])
}

// writtenName reports whether a part of a byline read from the page's
// text is a name: not a role, not a lone short word (a credential, "MS",
// "Jr."), capitalised words or particles, no author-box words.
func writtenName(p string, words []string) bool {
	if isRole(words) || len(words) == 1 && len([]rune(strings.Trim(p, "."))) <= 4 {
		return false
	}
	for _, w := range words {
		if !nameWord(w) {
			return false
		}
	}
	return true
}

// nameWord reports whether w can be a word of a name: capitalised or a
// particle ("van"), not an author box's word ("Bio").
func nameWord(w string) bool {
	lw := strings.ToLower(w)
	return !notNames[lw] && (!unicode.IsLower([]rune(w)[0]) || nameParticles[lw])
}

// nameParticles are the lower-case words inside names ("Ludwig van
// Beethoven"); notNames the words of what an author box says besides the
// name ("Full Bio", "View more posts", "About the Author").
var (
	nameParticles = map[string]bool{"van": true, "der": true, "den": true, "de": true, "la": true, "le": true, "von": true,
		"zu": true, "da": true, "di": true, "du": true, "del": true, "della": true, "dos": true, "das": true, "bin": true, "al": true, "y": true, "ter": true}
	notNames = map[string]bool{"about": true, "author": true, "authors": true, "view": true, "more": true, "posts": true,
		"full": true, "bio": true, "member": true, "login": true, "share": true, "shares": true, "follow": true, "read": true,
		"all": true, "articles": true, "by": true, "the": true, "of": true, "contact": true, "profile": true, "team": true,
		"admin": true, "sign": true, "join": true, "register": true, "home": true, "menu": true, "search": true, "subscribe": true, "newsletter": true, "comments": true}
)

// beforeRole cuts a byline part before a role that follows the name:
// "Keith Barry Senior Autos Reporter" -> "Keith Barry".
func beforeRole(p string) string {
	words := strings.Fields(p)
	for i := 2; i < len(words); i++ {
		if !isRole(words[i:i+1]) && !notNames[strings.ToLower(words[i])] {
			continue
		}
		for _, w := range words[:i] {
			if isRole([]string{w}) {
				return p // "Times Staff Writer": a role from its start
			}
		}
		return strings.Join(words[:i], " ")
	}
	return p
}

// onlyRole reports whether every word of a part is a role word or
// qualifier ("Staff Writer", "MD").
func onlyRole(words []string) bool {
	if len(words) == 0 {
		return false
	}
	if len(words) == 1 && len(words[0]) <= 4 && strings.ToUpper(words[0]) == words[0] {
		return true // a credential: "MD", "RD"
	}
	for _, w := range words {
		if !roleQualifiers[strings.ToLower(strings.Trim(w, ".,"))] && !roleWord(w) {
			return false
		}
	}
	return true
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// firstN is list's first n elements at most.
func firstN(list []string, n int) []string { return list[:min(n, len(list))] }

// logins reports whether every name a page states is a login, one word
// without spaces ("andrew.keaveney", "kffnirmitap"): a system's user,
// which gives way to a name the byline shows.
func logins(names []string) bool {
	for _, n := range names {
		if strings.ContainsRune(strings.TrimSpace(n), ' ') {
			return false
		}
	}
	return true
}

// fullNames are names of two words or more, nil unless all are.
func fullNames(names []string) []string {
	for _, n := range names {
		if len(strings.Fields(n)) < 2 {
			return nil
		}
	}
	return names
}

// personal reports whether the names a page states, which name its site,
// are a person's (a blog named after its author, "Jane Doe Photography"
// by Jane Doe): two or three capitalised words, not the site's whole name
// (an organisation signing as itself).
func personal(names []string, site string) bool {
	for _, n := range names {
		w := strings.Fields(n)
		if len(w) < 2 || len(w) > 3 || !writtenName(n, w) || squash(n) == squash(site) {
			return false
		}
	}
	return len(names) > 0
}
