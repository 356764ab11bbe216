package treediff

import (
	"slices"
	"strings"
	"testing"
)

func TestReduce(t *testing.T) {
	tests := []struct {
		name, html, want string
	}{
		{"svg drawing collapsed", `<div><svg><g><path/><path/></g></svg><p>x</p></div>`,
			"{html{head}{body{div{svg}{p}}}}"},
		{"math and select collapsed", `<div><math><mi>x</mi></math><select><option>a<option>b</select></div>`,
			"{html{head}{body{div{math}{select}}}}"},
		{"hidden attribute", `<nav hidden><ul><li>a</li></ul></nav><p>x</p>`,
			"{html{head}{body{nav}{p}}}"},
		{"aria-hidden true only", `<span aria-hidden="true"><i></i></span><span aria-hidden="false"><i></i></span>`,
			"{html{head}{body{span}{span{i}}}}"},
		{"inline display none", `<div style="color: red; display : none !important"><p>a</p></div><div style="display:block"><p>b</p></div>`,
			"{html{head}{body{div}{div{p}}}}"},
		{"visibility hidden", `<div style="visibility:hidden"><p>a</p></div>`,
			"{html{head}{body{div}}}"},
		{"run of identical siblings kept to three", `<ul><li><a></a></li><li><a></a></li><li><a></a></li><li><a></a></li><li><a></a></li></ul>`,
			"{html{head}{body{ul{li{a}}{li{a}}{li{a}}}}}"},
		{"different siblings kept", `<ul><li><a></a></li><li><b></b></li><li><a></a></li><li><b></b></li><li><a></a></li></ul>`,
			"{html{head}{body{ul{li{a}}{li{b}}{li{a}}{li{b}}{li{a}}}}}"},
		{"two runs each kept to three", `<p></p><p></p><p></p><p></p><hr><p></p><p></p><p></p><p></p>`,
			"{html{head}{body{p}{p}{p}{hr}{p}{p}{p}}}"},
		{"identical once reduced", `<div><span><svg><path/></svg></span><span><svg><circle/><path/></svg></span><span><svg></svg></span><span><svg><g/></svg></span></div>`,
			"{html{head}{body{div{span{svg}}{span{svg}}{span{svg}}}}}"},
		{"lists of different lengths become equal", `<ol><li></li><li></li><li></li><li></li></ol><ol><li></li><li></li><li></li><li></li><li></li><li></li></ol><ol><li></li><li></li><li></li><li></li><li></li></ol><ol></ol>`,
			"{html{head}{body{ol{li}{li}{li}}{ol{li}{li}{li}}{ol{li}{li}{li}}{ol}}}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			full, err := Parse(tc.name, []byte(tc.html), ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			tag := full.View(TagView)
			before := tag.Bracket()
			got := Reduce(tag, ReduceOptions{})
			if b := got.Bracket(); b != tc.want {
				t.Errorf("Reduce = %s\nwant     %s", b, tc.want)
			}
			if tag.Bracket() != before {
				t.Error("Reduce changed its input")
			}
			for i, n := range got.Nodes {
				if n.Index != i || n.Origin == nil || tag.Nodes[n.Origin.Index] != n.Origin {
					t.Errorf("node %d: index %d or origin not in the input", i, n.Index)
				}
			}
		})
	}
}

func TestReduceKeepRepeatsAndText(t *testing.T) {
	full, err := Parse("p", []byte(`<ul><li>a</li><li>a</li><li>a</li><li>b</li></ul>`), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Text is kept: items of different text are not identical.
	if got := strings.Fields(Reduce(full, ReduceOptions{KeepRepeats: 1}).Root.Text()); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("words %q, want [a b]", got)
	}
	tag := full.View(TagView)
	if got := Reduce(tag, ReduceOptions{KeepRepeats: 2}).Bracket(); got != "{html{head}{body{ul{li}{li}}}}" {
		t.Errorf("KeepRepeats 2: %s", got)
	}
}

func TestReduceEmpty(t *testing.T) {
	if got := Reduce(&Tree{Name: "empty"}, ReduceOptions{}); got.Root != nil || got.Name != "empty" {
		t.Errorf("empty tree reduced to %+v", got)
	}
}

func TestReduceDeepAndWideIsLinear(t *testing.T) {
	// 100,000 identical siblings and a 50,000-deep chain: linear work, no
	// recursion.
	n := &Node{Kind: Element, Label: "root"}
	tr := &Tree{Name: "wide"}
	tr.add(n)
	for range 100000 {
		tr.add(&Node{Kind: Element, Label: "li", Parent: n})
	}
	c := n
	for range 50000 {
		d := &Node{Kind: Element, Label: "div", Parent: c}
		tr.add(d)
		c = d
	}
	got := Reduce(tr, ReduceOptions{})
	if got.Len() != 1+3+50000 {
		t.Errorf("reduced to %d nodes, want %d", got.Len(), 1+3+50000)
	}
}
