package main

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/gleaner/gleaner/pagetype"
	"github.com/gleaner/gleaner/singlepage"
)

// TestTextEvidence checks what the two bodies' lines tell: what the
// candidate adds and removes, as prose or short lines, in one run or
// scattered, and each body's shape.
func TestTextEvidence(t *testing.T) {
	p1 := "The council voted on Tuesday to rebuild the old bridge over the river by next spring."
	p2 := "Engineers found that the steel beams had rusted through in several places last year."
	p3 := "Residents who cross it every day said they were relieved that work would finally start."
	at := func(name string) int {
		for i, n := range textEvidenceNames {
			if n == name {
				return i
			}
		}
		t.Fatalf("no feature %q", name)
		return -1
	}
	tests := []struct {
		name       string
		base, cand string
		feature    string
		want       float64
	}{
		{"same bodies add nothing", p1 + "\n" + p2, p1 + "\n" + p2, "added line share", 0},
		{"a prose paragraph added", p1 + "\n" + p2, p1 + "\n" + p2 + "\n" + p3, "added prose share", 1},
		{"menu lines added are not prose", p1, "Home\nWorld news\n" + p1, "added prose share", 0},
		{"added in one run", p1, "Home\nWorld news\nSport\n" + p1, "added runs", 1.0 / 3},
		{"added scattered", p1 + "\n" + p2, "Home\n" + p1 + "\nShare\n" + p2 + "\nReply", "added runs", 1},
		{"removed share of the base's words", p1 + "\nRead more\nSubscribe now", p1, "removed line share", 4.0 / 20},
		{"removed prose", p1 + "\n" + p3, p1, "removed prose share", 1},
		{"base repeats its lines", p1 + "\nReply\nReply", p1, "base repeat share", 2.0 / 3},
		{"candidate figures", p1, p1 + "\n12 comments", "candidate figure share", 0.5},
		{"empty candidate removes all", p1, "", "removed line share", 1},
	}
	for _, tt := range tests {
		v := textEvidence(tt.base, tt.cand)
		if len(v) != len(textEvidenceNames) {
			t.Fatalf("%s: %d values, want %d", tt.name, len(v), len(textEvidenceNames))
		}
		if got := v[at(tt.feature)]; math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: %s = %v, want %v", tt.name, tt.feature, got, tt.want)
		}
	}
	// Linear in the bodies: a long body is read at once.
	long := strings.Repeat(p1+"\n"+p2+"\n", 5000)
	if v := textEvidence(long, long); v[at("added line share")] != 0 {
		t.Errorf("long same bodies: added %v", v[at("added line share")])
	}
}

// TestWithTextEvidence checks how --text-evidence extends the recorded
// features: appended as read, or times the article probability, and an
// unknown mode refused.
func TestWithTextEvidence(t *testing.T) {
	n := len(singlepage.ChoiceFeatureNames)
	art := n - 3*len(pagetype.Types)
	rec := func(artProb float64) []choiceRecord {
		f := make([]float64, n)
		f[art] = artProb
		return []choiceRecord{{BaseBody: "Home", Cands: []choiceCand{
			{Name: singlepage.CandidateTrafilatura, Features: f, Body: "Home\nNews"},
			{Name: "short", Features: []float64{1}}}}}
	}
	added := textEvidenceNames
	at := func(name string) int { return n + slices.Index(added, name) }
	tests := []struct {
		mode    string
		artProb float64
		wantLen int
		want    float64 // the "added line share" read back
		wantErr bool
	}{
		{"", 0.5, n, -1, false},
		{"plain", 0.5, n + len(added), 0.5, false},
		{"article", 0.5, n + len(added), 0.25, false},
		{"article", 0, n + len(added), 0, false},
		{"other", 0.5, n, -1, true},
	}
	for _, tt := range tests {
		recs := rec(tt.artProb)
		err := withTextEvidence(recs, tt.mode)
		if (err != nil) != tt.wantErr {
			t.Errorf("%q: err %v, want error %v", tt.mode, err, tt.wantErr)
		}
		f := recs[0].Cands[0].Features
		if len(f) != tt.wantLen {
			t.Errorf("%q: %d features, want %d", tt.mode, len(f), tt.wantLen)
			continue
		}
		if tt.want >= 0 && math.Abs(f[at("added line share")]-tt.want) > 1e-9 {
			t.Errorf("%q: added line share %v, want %v", tt.mode, f[at("added line share")], tt.want)
		}
		if len(recs[0].Cands[1].Features) != 1 {
			t.Errorf("%q: a record of other features changed", tt.mode)
		}
	}
}
