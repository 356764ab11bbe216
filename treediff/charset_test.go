package treediff

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDecodeCharsets(t *testing.T) {
	cases := []struct {
		file, contentType, force string
		wantName                 string
		wantText                 []string // held by the decoded text
		wantErr                  error
	}{
		{"shiftjis.html", "", "", "shift_jis", []string{"東京で大雨、電車に遅れ", "避難の準備"}, nil},
		{"eucjp.html", "", "", "euc-jp", []string{"東京で大雨、電車に遅れ"}, nil},
		{"gb18030.html", "", "", "gb18030", []string{"北京今天下大雨，交通受到影响"}, nil},
		{"big5.html", "", "", "big5", []string{"台北今天下大雨，交通受到影響"}, nil},
		{"utf16le.html", "", "", "utf-16le", []string{"<h1>Heavy rain in the city</h1>"}, nil},
		{"utf16be.html", "", "", "utf-16be", []string{"東京で大雨、電車に遅れ"}, nil},
		{"latin1.html", "", "", "windows-1252", []string{"Fortes pluies à Paris", "« Soyez prudents »"}, nil},
		// One stray byte: the rest stays UTF-8, the byte alone is replaced.
		{"stray.html", "", "", "utf-8", []string{"Fortes pluies à Paris", "près de la \uFFFDSeine", "« Soyez prudents »"}, nil},
		{"stray.html", "text/html; charset=utf-8", "", "utf-8", []string{"près de la \uFFFDSeine"}, nil},
		{"stray-undeclared.html", "", "", "utf-8", []string{"東京で大雨、\uFFFD電車に遅れ"}, nil},
		// Forced: the caller knows better than the bytes.
		{"latin1.html", "", "iso-8859-15", "windows-1252", []string{"Fortes pluies à Paris"}, nil},
		{"shiftjis.html", "", "shift_jis", "shift_jis", []string{"東京で大雨"}, nil},
		{"latin1.html", "", "klingon", "", nil, ErrCharset},
		{"binary.bin", "", "", "", nil, ErrBinary},
	}
	for _, c := range cases {
		src, err := os.ReadFile(filepath.Join("testdata", "charset", c.file))
		if err != nil {
			t.Fatal(err)
		}
		var text, name string
		if c.force != "" {
			text, name, err = DecodeAs(src, c.force)
		} else {
			text, name, err = Decode(src, c.contentType)
		}
		if c.wantErr != nil {
			if !errors.Is(err, c.wantErr) {
				t.Errorf("%s: error %v, want %v", c.file, err, c.wantErr)
			}
			continue
		}
		if err != nil || (c.force == "" && name != c.wantName) {
			t.Errorf("%s: decoded as %q (%v), want %q", c.file, name, err, c.wantName)
			continue
		}
		for _, w := range c.wantText {
			if !strings.Contains(text, w) {
				t.Errorf("%s: text lacks %q:\n%s", c.file, w, text)
			}
		}
		if n := strings.Count(text, "\uFFFD"); n > 1 {
			t.Errorf("%s: %d replacement characters", c.file, n)
		}
	}
}

// TestParseBinary checks that Parse refuses binary input with a clear error
// naming the page, and that a forced charset reaches the decoder.
func TestParseBinary(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "charset", "binary.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("binary.bin", src, ParseOptions{}); !errors.Is(err, ErrBinary) || !strings.Contains(err.Error(), "binary.bin") {
		t.Errorf("Parse(binary) error %v", err)
	}
	if _, err := Parse("x", []byte("<p>x</p>"), ParseOptions{Charset: "nope"}); !errors.Is(err, ErrCharset) {
		t.Errorf("Parse with an unknown charset: %v", err)
	}
}
