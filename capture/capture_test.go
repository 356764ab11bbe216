package capture

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gleaner/gleaner/browser"
	"github.com/gleaner/gleaner/store"
	"github.com/gleaner/gleaner/treediff"
)

func TestToStore(t *testing.T) {
	p := &browser.Page{URL: "http://a.example.org/x", FinalURL: "http://a.example.org/y", Status: 200, HTML: "<p>x</p>", Rendered: true,
		Redirects: []browser.Redirect{{URL: "http://a.example.org/x", Status: 301}}, Links: []browser.Link{{URL: "http://b.example.org/", Text: "B", Source: "a"}},
		Layout: &browser.Layout{Boxes: map[string]browser.Box{"/html/body[1]": {X: 0, Y: 0, W: 10, H: 10, Visible: true}}}}
	sp, err := ToStore(p.URL, "", store.SiteFromDomain, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sp.Site != "example.org" || string(sp.RenderedHTML) != "<p>x</p>" || sp.RawHTML != nil || sp.Capture.FinalURL != p.FinalURL ||
		len(sp.Capture.Redirects) != 1 || sp.Capture.Links[0].Text != "B" {
		t.Errorf("store page %+v capture %+v", sp, sp.Capture)
	}
	if l, err := browser.ParseLayout(sp.Capture.Layout); err != nil || l.Boxes["/html/body[1]"].W != 10 {
		t.Errorf("layout round trip: %+v %v", l, err)
	}
	visible, err := Visible(sp)
	if err != nil || visible == nil {
		t.Errorf("Visible: %v", err)
	}

	// Hidden elements are those laid out and not shown; elements without a
	// box (in <head>) are not known to be hidden.
	tree, err := treediff.Parse("v", []byte(`<html><head><title>T</title></head><body><div>shown</div><div>hidden</div></body></html>`), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	boxes := map[string]browser.Box{}
	var shown, hidden, title *treediff.Node
	for _, n := range tree.Nodes {
		if n.Kind != treediff.Element {
			continue
		}
		switch {
		case n.Label == "title":
			title = n
		case n.Label == "div" && n.Text() == "shown":
			shown = n
		case n.Label == "div":
			hidden = n
		}
		if n.Label != "head" && n.Label != "title" {
			boxes[n.Path()] = browser.Box{X: 0, Y: 0, W: 10, H: 10, Visible: n != hidden}
		}
	}
	p.Layout = &browser.Layout{Boxes: boxes}
	if sp, err = ToStore(p.URL, "", store.SiteFromDomain, p, nil); err != nil {
		t.Fatal(err)
	}
	if visible, err = Visible(sp); err != nil || visible == nil {
		t.Fatalf("Visible: %v", err)
	}
	for _, c := range []struct {
		name string
		n    *treediff.Node
		want bool
	}{
		{"shown div", shown, true}, {"hidden div", hidden, false}, {"text of the hidden div", hidden.Children[0], false},
		{"title in head", title, true}, {"title text", title.Children[0], true},
	} {
		if got := visible(c.n); got != c.want {
			t.Errorf("visible(%s) = %v, want %v", c.name, got, c.want)
		}
	}
	sp.Capture.Layout = []byte("{bad")
	if _, err := Visible(sp); err == nil {
		t.Error("bad stored layout: no error")
	}
	sp.Capture = nil
	if v, err := Visible(sp); v != nil || err != nil {
		t.Errorf("no capture: %v %v", v != nil, err)
	}

	failed, err := ToStore("http://a.example.org/z", "d", store.SiteFromHost, nil, errors.New("boom"))
	if err != nil || failed.Error != "boom" || failed.Site != "a.example.org" || failed.Capture == nil || failed.Capture.Failure != string(browser.FailureOther) {
		t.Errorf("failed page %+v %v", failed, err)
	}
	// The kind of the failure is stored, for a crawler to judge by.
	refused, _ := ToStore("http://a.example.org/z", "d", store.SiteFromHost, nil, fmt.Errorf("render: %w", browser.ErrRefused))
	if refused.Capture == nil || refused.Capture.Failure != string(browser.FailureRefused) {
		t.Errorf("refused page stored with capture %+v", refused.Capture)
	}
	if _, err := ToStore("no host", "", store.SiteFromDomain, p, nil); err == nil {
		t.Error("bad URL accepted")
	}
}
