package export

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gleaner/gleaner/chain"
)

func annotated(t *testing.T) *Page {
	t.Helper()
	c, err := chain.New(chain.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	text := "Mr. Smith paid $5 on 2024-05-03 at https://example.org/a?b=<c>&d.\n\nThe ship \"Joe\" left.\tIt's over."
	doc, err := c.Process(context.Background(), chain.Input{ID: "p1", URL: "https://example.org/news/1", Title: "A <title> & more", Text: text, Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	return &Page{ID: "p1", URL: doc.URL, Title: doc.Title, Text: text, HTML: []byte("<html><body><p>Mr. Smith paid</p></body></html>"),
		FetchedAt: time.Date(2024, 5, 3, 10, 0, 0, 0, time.UTC), Links: []Link{{URL: "https://example.org/", Text: "Home"}, {URL: "https://other.org/x", Text: "X\tY"}, {URL: "https://example.org/", Text: "Home again"}},
		Doc: doc}
}

// checkCoNLLU validates CoNLL-U structure: comments, 10 tab-separated
// non-empty columns, IDs from 1 in each sentence, sent_id and text for each.
func checkCoNLLU(t *testing.T, data string) (sents, tokens int) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(data))
	want, rangeEnd := 1, 0
	hasID, hasText := false, false
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
			hasID = hasID || strings.HasPrefix(line, "# sent_id = ")
			hasText = hasText || strings.HasPrefix(line, "# text = ")
		case line == "":
			if want > 1 {
				if !hasID || !hasText {
					t.Errorf("line %d: sentence without sent_id or text", n)
				}
				sents++
			}
			want, rangeEnd, hasID, hasText = 1, 0, false, false
		default:
			cols := strings.Split(line, "\t")
			if len(cols) != 10 {
				t.Fatalf("line %d: %d columns: %q", n, len(cols), line)
			}
			if from, to, ok := strings.Cut(cols[0], "-"); ok {
				// A multiword token: its range starts at the next word.
				a, _ := strconv.Atoi(from)
				b, _ := strconv.Atoi(to)
				if a != want || b <= a || cols[2] != "_" || cols[3] != "_" {
					t.Errorf("line %d: bad range line %q (next word %d)", n, line, want)
				}
				tokens++
				rangeEnd = b
				continue
			}
			for i, c := range cols {
				if c == "" || strings.TrimSpace(c) != c && i != 1 && i != 2 {
					t.Errorf("line %d column %d empty or padded: %q", n, i+1, line)
				}
			}
			if id, err := strconv.Atoi(cols[0]); err != nil || id != want {
				t.Errorf("line %d: ID %q, want %d", n, cols[0], want)
			}
			if cols[3] != "_" && !strings.Contains("ADJ ADP ADV AUX CCONJ DET INTJ NOUN NUM PART PRON PROPN PUNCT SCONJ SYM VERB X", cols[3]) {
				t.Errorf("line %d: UPOS %q", n, cols[3])
			}
			if want > rangeEnd {
				tokens++
			}
			want++
		}
	}
	if want != 1 {
		t.Error("no blank line after the last sentence")
	}
	return sents, tokens
}

func TestCoNLLU(t *testing.T) {
	p := annotated(t)
	var b bytes.Buffer
	if err := WriteCoNLLU(&b, p.Doc); err != nil {
		t.Fatal(err)
	}
	sents, toks := checkCoNLLU(t, b.String())
	if sents != 3 || toks != p.Doc.Tokens() {
		t.Errorf("%d sentences, %d tokens; doc has %d tokens\n%s", sents, toks, p.Doc.Tokens(), b.String())
	}
	if !strings.Contains(b.String(), "\t$5\t") || !strings.Contains(b.String(), "Kind=URL") && !strings.Contains(b.String(), "Kind=url") {
		t.Errorf("pre-tagged tokens missing:\n%s", b.String())
	}
}

