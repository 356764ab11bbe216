package pagemeta

import (
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/gleaner/gleaner/treediff"
)

// scan is what one walk of a page's tree collects.
type scan struct {
	metas     map[string][]string // meta content by lower-cased name, property, itemprop or http-equiv
	docTitle  string
	canonical string
	htmlLang  string
	// headings are the page's h1 elements outside excluded regions;
	// subheads its h2 elements, read when it has no h1 (old pages).
	headings, subheads []*treediff.Node
	// times are <time> elements and itemprop dates outside excluded regions.
	times []dated
	// lines are short visible texts outside excluded regions, in order:
	// where bylines are read.
	lines []line
	// propAuthors, relAuthors and hrefAuthors are the texts of
	// itemprop=author elements, rel=author links and links to an author's
	// page (/author/…, /autor/…, /profile/…).
	propAuthors, relAuthors, hrefAuthors []string
	// members are the links to forum members' pages on the page's own
	// site, in page order: a thread's first poster is the first after its
	// title.
	members []line
	// host is the page's host without "www." ("" when unknown).
	host string
	// propScope is the itemscope element of the first itemprop=author: the
	// authors of other items (a forum's replies, comments) are not the
	// page's.
	propScope *treediff.Node
	// keep holds the elements that hold a headline: never an excluded
	// region, whatever their class says ("has-sidebar").
	keep map[*treediff.Node]bool
	// order is how the page writes slashed dates (pageOrder).
	order dateOrder
	// anchor is the heading that shows the headline (setAnchor), nil
	// when none is known.
	anchor *treediff.Node
	// published are the texts, in any region, that a publication label
	// dates ("Published: 3 May 2024", or "Published" and the date in one
	// of the next texts); pending counts the texts still read after a
	// label alone.
	published []labelled
	pending   int
	clock     string // the time of day a label alone gave
}

// labelled is a text a publication label dates: alone is set when the
// label is a text of its own (a field's name: "Published", then the
// date), not the start of the dated text ("Posted on 3 May by …").
type labelled struct {
	text  string
	alone bool
}

// dated is a date-bearing element: its value (datetime attribute or
// text), what it says it is, and its position.
type dated struct {
	value string
	kind  string // "published", "modified" or ""
	index int
}

// line is a short text of the page: an element's own text or a text node.
type line struct {
	text  string
	cue   string // "date", "author" or "" from the class or id of an ancestor
	index int
}

func (s *scan) meta(names ...string) string {
	for _, k := range names {
		if vs := s.metas[k]; len(vs) > 0 {
			return vs[0]
		}
	}
	return ""
}

// maxLineWords bounds the texts read as bylines.
const maxLineWords = 30

// scanTree walks t once, the page at pageURL ("" when unknown).
func scanTree(t *treediff.Tree, pageURL string) *scan {
	s := &scan{metas: map[string][]string{}, keep: headlineHolders(t), host: hostOf(pageURL)}
	s.walk(t.Root, region{})
	s.order = pageOrder(s, pageURL)
	return s
}

// region is what a walk knows of where it is: inside a region whose
// dates and names are not the page's (comments, related stories,
// footers, sidebars), inside the story that holds the headline (an
// <article> or <main> around the first h1), and the byline cue of the
// nearest ancestor that has one.
type region struct {
	excluded, story bool
	// replies is set inside readers' comments and replies, excluded
	// regions whose dates are never the page's, labelled or not.
	replies bool
	cue     string
}

// headlineHolders are the elements that hold an h1, the h1 included.
func headlineHolders(t *treediff.Tree) map[*treediff.Node]bool {
	keep := map[*treediff.Node]bool{}
	for _, n := range t.Nodes {
		if n.Kind != treediff.Element || n.Label != "h1" {
			continue
		}
		for a := n; a != nil && !keep[a]; a = a.Parent {
			keep[a] = true
		}
	}
	return keep
}

// walk visits n in region r.
func (s *scan) walk(n *treediff.Node, r region) {
	switch n.Kind {
	case treediff.Text:
		if !r.replies {
			s.labelled(n.Label)
		}
		if !r.excluded {
			s.addLine(n.Label, r.cue, n.Index)
		}
		return
	case treediff.Element:
	default:
		return
	}
	r = s.enter(n, r)
	s.element(n, r.excluded)
	for _, c := range n.Children {
		s.walk(c, r)
	}
}

// enter is the region inside element n, n being in region r.
func (s *scan) enter(n *treediff.Node, r region) region {
	r.story = r.story || s.keep[n] && (n.Label == "article" || n.Label == "main")
	r.excluded = r.excluded || !s.keep[n] && excludedRegion(n, r.story)
	r.replies = r.replies || r.excluded && repliesRegion(n)
	if c := bylineCue(n); c != "" {
		r.cue = c
	}
	return r
}

