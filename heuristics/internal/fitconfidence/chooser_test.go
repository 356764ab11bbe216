package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/singlepage"
)

// syntheticChoices returns records of n sites where go-trafilatura's
// candidate beats the base when its first free feature is positive and
// loses otherwise, while the fixed rule's verdict (feature 0) is noise.
func syntheticChoices(n int) []choiceRecord {
	rng := rand.New(rand.NewPCG(3, 4))
	var recs []choiceRecord
	for i := range n {
		x := rng.NormFloat64()
		f := []float64{float64(rng.IntN(2)), x, rng.NormFloat64()}
		traf := 0.5 + 0.4*float64(b2i(x > 0)) - 0.4*float64(b2i(x <= 0))
		recs = append(recs, choiceRecord{Set: "syn", ID: fmt.Sprint(i), Site: fmt.Sprintf("syn/site%d", i),
			Era: "article", Block: 0.5, Base: 0.5,
			Cands: []choiceCand{{Name: singlepage.CandidateTrafilatura, F1: traf, Features: f}}})
	}
	return recs
}

func TestChooserFit(t *testing.T) {
	c := chooserFit{recs: syntheticChoices(400), folds: 5, names: []string{singlepage.CandidateTrafilatura}}
	held, in, m := c.heldOut()
	mean := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	// The best choice takes the 0.9 bodies and keeps the base (0.5)
	// elsewhere: 0.7 on average; the base alone is 0.5.
	if h := mean(held); h < 0.68 {
		t.Errorf("held-out mean F1 %.3f, want ≥ 0.68", h)
	}
	if i := mean(in); i < 0.68 {
		t.Errorf("in-sample mean F1 %.3f", i)
	}
	var out bytes.Buffer
	c.report(&out, held, in)
	if !strings.Contains(out.String(), "chooser held-out") || !strings.Contains(out.String(), "syn") {
		t.Errorf("report:\n%s", out.String())
	}
	// A chooser fitted on no candidate's examples chooses nothing.
	none := chooserFit{recs: c.recs, folds: 5, names: []string{"other"}}
	if h, _, _ := none.heldOut(); mean(h) != 0.5 {
		t.Errorf("chooser without candidates: mean %.3f, want the base's 0.5", mean(h))
	}
	path := filepath.Join(t.TempDir(), "m.go")
	if err := writeGo(path, goSource(m, c.names)); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), "var choiceModels = map[string]chooser{") || !strings.Contains(string(b), `"trafilatura": {`) ||
		!strings.Contains(string(b), "fitconfidence --chooser") {
		t.Errorf("generated chooser:\n%.400s", b)
	}
}

// TestChooserBars checks that each candidate's model has its own bar:
// a bar no probability reaches takes nothing, whatever the model learned.
func TestChooserBars(t *testing.T) {
	recs := syntheticChoices(400)
	tests := []struct {
		name  string
		above []float64
		want  float64 // least mean held-out F1
		most  float64
	}{
		{"default bar", nil, 0.68, 1},
		{"its own bar", []float64{0.6}, 0.68, 1},
		{"unreachable bar", []float64{1}, 0.5, 0.5},
	}
	for _, tt := range tests {
		c := chooserFit{recs: recs, folds: 5, names: []string{singlepage.CandidateTrafilatura}, above: tt.above}
		held, _, ms := c.heldOut()
		s := 0.0
		for _, h := range held {
			s += h
		}
		if m := s / float64(len(held)); m < tt.want || m > tt.most {
			t.Errorf("%s: held-out mean %.3f, want in [%.2f, %.2f]", tt.name, m, tt.want, tt.most)
		}
		if got := ms[singlepage.CandidateTrafilatura].Above; len(tt.above) > 0 && got != tt.above[0] {
			t.Errorf("%s: model bar %.2f, want %.2f", tt.name, got, tt.above[0])
		}
	}
}

func TestChoicesRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.jsonl")
	recs := syntheticChoices(10)
	if err := writeChoices(path, recs); err != nil {
		t.Fatal(err)
	}
	got, err := readChoices(path)
	if err != nil || len(got) != 10 || got[3].Cands[0].F1 != recs[3].Cands[0].F1 {
		t.Errorf("read %d records (%v)", len(got), err)
	}
	if _, err := readChoices(filepath.Join(t.TempDir(), "missing.jsonl")); err == nil || !strings.Contains(err.Error(), "missing.jsonl") {
		t.Errorf("missing file: %v", err)
	}
}

// TestShippedF1 checks the "shipped" column: the F1 of the body the
// built chooser takes (here the fixed rule, the features being too few
// for a fitted model), the base's when it takes none.
func TestShippedF1(t *testing.T) {
	tests := []struct {
		name string
		rec  choiceRecord
		want float64
	}{
		{"no candidate", choiceRecord{Base: 0.7}, 0.7},
		{"rule takes", choiceRecord{Base: 0.4, Cands: []choiceCand{{Name: singlepage.CandidateTrafilatura, F1: 0.9, Features: []float64{1, 0}}}}, 0.9},
		{"rule keeps", choiceRecord{Base: 0.4, Cands: []choiceCand{{Name: singlepage.CandidateTrafilatura, F1: 0.9, Features: []float64{0, 0}}}}, 0.4},
	}
	for _, tt := range tests {
		if got := shippedF1(tt.rec); got != tt.want {
			t.Errorf("%s: shippedF1 = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSettledView checks that records holding the settled scores are
// reported (and, with --labels settled, fitted) on them: a base of a few
// words a later reading replaces scores as that reading.
func TestSettledView(t *testing.T) {
	tests := []struct {
		name string
		recs []choiceRecord
		ok   bool
		base float64 // the first record's base in the view
		cand float64 // its first candidate's
	}{
		{"none", nil, false, 0, 0},
		{"old records", []choiceRecord{{Base: 0.1, Cands: []choiceCand{{F1: 0.5, Settled: 0.5}}}}, false, 0.1, 0.5},
		{"settled", []choiceRecord{{Base: 0.1, BaseSettled: 0.9, HasSettled: true, Cands: []choiceCand{{F1: 0.5, Settled: 0.6}}},
			{Err: "unreadable"}}, true, 0.9, 0.6},
	}
	for _, tt := range tests {
		if got := settled(tt.recs); got != tt.ok {
			t.Errorf("%s: settled = %v, want %v", tt.name, got, tt.ok)
		}
		if !tt.ok || len(tt.recs) == 0 {
			continue
		}
		v := settledView(tt.recs)
		if v[0].Base != tt.base || v[0].Cands[0].F1 != tt.cand {
			t.Errorf("%s: view base %v cand %v, want %v %v", tt.name, v[0].Base, v[0].Cands[0].F1, tt.base, tt.cand)
		}
		if tt.recs[0].Base == v[0].Base || tt.recs[0].Cands[0].F1 == v[0].Cands[0].F1 {
			t.Errorf("%s: the view changed the records", tt.name)
		}
	}
}