func TestVertical(t *testing.T) {
	p := annotated(t)
	var b bytes.Buffer
	if err := WriteVertical(&b, p.Doc); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if !strings.HasPrefix(lines[0], `<doc id="p1" url="https://example.org/news/1" title="A &lt;title&gt; &amp; more"`) || lines[len(lines)-1] != "</doc>" {
		t.Fatalf("doc markup: %q … %q", lines[0], lines[len(lines)-1])
	}
	open, toks := 0, 0
	for _, l := range lines[1 : len(lines)-1] {
		switch l {
		case "<s>":
			open++
		case "</s>":
			open--
		case "<p>", "</p>":
		default:
			if len(strings.Split(l, "\t")) != 3 {
				t.Errorf("token line %q has not 3 columns", l)
			}
			toks++
		}
	}
	if open != 0 || toks != p.Doc.Tokens() {
		t.Errorf("unbalanced <s> (%d) or %d tokens for %d", open, toks, p.Doc.Tokens())
	}
}

func TestTEI(t *testing.T) {
	p := annotated(t)
	p.Author = "Jane \x01Doe"
	var b bytes.Buffer
	if err := WriteTEI(&b, p); err != nil {
		t.Fatal(err)
	}
	d := xml.NewDecoder(&b)
	words, root := 0, ""
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("TEI not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if root == "" {
				root = se.Name.Space + " " + se.Name.Local
			}
			if se.Name.Local == "w" || se.Name.Local == "pc" {
				words++
			}
		}
	}
	if root != "http://www.tei-c.org/ns/1.0 TEI" || words != p.Doc.Tokens() {
		t.Errorf("root %q, %d words for %d tokens", root, words, p.Doc.Tokens())
	}
	// Without annotation, the text goes in as paragraphs.
	p.Doc = nil
	b.Reset()
	if err := WriteTEI(&b, p); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b.Bytes(), new(struct{})); err != nil {
		t.Fatalf("plain TEI: %v", err)
	}
}

func TestJSONL(t *testing.T) {
	p := annotated(t)
	p.Method, p.Confidence, p.Run = "pair-diff", 0.75, 3
	var b bytes.Buffer
	j := NewJSONL(&b)
	for range 2 {
		if err := j.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines", len(lines))
	}
	var d jsonDoc
	if err := json.Unmarshal([]byte(lines[0]), &d); err != nil {
		t.Fatal(err)
	}
	if d.Lang != "en" || len(d.Blocks) != 2 || d.Text != p.Text || d.Blocks[0].Sentences[0].Tokens[0].Form != "Mr." ||
		d.Method != "pair-diff" || d.Confidence != 0.75 || d.Run != 3 {
		t.Errorf("decoded %+v", d)
	}
}

func TestWARC(t *testing.T) {
	p := annotated(t)
	var b bytes.Buffer
	w, err := NewWARC(&b, "gleaner test")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WritePage(p); err != nil {
		t.Fatal(err)
	}
	if err := w.WritePage(&Page{ID: "x"}); err == nil {
		t.Error("page without URL accepted")
	}
	recs, err := ReadWARC(bytes.NewReader(b.Bytes()), 0)
	if err != nil {
		t.Fatal(err)
	}
	// Without recorded exchanges the DOM is a resource, not a response
	// whose headers would be made up.
	if len(recs) != 3 || recs[0].Type() != "warcinfo" || recs[1].Type() != "resource" || recs[2].Type() != "conversion" {
		t.Fatalf("records: %d", len(recs))
	}
	if recs[2].Header.Get("WARC-Refers-To") != recs[1].Header.Get("WARC-Record-ID") {
		t.Error("conversion does not refer to the resource")
	}
	if !bytes.Equal(recs[1].Block, p.HTML) || recs[1].Header.Get("WARC-Payload-Digest") == "" {
		t.Errorf("resource block %q", recs[1].Block)
	}
	if string(recs[2].Block) != p.Title+"\n\n"+p.Text || recs[1].Header.Get("WARC-Date") != "2024-05-03T10:00:00Z" {
		t.Errorf("conversion %q, date %q", recs[2].Block, recs[1].Header.Get("WARC-Date"))
	}
	// A corrupted block is detected.
	raw := bytes.Replace(uncompressed(t, b.Bytes()), []byte("Mr. Smith paid</p>"), []byte("Mr. Smith PAID</p>"), 1)
	if _, err := ReadWARC(bytes.NewReader(raw), 0); err == nil || !strings.Contains(err.Error(), "digest") {
		t.Errorf("corruption: %v", err)
	}
}