func (s *scan) addLine(text, cue string, index int) {
	text = strings.Join(strings.Fields(text), " ")
	if text == "" || len(treediff.Words(text)) > maxLineWords || s.memberDate(text) {
		return
	}
	s.lines = append(s.lines, line{text: text, cue: cue, index: index})
}

// memberDate reports whether text states when a member joined ("Joined:
// Nov 4, 2011"), or is the date after a line that labels one: a forum
// shows it beside each post's author, under the headline, where a
// byline's date is read. The label goes with its date: the lines after
// it (the post's title, its date) are the post's.
func (s *scan) memberDate(text string) bool {
	if !strings.ContainsAny(text, "0123456789") {
		return false
	}
	if reMember.MatchString(text) {
		return true
	}
	n := len(s.lines)
	if n == 0 {
		return false
	}
	prev := strings.TrimRight(s.lines[n-1].text, " :")
	if reMember.MatchString(prev) && len(treediff.Words(prev)) <= 3 {
		s.lines = s.lines[:n-1]
		return true
	}
	return false
}

// reMember is the label of when a member joined a forum or a site, or
// when what a profile presents was founded ("Founded: Dec 11, 2021"), in
// en, fr, de, es, it, pt, nl, pl: the date after it is the member's.
var reMember = regexp.MustCompile(`(?i)^(?:joined|member since|registered|founded|inscrit|inscription|fondé|mitglied seit|registriert|dabei seit|gegründet|registrado|miembro desde|fundado|iscritto|fondato|membro desde|lid sinds|lid geworden|opgericht|dołączył|dołączyła|zarejestrowany|założony)\b`)

// element reads what element n states: the head's statements wherever
// they are, dates and names outside excluded regions.
func (s *scan) element(n *treediff.Node, excluded bool) {
	s.statement(n)
	if excluded {
		return
	}
	s.heading(n)
	if n.Label == "time" || itemprop(n, "datepublished", "datemodified", "datecreated", "dateupdated") {
		s.times = append(s.times, dated{value: firstOf(attr(n, "datetime"), attr(n, "content"), n.Text()), kind: dateKind(n), index: n.Index})
	}
	if n.Label != "meta" && n.Label != "link" {
		s.author(n)
	}
}

// heading keeps n if it is an h1 (a headline) or an h2 (an old page's).
func (s *scan) heading(n *treediff.Node) {
	switch n.Label {
	case "h1":
		s.headings = append(s.headings, n)
	case "h2":
		s.subheads = append(s.subheads, n)
	}
}

// statement reads the language, meta tags, <title> and canonical link.
func (s *scan) statement(n *treediff.Node) {
	switch n.Label {
	case "html":
		s.htmlLang = firstAttr(n, "lang", "xml:lang")
	case "meta":
		s.addMeta(n)
	case "title":
		s.docTitle = firstOf(s.docTitle, strings.Join(strings.Fields(n.Text()), " "))
	case "link":
		if hasToken(attr(n, "rel"), "canonical") {
			s.canonical = firstOf(s.canonical, attr(n, "href"))
		}
	}
}

// author reads an element that names an author: itemprop=author,
// rel=author, a link to an author's page.
func (s *scan) author(n *treediff.Node) {
	switch {
	case itemprop(n, "author", "creator"):
		s.propAuthor(n)
	case hasToken(attr(n, "rel"), "author"):
		s.relAuthors = append(s.relAuthors, n.Text())
	case n.Label == "a" && authorPage(attr(n, "href")):
		s.hrefAuthors = append(s.hrefAuthors, n.Text())
	case n.Label == "a" && memberPage(attr(n, "href"), s.host):
		s.members = append(s.members, line{text: strings.TrimSpace(n.Text()), index: n.Index})
	}
}

// propAuthor keeps an itemprop=author element's name when it is of the
// same item as the first one, and that item is no comment or answer (a
// reply's author never signs the page).
func (s *scan) propAuthor(n *treediff.Node) {
	scope := itemScope(n)
	if scope != nil && replyItem(attr(scope, "itemtype")) {
		return
	}
	if len(s.propAuthors) == 0 {
		s.propScope = scope
	}
	if scope == s.propScope {
		s.propAuthors = append(s.propAuthors, propName(n))
	}
}

// propText is an itemprop=author element's text read as a byline ("By
// Jane Doe\nSenior Reporter" -> "Jane Doe"; "Updated by …" names no
// author): its names, comma-separated.
func propText(n *treediff.Node) string {
	return strings.Join(splitAuthors(n.Text(), true), ", ")
}

func (s *scan) addMeta(n *treediff.Node) {
	key := strings.ToLower(strings.TrimSpace(firstAttr(n, "property", "name", "itemprop", "http-equiv")))
	val := strings.TrimSpace(attr(n, "content"))
	if key != "" && val != "" {
		s.metas[key] = append(s.metas[key], val)
	}
}

