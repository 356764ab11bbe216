package heuristics

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/treediff"
)

type zzPred struct{ Title, Body, Method string }

func TestZZCombo(t *testing.T) {
	var traf map[string]zzPred
	b, _ := os.ReadFile("/tmp/traf-wide.json")
	json.Unmarshal(b, &traf)
	out := map[string]zzPred{}
	for id, tp := range traf {
		src, _ := os.ReadFile("/work/shared/data/wide-dev/html/" + id + ".html")
		tr, err := treediff.Parse(id, src, treediff.ParseOptions{})
		if err != nil {
			continue
		}
		r, _ := ExtractSingle(tr, SingleOptions{Source: src})
		p := newPage(tr, SingleOptions{}.withDefaults())
		var kept []string
		for _, l := range strings.Split(tp.Body, "\n") {
			n := normWords(l)
			if n == "" {
				continue
			}
			bad, found := 0, 0
			for _, b := range p.blocks {
				bn := normWords(b.text)
				if bn == n || strings.Contains(bn, n) || strings.Contains(n, bn) && b.words >= 3 {
					found++
					if b.class == classBad {
						bad += b.words
					} else {
						bad -= b.words
					}
				}
			}
			if found > 0 && bad < 0 {
				kept = append(kept, l)
			}
		}
		body := r.Body
		switch os.Getenv("ZZMODE") {
		case "union":
			body = strings.TrimSpace(collapseBlank(mergeLines(strings.Split(r.Body, "\n"), kept, r.Title)))
		case "filtered":
			body = strings.Join(kept, "\n\n")
		case "conf3":
			if r.Confidence < 0.3 {
				body = tp.Body
			}
		case "conf5":
			if r.Confidence < 0.5 {
				body = tp.Body
			}
		case "pick7", "pick5", "pickall":
			th := map[string]float64{"pick7": 0.7, "pick5": 0.5, "pickall": 2}[os.Getenv("ZZMODE")]
			if r.Confidence < th && zzScore(p, tp.Body) > zzScore(p, r.Body) {
				body = tp.Body
			}
		case "conf9":
			if r.Confidence < 0.9 {
				body = tp.Body
			}
		case "conf8":
			if r.Confidence < 0.8 {
				body = tp.Body
			}
		case "conf7":
			if r.Confidence < 0.7 {
				body = tp.Body
			}
		}
		out[id] = zzPred{r.Title, body, "combo"}
	}
	b, _ = json.Marshal(out)
	os.WriteFile("/tmp/combo-"+os.Getenv("ZZMODE")+".json", b, 0o644)
}

func zzScore(p *page, text string) float64 {
	t := " " + normWords(text) + " "
	s := 0.0
	for _, b := range p.blocks {
		if !strings.Contains(t, " "+normWords(b.text)+" ") {
			continue
		}
		switch b.class {
		case classGood:
			s += float64(b.words)
		case classBad:
			s -= float64(b.words)
		}
	}
	return s
}
