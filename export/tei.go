package export

import (
	"encoding/xml"
	"io"
	"strings"
)

// TEI elements, as trafilatura writes them, with the chain's annotation:
// <p> per block, <s> per sentence, <w lemma pos msd> per word, <pc> for
// punctuation.
type teiDoc struct {
	XMLName xml.Name  `xml:"TEI"`
	NS      string    `xml:"xmlns,attr"`
	Header  teiHeader `xml:"teiHeader"`
	Text    teiText   `xml:"text"`
}

type teiHeader struct {
	Title     string  `xml:"fileDesc>titleStmt>title"`
	Author    string  `xml:"fileDesc>titleStmt>author,omitempty"`
	Publisher string  `xml:"fileDesc>publicationStmt>p"`
	Source    teiBibl `xml:"fileDesc>sourceDesc>bibl"`
	Lang      teiLang `xml:"profileDesc>langUsage>language"`
	App       teiApp  `xml:"encodingDesc>appInfo>application"`
}

// teiApp names the software that annotated the text.
type teiApp struct {
	Ident   string `xml:"ident,attr"`
	Version string `xml:"version,attr"`
	Label   string `xml:"label"`
}

type teiBibl struct {
	Title string `xml:"title,omitempty"`
	Ptr   teiPtr `xml:"ptr"`
	Date  string `xml:"date,omitempty"`
	ID    string `xml:"idno"`
}

type teiPtr struct {
	Target string `xml:"target,attr"`
}

type teiLang struct {
	Ident      string `xml:"ident,attr"`
	Confidence string `xml:"usage,attr,omitempty"`
}

type teiText struct {
	Lang string `xml:"xml:lang,attr,omitempty"`
	Ps   []teiP `xml:"body>div>p"`
}

type teiP struct {
	Ss []teiS `xml:"s"`
}

type teiS struct {
	Tokens []teiTok
}

type teiTok struct {
	XMLName xml.Name
	Lemma   string `xml:"lemma,attr,omitempty"`
	POS     string `xml:"pos,attr,omitempty"`
	MSD     string `xml:"msd,attr,omitempty"`
	Type    string `xml:"type,attr,omitempty"`
	Join    string `xml:"join,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// MarshalXML writes a sentence's tokens as a flat sequence of <w>/<pc>.
func (s teiS) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	if err := e.EncodeToken(start); err != nil {
		return err
	}
	for _, t := range s.Tokens {
		if err := e.EncodeElement(t, xml.StartElement{Name: t.XMLName}); err != nil {
			return err
		}
	}
	return e.EncodeToken(start.End())
}

// WriteTEI writes page as one XML-TEI document: the header holds title,
// author, date, URL, language and which tagger annotated; the body the
// annotated blocks (or the plain extracted text when there is no
// annotation).
func WriteTEI(w io.Writer, page *Page) error {
	d := teiDoc{NS: "http://www.tei-c.org/ns/1.0"}
	d.Header.Title = xmlText(page.Title)
	d.Header.Author = xmlText(page.Author)
	d.Header.Publisher = "Gleaner"
	d.Header.Source = teiBibl{Title: xmlText(page.Title), Ptr: teiPtr{Target: xmlText(page.URL)}, Date: xmlText(page.Date), ID: xmlText(page.ID)}
	d.Header.App = teiApp{Ident: "gleaner", Version: "1", Label: "gleaner"}
	if doc := page.Doc; doc != nil {
		d.Header.Lang = teiLang{Ident: doc.Lang}
		d.Header.App.Label = "gleaner linguistic chain; tagger: " + xmlText(doc.Tagger)
		d.Text.Lang = doc.Lang
		for _, b := range doc.Blocks {
			var p teiP
			for _, s := range b.Sentences {
				var ts teiS
				for _, t := range s.Tokens {
					tok := teiTok{XMLName: xml.Name{Local: "w"}, Lemma: xmlText(t.Lemma), POS: t.UPOS, MSD: t.Feats, Text: xmlText(t.Text)}
					if t.UPOS == "PUNCT" {
						tok = teiTok{XMLName: xml.Name{Local: "pc"}, Text: xmlText(t.Text)}
					}
					if t.Kind.Pretagged() {
						tok.Type = t.Kind.String()
					}
					if tok.POS == "_" {
						tok.POS = ""
					}
					if !t.SpaceAfter {
						tok.Join = "right"
					}
					ts.Tokens = append(ts.Tokens, tok)
				}
				p.Ss = append(p.Ss, ts)
			}
			d.Text.Ps = append(d.Text.Ps, p)
		}
	} else {
		for _, para := range strings.Split(page.Text, "\n\n") {
			if para = strings.TrimSpace(para); para != "" {
				d.Text.Ps = append(d.Text.Ps, teiP{Ss: []teiS{{Tokens: []teiTok{{XMLName: xml.Name{Local: "seg"}, Text: xmlText(para)}}}}})
			}
		}
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	e := xml.NewEncoder(w)
	e.Indent("", " ")
	if err := e.Encode(d); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// xmlText drops the characters XML 1.0 forbids (control characters,
// unpaired surrogates, U+FFFE/FFFF), which encoding/xml would otherwise
// replace or reject.
func xmlText(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return r
		case r < 0x20, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
			return -1
		}
		return r
	}, s)
}
