package treediff

import (
	"bufio"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/internal/shareddata"
)

// TestParseMatchesBench checks that Parse and View rebuild, from the big9-dev
// pages, exactly the tag and token trees of every ted-bench page.
func TestParseMatchesBench(t *testing.T) {
	dir, rows := readBench(t)
	big9 := shareddata.Dir(t, "big9-dev")
	htmlOf := map[string]string{} // original 2009 file name -> html_path
	f, err := os.Open(filepath.Join(big9, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var head map[string]int
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if head == nil {
			head = map[string]int{}
			for i, c := range cols {
				head[c] = i
			}
			continue
		}
		if cols[head["era"]] == "2009" {
			htmlOf[cols[head["orig_html"]]] = cols[head["html_path"]]
		}
	}
	pages := map[string]string{} // tree file stem (pairs/b09-x) -> original page
	for _, r := range rows {
		if r.variant != "tag" {
			continue
		}
		pages[strings.TrimSuffix(r.file1, ".tag.tree")] = path.Base(r.page1)
		pages[strings.TrimSuffix(r.file2, ".tag.tree")] = path.Base(r.page2)
	}
	if len(pages) < 10 {
		t.Fatalf("only %d pages in ted-bench", len(pages))
	}
	for stem, orig := range pages {
		t.Run(path.Base(stem), func(t *testing.T) {
			rel, ok := htmlOf[orig]
			if !ok {
				t.Fatalf("page %q not in big9-dev manifest", orig)
			}
			src, err := os.ReadFile(filepath.Join(big9, rel))
			if err != nil {
				t.Fatal(err)
			}
			tree, err := Parse(rel, src, ParseOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range []View{TagView, TokenView} {
				want, err := os.ReadFile(filepath.Join(dir, stem+"."+v.String()+".tree"))
				if err != nil {
					t.Fatal(err)
				}
				got := tree.View(v).Bracket()
				if w := strings.TrimSpace(string(want)); got != w {
					i := 0
					for i < len(got) && i < len(w) && got[i] == w[i] {
						i++
					}
					t.Errorf("%s view differs from %s.%s.tree at byte %d: got …%q…, want …%q…",
						v, stem, v, i, excerpt(got, i), excerpt(w, i))
				}
			}
		})
	}
}

func excerpt(s string, i int) string {
	lo, hi := max(0, i-40), min(len(s), i+40)
	return s[lo:hi]
}
