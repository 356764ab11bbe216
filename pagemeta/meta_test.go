package pagemeta

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/treediff"
)

// extractFile is Extract's metadata of testdata/file, language left out.
func extractFile(t *testing.T, file string) Meta {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return Extract(parse(t, file, src), src, Options{NoLanguage: true})
}

func parse(t *testing.T, name string, src []byte) *treediff.Tree {
	t.Helper()
	tr, err := treediff.Parse(name, src, treediff.ParseOptions{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return tr
}

// TestExtract reads the pages of testdata/ and checks every field and
// its source.
func TestExtract(t *testing.T) {
	fetched := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		file string
		opt  Options
		want Meta
	}{
		{
			file: "jsonld-graph.html",
			opt:  Options{URL: "https://news.example.com/world/story"},
			want: Meta{
				Title: "Council delays the river vote", Published: "2024-03-02T10:00:00+01:00", Modified: "2024-03-03T08:30:00+01:00",
				Authors: []string{"Ann Lee", "Bo Chen"}, Lang: "en", DeclaredLang: "en", SiteName: "Daily Example",
				Canonical: "https://news.example.com/world/river-vote", Section: "World",
				Sources: Sources{Title: "h1", Published: "json-ld", Modified: "json-ld", Zone: "page", Authors: "json-ld",
					Lang: "text", SiteName: "json-ld", Canonical: "link", Section: "json-ld"},
			},
		},
		{
			file: "byline-de.html",
			opt:  Options{URL: "https://rundschau.example/politik/artikel-1"},
			want: Meta{
				Title: "Der Stadtrat vertagt die Abstimmung über die Brücke", Published: "2026-02-28T20:36:00Z",
				Authors: []string{"Anna Schmidt", "Max Müller"}, Lang: "de", DeclaredLang: "de",
				Sources: Sources{Title: "h1", Published: "byline", Zone: "utc", Authors: "byline", Lang: "text"},
			},
		},
		{
			file: "byline-fr.html",
			opt:  Options{URL: "https://quotidien.example/a/1", Zone: time.FixedZone("CET", 3600)},
			want: Meta{
				Title: "Le conseil reporte le vote sur le pont", Published: "2025-03-03T14:05:00+01:00", Modified: "2025-03-04T09:10:00+01:00",
				Authors: []string{"Jean Dupont"}, Lang: "fr", DeclaredLang: "fr", SiteName: "Le Quotidien",
				Sources: Sources{Title: "h1", Published: "byline", Modified: "byline", Zone: "site", Authors: "byline", Lang: "text", SiteName: "meta"},
			},
		},
		{
			// Dates in comments, related stories and the footer are not
			// the page's; the URL's is.
			file: "others-dates.html",
			opt:  Options{URL: "https://blog.example.org/2023/07/04/a-quiet-summer/"},
			want: Meta{
				Title: "A quiet summer", Published: "2023-07-04", Lang: "en", DeclaredLang: "en",
				Sources: Sources{Title: "h1", Published: "url", Lang: "text"},
			},
		},
		{
			// xml:lang declares English; the text is Spanish: both kept.
			file: "relative-es.html",
			opt:  Options{Fetched: fetched},
			want: Meta{
				Title: "El ayuntamiento aplaza la votación", Published: "2026-03-01T09:00:00Z", Authors: []string{"Lucía Pérez"},
				Lang: "es", DeclaredLang: "en",
				Sources: Sources{Title: "h1", Published: "byline", Zone: "page", Authors: "byline", Lang: "text"},
			},
		},
		{
			// No source of Gleaner's states a date: go-htmldate's second
			// opinion finds the one in the page's script data.
			file: "script-data.html",
			opt:  Options{URL: "https://edu.example/blog/event-planning"},
			want: Meta{
				Title: "What are the basics of event planning", Published: "2025-11-27T11:20:07Z", Lang: "en", DeclaredLang: "en",
				Sources: Sources{Title: "h1", Published: "htmldate", Zone: "utc", Lang: "text"},
			},
		},
		{
			// A thread's question is the page's; its answers' authors are
			// not.
			file: "forum-thread.html",
			want: Meta{
				Title: "How do I prune a pear tree?", Published: "2024-02-10T08:15:00Z", Authors: []string{"pearlover"},
				Lang: "en", DeclaredLang: "en",
				Sources: Sources{Title: "h1", Published: "time", Zone: "page", Authors: "itemprop", Lang: "text"},
			},
		},
		{
			// A QAPage's Question (its mainEntity) names the thread's
			// author and date.
			file: "forum-qapage.html",
			want: Meta{
				Title: "Deploy failed for unknown reason", Published: "2024-05-02T09:14:27Z", Authors: []string{"tinterweb"},
				Lang: "en", DeclaredLang: "en",
				Sources: Sources{Title: "h1", Published: "json-ld", Zone: "page", Authors: "json-ld", Lang: "text"},
			},
		},
		{
			// A thread built by script states its post's microdata only
			// in <noscript>, the crawler's view: its author (a login with
			// digits, stated as the author) and date fill the empty
			// fields; a reply's (a Comment item's) do not.
			file: "forum-noscript.html",
			opt:  Options{URL: "https://community.example/t/which-lens-for-night-skies/4182", NoLanguage: true},
			want: Meta{
				Title: "Which lens for night skies?", Published: "2024-11-03T21:40:12Z", Authors: []string{"StarGazer42"},
				SiteName: "Example Community",
				Sources:  Sources{Title: "h1", Published: "noscript", Zone: "page", Authors: "noscript", SiteName: "meta"},
			},
		},
		{
			// A thread that states no author: its first member linked
			// after the title (the starter) signs it; the header's login
			// and another site's profile links do not.
			file: "forum-members.html",
			opt:  Options{URL: "https://woodworkers.example/viewtopic.php?t=881", NoLanguage: true},
			want: Meta{
				Title: "Sharpening a card scraper", Published: "2024-03-04T19:12:00Z", Authors: []string{"oakleaf"},
				Sources: Sources{Title: "h1", Published: "byline", Zone: "utc", Authors: "link"},
			},
		},
		{
			// A reply's author (a Comment item's) does not sign the page;
			// the first post's writer (data-author) does.
			file: "author-reply-items.html",
			want: Meta{
				Title: "Early symptoms?", Authors: []string{"lulu30"}, Lang: "en", DeclaredLang: "en",
				Sources: Sources{Title: "h1", Authors: "poster", Lang: "text"},
			},
		},
		{
			// The only author statement names the site: a blog named after
			// its author keeps it.
			file: "site-author.html",
			opt:  Options{URL: "https://www.janedoe.example/notes/1"},
			want: Meta{
				Title: "Notes on gardening", Published: "2022-05-01T00:00:00Z", Authors: []string{"Jane Doe"},
				Lang: "en", SiteName: "Jane Doe",
				Sources: Sources{Title: "h1", Published: "meta", Zone: "page", Authors: "json-ld", Lang: "text", SiteName: "meta"},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			got := Extract(parse(t, c.file, src), src, c.opt)
			got.headings = nil // Headline's, tested there
			got.titleIn = titleInputs{}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Extract =\n%+v\nwant\n%+v", got, c.want)
			}
		})
	}
}

