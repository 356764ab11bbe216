package singlepage

import (
	"bytes"
	"errors"

	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/treediff"
)

// A page built by script in the browser often gives crawlers and readers
// without script the same text in <noscript> (a forum's crawler view: the
// thread's posts). The parsed tree leaves <noscript> out, as a browser
// running script does; when the page outside it has no body to speak of,
// the body is read from what <noscript> holds.

// Bounds of the <noscript> reading.
const (
	// noscriptBelow is the number of body words under which the page's
	// <noscript> content is read.
	noscriptBelow = 50
	// noscriptMinBytes is the least markup <noscript> must hold to be read
	// (an "enable JavaScript" line is shorter).
	noscriptMinBytes = 512
)

// noscriptPage returns the contents of src's <noscript> elements, joined in
// document order into one page, and false when they hold less than
// noscriptMinBytes. It is one pass over src.
func noscriptPage(src []byte) ([]byte, bool) {
	lower := bytes.ToLower(src)
	var out bytes.Buffer
	out.WriteString("<html><body>")
	for at := 0; ; {
		i := bytes.Index(lower[at:], []byte("<noscript"))
		if i < 0 {
			break
		}
		open := at + i + len("<noscript")
		gt := bytes.IndexByte(lower[open:], '>')
		if gt < 0 {
			break
		}
		start := open + gt + 1
		end := bytes.Index(lower[start:], []byte("</noscript"))
		if end < 0 {
			end = len(lower) - start
		}
		out.Write(src[start : start+end])
		out.WriteByte('\n')
		at = start + end
	}
	if out.Len() < noscriptMinBytes {
		return nil, false
	}
	out.WriteString("</body></html>")
	return out.Bytes(), true
}

// noscriptShown returns src with its <noscript> elements made <div>s, so
// that a parser running no script shows what they hold. One pass.
func noscriptShown(src []byte) []byte {
	lower := bytes.ToLower(src)
	out := make([]byte, 0, len(src))
	for at := 0; ; {
		i := bytes.Index(lower[at:], []byte("noscript"))
		if i < 0 {
			return append(out, src[at:]...)
		}
		i += at
		tag := i > 0 && lower[i-1] == '<' || i > 1 && lower[i-1] == '/' && lower[i-2] == '<'
		out = append(out, src[at:i]...)
		if tag {
			out = append(out, "div"...)
		} else {
			out = append(out, src[i:i+len("noscript")]...)
		}
		at = i + len("noscript")
	}
}

// withNoscript returns r, the result on page t, or, when r's body has
// under noscriptBelow words, the result on the page's <noscript> content
// (opt.Source) when that body is longer. The result read from <noscript>
// keeps r's title, date and author (read from the page's head and
// headline) and has no Node: its elements are not t's. The <noscript>
// content has no head to say what the page is: on a page read as a forum
// thread, its posts' counters and labels are left out (withoutCounters)
// as they are from a thread's base.
func withNoscript(t *treediff.Tree, r Result, err error, opt Options) (Result, error) {
	return whenBarelyFound(r, err, func() (Result, error) {
		src, ok := noscriptPage(opt.Source)
		if !ok {
			return Result{}, ErrNoContent
		}
		typ, _ := pagetype.Classify(t, opt.Source)
		nt, err := treediff.Parse(t.Name+" noscript", src, treediff.ParseOptions{})
		if err != nil {
			return Result{}, err
		}
		// The other extractors read the page with its <noscript> shown:
		// without it they find the script shell's text again, and
		// without the page around it the text of a page that is not a
		// shell (its <noscript> holds the comments).
		opt.Source = noscriptShown(opt.Source)
		ns, err := candidates(nt, opt)
		ns.Node, ns.Selector = nil, ""
		if r.Title != "" {
			ns.Title = r.Title
		}
		ns.Date, ns.Author = r.Date, r.Author
		if typ == pagetype.Forum {
			ns.Body = withoutCounters(ns.Body)
		}
		return ns, err
	})
}

// withRevealed returns r, the result on page t, or, when r's body has
// under noscriptBelow words, the result on t with the elements hidden by
// the hidden attribute shown (reveal) when that body is longer: a page
// streamed by script holds its body in a hidden box that the script moves
// into place.
func withRevealed(t *treediff.Tree, r Result, err error, opt Options) (Result, error) {
	return whenBarelyFound(r, err, func() (Result, error) {
		opt.reveal = true
		return candidates(t, opt)
	})
}

// whenBarelyFound returns r (err its error), or, when r's body has under
// noscriptBelow words, the other reading's result when its body has over
// twice as many.
func whenBarelyFound(r Result, err error, other func() (Result, error)) (Result, error) {
	if err != nil && !errors.Is(err, ErrNoContent) {
		return r, err
	}
	n := len(treediff.Words(r.Body))
	if n >= noscriptBelow {
		return r, err
	}
	o, oerr := other()
	if oerr != nil || len(treediff.Words(o.Body)) <= 2*n {
		return r, err
	}
	return o, nil
}

// candidates is the block model's result on t with the page's other
// candidates (WithCandidates).
func candidates(t *treediff.Tree, opt Options) (Result, error) {
	r, err := BlockModel(t, opt, nil)
	if err != nil && !errors.Is(err, ErrNoContent) {
		return r, err
	}
	return WithCandidates(t, r, err, opt)
}
