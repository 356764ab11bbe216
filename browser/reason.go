package browser

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// ReasonKind is the kind of reason a page is partial.
type ReasonKind int

// The kinds of partial reasons.
const (
	// ReasonOther is a reason of no known form (stored by another version).
	ReasonOther ReasonKind = iota
	// ReasonDeadline: the page was still busy at its deadline (Reason.Detail
	// says with what).
	ReasonDeadline
	// ReasonNotCaptured: the tab could not be captured (Reason.Detail: the
	// error); the page is the document as the proxy received it.
	ReasonNotCaptured
	// ReasonTooLarge: the page's renderer was killed over its memory bound
	// (Reason.Detail: the kill); the page is the document as received.
	ReasonTooLarge
	// ReasonDocumentCut: the proxy cut the document at its size bound.
	ReasonDocumentCut
	// ReasonTunnelCut: the proxy cut the TLS tunnel to the document's host
	// (Reason.Detail) at its size bound.
	ReasonTunnelCut
	// ReasonHTMLCut: the captured HTML was cut at its size bound.
	ReasonHTMLCut
	// ReasonBodyCut: a plain fetch cut the body at its size bound.
	ReasonBodyCut
)

// Reason is why a page is partial, as a value; its String is the text a
// page carries (Page.PartialReason) and is stored with, ParseReason reads
// it back.
type Reason struct {
	Kind   ReasonKind
	Detail string // what the kind leaves open: an error, a host, a stage
	// Bound is the size bound in bytes the page was cut at, 0 when it was
	// not cut.
	Bound int64
}

// reasonForm is how a kind of reason is written: format takes the detail
// and then the bound; re reads them back (detail, bound).
type reasonForm struct {
	format func(detail string, bound int64) string
	re     *regexp.Regexp
}

// receivedForm is the form of a page that is the document as received,
// after prefix and suffix around the detail (and cut at its bound, if).
func receivedForm(prefix, suffix, rePrefix, reSuffix string) reasonForm {
	return reasonForm{
		format: func(d string, b int64) string {
			s := prefix + d + suffix + "the document as received"
			if b > 0 {
				s += fmt.Sprintf(", cut at %d bytes", b)
			}
			return s
		},
		re: regexp.MustCompile(`^(?s)` + rePrefix + `(.*)` + reSuffix + `the document as received(?:, cut at (\d+) bytes)?$`),
	}
}

// cutForm is the form of a page cut at its bound: format takes the detail
// and the bound, in that order.
func cutForm(format, re string) reasonForm {
	return reasonForm{
		format: func(d string, b int64) string {
			if !strings.Contains(format, "%s") {
				return fmt.Sprintf(format, b)
			}
			return fmt.Sprintf(format, d, b)
		},
		re: regexp.MustCompile(re),
	}
}

// reasonForms are the forms of the known kinds, in the order they are
// tried when parsing (the deadline's is the loosest, last).
var reasonForms = []struct {
	kind ReasonKind
	form reasonForm
}{
	{ReasonTooLarge, receivedForm("too-large: ", "; ", `too-large: `, `; `)},
	{ReasonNotCaptured, receivedForm("not captured (", "): ", `not captured \(`, `\): `)},
	{ReasonDocumentCut, cutForm("document cut at %d bytes", `^document cut at ()(\d+) bytes$`)},
	{ReasonTunnelCut, cutForm("the tunnel to %s was cut at %d bytes", `^(?s)the tunnel to (.*) was cut at (\d+) bytes$`)},
	{ReasonHTMLCut, cutForm("HTML cut at %d bytes", `^HTML cut at ()(\d+) bytes$`)},
	{ReasonBodyCut, cutForm("body cut at %d bytes", `^body cut at ()(\d+) bytes$`)},
	{ReasonDeadline, reasonForm{
		format: func(d string, _ int64) string { return d + " at the deadline" },
		re:     regexp.MustCompile(`^(?s)(.+) at the deadline()$`),
	}},
}

// String is the reason as a page carries and a store keeps it.
func (r Reason) String() string {
	for _, f := range reasonForms {
		if f.kind == r.Kind {
			return f.form.format(r.Detail, r.Bound)
		}
	}
	return r.Detail
}

// ParseReason reads a reason as String wrote it; text of no known form is
// a reason of kind ReasonOther with text as its detail ("" is the zero
// Reason: no reason).
func ParseReason(text string) Reason {
	for _, f := range reasonForms {
		m := f.form.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		bound, err := strconv.ParseInt(m[2], 10, 64)
		if m[2] != "" && err != nil {
			break // a bound too large to be one: not this form
		}
		return Reason{Kind: f.kind, Detail: m[1], Bound: bound}
	}
	return Reason{Kind: ReasonOther, Detail: text}
}

// TooLarge reports whether the page blew a size bound: its renderer was
// killed over its memory bound, or its document, tunnel, HTML or body was
// cut at a size bound. Such a page is not tried again (it would blow the
// bound again).
func (r Reason) TooLarge() bool {
	return r.Kind == ReasonTooLarge || r.Bound > 0
}
