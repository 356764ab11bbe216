package heuristics

import (
	"context"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/treediff"
)

// hiddenStory is story n with, at the top of its body, a block the live
// page did not display (display:none) holding a teaser that differs from
// page to page, as the pair diff sees article text.
func hiddenStory(t *testing.T, n, teaser string) (*treediff.Tree, []byte, string) {
	t.Helper()
	_, src, want := storyPage(t, n)
	block := `<div class="story-body"><div class="m-summary" style="display:none"><p>` + teaser + `</p></div>`
	html := strings.Replace(string(src), `<div class="story-body">`, block, 1)
	if html == string(src) {
		t.Fatal("story has no body container")
	}
	tree, err := treediff.Parse("story-"+n+"-hidden.html", []byte(html), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return tree, []byte(html), want
}

// styleVisible stands for a browser layout: elements styled display:none
// are not shown, nor is anything inside them.
func styleVisible(n *treediff.Node) bool {
	for ; n != nil; n = n.Parent {
		if st, _ := n.Attr("style"); strings.Contains(st, "display:none") {
			return false
		}
	}
	return true
}

var teasers = []string{
	"Read also how the harbour authority plans to rebuild the northern quay after the winter storms damaged it badly, and why the fishermen who moor there fear a second season of lost catches and closed stalls.",
	"Read also why the regional train operator cancelled three evening lines and what commuters are told to do instead while the signalling works on the coastal branch go on until the end of the summer.",
	"Read also the mayor's answer to the petition against the new parking fees in the old town centre, signed by more than four thousand residents and shopkeepers in barely two weeks this spring.",
}

func TestExtractVisible(t *testing.T) {
	page, src, want := hiddenStory(t, "2", teasers[1])
	medoid, _, _ := hiddenStory(t, "1", teasers[0])
	for _, c := range []struct {
		name     string
		in       Input
		withText bool
	}{
		{"no layout", Input{Page: page, Src: src, Medoid: medoid}, true},
		{"layout", Input{Page: page, Src: src, Medoid: medoid, Visible: styleVisible, MedoidVisible: styleVisible}, false},
		{"layout, no medoid", Input{Page: page, Src: src, Visible: styleVisible}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := Extract(c.in, ExtractOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if has := strings.Contains(r.Body, "petition") || strings.Contains(r.Body, "train operator"); has != c.withText {
				t.Errorf("hidden teaser in body: %v, want %v; body:\n%s", has, c.withText, r.Body)
			}
			if !c.withText && singlepage.NormWords(r.Body) != singlepage.NormWords(want) {
				t.Errorf("body:\n%s\nwant:\n%s", r.Body, want)
			}
		})
	}
	if page.Prune(func(*treediff.Node) bool { return true }).Len() != page.Len() {
		t.Error("the input page was changed")
	}
}

func TestExtractSiteVisible(t *testing.T) {
	var pages []SitePage
	var wants []string
	for i, n := range []string{"1", "2", "3"} {
		tree, src, want := hiddenStory(t, n, teasers[i])
		pages = append(pages, SitePage{Page: tree, Src: src, Cluster: 0})
		wants = append(wants, want)
	}
	pages[0].Medoid, pages[1].Medoid, pages[2].Medoid = 1, 0, 0
	for _, layout := range []bool{false, true} {
		in := pages
		if layout {
			in = nil
			for _, p := range pages {
				p.Visible = styleVisible
				in = append(in, p)
			}
		}
		out, err := ExtractSite(context.Background(), in, ExtractOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range out.Results {
			if out.Errs[i] != nil {
				t.Fatal(out.Errs[i])
			}
			has := strings.Contains(r.Body, "Read also")
			if has == layout {
				t.Errorf("layout %v, page %d: hidden teaser in body: %v; body:\n%s", layout, i, has, r.Body)
			}
			if layout && singlepage.NormWords(r.Body) != singlepage.NormWords(wants[i]) {
				t.Errorf("layout, page %d: body:\n%s\nwant:\n%s", i, r.Body, wants[i])
			}
		}
		if pages[0].Page.Name != "story-1-hidden.html" || in[0].Page != pages[0].Page {
			t.Error("the caller's pages were changed")
		}
	}
}

func TestVisibleTree(t *testing.T) {
	src := `<body><div id="box" style="display:none"><p>gone</p></div>` +
		`<div id="zero" style="display:none-but-child"><p>kept child</p></div><p>text</p></body>`
	tree, err := treediff.Parse("v.html", []byte(src), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// "zero" is reported hidden (a zero-height box) but holds a visible
	// paragraph: it stays.
	vis := func(n *treediff.Node) bool {
		id, _ := n.Attr("id")
		inBox := n.Parent != nil && n.Parent.Label == "div" && strings.Contains(n.Parent.Text(), "gone")
		return id != "box" && id != "zero" && !inBox
	}
	got := VisibleTree(tree, vis).Root.Text()
	if strings.Contains(got, "gone") || !strings.Contains(got, "kept child") || !strings.Contains(got, "text") {
		t.Errorf("visible text %q", got)
	}
	if VisibleTree(tree, nil) != tree || VisibleTree(tree, func(*treediff.Node) bool { return true }) != tree {
		t.Error("nothing hidden: not the same tree")
	}
}