// TestExtractPlainOrRendered: the rendered DOM (JSON-LD kept in place,
// byline filled by a script) gives the plain page's metadata when its
// source is read with the server's.
func TestExtractPlainOrRendered(t *testing.T) {
	plain, err := os.ReadFile("testdata/jsonld-graph.html")
	if err != nil {
		t.Fatal(err)
	}
	rendered, err := os.ReadFile("testdata/jsonld-graph-rendered.html")
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{URL: "https://news.example.com/world/story"}
	a := Extract(parse(t, "plain", plain), plain, opt)
	b := Extract(parse(t, "rendered", rendered), rendered, opt)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("plain %+v\nrendered %+v", a, b)
	}
}

func TestExtractEmpty(t *testing.T) {
	if got := Extract(nil, nil, Options{}); !reflect.DeepEqual(got, Meta{}) {
		t.Errorf("Extract(nil) = %+v", got)
	}
	src := []byte(`<html><body><p>Just text.</p><script type="application/ld+json">{bad json</script></body></html>`)
	if got := Extract(parse(t, "bare", src), src, Options{}); !reflect.DeepEqual(got, Meta{}) {
		t.Errorf("Extract(bare) = %+v", got)
	}
}

func TestSplitAuthors(t *testing.T) {
	cases := []struct {
		in     string
		strict bool
		want   []string
	}{
		{"By Jane Doe, Times Staff Writer", true, []string{"Jane Doe"}},
		{"Von Anna Schmidt und Max Müller", true, []string{"Anna Schmidt", "Max Müller"}},
		{"Par Jean Dupont et Marie Curie", true, []string{"Jean Dupont", "Marie Curie"}},
		{"Danielle DeSiato, Donna Enzmann, and Natalie Nguyen", false, []string{"Danielle DeSiato", "Donna Enzmann", "Natalie Nguyen"}},
		{"Dylan Bailey, MS, RD, FAND", false, []string{"Dylan Bailey"}},
		{"Ann Writer", true, []string{"Ann Writer"}},
		{"Di Maria Rossi", false, []string{"Di Maria Rossi"}},
		{"jdoe", false, []string{"jdoe"}},
		{"jdoe", true, nil},
		// A login with digits is a name only where the page states it
		// as its author; a byline's text with digits is a date or a count.
		{"LingoLover94", false, []string{"LingoLover94"}},
		{"LingoLover94", true, nil},
		{"42 comments", false, nil},
		{"Updated 3 hours ago", true, nil},
		{"Robert E. Lee", true, []string{"Robert E. Lee"}},
		{"Keith Barry Senior Autos Reporter", true, []string{"Keith Barry"}},
		{"Author: Ashley Biancuzzo", false, []string{"Ashley Biancuzzo"}},
		{"Recipe by Ludwig van Beethoven", true, []string{"Ludwig van Beethoven"}},
		{"Full Bio", true, nil},
		{"News Desk", false, []string{"News Desk"}},
		{"Jane Doe, Staff Writer", false, []string{"Jane Doe"}},
		{"MD", false, nil},
		{"What is Companion Planting?", true, nil},
		{"By A. J. Moreau (Garden Editor)", true, []string{"A. J. Moreau"}},
		{"A Staff Writer", true, nil},
		{"Contributors: Janet Holm, Ivo Lind", true, []string{"Janet Holm", "Ivo Lind"}},
		// A noun leads a name only with a colon: "Author Spotlight" is
		// an author box's heading.
		{"Author Spotlight", true, nil},
		{"Author Lena Marsh", true, nil},
	}
	for _, c := range cases {
		if got := splitAuthors(c.in, c.strict); !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitAuthors(%q, %v) = %q, want %q", c.in, c.strict, got, c.want)
		}
	}
}

