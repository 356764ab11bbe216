package dashboard

import (
	"strings"
	"testing"
)

func TestStaticCopy(t *testing.T) {
	for _, c := range []struct {
		name, html, selector string
		found                bool
		err                  string
		want, not            []string
	}{
		{name: "marks the selected element", html: `<html><head><title>t</title></head><body><div id="main"><p>a</p><p class="x">b</p></div></body></html>`,
			selector: "div#main > p.x", found: true,
			want: []string{`<a id="gleaner-extracted"></a><p class="x" data-gleaner-extracted="body">b</p>`, "[data-gleaner-extracted]{outline"}},
		{name: "removes what runs or loads", html: `<head><script>alert(1)</script><link rel=stylesheet href=//x/y.css><meta http-equiv=refresh content="0;url=//x"><base href=//x/></head>` +
			`<body onload="alert(2)"><img src=x onerror="alert(3)" alt=pic><a href="javascript:alert(4)">l</a><iframe srcdoc="<script>alert(5)</script>"></iframe>` +
			`<object data=x></object><svg><script>alert(6)</script></svg><form action=//x><button formaction=//y>b</button></form><!-- <script>alert(7)</script> --></body>`,
			want: []string{`<img alt="pic"/>`, `<a>l</a>`, "<form><button>b</button></form>"},
			not:  []string{"alert", "<script", "<iframe", "<object", "<base", "<link", "refresh", "href", "src", "onerror", "onload"}},
		{name: "selector matching nothing", html: `<p>x</p>`, selector: "div.none", found: false, want: []string{"<p>x</p>"}},
		{name: "selector that does not parse", html: `<p>x</p>`, selector: "p[", err: "selector"},
		{name: "not HTML at all", html: "\x00\xff\xfe binary", err: "binary"},
		{name: "nested deeper than the parser allows", html: strings.Repeat("<div>", 600) + "<script>alert(1)</script>", found: false,
			want: []string{"cannot be shown as a document", "&lt;script&gt;alert(1)"}, not: []string{"<script>", "<div>"}},
		{name: "windows-1252 bytes", html: "<meta charset=windows-1252><p>caf\xe9</p>", want: []string{"café", `<meta charset="utf-8"/>`}},
	} {
		out, found, err := staticCopy([]byte(c.html), "", c.selector)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || found != c.found {
			t.Errorf("%s: found %v, err %v; want found %v", c.name, found, err, c.found)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s: output lacks %q:\n%s", c.name, w, out)
			}
		}
		for _, n := range c.not {
			if strings.Contains(string(out), n) {
				t.Errorf("%s: output keeps %q:\n%s", c.name, n, out)
			}
		}
	}
}
