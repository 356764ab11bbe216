package outlinks

import (
	"reflect"
	"testing"
)

func TestFind(t *testing.T) {
	tests := []struct {
		name, html, page string
		nav              []string
		want             []Link
	}{
		{"resolved, fragment dropped, once",
			`<a href="/a#top">A</a><a href="/a">again</a><a href="b.html"> B  text </a>`, "http://x.example/dir/p", nil,
			[]Link{{"http://x.example/a", "A", "a"}, {"http://x.example/dir/b.html", "B text", "a"}}},
		{"base href",
			`<head><base href="https://cdn.example/root/"></head><a href="c">C</a>`, "http://x.example/p", nil,
			[]Link{{"https://cdn.example/root/c", "C", "a"}}},
		{"not http, bare fragment, empty",
			`<a href="mailto:a@b">m</a><a href="javascript:void(0)">j</a><a href="#x">f</a><a href=" ">e</a>`, "http://x.example/", nil,
			nil},
		{"text from an image or a label; a later text fills an empty one",
			`<a href="/i"><img alt=" Photo "></a><a href="/l" aria-label="Label"></a><a href="/e"></a><a href="/e">Later</a>`, "http://x.example/", nil,
			[]Link{{"http://x.example/i", "Photo", "a"}, {"http://x.example/l", "Label", "a"}, {"http://x.example/e", "Later", "a"}}},
		{"area and history navigations",
			`<map><area href="/m" title="Map"></map>`, "http://x.example/", []string{"http://x.example/route", "http://x.example/m"},
			[]Link{{"http://x.example/m", "Map", "area"}, {"http://x.example/route", "", "pushState"}}},
		{"a page URL that does not parse", `<a href="/a">A</a>`, "http://[::1", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Find(tt.html, tt.page, tt.nav); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Find = %+v, want %+v", got, tt.want)
			}
		})
	}
}
