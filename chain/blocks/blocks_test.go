package blocks

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

func parse(t testing.TB, src string) *treediff.Node {
	t.Helper()
	tree, err := treediff.Parse("test", []byte(src), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var body *treediff.Node
	tree.Root.Walk(func(n *treediff.Node) bool {
		if body == nil && n.Kind == treediff.Element && n.Label == "body" {
			body = n
		}
		return body == nil
	})
	if body == nil {
		t.Fatal("no body")
	}
	return body
}

func texts(bs []Block) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Kind.String()+": "+strings.ReplaceAll(b.Text, "\n", " / "))
	}
	return out
}

// blockOf returns the block whose text holds s.
func blockOf(bs []Block, s string) int {
	for i, b := range bs {
		if strings.Contains(b.Text, s) {
			return i
		}
	}
	return -1
}

// The seed's example: two unrelated texts must not form one text, whether
// they are teasers of a news list or sit in distant parts of the page.
func TestSeedExample(t *testing.T) {
	pages := map[string]string{
		"teasers": `<body><div class="news">
			<div class="item"><h3><a href="/a">Rozkaz na pokładzie</a></h3><p>Kapitan Joe wydał rozkaz odpalenia wszystkich armat.</p></div>
			<div class="item"><h3><a href="/b">Nowy prom</a></h3><p>Statek pasażerski przewozi 300 osób.</p></div>
			</div></body>`,
		"widgets": `<body><div class="col"><p>Kapitan Joe wydał rozkaz odpalenia wszystkich armat.</p></div>
			<div class="side"><div class="box"><div class="inner"><p>Statek pasażerski przewozi 300 osób.</p></div></div></div></body>`,
		"aside": `<body><article><p>Kapitan Joe wydał rozkaz odpalenia wszystkich armat.</p>
			<aside><p>Statek pasażerski przewozi 300 osób.</p></aside></article></body>`,
	}
	for name, src := range pages {
		bs := Split(parse(t, src), Options{})
		a, b := blockOf(bs, "Kapitan Joe"), blockOf(bs, "Statek pasażerski")
		if a < 0 || b < 0 || a == b {
			t.Errorf("%s: captain in block %d, ship in block %d: %q", name, a, b, texts(bs))
		}
	}
}

func TestArticleParagraphsMerge(t *testing.T) {
	src := `<body><nav><ul><li><a href="/">Home</a></li><li><a href="/w">World news</a></li><li><a href="/s">Sport</a></li></ul></nav>
	<div class="story"><h1>Harbour reopens</h1>
	<p>The harbour reopened on Monday after three weeks of repairs, the port authority said.</p>
	<p>Ships queued at the entrance since dawn, and the first ferry left at noon with <a href="/f">two hundred passengers</a> on board.</p>
	<figure><img src="x.jpg"><figcaption>Photo: the harbour at dawn</figcaption></figure>
	<p>Repairs cost four million euros, paid by the region and the state.</p></div>
	<div class="more"><div><a href="/1">Storm hits the coast</a> Winds of 120 km/h were recorded overnight.</div>
	<div><a href="/2">Fishermen protest</a> Quotas are too low, they say.</div></div></body>`
	bs := Split(parse(t, src), Options{})
	got := texts(bs)
	if i, j := blockOf(bs, "reopened on Monday"), blockOf(bs, "Repairs cost"); i < 0 || i != j || blockOf(bs, "first ferry") != i {
		t.Errorf("story paragraphs split: %q", got)
	}
	if blockOf(bs, "Photo: the harbour") == blockOf(bs, "Repairs cost") {
		t.Errorf("caption glued to the story: %q", got)
	}
	for _, s := range []string{"Home", "World news", "Sport"} {
		if i := blockOf(bs, s); i < 0 || bs[i].Kind != Navigation || strings.TrimSpace(bs[i].Text) != s {
			t.Errorf("menu link %q not its own navigation block: %q", s, got)
		}
	}
	i, j := blockOf(bs, "Storm hits"), blockOf(bs, "Fishermen")
	if i < 0 || j < 0 || i == j || bs[i].Kind != Teaser || !strings.Contains(bs[i].Text, "Winds of 120") {
		t.Errorf("teasers: %q", got)
	}
}

// TestProperties: on random pages, blocks are disjoint and hold every word.
func TestProperties(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for iter := range 300 {
		src := "<html><body>" + randomHTML(rng, 0) + "</body></html>"
		body := parse(t, src)
		bs := Split(body, Options{Beta: []float64{0, 0.3, 0.7, 1}[iter%4]})
		// Disjoint: no block node inside another.
		for i := range bs {
			for j := range bs {
				if i != j && bs[i].Contains(bs[j].Node) {
					t.Fatalf("page %d: block %d contains block %d\n%s", iter, i, j, src)
				}
			}
		}
		// Cover: every word-bearing text node outside skipped elements is
		// in exactly one block, and the word counts add up.
		total, inBlocks := 0, 0
		body.Walk(func(n *treediff.Node) bool {
			if n.Kind == treediff.Element && skipped[n.Label] {
				return false
			}
			if n.Kind == treediff.Text && len(treediff.Words(n.Label)) > 0 {
				total += len(treediff.Words(n.Label))
				k := 0
				for _, b := range bs {
					if b.Contains(n) {
						k++
					}
				}
				if k != 1 {
					t.Fatalf("page %d: text %q in %d blocks\n%s", iter, n.Label, k, src)
				}
			}
			return true
		})
		for _, b := range bs {
			inBlocks += b.Words
		}
		if total != inBlocks {
			t.Fatalf("page %d: %d words, blocks hold %d", iter, total, inBlocks)
		}
	}
}

var vocab = strings.Fields("the ship left harbour at dawn captain ordered all guns fired passengers three hundred")

func randomHTML(rng *rand.Rand, depth int) string {
	var b strings.Builder
	n := 1 + rng.Intn(4)
	for range n {
		switch r := rng.Intn(10); {
		case r < 3 || depth > 6:
			for range 1 + rng.Intn(12) {
				b.WriteString(vocab[rng.Intn(len(vocab))] + " ")
			}
		case r < 5:
			fmt.Fprintf(&b, `<a href="/%d">%s</a> `, rng.Intn(100), randomHTML(rng, depth+3))
		case r == 5:
			b.WriteString("<script>var x = 'hidden words here';</script>")
		default:
			tag := []string{"div", "p", "span", "ul", "li", "figure", "aside", "section", "em"}[rng.Intn(9)]
			fmt.Fprintf(&b, "<%s>%s</%s>", tag, randomHTML(rng, depth+1), tag)
		}
	}
	return b.String()
}
