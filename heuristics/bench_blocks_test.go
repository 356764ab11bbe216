package heuristics_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/net/html"

	"github.com/gleaner/gleaner/singlepage"
	"github.com/gleaner/gleaner/treediff"
)

// shortBlocksPage is a page of n sibling paragraphs, most of them a few
// words (too short to judge alone: the single-page smoothing reads their
// neighbours), every tenth a long one.
func shortBlocksPage(n int) []byte {
	var b strings.Builder
	b.WriteString("<html><head><title>Many blocks</title></head><body><div id=main>")
	for i := range n {
		if i%10 == 9 {
			fmt.Fprintf(&b, "<p>Paragraph %d is long enough to count as article text on its own, with a dozen words and more.</p>", i)
			continue
		}
		fmt.Fprintf(&b, "<p>Item %d here</p>", i)
	}
	b.WriteString("</div></body></html>")
	return []byte(b.String())
}

// BenchmarkSingleShortBlocks measures the single-page method (second opinion
// off, and with the default options) on pages of 10k and 100k short sibling
// blocks, parsing excluded, and go-trafilatura on the same pages (its own parsing included, as it parses
// the page itself): the time per op grows tenfold from 10k to 100k blocks
// when each step is linear.
func BenchmarkSingleShortBlocks(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		src := shortBlocksPage(n)
		t, err := treediff.Parse("blocks", src, treediff.ParseOptions{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("gleaner/blocks=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := singlepage.Extract(t, singlepage.Options{SecondOpinionBelow: -1}); err != nil {
					b.Fatal(err)
				}
			}
		})
		// The default options: the page is above the bound of the second
		// extractor, which is not run.
		b.Run(fmt.Sprintf("gleaner-default/blocks=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := singlepage.Extract(t, singlepage.Options{Source: src}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("trafilatura/blocks=%d", n), func(b *testing.B) {
			for b.Loop() {
				doc, err := html.Parse(strings.NewReader(string(src)))
				if err != nil {
					b.Fatal(err)
				}
				if _, err := trafilatura.ExtractDocument(doc, trafilatura.Options{EnableFallback: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestExtractSingleContext(t *testing.T) {
	tr, err := treediff.Parse("blocks", shortBlocksPage(20_000), treediff.ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		wantErr error
	}{
		{"live context", context.Background(), nil},
		{"cancelled context", done, context.Canceled},
	}
	for _, tt := range tests {
		r, err := singlepage.ExtractContext(tt.ctx, tr, singlepage.Options{SecondOpinionBelow: -1})
		if !errors.Is(err, tt.wantErr) {
			t.Fatalf("%s: error %v, want %v", tt.name, err, tt.wantErr)
		}
		if tt.wantErr == nil && !strings.Contains(r.Body, "Paragraph 19999 is long enough") {
			t.Errorf("%s: body lacks the last long paragraph (%d bytes)", tt.name, len(r.Body))
		}
	}
}
