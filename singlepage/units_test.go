package singlepage

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/selector"
	"github.com/gleaner/gleaner/treediff"
)

// listingPage is a page of n teasers (a linked headline and a summary
// each) under a menu of short links, with a footer.
func listingPage(n int) (string, []string) {
	var items, want []string
	for i := range n {
		head := fmt.Sprintf("Harbour story number %d about the new bridge plans", i)
		sum := fmt.Sprintf("The council said on day %d that the work would start before the winter floods.", i)
		items = append(items, `<div class="teaser"><h3><a href="/s`+fmt.Sprint(i)+`">`+head+`</a></h3><p>`+sum+`</p></div>`)
		want = append(want, head, sum)
	}
	page := `<html><body><ul class="menu-top"><li><a href="/">Home</a></li><li><a href="/w">World</a></li><li><a href="/b">Business</a></li></ul>` +
		`<main><h1>Latest news</h1><section class="list">` + strings.Join(items, "") + `</section></main>` +
		`<footer><p>About us. Contact. All rights reserved.</p></footer></body></html>`
	return page, want
}

func TestUnits(t *testing.T) {
	listing, items := listingPage(8)
	tests := []struct {
		name    string
		html    string
		want    []string // paragraphs the body holds, in order
		notWant []string
	}{
		{"listing of teasers", listing, items, []string{"Home", "About us"}},
		{"article stays whole", "<html><body><article>" + proseArticle + "</article></body></html>",
			[]string{"The council voted on Tuesday", "Engineers said the work"}, nil},
	}
	for _, tt := range tests {
		tr, err := treediff.Parse(tt.name, []byte(tt.html), treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := Extract(tr, Options{SecondOpinionBelow: -1})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if w, at, ok := inOrder(r.Body, tt.want); !ok {
			t.Errorf("%s: body lacks %q after byte %d:\n%s", tt.name, w, at, r.Body)
		}
		for _, w := range tt.notWant {
			if strings.Contains(r.Body, w) {
				t.Errorf("%s: body holds %q:\n%s", tt.name, w, r.Body)
			}
		}
	}
}

// TestUnitsJoined: on a page whose introduction the block model takes and
// whose cards hold as many words, the base is the introduction and the
// cards together (their short linked titles too), in the page's order,
// from the element holding both. The same page read as an article (its
// JSON-LD and og:type say so) keeps the introduction alone.
func TestUnitsJoined(t *testing.T) {
	tests := []struct {
		file    string
		article bool     // the page says it is an article (JSON-LD, og:type)
		want    []string // paragraphs the base holds, in order
		notWant []string
	}{
		{"intro-and-cards.html", false, []string{"Our money guides explain", "First homes",
			"Guide 1: worked examples", "Holiday budgets", "Guide 6: worked examples", "Phone contracts"},
			[]string{"Home", "Copyright"}},
		{"intro-and-cards.html", true, []string{"Our money guides explain"}, []string{"First homes", "Guide 1"}},
	}
	for _, tt := range tests {
		tr, src := parseIn(t, "units", tt.file)
		if tt.article {
			src = []byte(strings.NewReplacer(`"CollectionPage"`, `"NewsArticle"`, `content="website"`, `content="article"`).Replace(string(src)))
			var err error
			if tr, err = treediff.Parse(tt.file, src, treediff.ParseOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		c, err := Choices(tr, Options{Source: src}.WithDefaults())
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		body := c.Base.Body
		if w, at, ok := inOrder(body, tt.want); !ok {
			t.Errorf("%s: base lacks %q after byte %d:\n%s", tt.file, w, at, body)
		}
		for _, w := range tt.notWant {
			if strings.Contains(body, w) {
				t.Errorf("%s: base holds %q", tt.file, w)
			}
		}
		if c.Base.Node == nil || selector.Of(c.Base.Node) != c.Base.Selector || c.Base.Method != MethodSingle {
			t.Errorf("%s: base method %q, node %v, selector %q", tt.file, c.Base.Method, c.Base.Node != nil, c.Base.Selector)
		}
	}
}

// inOrder reports whether s holds the strings want in their order; when
// not, the first one missing and the byte after which it was looked for.
func inOrder(s string, want []string) (string, int, bool) {
	at := 0
	for _, w := range want {
		i := strings.Index(s[at:], w)
		if i < 0 {
			return w, at, false
		}
		at += i + len(w)
	}
	return "", 0, true
}

// parseIn parses the page testdata/dir/name.
func parseIn(t *testing.T, dir, name string) (*treediff.Tree, []byte) {
	t.Helper()
	return parsePath(t, filepath.Join("testdata", dir, name))
}

// parsePath reads and parses the page at path.
func parsePath(t *testing.T, path string) (*treediff.Tree, []byte) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := treediff.Parse(filepath.Base(path), src, treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tr, src
}

// TestTypeReadBodies reads pages whose body depends on the page's type
// reading: a product page whose <main> holds, after the product's
// description and specifications, its customers' reviews and a rail of
// other products, named by their classes or not (the body is the
// product's, without them); a forum
// thread whose posts sit in a "comments" region, the thread's replies,
// beside a longer box about the forum (the body is every post).
func TestTypeReadBodies(t *testing.T) {
	tests := []struct {
		dir, file, typ string
		want, notWant  []string
	}{
		{"shop", "product-reviews.html", pagetype.Product,
			[]string{"The Ridge Daypack keeps", "Side mesh pockets", "25 liters"},
			[]string{"trip number", "Based on 412 reviews", "Summit pack model", "A light daypack", "all rights reserved"}},
		// A rail of other products whose classes say nothing: its
		// cards (a linked name, a price, a delivery line each) do; the
		// shop's fine print is no more the product's.
		{"shop", "product-rail.html", pagetype.Product,
			[]string{"The Harbor Rain Jacket keeps", "Two hand pockets", "seal against wind"},
			[]string{"Trail shell model", "delivery", "Free returns", "Colours shown on screen", "all rights reserved"}},
		{"thread", "posts-in-comments.html", pagetype.Forum,
			[]string{"Post number 0", "Post number 1", "Post number 6"},
			[]string{"Start new topic", "All rights reserved", "Sign in"}},
		// A question and its answers, each with short comments under it
		// in a comments region: the posts are the thread, their comments
		// are not.
		{"thread", "qa-comments.html", pagetype.Forum,
			[]string{"Post number 0", "Post number 1", "Post number 2", "Post number 3"},
			[]string{"Short remark", "Remark 2-", "reader1", "All rights reserved"}},
	}
	for _, tt := range tests {
		tr, src := parseIn(t, tt.dir, tt.file)
		if typ, _ := pagetype.Classify(tr, src); typ != tt.typ {
			t.Fatalf("%s: read as %s, not %s", tt.file, typ, tt.typ)
		}
		r, err := Extract(tr, Options{Source: src})
		if err != nil {
			t.Fatalf("%s: %v", tt.file, err)
		}
		checkBody(t, tt.file, r.Body, tt.want, tt.notWant)
	}
}

// TestUnitsRepeatAttributes: the units of a job board say "Full-Time",
// "Remote", a company or a pay range again item after item, and the body
// keeps each (the page shows them per item); the line every unit says
// ("Apply through our board...") is the units' furniture, kept once. A
// pay range, all figures, is an item's fact, not a dateline.
func TestUnitsRepeatAttributes(t *testing.T) {
	tr, src := parseIn(t, "units", "job-board.html")
	c, err := Choices(tr, Options{Source: src}.WithDefaults())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"Full-Time": 5, "Part-Time": 2, "Remote": 5, "Harbour Data Cooperative": 2,
		"$90,000 - $120,000 USD": 3, "$40,000 - $55,000 USD": 1, "Apply through our board in two minutes": 1}
	for name, body := range map[string]string{"units": c.Units, "base": c.Base.Body} {
		count := map[string]int{}
		for _, para := range strings.Split(body, "\n\n") {
			count[para]++
		}
		for text, n := range want {
			if count[text] != n {
				t.Errorf("%s: %q %d times, want %d:\n%s", name, text, count[text], n, body)
			}
		}
	}
}

// TestUnitsOnce: a carousel clones its slides, and each slide's text is
// read once; a forum thread's posts say their authors' names and badges
// again post after post, which on the thread (readThread) are read once,
// while the same page's units, not read as a thread, keep them per unit.
func TestUnitsOnce(t *testing.T) {
	tests := []struct {
		file   string
		thread bool
		want   map[string]int
	}{
		{"carousel-clones.html", false, map[string]int{"Universal appeal": 1, "Beyond the label": 1}},
		{"thread-authors.html", true, map[string]int{"marina_k": 1, "Senior member of the harbour forum": 1}},
		{"thread-authors.html", false, map[string]int{"marina_k": 3, "oldsalt": 3}},
	}
	for _, tt := range tests {
		tr, src := parseIn(t, "units", tt.file)
		p := newPage(tr, Options{Source: src}.WithDefaults())
		find := p.units
		if tt.thread {
			find = p.readThread
		}
		g, ok := find()
		if !ok {
			t.Fatalf("%s: no units", tt.file)
		}
		count := map[string]int{}
		for _, para := range g.paras(p) {
			count[para]++
		}
		for text, n := range tt.want {
			if count[text] != n {
				t.Errorf("%s (thread %v): %q %d times, want %d", tt.file, tt.thread, text, count[text], n)
			}
		}
	}
}

// TestUnitsCards: a shop's grid lists its items as cards, a linked name
// beside a price, fewer words than a teaser holds; with no units of prose
// on the page, the grid is its units and the body holds every card. Beside
// a category's longer copy, the copy is the body and the grid stays out.
func TestUnitsCards(t *testing.T) {
	tests := []struct {
		file      string
		in, notIn []string
	}{
		{"card-grid.html", []string{"Small things that make a desk work better: lamps, risers and organizers.",
			"Oak Desk Lamp", "$ 49+", "Walnut Monitor Riser", "$ 89", "Maple Keyboard Tray", "$ 139+"}, []string{"Privacy", "Chairs"}},
		{"cards-and-copy.html", []string{"Our belts are cut from vegetable-tanned hides"}, []string{"Wool Beanie", "£ 18", "Linen Shirt", "£ 55"}},
	}
	for _, tt := range tests {
		tr, src := parseIn(t, "units", tt.file)
		c, err := Choices(tr, Options{Source: src}.WithDefaults())
		if err != nil {
			t.Fatal(err)
		}
		paras := map[string]bool{}
		for _, para := range strings.Split(c.Base.Body, "\n\n") {
			paras[para] = true
		}
		for _, s := range tt.in {
			if !paras[s] && !strings.Contains(c.Base.Body, s) {
				t.Errorf("%s: body lacks %q:\n%s", tt.file, s, c.Base.Body)
			}
		}
		for _, s := range tt.notIn {
			if paras[s] {
				t.Errorf("%s: body holds %q:\n%s", tt.file, s, c.Base.Body)
			}
		}
	}
}

// TestBlockLinks: a link closed without a word (a card's picture linking
// to its item) is none of the block's links with words (wordLinks), so a
// card's title beside its picture is one short link (unitText).
func TestBlockLinks(t *testing.T) {
	tests := []struct {
		html, text string
		links      int
	}{
		{`<div><a href="/p/1"><img src="1.jpg" alt=""></a><a href="/p/1">Oak Desk Lamp</a></div>`, "Oak Desk Lamp", 1},
		{`<div><a href="/p/1"><img src="1.jpg" alt=""></a><a href="/p/2"><img src="2.jpg" alt=""></a><p>Sold by the piece</p></div>`, "Sold by the piece", 0},
		{`<p><a href="/a">Lamps</a> and <a href="/b">risers</a></p>`, "Lamps and risers", 2},
	}
	for _, tt := range tests {
		tr, err := treediff.Parse("links", []byte("<html><body>"+tt.html+"</body></html>"), treediff.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		p := newPage(tr, Options{}.WithDefaults())
		found := false
		for _, b := range p.blocks {
			if b.text == tt.text {
				found = true
				if b.wordLinks != tt.links {
					t.Errorf("%q: %d links with words, want %d", tt.text, b.wordLinks, tt.links)
				}
			}
		}
		if !found {
			t.Errorf("no block %q in %s", tt.text, tt.html)
		}
	}
}