func uncompressed(t *testing.T, gz []byte) []byte {
	recs, err := ReadWARC(bytes.NewReader(gz), 0)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, r := range recs {
		b.WriteString("WARC/1.1\r\n")
		for k, vs := range r.Header {
			for _, v := range vs {
				b.WriteString(k + ": " + v + "\r\n")
			}
		}
		b.WriteString("\r\n")
		b.Write(r.Block)
		b.WriteString("\r\n\r\n")
	}
	return b.Bytes()
}

func TestGraph(t *testing.T) {
	p := annotated(t)
	edges := Edges([]*Page{p})
	if len(edges) != 2 {
		t.Fatalf("edges %+v", edges)
	}
	var b bytes.Buffer
	if err := WriteEdgesCSV(&b, edges); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(rows) != 3 || rows[2][1] != "https://other.org/x" || rows[2][2] != "X Y" {
		t.Fatalf("csv %q %v", rows, err)
	}
	b.Reset()
	if err := WriteGraphML(&b, []*Page{p}, edges); err != nil {
		t.Fatal(err)
	}
	var g graphML
	if err := xml.Unmarshal(b.Bytes(), &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Graph.Nodes) != 3 || len(g.Graph.Edges) != 2 || g.Graph.EdgeDefault != "directed" {
		t.Errorf("graphml: %d nodes, %d edges", len(g.Graph.Nodes), len(g.Graph.Edges))
	}
}

func TestCoNLLUContractions(t *testing.T) {
	c, err := chain.New(chain.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Tagger("fr") != "apertium:fr-es" {
		t.Skip("Apertium French not installed")
	}
	doc, err := c.Process(context.Background(), chain.Input{ID: "c", Lang: "fr", Text: "Il parle du port aux marins."})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteCoNLLU(&b, doc)
	_, toks := checkCoNLLU(t, b.String())
	if toks != doc.Tokens() {
		t.Errorf("%d surface tokens, doc has %d", toks, doc.Tokens())
	}
	for _, want := range []string{"3-4\tdu\t_", "3\tde\tde\tADP", "4\tle\tle\tDET", "6-7\taux\t", "8\tmarins\tmarin\tNOUN"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}

// TestReadWARCFromWget reads a WARC written by another implementation
// (GNU Wget's --warc-file, from a loopback server): records, digests and
// the payload must come back.
func TestReadWARCFromWget(t *testing.T) {
	wget, err := exec.LookPath("wget")
	if err != nil {
		t.Skip("wget not installed (scripts/setup.sh installs it)")
	}
	body := "<html><body><p>Le port a rouvert lundi.</p></body></html>"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body)
	}))
	defer srv.Close()
	dir := t.TempDir()
	base := filepath.Join(dir, "crawl")
	cmd := exec.Command(wget, "-q", "--no-config", "--warc-file="+base, "-O", filepath.Join(dir, "page.html"), srv.URL+"/port")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("wget: %v %s", err, out)
	}
	recs := readWARCFile(t, base+".warc.gz")
	var types []string
	found := false
	for _, r := range recs {
		types = append(types, r.Type())
		if r.Type() == "response" && r.TargetURI() == srv.URL+"/port" && bytes.HasSuffix(r.Block, []byte(body)) {
			found = true
		}
	}
	if !found || types[0] != "warcinfo" {
		t.Errorf("records %v: response with the page not found", types)
	}
}