// TestBylineRegions reads the byline where a story keeps it: its own
// footer and aside (not the site's), a page builder's "widget" boxes, a
// byline line of parts after the headline, a "Contributors:" label, a
// desk's signature.
func TestBylineRegions(t *testing.T) {
	cases := []struct {
		file string
		want []string
	}{
		{"author-story-footer.html", []string{"Ruth Ames"}},
		{"author-story-aside.html", []string{"Tomas Berg"}},
		{"author-widget-box.html", []string{"Nadia Okafor"}},
		{"author-dated-line.html", []string{"Priya Raman"}},
		{"author-contributors.html", []string{"Janet Holm"}},
		// A desk signs only a page no person signs.
		{"author-desk.html", []string{"the Harbour Bakery Team"}},
		{"author-desk-person.html", []string{"Mia Lund"}},
		// A login the head states gives way to the name the byline
		// shows; alone, it is the author.
		{"author-login.html", []string{"Denise Everheart"}},
		{"author-login-alone.html", []string{"jsteinhardt"}},
		// An itemprop=author element's text is a byline: its lead word
		// and role go, an updater is no author.
		{"author-itemprop-text.html", []string{"Keira Barros"}},
		// An author box's heading ("Author Spotlight") names no one;
		// the "Author:" line under it does.
		{"author-noun-label.html", []string{"Lena Marsh"}},
	}
	for _, c := range cases {
		m := extractFile(t, c.file)
		if !reflect.DeepEqual(m.Authors, c.want) {
			t.Errorf("%s: authors %q, want %q", c.file, m.Authors, c.want)
		}
	}
}

// TestAuthorsSite: a person the site is named after ("inesvarga.example")
// signs its pages; an organisation signing as itself gives way to a
// person's byline.
func TestAuthorsSite(t *testing.T) {
	cases := []struct {
		file, url string
		want      []string
	}{
		{"author-site-person.html", "https://inesvarga.example/northern-lights", []string{"Ines Varga"}},
		{"author-site-org.html", "https://harbourheart.example/signs", []string{"Tracy Parker"}},
	}
	for _, c := range cases {
		src, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		m := Extract(parse(t, c.file, src), src, Options{URL: c.url, NoLanguage: true})
		if !reflect.DeepEqual(m.Authors, c.want) {
			t.Errorf("%s: authors %q, want %q", c.file, m.Authors, c.want)
		}
	}
}

