package pagemeta_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/fixtures"
	"github.com/gleaner/gleaner/pagemeta"
	"github.com/gleaner/gleaner/treediff"
)

// fixtureScore counts, on one site's article pages as served (plain), the
// metadata pagemeta reads right.
type fixtureScore struct {
	pages, dated, dateExact, dateDay, signed, authors, titled, titles int
	// long counts the pages with at least 50 words of text, langs those
	// whose language is right.
	long, langs int
}

// TestFixtureCorpus reads every article page of the fixture web as the
// server sends it: every page that shows its date, author or headline
// (all but the script-built ones, whose plain page lacks them) gets it
// right, the date with its time and zone.
func TestFixtureCorpus(t *testing.T) {
	bases, err := fixtures.BaseURLs("127.0.0.1:8700", false)
	if err != nil {
		t.Fatal(err)
	}
	web, err := fixtures.New(fixtures.Options{Seed: 1, Articles: 40}, bases)
	if err != nil {
		t.Fatal(err)
	}
	scores := map[string]*fixtureScore{}
	for _, a := range web.Articles() {
		s := scores[a.Site]
		if s == nil {
			s = &fixtureScore{}
			scores[a.Site] = s
		}
		tr, src := servedPage(t, web, a)
		m := pagemeta.Extract(tr, src, pagemeta.Options{URL: web.ArticleURL(a)})
		text := tr.Root.Text()
		s.score(t, a, m, shows(src, a), strings.Contains(text, a.Author), strings.Contains(text, a.Title))
		s.scoreLang(t, a, m, len(strings.Fields(text)) >= 50)
	}
	for site, s := range scores {
		t.Logf("%s: %d pages; %d show a date: %d with its exact time and zone, %d its day; %d show the author: %d right; %d show the title: %d right; %d of 50 words or more: %d in the right language",
			site, s.pages, s.dated, s.dateExact, s.dateDay, s.signed, s.authors, s.titled, s.titles, s.long, s.langs)
		if s.dateExact != s.dated || s.authors != s.signed || s.titles != s.titled || s.langs != s.long {
			t.Errorf("%s: %+v", site, *s)
		}
	}
}

// servedPage is an article page as the server sends it, parsed.
func servedPage(t *testing.T, web *fixtures.Web, a *fixtures.Article) (*treediff.Tree, []byte) {
	t.Helper()
	u := web.ArticleURL(a)
	pu, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	src, _, status, err := web.Served(a.Site, pu.RequestURI())
	if err != nil || status != 200 {
		t.Fatalf("%s: %d %v", u, status, err)
	}
	tr, err := treediff.Parse(u, src, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr, src
}

func (s *fixtureScore) scoreLang(t *testing.T, a *fixtures.Article, m pagemeta.Meta, long bool) {
	if !long {
		return
	}
	s.long++
	if m.Lang == string(a.Lang) {
		s.langs++
	} else {
		t.Logf("%s: language %q (%s, declared %q), want %s", a.ID, m.Lang, m.Sources.Lang, m.DeclaredLang, a.Lang)
	}
}

// shows reports whether the served page prints the article's date (its
// year, in a byline, a <time> or its data).
func shows(src []byte, a *fixtures.Article) bool {
	return strings.Contains(string(src), a.Date.Format("2006"))
}

func (s *fixtureScore) score(t *testing.T, a *fixtures.Article, m pagemeta.Meta, dated, signed, titled bool) {
	s.pages++
	if dated {
		s.dated++
		got, err := time.Parse(time.RFC3339, m.Published)
		switch {
		case err == nil && got.Equal(a.Date):
			s.dateExact++
			s.dateDay++
		case strings.HasPrefix(m.Published, a.Date.Format("2006-01-02")):
			s.dateDay++
			t.Logf("%s: published %q (%s), want %s", a.ID, m.Published, m.Sources.Published, a.Date.Format(time.RFC3339))
		default:
			t.Logf("%s: published %q (%s), want %s", a.ID, m.Published, m.Sources.Published, a.Date.Format(time.RFC3339))
		}
	}
	if signed {
		s.signed++
		if len(m.Authors) == 1 && m.Authors[0] == a.Author {
			s.authors++
		} else {
			t.Logf("%s: authors %q (%s), want %q", a.ID, m.Authors, m.Sources.Authors, a.Author)
		}
	}
	if titled {
		s.titled++
		if m.Title == a.Title {
			s.titles++
		} else {
			t.Logf("%s: title %q (%s), want %q", a.ID, m.Title, m.Sources.Title, a.Title)
		}
	}
}
