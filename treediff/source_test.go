package treediff

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSourceAsRead checks that a reader decoding the bytes by itself gets
// the page as Parse read it: the bytes themselves when nothing outside
// them decides, the text Parse decoded (declared UTF-8) when a forced
// charset or a content type decides otherwise.
func TestSourceAsRead(t *testing.T) {
	sjis, err := os.ReadFile(filepath.Join("testdata", "charset", "shiftjis.html"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		opt      ParseOptions
		same     bool
		shows    string
		notShows string
	}{
		{"nothing forced", ParseOptions{}, true, "電車", ""},
		{"the page's own charset named", ParseOptions{ContentType: "text/html; charset=shift_jis"}, true, "電車", ""},
		{"a forced charset", ParseOptions{Charset: "windows-1252"}, false, "", "電車"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := SourceAsRead(sjis, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if same := bytes.Equal(got, sjis); same != c.same {
				t.Fatalf("bytes kept %v, want %v", same, c.same)
			}
			text, _, err := Decode(got, "")
			if err != nil {
				t.Fatal(err)
			}
			if c.shows != "" && !strings.Contains(text, c.shows) {
				t.Errorf("read again, %q missing", c.shows)
			}
			if c.notShows != "" && strings.Contains(text, c.notShows) {
				t.Errorf("read again as the page declares, not as forced: %q shown", c.notShows)
			}
		})
	}
	if _, err := SourceAsRead(sjis, ParseOptions{Charset: "klingon"}); err == nil {
		t.Error("unknown charset: no error")
	}
}