// TestDateRules: a stated publication date not before the modification
// date, or of its day (a save stamp), yields to an earlier day the byline
// shows, not to the same day; a date inside a sentence is not a byline's.
func TestDateRules(t *testing.T) {
	cases := []struct {
		file, published, source string
	}{
		{"date-save-stamp.html", "2025-08-13", "byline"},
		{"date-kept-stamp.html", "2025-11-29T12:28:31-05:00", "json-ld"},
		{"date-same-day.html", "2025-12-18", "byline"},
		{"date-prose.html", "2025-12-19", "byline"},
		// A slashed date's order: the page's own unambiguous dates,
		// else its locale (month first in American English only).
		{"date-order-gb.html", "2023-10-03", "byline"},
		{"date-order-us.html", "2023-03-10", "byline"},
		{"date-order-evidence.html", "2023-10-03", "byline"},
		{"date-order-fr.html", "2023-10-03", "byline"},
		// A modification date stated in the head only is no publication
		// date; one the page shows stands in for it.
		{"date-head-modified.html", "", ""},
		{"date-shown-modified.html", "2025-09-11T08:00:00Z", "meta"},
		// Wherever the page shows its last update, at its foot too.
		{"date-updated-foot.html", "2025-11-13", "byline"},
		// A newsletter's own page: the details under its headline are
		// its own, whatever their class says.
		{"date-newsletter-issue.html", "2022-11-02", "byline"},
		// An event's span of days is not the page's date.
		{"date-event-range.html", "2025-10-13", "byline"},
		// "Originally published on" states the publication date.
		{"date-originally.html", "2019-09-26T16:12:00Z", "byline"},
		// A meta tag named "published" states the publication date.
		{"date-meta-published.html", "2025-07-17", "meta"},
		// A date element of no stated kind is read nearest the headline:
		// the one after it before a list of issues above it, the one
		// just above it before other posts' further down.
		{"date-time-nearest.html", "2017-03-01T12:00:00Z", "time"},
		{"date-time-above.html", "2023-10-12T19:38:01Z", "time"},
		// The first date shown under the headline, days before the
		// stated publication date, is the publication's; a date further
		// down, after an "Updated" line, may be a table's.
		{"date-shown-earlier.html", "2022-10-08", "byline"},
		{"date-shown-table.html", "2025-02-12T23:21:00Z", "json-ld"},
		// A date shown under the headline days after the stated one,
		// which another publication source states too (a meta tag), is
		// the publication's; shown alone, the stated date stands.
		{"date-shown-seconded.html", "2025-10-14", "byline"},
		{"date-shown-alone.html", "2023-03-02T09:00:00Z", "json-ld"},
		// A stated time of no zone is of no sure day: the byline's day,
		// the one before or after it, is the one shown; a stated time
		// with its zone keeps its day.
		{"date-zoneless-local.html", "2024-06-08T20:40:00Z", "byline"},
		{"date-zoned-shown.html", "2024-06-09T02:40:11Z", "json-ld"},
		// When a member joined a forum is not the thread's date, even
		// shown first under the headline; a WebPage's mainEntity states
		// the thread's.
		{"date-member-joined.html", "2025-12-18T23:25:38Z", "json-ld"},
		{"title-forum-label.html", "2025-12-16T11:27:44Z", "json-ld"},
		// A member's join date goes with its label: the post's title and
		// date after it are read.
		{"date-forum-joined.html", "2023-12-17T11:23:00Z", "byline"},
		// So is when what a member's profile presents was founded.
		{"date-forum-founded.html", "2019-08-27T01:47:00Z", "byline"},
		// A forum's header shows the current time far above the thread's
		// title (an h2 under the forum's name in an h1): not the date.
		{"date-forum-clock.html", "2024-06-04T11:23:55Z", "byline"},
	}
	for _, c := range cases {
		m := extractFile(t, c.file)
		if m.Published != c.published || m.Sources.Published != c.source {
			t.Errorf("%s: published %q from %q, want %q from %q", c.file, m.Published, m.Sources.Published, c.published, c.source)
		}
	}
}

