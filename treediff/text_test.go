package treediff

import (
	"strings"
	"testing"
)

// TestNodeText checks that Text lays text out as HTML does: block elements
// and <br> break lines, newlines inside text are spaces except in <pre> and
// <textarea>.
func TestNodeText(t *testing.T) {
	for _, tc := range []struct{ name, html, want string }{
		{"inline newline", "<p>one\ntwo\r\nthree</p>", "one two three"},
		{"blocks", "<div><p>a</p><p>b\nc</p></div>", "a\n\nb c"},
		{"br", "<p>a<br>b</p>", "a\nb"},
		{"inline elements", "<p>a <b>bold\ntext</b> c</p>", "a bold text c"},
		{"pre", "<pre>line 1\nline 2</pre>", "line 1\nline 2"},
		{"inside pre", "<pre><code>x := 1\ny := 2</code></pre>", "x := 1\ny := 2"},
		{"textarea", "<form><textarea>a\nb</textarea></form>", "a\nb"},
		{"after pre", "<pre>p\nq</pre><p>r\ns</p>", "p\nq\n\nr s"},
	} {
		tree, err := Parse(tc.name, []byte("<html><body>"+tc.html+"</body></html>"), ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := tree.Root.Text(); got != tc.want {
			t.Errorf("%s: Text = %q, want %q", tc.name, got, tc.want)
		}
	}
	// A text node inside <pre> keeps its newlines when asked alone.
	tree, err := Parse("pre", []byte("<pre>a\nb</pre>"), ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var txt *Node
	tree.Root.Walk(func(n *Node) bool {
		if n.Kind == Text && txt == nil {
			txt = n
		}
		return true
	})
	if txt == nil || txt.Text() != "a\nb" {
		t.Errorf("text node under <pre>: %v", txt)
	}
}

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Hello, world!", []string{"Hello", "world"}},
		{"snake_case 42x", []string{"snake_case", "42x"}},
		{"東京は晴れ。", []string{"東", "京", "は", "晴", "れ"}},
		{"iPhoneの新型", []string{"iPhone", "の", "新", "型"}},
		{"서울 날씨", []string{"서울", "날씨"}}, // Korean is written with spaces
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, w := range Words(tt.in) {
			if tt.in[w.Offset:w.Offset+len(w.Text)] != w.Text {
				t.Errorf("Words(%q): %q not at offset %d", tt.in, w.Text, w.Offset)
			}
			got = append(got, w.Text)
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("Words(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
