package export

import (
	"encoding/csv"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
)

// Edge is a hyperlink from one page to a URL.
type Edge struct {
	Source, Target string
	Text           string // anchor text
}

// Edges returns the hyperlink edges of pages, in order, without repeats of
// the same (source, target) pair.
func Edges(pages []*Page) []Edge {
	var out []Edge
	for _, p := range pages {
		seen := map[string]bool{}
		for _, l := range p.Links {
			if l.URL == "" || seen[l.URL] {
				continue
			}
			seen[l.URL] = true
			out = append(out, Edge{Source: p.URL, Target: l.URL, Text: l.Text})
		}
	}
	return out
}

// WriteEdgesCSV writes the edge list as CSV with a header (source, target,
// text).
func WriteEdgesCSV(w io.Writer, edges []Edge) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"source", "target", "text"})
	for _, e := range edges {
		cw.Write([]string{e.Source, e.Target, clean(e.Text)})
	}
	cw.Flush()
	return cw.Error()
}

type graphML struct {
	XMLName xml.Name `xml:"graphml"`
	NS      string   `xml:"xmlns,attr"`
	Keys    []gmlKey `xml:"key"`
	Graph   gmlGraph `xml:"graph"`
}

type gmlKey struct {
	ID   string `xml:"id,attr"`
	For  string `xml:"for,attr"`
	Name string `xml:"attr.name,attr"`
	Type string `xml:"attr.type,attr"`
}

type gmlGraph struct {
	ID          string    `xml:"id,attr"`
	EdgeDefault string    `xml:"edgedefault,attr"`
	Nodes       []gmlNode `xml:"node"`
	Edges       []gmlEdge `xml:"edge"`
}

type gmlData struct {
	Key   string `xml:"key,attr"`
	Value string `xml:",chardata"`
}

type gmlNode struct {
	ID   string    `xml:"id,attr"`
	Data []gmlData `xml:"data"`
}

type gmlEdge struct {
	Source string    `xml:"source,attr"`
	Target string    `xml:"target,attr"`
	Data   []gmlData `xml:"data"`
}

// WriteGraphML writes the directed hyperlink graph in GraphML: one node per
// URL (crawled says whether the page itself is in the corpus), one edge per
// link with its anchor text.
func WriteGraphML(w io.Writer, pages []*Page, edges []Edge) error {
	crawled := map[string]bool{}
	for _, p := range pages {
		crawled[p.URL] = true
	}
	ids := map[string]string{}
	var urls []string
	add := func(u string) {
		if _, ok := ids[u]; !ok {
			ids[u] = ""
			urls = append(urls, u)
		}
	}
	for _, p := range pages {
		add(p.URL)
	}
	for _, e := range edges {
		add(e.Source)
		add(e.Target)
	}
	sort.Strings(urls)
	g := graphML{NS: "http://graphml.graphdrawing.org/xmlns",
		Keys:  []gmlKey{{"url", "node", "url", "string"}, {"crawled", "node", "crawled", "boolean"}, {"text", "edge", "text", "string"}},
		Graph: gmlGraph{ID: "hyperlinks", EdgeDefault: "directed"}}
	for i, u := range urls {
		ids[u] = fmt.Sprintf("n%d", i)
		g.Graph.Nodes = append(g.Graph.Nodes, gmlNode{ID: ids[u], Data: []gmlData{{"url", xmlText(u)}, {"crawled", fmt.Sprint(crawled[u])}}})
	}
	for _, e := range edges {
		g.Graph.Edges = append(g.Graph.Edges, gmlEdge{Source: ids[e.Source], Target: ids[e.Target], Data: []gmlData{{"text", xmlText(e.Text)}}})
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	e := xml.NewEncoder(w)
	e.Indent("", " ")
	if err := e.Encode(g); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