// TestHeadlineInvisible: a headline keeps no character that does not
// show (a byte order mark or zero-width space inside a word).
func TestHeadlineInvisible(t *testing.T) {
	cases := []struct{ html, want string }{
		{"<title>The B\ufeffest Ferry Routes</title><h1>The B\ufeffest Ferry Routes</h1>", "The Best Ferry Routes"},
		{"<meta property=\"og:title\" content=\"Night\u200b Trains Return\">", "Night Trains Return"},
		{"<h1>Soft\u00adware Updates</h1><title>Soft\u00adware Updates</title>", "Software Updates"},
	}
	for _, c := range cases {
		src := []byte("<!DOCTYPE html><html><head></head><body>" + c.html + "</body></html>")
		if got := Extract(parse(t, "page", src), src, Options{NoLanguage: true}).Title; got != c.want {
			t.Errorf("%q: title %q, want %q", c.html, got, c.want)
		}
	}
}

// TestHeadlineFullWidth: the full-width forms of ASCII characters in a
// headline of no CJK script are written plain; a CJK headline keeps its
// full-width punctuation. An h1 "Label: Title" whose title alone is the
// stated one gives the title; one stated whole keeps its first part.
func TestHeadlineFullWidth(t *testing.T) {
	cases := []struct{ file, want string }{
		{"title-full-width.html", "How Does Robot Vacuum Mapping Work?"},
		{"title-full-width-zh.html", "扫地机器人如何绘制地图？"},
		{"title-colon-label.html", "Ten Ways to Keep Tomatoes From Splitting"},
		{"title-colon-kept.html", "Soil 101: Reading a Test Report"},
	}
	for _, c := range cases {
		if got := extractFile(t, c.file).Title; got != c.want {
			t.Errorf("%s: title %q, want %q", c.file, got, c.want)
		}
	}
}

