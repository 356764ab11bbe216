package crawler

import (
	"math"
	"testing"
)

func TestStrategies(t *testing.T) {
	relevant := FetchedPage{Priority: Priority{Score: 1, Inherited: 1}, Sim: 0.9, Relevant: true, Links: 4}
	irrelevant := FetchedPage{Priority: Priority{Score: 1, Inherited: 0.2}, Sim: 0.05, Links: 4}
	for _, s := range []Strategy{OPIC, SharkSearch} {
		a := s.Child(relevant, LinkSims{})
		b := s.Child(irrelevant, LinkSims{})
		if a.Score <= b.Score {
			t.Errorf("%v: child of relevant %.3f <= child of irrelevant %.3f", s, a.Score, b.Score)
		}
	}
	// Shark-Search by hand: relevant parent, anchor 0.5.
	got := SharkSearch.Child(relevant, LinkSims{Anchor: 0.5, Context: 0.1})
	inh := 0.5 * 0.9
	want := 0.1*inh + 0.9*(0.8*0.5+0.2*1)
	if math.Abs(got.Score-want) > 1e-12 || math.Abs(got.Inherited-inh) > 1e-12 {
		t.Errorf("shark = %+v, want score %v inherited %v", got, want, inh)
	}
	// No anchor similarity: the context counts.
	got = SharkSearch.Child(irrelevant, LinkSims{Anchor: 0, Context: 0.5})
	inh = 0.5 * 0.2
	want = 0.1*inh + 0.9*(0.2*0.5)
	if math.Abs(got.Score-want) > 1e-12 {
		t.Errorf("shark (context) = %v, want %v", got.Score, want)
	}
	// OPIC accumulates, the others keep the max.
	if m := OPIC.Merge(Priority{Score: 0.2}, Priority{Score: 0.3}); math.Abs(m.Score-0.5) > 1e-12 {
		t.Errorf("OPIC merge = %v", m.Score)
	}
	if m := SharkSearch.Merge(Priority{Score: 0.2}, Priority{Score: 0.3}); m.Score != 0.3 {
		t.Errorf("shark merge = %v", m.Score)
	}
	if d1, d2 := BreadthFirst.Child(FetchedPage{Depth: 1}, LinkSims{}), BreadthFirst.Child(FetchedPage{Depth: 3}, LinkSims{}); d1.Score <= d2.Score {
		t.Errorf("bfs: shallower child not first")
	}
	for _, name := range []string{"bfs", "opic", "shark"} {
		s, err := ParseStrategy(name)
		if err != nil || s.String() != name {
			t.Errorf("ParseStrategy(%q) = %v, %v", name, s, err)
		}
	}
	if _, err := ParseStrategy("dfs"); err == nil {
		t.Error("unknown strategy accepted")
	}
}
