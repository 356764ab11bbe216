package dataset_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/dataset"
	"github.com/gleaner/gleaner/store"
)

func TestDecodeGold(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
		want string
	}{
		{"ascii", []byte("plain text"), "plain text"},
		{"utf8", []byte("caf\xc3\xa9 \xe2\x80\x94"), "café —"},
		{"utf8 bom", []byte("\xef\xbb\xbfhello"), "hello"},
		{"cp1252", []byte("fear\x97the \x93fear\x94 Proven\xe7al \x80"), "fear—the “fear” Provençal €"},
		{"crlf", []byte("a\r\nb\rc\n"), "a\nb\nc\n"},
		// Bytes undefined in windows-1252 still decode (to C1 controls):
		// nothing is lost.
		{"cp1252 undefined", []byte("x\x81y\xff"), "x\u0081yÿ"},
	} {
		if got := dataset.DecodeGold(tc.in); got != tc.want {
			t.Errorf("%s: DecodeGold = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestParseGold(t *testing.T) {
	for _, tc := range []struct {
		in                string
		title, body, text string
	}{
		{"Title\n\nBody one.\nBody two.\n", "Title", "Body one.\nBody two.", "Title\n\nBody one.\nBody two."},
		{"\n\n  Title  \nBody", "Title", "Body", "Title  \nBody"},
		{"Only a title", "Only a title", "", "Only a title"},
		{"", "", "", ""},
	} {
		g := dataset.ParseGold(tc.in)
		if g.Title != tc.title || g.Body != tc.body || g.Text != tc.text {
			t.Errorf("ParseGold(%q) = %+v", tc.in, g)
		}
	}
}

func TestParseManifestErrors(t *testing.T) {
	const header = "id\tera\tsite\turl\thtml_path\tgold_path\n"
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", "", "empty manifest"},
		{"only comments", "# nothing\n\n", "empty manifest"},
		{"missing column", "id\tsite\thtml_path\n", `m.tsv:1: header lacks column "url"`},
		{"duplicate column", "id\turl\turl\thtml_path\n", `m.tsv:1: header names column "url" twice`},
		{"empty header column", "id\t\turl\thtml_path\n", "m.tsv:1: header column 2 is empty"},
		{"short line", header + "a\t2005\ts\thttp://x.example/\th.htm\n", "m.tsv:2: 5 fields, the header has 6"},
		{"long line", header + "a\t2005\ts\thttp://x.example/\th.htm\tg.txt\textra\n", "m.tsv:2: 7 fields, the header has 6"},
		{"empty id", header + "\t2005\ts\thttp://x.example/\th.htm\tg.txt\n", "m.tsv:2: empty id"},
		{"duplicate id", header + "a\t2005\ts\thttp://x.example/\th.htm\tg.txt\n\na\t2005\ts\thttp://x.example/2\th2.htm\tg2.txt\n", `m.tsv:4: id "a" already on line 2`},
		{"empty url", header + "a\t2005\ts\t\th.htm\tg.txt\n", `m.tsv:2: page "a": empty url`},
		{"relative url", header + "a\t2005\ts\t/x.html\th.htm\tg.txt\n", `m.tsv:2: page "a": url "/x.html" is not an absolute http(s) URL`},
		{"ftp url", header + "a\t2005\ts\tftp://x.example/\th.htm\tg.txt\n", "not an absolute http(s) URL"},
		{"bad url", header + "a\t2005\ts\thttp://x.example/%zz\th.htm\tg.txt\n", `m.tsv:2: page "a": bad url`},
		{"empty html_path", header + "a\t2005\ts\thttp://x.example/\t\tg.txt\n", `m.tsv:2: page "a": empty html_path`},
		{"huge line", header + strings.Repeat("x", 2<<20) + "\n", "m.tsv:2: bufio.Scanner: token too long"},
	} {
		_, err := dataset.ParseManifest(strings.NewReader(tc.in), "m.tsv")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestParseManifestTolerates(t *testing.T) {
	in := "\xef\xbb\xbfID\tURL\tHTML_PATH\tLabel\r\n\r\nx\thttp://a.example/\tx.htm\tL1\r\n"
	m, err := dataset.ParseManifest(strings.NewReader(in), filepath.Join("dir", "m.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Entries) != 1 || m.Entries[0].ID != "x" || m.Entries[0].Label != "L1" || m.Entries[0].Line != 3 {
		t.Fatalf("entries = %+v", m.Entries)
	}
	if got := m.HTMLFile(m.Entries[0]); got != filepath.Join("dir", "x.htm") {
		t.Errorf("HTMLFile = %q", got)
	}
	if m.GoldFile(m.Entries[0]) != "" {
		t.Errorf("GoldFile of an entry without gold = %q", m.GoldFile(m.Entries[0]))
	}
}

func openStore(t *testing.T) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestImportMini(t *testing.T) {
	ctx := context.Background()
	m, err := dataset.ReadManifest(filepath.Join("testdata", "mini", "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if m.Name != "mini" || len(m.Entries) != 2 {
		t.Fatalf("manifest %q with %d entries", m.Name, len(m.Entries))
	}
	for _, tc := range []struct {
		mode  store.SiteMode
		sites []string
	}{
		{store.SiteFromDomain, []string{"example.co.uk"}},
		{store.SiteFromHost, []string{"news.example.co.uk", "www.example.co.uk"}},
		{dataset.SiteFromManifest, []string{"news"}},
	} {
		t.Run(string(tc.mode), func(t *testing.T) {
			db := openStore(t)
			res, err := dataset.Import(ctx, db, m, dataset.Options{SiteMode: tc.mode})
			if err != nil {
				t.Fatal(err)
			}
			if res.Pages != 2 || res.Gold != 1 || strings.Join(res.Sites, ",") != strings.Join(tc.sites, ",") {
				t.Errorf("result %+v, want 2 pages, 1 gold, sites %v", res, tc.sites)
			}
			p, err := db.PageByKey(ctx, "mini", "m-1")
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := os.ReadFile(filepath.Join("testdata", "mini", "html", "m-1.htm"))
			if string(p.RawHTML) != string(raw) || p.Label != "2005" || p.URL != "http://www.example.co.uk/a.html" {
				t.Errorf("page m-1 = %+v", p)
			}
			want := store.Gold{Title: "Café “opens”", Body: "Naïve text — here.\nSecond line.", Text: "Café “opens”\n\nNaïve text — here.\nSecond line."}
			if p.Gold == nil || *p.Gold != want {
				t.Errorf("gold = %+v, want %+v", p.Gold, want)
			}
			p2, err := db.PageByKey(ctx, "mini", "m-2")
			if err != nil || p2.Gold != nil {
				t.Errorf("page m-2: %+v %v: want no gold", p2, err)
			}
		})
	}
}

// copyTree copies the mini dataset to a temporary folder to break it.
func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestImportBadFiles(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		break_ func(dir string) error
		want   []string
	}{
		{"missing HTML", func(dir string) error { return os.Remove(filepath.Join(dir, "html", "m-2.html")) },
			[]string{"manifest.tsv:5: page m-2: HTML:", "m-2.html", "no such file"}},
		{"missing gold", func(dir string) error { return os.Remove(filepath.Join(dir, "gold", "m-1.txt")) },
			[]string{"manifest.tsv:2: page m-1: gold:", "m-1.txt"}},
		{"HTML is a folder", func(dir string) error {
			if err := os.Remove(filepath.Join(dir, "html", "m-1.htm")); err != nil {
				return err
			}
			return os.Mkdir(filepath.Join(dir, "html", "m-1.htm"), 0o755)
		}, []string{"page m-1: HTML", "not a regular file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyTree(t, filepath.Join("testdata", "mini"))
			if err := tc.break_(dir); err != nil {
				t.Fatal(err)
			}
			m, err := dataset.ReadManifest(filepath.Join(dir, "manifest.tsv"))
			if err != nil {
				t.Fatal(err)
			}
			db := openStore(t)
			_, err = dataset.Import(ctx, db, m, dataset.Options{})
			if err == nil {
				t.Fatal("import succeeded")
			}
			for _, w := range append(tc.want, "nothing imported") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if ps, _ := db.Pages(ctx, store.PageQuery{}); len(ps) != 0 {
				t.Errorf("%d pages stored by a failed import", len(ps))
			}
		})
	}
	t.Run("file over the limit", func(t *testing.T) {
		m, err := dataset.ReadManifest(filepath.Join("testdata", "mini", "manifest.tsv"))
		if err != nil {
			t.Fatal(err)
		}
		db := openStore(t)
		_, err = dataset.Import(ctx, db, m, dataset.Options{MaxFileBytes: 50})
		if err == nil || !strings.Contains(err.Error(), "over the limit of 50") {
			t.Errorf("error %v, want one about the limit", err)
		}
	})
	t.Run("manifest site mode without site", func(t *testing.T) {
		m, err := dataset.ParseManifest(strings.NewReader("id\turl\thtml_path\nx\thttp://a.example/\tx.htm\n"), "m.tsv")
		if err != nil {
			t.Fatal(err)
		}
		_, err = dataset.Import(ctx, openStore(t), m, dataset.Options{SiteMode: dataset.SiteFromManifest})
		if err == nil || !strings.Contains(err.Error(), "m.tsv:2: page x: empty site column") {
			t.Errorf("error %v", err)
		}
	})
}

func TestImportBatches(t *testing.T) {
	ctx := context.Background()
	m, err := dataset.ReadDir(filepath.Join("testdata", "folder"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	db := openStore(t)
	// One byte per batch: every page in its own transaction.
	res, err := dataset.Import(ctx, db, m, dataset.Options{BatchBytes: 1})
	if err != nil || res.Pages != 2 {
		t.Fatalf("import: %+v %v", res, err)
	}
	ps, err := db.Pages(ctx, store.PageQuery{Dataset: "folder"})
	if err != nil || len(ps) != 2 {
		t.Fatalf("%d pages (%v), want 2", len(ps), err)
	}
}

func TestReadDir(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join("testdata", "folder")
	t.Run("default url list", func(t *testing.T) {
		m, err := dataset.ReadDir(dir, "", "")
		if err != nil {
			t.Fatal(err)
		}
		db := openStore(t)
		res, err := dataset.Import(ctx, db, m, dataset.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Pages != 2 || strings.Join(res.Sites, ",") != "fold.example" {
			t.Errorf("result %+v", res)
		}
		p, err := db.PageByKey(ctx, "folder", "http://fold.example/sub/y")
		if err != nil || string(p.RawHTML) != "<html><body><p>y</p></body></html>" || p.Label != "B" || p.Name() != "http://fold.example/sub/y" {
			t.Errorf("page y: %+v %v", p, err)
		}
		// Re-import: same pages.
		if _, err := dataset.Import(ctx, db, m, dataset.Options{}); err != nil {
			t.Fatal(err)
		}
		if ps, _ := db.Pages(ctx, store.PageQuery{}); len(ps) != 2 {
			t.Errorf("%d pages after re-import, want 2", len(ps))
		}
	})
	t.Run("base URL", func(t *testing.T) {
		m, err := dataset.ReadDir(dir, filepath.Join(t.TempDir(), "absent.tsv"), "")
		if err == nil {
			t.Fatalf("absent URL list accepted: %+v", m)
		}
		tmp := copyTree(t, dir)
		os.Remove(filepath.Join(tmp, "urls.tsv"))
		m, err = dataset.ReadDir(tmp, "", "https://base.example/arch/")
		if err != nil {
			t.Fatal(err)
		}
		var urls []string
		for _, e := range m.Entries {
			urls = append(urls, e.URL)
		}
		if got := strings.Join(urls, " "); got != "https://base.example/arch/sub/y.htm https://base.example/arch/x.html" {
			t.Errorf("URLs %s", got)
		}
		if _, err := dataset.ReadDir(tmp, "", ""); err == nil || !strings.Contains(err.Error(), "no URLs") {
			t.Errorf("folder without URLs: %v", err)
		}
		if _, err := dataset.ReadDir(tmp, "", "not a url"); err == nil {
			t.Error("bad base URL accepted")
		}
	})
	t.Run("bad lists", func(t *testing.T) {
		for _, tc := range []struct{ list, want string }{
			{"x.html\thttp://a.example/\nsub/y.htm\thttp://a.example/\n", "have the same URL http://a.example/"},
			{"x.html\n", "u.tsv:1: 1 fields, want file<TAB>url[<TAB>label]"},
			{"x.html\t/rel\n", "u.tsv:1: url \"/rel\" is not an absolute http(s) URL"},
			{"\thttp://a.example/\n", "u.tsv:1: empty file name"},
		} {
			list := filepath.Join(t.TempDir(), "u.tsv")
			if err := os.WriteFile(list, []byte(tc.list), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := dataset.ReadDir(dir, list, ""); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("list %q: error %v, want %q", tc.list, err, tc.want)
			}
		}
		if _, err := dataset.ReadDir(filepath.Join(dir, "x.html"), "", ""); err == nil {
			t.Error("a file accepted as folder")
		}
	})
}
