package pagestate

import (
	"strings"
	"testing"
	"time"
)

// TestWatch: the selectors kept and the notes left, and when a region
// counts as settled.
func TestWatch(t *testing.T) {
	if NewWatch([]string{" ", ""}, 0, time.Second) != nil {
		t.Error("blank selectors: a watch, want nil")
	}
	var none *Watch
	if none.Settled() || len(none.Notes()) != 0 || !strings.Contains(none.Call(), ")([], 0)") {
		t.Errorf("nil watch: settled %v, notes %q, call ends %q", none.Settled(), none.Notes(), none.Call()[max(len(none.Call())-12, 0):])
	}
	many := append([]string{strings.Repeat("p", MaxSelectorBytes+1)}, strings.Split("a,b,c,d,e,f,g,h,#late", ",")...)
	w := NewWatch(many, -5, 300*time.Millisecond)
	if !strings.HasSuffix(w.Call(), `)(["a","b","c","d","e","f","g","h"], 0)`) {
		t.Errorf("call %q", w.Call()[strings.LastIndex(w.Call(), ")("):])
	}
	tests := []struct {
		name    string
		state   State
		settled bool
		left    time.Duration
	}{
		{"no region", State{Parsed: true, Invalid: []string{"b"}}, false, 0},
		{"not parsed", State{Region: &Region{Selector: "a", Chars: 10, Quiet: 1000}}, false, 0},
		{"timers pending", State{Parsed: true, Timers: 1, Region: &Region{Selector: "a", Chars: 10, Quiet: 1000}}, false, 0},
		{"busy", State{Parsed: true, Region: &Region{Selector: "a", Chars: 10, Busy: true, Quiet: 1000}}, false, 0},
		{"changed lately", State{Parsed: true, Region: &Region{Selector: "a", Chars: 10, Quiet: 100}}, false, 200 * time.Millisecond},
		{"settled", State{Parsed: true, Invalid: []string{"b"}, Region: &Region{Selector: "a", Chars: 10, Quiet: 300}}, true, 0},
	}
	for _, tt := range tests {
		if settled, left := w.Observe(tt.state); settled != tt.settled || left != tt.left {
			t.Errorf("%s: Observe = %v, %v; want %v, %v", tt.name, settled, left, tt.settled, tt.left)
		}
	}
	if !w.Settled() || w.SettledAt().IsZero() {
		t.Error("not settled after a settled look")
	}
	want := []string{
		"content region: selector of 1025 bytes ignored (at most 1024)",
		`content region: selector "#late" ignored (at most 8 selectors)`,
		`content region: invalid selector "b" ignored`,
		NoteReady + `"a" settled`,
	}
	if got := w.Notes(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes %q, want %q", got, want)
	}
}