func TestCutSiteName(t *testing.T) {
	cases := []struct{ in, site, host, want string }{
		{"Council delays the vote | Daily Example", "Daily Example", "", "Council delays the vote"},
		{"Daily Example: Council delays the vote", "", "dailyexample.com", "Council delays the vote"},
		{"Council delays the vote - CNN.com", "", "cnn.com", "Council delays the vote"},
		{"Spider-Man - a review", "", "example.com", "Spider-Man - a review"},
	}
	for _, c := range cases {
		if got := cutSiteName(c.in, c.site, c.host); got != c.want {
			t.Errorf("cutSiteName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestResolveDate(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct{ in, want string }{
		{"3 hours ago", "2026-03-01T09:00:00Z"},
		{"il y a 2 jours", "2026-02-27T12:00:00Z"},
		{"vor einer Stunde", "2026-03-01T11:00:00Z"},
		{"hace 2 días", "2026-02-27T12:00:00Z"},
		{"5 ore fa", "2026-03-01T07:00:00Z"},
		{"há 1 hora", "2026-03-01T11:00:00Z"},
		{"2 uur geleden", "2026-03-01T10:00:00Z"},
		{"3 godziny temu", "2026-03-01T09:00:00Z"},
		{"gestern, 18:05", "2026-02-28T18:05:00Z"},
		{"March 2, 2024", "2024-03-02"},
		{"no date here", ""},
	}
	for _, c := range cases {
		if got := ResolveDate(c.in, now); got != c.want {
			t.Errorf("ResolveDate(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestHeadline(t *testing.T) {
	cases := []struct {
		m         Meta
		extracted string
		want      string
	}{
		{Meta{Title: "From the h1", Sources: Sources{Title: "h1"}}, "Extracted", "From the h1"},
		{Meta{Title: "New York Magazine", Sources: Sources{Title: "title"}}, "Bill Clinton Just Wants to Paint", "Bill Clinton Just Wants to Paint"},
		{Meta{Title: "From og:title", Sources: Sources{Title: "meta"}}, "", "From og:title"},
	}
	for _, c := range cases {
		if got := c.m.Headline(c.extracted); got != c.want {
			t.Errorf("Headline(%q) = %q, want %q", c.extracted, got, c.want)
		}
	}
}

// TestHeadlineStated: the title an extraction found stands for the
// headline only when it is one of the page's h1 or a stated title; a
// heading in the text (an h2, a caption) does not outrank og:title.
func TestHeadlineStated(t *testing.T) {
	cases := []struct{ file, extracted, want string }{
		{"title-stated-no-h1.html", "Done learning about wine regions?", "Wine Regions"},
		{"title-stated-no-h1.html", "Wine Regions", "Wine Regions"},
		{"title-stated-other-h1.html", "Making Google Sans Flex", "Making Google Sans Flex"},
		{"title-stated-other-h1.html", "Photo via Example", "Google Sans: Evolving the Typeface"},
		// An article's only h1, unlike its stated title, is its headline
		// when it reads as one (five words or more), not when it is a
		// label.
		{"title-sole-h1.html", "Photo via Example", "How a small weekly budget can still feed everyone well"},
		{"title-sole-h1.html", "", "How a small weekly budget can still feed everyone well"},
		{"title-label-h1.html", "", "What people love about Rust"},
		// On a page that is no article, such an h1 is a slogan.
		{"title-slogan-h1.html", "", "Business Text Messaging"},
		// An h1 ending with the site's name, as the <title> does, loses
		// it; one starting with it keeps it (a newsletter's issue).
		{"title-h1-site.html", "", "Critics' Choice: Best Art Exhibitions 2025"},
		{"title-h1-site-first.html", "", "Timely Notes: Using AI for Analytics"},
		// What follows " | " is a section, the site or a tagline.
		{"title-pipe-section.html", "", "How meditation rewires the brain"},
		// A date the h1 shows before or after the headline is not of it.
		{"title-dated-h1.html", "", "Preparing a transition in the archive"},
		{"title-stated-no-h1.html", "Wine Regions | Example Wine School", "Wine Regions"},
		// A tagline glued to the h1's text, no space written (the style
		// sets it on its own line), is not part of the headline, nor is
		// the extracted title that keeps it a heading of the page.
		{"title-h1-tagline.html", "", "Black Edition"},
		{"title-h1-tagline.html", "Black EditionComplete high-protein powder meal", "Black Edition"},
	}
	for _, c := range cases {
		m := extractFile(t, c.file)
		if got := m.Headline(c.extracted); got != c.want {
			t.Errorf("%s: Headline(%q) = %q, want %q", c.file, c.extracted, got, c.want)
		}
	}
}

func TestCutAt(t *testing.T) {
	cases := []struct {
		s    string
		n    int
		want int
	}{
		{"short", 10, 5},
		{"one two three four", 12, 8},
		{"abcdefghijklmnop", 5, 5},
		{"\xff\xfe\xfd\xfc", 2, 2},
	}
	for _, c := range cases {
		if got := cutAt(c.s, c.n); got != c.want {
			t.Errorf("cutAt(%q, %d) = %d, want %d", c.s, c.n, got, c.want)
		}
	}
}

// TestVote: a page's text is identified piece by piece, the language most
// pieces have winning over a short passage in another language.
func TestVote(t *testing.T) {
	en := "The city council postponed on Monday its vote on the new bridge over the river, after residents asked for another study of the traffic it would bring to the old town. "
	fr := "Le conseil municipal a reporté lundi son vote sur le nouveau pont, après que des habitants ont demandé une nouvelle étude de la circulation. "
	text := strings.Repeat(en, 8) + fr + strings.Repeat(en, 4)
	if l, conf, prose := vote(identifier(), text); l != "en" || conf < 0.5 || !prose {
		t.Errorf("vote = %q %.2f %v, want en from prose", l, conf, prose)
	}
	if l, _, _ := vote(identifier(), "Bonjour"); l != "" {
		t.Errorf("vote(short) = %q", l)
	}
}

// TestLanguageProse: the text's language overrules the declared one when
// the text is prose, not when it is a list of names (whose trigrams are
// of the names' origin).
func TestLanguageProse(t *testing.T) {
	cases := []struct{ file, lang, source string }{
		{"lang-names.html", "en", "declared"},
		{"lang-misdeclared.html", "id", "text"},
	}
	for _, c := range cases {
		src, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		m := Extract(parse(t, c.file, src), src, Options{})
		if m.Lang != c.lang || m.Sources.Lang != c.source {
			t.Errorf("%s: language %q from %q, want %q from %q", c.file, m.Lang, m.Sources.Lang, c.lang, c.source)
		}
	}
}

// TestHeadlineClean: a headline is shown as its reader sees it, without
// a documentation generator's permalink pilcrow and with UTF-8 read as
// Latin-1 repaired, whether the page's h1 or the extracted title gives
// it.
func TestHeadlineClean(t *testing.T) {
	cases := []struct{ file, extracted, want string }{
		{"title-permalink.html", "", "Logging HOWTO"},
		{"title-permalink.html", "Logging HOWTO¶", "Logging HOWTO"},
		{"title-mojibake.html", "", "A DIY Investor\u2019s Guide to Retirement Calculators"},
		// A forum's label before the thread's title, in an element of its
		// own or as text before it, is not part of the title (the
		// WebPage's mainEntity states the title without it).
		{"title-forum-label.html", "", "Which lathe for a small shop?"},
		{"title-thread-prefix.html", "", "What do you check before buying hosting?"},
	}
	for _, c := range cases {
		if got := extractFile(t, c.file).Headline(c.extracted); got != c.want {
			t.Errorf("%s (extracted %q): headline %q, want %q", c.file, c.extracted, got, c.want)
		}
	}
	// Without an h1, the extracted title is cleaned the same way.
	m := Meta{Title: "Example docs", Sources: Sources{Title: "title"}}
	if got := m.Headline("Quickstart ¶"); got != "Quickstart" {
		t.Errorf("extracted title: headline %q, want %q", got, "Quickstart")
	}
}

// TestRepairMojibake: text encoded as UTF-8 twice is repaired; text
// that is not (Latin-1 letters, other scripts, plain ASCII) stays.
func TestRepairMojibake(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Investor\u00e2\u0080\u0099s", "Investor\u2019s"}, // read as Latin-1
		{"Investor\u00e2\u20ac\u2122s", "Investor\u2019s"}, // read as Windows-1252
		{"\u00c3\u00a9t\u00c3\u00a9", "\u00e9t\u00e9"},
		{"Café au lait", "Café au lait"},
		{"naïve ‘quotes’", "naïve ‘quotes’"},
		{"東京の天気", "東京の天気"},
		{"C# in depth", "C# in depth"},
		{"", ""},
	}
	for _, c := range cases {
		if got := repairMojibake(c.in); got != c.want {
			t.Errorf("repairMojibake(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestDateOrderURL: a slashed date that can be read both ways is read as
// the day the page's URL states, when one reading is that day; the URL
// may name the month.
func TestDateOrderURL(t *testing.T) {
	cases := []struct{ url, published, source string }{
		{"https://wine.example.org/blog/2023/october/03/wine-styles/", "2023-10-03", "byline"},
		{"https://wine.example.org/blog/2023/10/03/wine-styles/", "2023-10-03", "byline"},
		{"https://wine.example.org/blog/2023/03/10/wine-styles/", "2023-03-10", "byline"},
		// No day in the URL: the locale's order ("en": month first).
		{"https://wine.example.org/blog/wine-styles/", "2023-03-10", "byline"},
	}
	src, err := os.ReadFile(filepath.Join("testdata", "date-order-url.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		m := Extract(parse(t, c.url, src), src, Options{URL: c.url, NoLanguage: true})
		if m.Published != c.published || m.Sources.Published != c.source {
			t.Errorf("%s: published %q from %q, want %q from %q", c.url, m.Published, m.Sources.Published, c.published, c.source)
		}
	}
	for u, want := range map[string]string{
		"https://x.example/2023/oct/3/story":  "2023-10-03",
		"https://x.example/2024/february/30/": "",
		"https://x.example/news/may/2024/":    "",
	} {
		if got := urlDate(u); got != want {
			t.Errorf("urlDate(%q) = %q, want %q", u, got, want)
		}
	}
}

// TestMemberPage: a link to a forum member's page on the page's own site,
// not another site's profile, a sign-up page or a script.
func TestMemberPage(t *testing.T) {
	cases := []struct {
		href string
		want bool
	}{
		{"./memberlist.php?mode=viewprofile&u=5120", true},
		{"/community/members/lulug30.55298/", true},
		{"https://forum.example/u/raoul", true},
		{"https://www.forum.example/member.php?u=224387", true},
		{"https://social.example/u/exampleww", false},
		{"/members/sign_up", false},
		{"javascript:location.href='/members/x'", false},
		{"/author/jane-doe", false},
	}
	for _, c := range cases {
		if got := memberPage(c.href, "forum.example"); got != c.want {
			t.Errorf("memberPage(%q) = %v, want %v", c.href, got, c.want)
		}
	}
}