// replyItem reports whether a schema.org item type is a reply to the
// page's text: a Comment or an Answer.
func replyItem(itemtype string) bool {
	t := strings.ToLower(itemtype)
	return strings.HasSuffix(t, "/comment") || strings.HasSuffix(t, "/answer")
}

// itemScope is the nearest ancestor of n that opens an item (itemscope),
// nil when none does.
func itemScope(n *treediff.Node) *treediff.Node {
	for a := n.Parent; a != nil; a = a.Parent {
		if a.Kind == treediff.Element && hasAttr(a, "itemscope") {
			return a
		}
	}
	return nil
}

// propName is an itemprop=author element's name: its itemprop=name
// descendant's text, else its own.
func propName(n *treediff.Node) string {
	name := ""
	n.Walk(func(x *treediff.Node) bool {
		if name != "" || x.Kind != treediff.Element {
			return false
		}
		if x != n && itemprop(x, "name") {
			name = firstOf(attr(x, "content"), x.Text())
			return false
		}
		return true
	})
	return firstOf(name, attr(n, "content"), propText(n))
}

// dateKind says whether a date element is a publication or modification
// date, from its itemprop, class or id.
func dateKind(n *treediff.Node) string {
	s := strings.ToLower(attr(n, "itemprop") + " " + attr(n, "class") + " " + attr(n, "id"))
	switch {
	case containsAny(s, "modif", "update"):
		return "modified"
	case containsAny(s, "publi", "created") || hasAttr(n, "pubdate"):
		return "published"
	}
	return ""
}

// containsAny reports whether s contains one of words.
func containsAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// Words of a class or id that mark a region whose dates and names belong
// to other texts than the page's own. Not "newsletter": it names a
// newsletter's own issue as often as a sign-up box, which holds neither
// dates nor names.
var excludedWords = map[string]bool{"comment": true, "comments": true, "related": true, "recommended": true,
	"recommendations": true, "footer": true, "sidebar": true, "teaser": true, "teasers": true, "promo": true,
	"trending": true, "popular": true, "reply": true, "replies": true, "discussion": true,
	"disqus": true, "outbrain": true, "taboola": true, "more": true}

// excludedRegion reports whether n holds other texts than the page's own:
// footers, asides, navigation, comments, related stories, read from the
// words of its class and id ("comment-list", "related_posts"); utility
// classes ("md:[grid-area:sidebar]") say where, not what, and are skipped.
// Inside the story (story set) a footer or an aside is the story's own and
// holds its byline ("<article>…<footer>By Jane Doe</footer></article>").
func excludedRegion(n *treediff.Node, story bool) bool {
	switch n.Label {
	case "footer", "aside":
		return !story
	case "nav":
		return true
	}
	for _, tok := range strings.Fields(strings.ToLower(attr(n, "class") + " " + attr(n, "id"))) {
		if !strings.ContainsAny(tok, ":[") && excludedToken(tok, story) {
			return true
		}
	}
	return false
}

// replyWords are the words of a class or id that mark readers' comments
// and replies.
var replyWords = map[string]bool{"comment": true, "comments": true, "reply": true, "replies": true,
	"discussion": true, "disqus": true}

// repliesRegion reports whether n holds readers' comments or replies,
// from the words of its class and id.
func repliesRegion(n *treediff.Node) bool {
	for _, tok := range strings.Fields(strings.ToLower(attr(n, "class") + " " + attr(n, "id"))) {
		for _, w := range strings.FieldsFunc(tok, func(r rune) bool { return r == '-' || r == '_' }) {
			if replyWords[w] {
				return true
			}
		}
	}
	return false
}

// excludedToken reports whether a class or id token names an excluded
// region: one of its words does, and a story's own footer is not one.
func excludedToken(tok string, story bool) bool {
	for _, w := range strings.FieldsFunc(tok, func(r rune) bool { return r == '-' || r == '_' }) {
		if excludedWords[w] && !(story && w == "footer") {
			return true
		}
	}
	return false
}

// bylineCue is what an element's class or id says its text is: "author"
// (byline, author), "date" (date, time, published, posted, dateline,
// meta, info, ts), else "".
func bylineCue(n *treediff.Node) string {
	c := strings.ToLower(attr(n, "class") + " " + attr(n, "id"))
	switch {
	case strings.TrimSpace(c) == "":
		return ""
	case containsAny(c, "byline", "author", "autor", "auteur", "writer"):
		return "author"
	case containsAny(c, "date", "time", "publish", "posted", "datum", "fecha") || hasClassWord(c, "meta", "info", "ts"):
		return "date"
	}
	return ""
}

// hasClassWord reports whether a class or id list has one of words as a
// word of a token ("post-meta", "entry_info").
func hasClassWord(c string, words ...string) bool {
	for _, tok := range strings.Fields(c) {
		for _, w := range strings.FieldsFunc(tok, func(r rune) bool { return r == '-' || r == '_' }) {
			if slices.Contains(words, w) {
				return true
			}
		}
	}
	return false
}

// authorPathWords name the folder of authors' pages in a link's path.
var authorPathWords = []string{"/author/", "/authors/", "/autor/", "/autoren/", "/auteur/", "/auteurs/", "/autore/",
	"/profile/", "/profiles/", "/journalist/", "/journalists/", "/redakteur/", "/people/", "/staff/", "/writers/"}

// memberPathWords mark a link to a forum member's page (phpBB, vBulletin,
// XenForo, Discourse and the like).
var memberPathWords = []string{"memberlist.php?mode=viewprofile", "member.php?", "/members/", "/u/", "profile.php?id="}

// memberPage reports whether a link's target is a forum member's page on
// the site of host: not another site's profile (a social network's), not
// a page to sign up or in ("/users/sign_up").
func memberPage(href, host string) bool {
	h := strings.ToLower(href)
	u, err := url.Parse(h)
	if err != nil || u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" ||
		u.Host != "" && strings.TrimPrefix(u.Hostname(), "www.") != host || reAccountPage.MatchString(u.Path) {
		return false
	}
	return containsAny(h, memberPathWords...)
}

// reAccountPage is the path of a page to sign up, in or out.
var reAccountPage = regexp.MustCompile(`sign[_-]?(?:up|in|out)|log[_-]?(?:in|out)|register|join`)

// authorPage reports whether a link's target is an author's page.
func authorPage(href string) bool {
	return containsAny(strings.ToLower(href), authorPathWords...)
}

func attr(n *treediff.Node, k string) string {
	v, _ := n.Attr(k)
	return strings.TrimSpace(v)
}

func hasAttr(n *treediff.Node, k string) bool {
	_, ok := n.Attr(k)
	return ok
}

func firstAttr(n *treediff.Node, keys ...string) string {
	for _, k := range keys {
		if v := attr(n, k); v != "" {
			return v
		}
	}
	return ""
}

func itemprop(n *treediff.Node, props ...string) bool {
	ip := strings.ToLower(attr(n, "itemprop"))
	if ip == "" {
		return false
	}
	for _, f := range strings.Fields(ip) {
		for _, p := range props {
			if f == p {
				return true
			}
		}
	}
	return false
}

func hasToken(list, tok string) bool {
	for _, f := range strings.Fields(strings.ToLower(list)) {
		if f == tok {
			return true
		}
	}
	return false
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

// rePublishedLabel labels when a page was published, at the start of a
// text ("Published: …", "Posted on …", "Date published"), in en, fr, de,
// es, it, pt, nl, pl.
var rePublishedLabel = regexp.MustCompile(`(?i)^(?:date (?:of )?)?(?:first )?(?:published|posted|publication date|date published|publié|veröffentlicht|publicado|pubblicato|gepubliceerd|opublikowano)(?: on| at| date| le| am| el| il| em| op)?(?:\s*:)?\s*`)

// reClockOnly is a text that is empty or a time of day only.
var reClockOnly = regexp.MustCompile(`(?i)^(?:\d{1,2}[:.h]\d{2}(?::\d{2})? ?(?:[ap]\.?m\.?)?)?[ ,|-]*$`)

// labelledTexts is how many texts after a label alone may hold its date
// (a label read by screen readers only may come between).
const labelledTexts = 2

// maxLabelledWords bounds the words of a labelled date's text: a longer
// one is prose.
const maxLabelledWords = 10

// labelled keeps text when a publication label dates it.
func (s *scan) labelled(text string) {
	words := strings.Fields(text)
	switch {
	case len(words) == 0:
		return
	case len(words) > maxLabelledWords:
		s.pending = 0
		return
	}
	text = strings.Join(words, " ")
	loc := rePublishedLabel.FindStringIndex(text)
	switch {
	// The page's order of slashed dates is not known yet: labelledDate
	// reads the dates, this only whether there is one.
	case loc != nil && normalizeDate(text[loc[1]:], s.order) != "":
		s.published = append(s.published, labelled{text: text[loc[1]:]})
		s.pending = 0
	case loc != nil && reClockOnly.MatchString(text[loc[1]:]):
		// A label alone, or with a time of day only ("Posted: 3:25
		// pm", the day in the next text); not one that goes on
		// ("Posted by …").
		s.pending, s.clock = labelledTexts, text[loc[1]:]
	case s.pending > 0 && strings.ContainsAny(text, "0123456789"):
		s.published = append(s.published, labelled{text: text + " " + s.clock, alone: true})
		s.pending = 0
	default:
		s.pending = max(0, s.pending-1)
	}
}
