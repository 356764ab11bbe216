package netidle

import (
	"testing"
	"time"
)

// TestTracker follows one page's requests on a made-up clock: the pause
// between two steps of a chain sets the window, a request in flight keeps
// the network busy (unless older than long or before ignoreBefore), and an
// ended request leaves the window to wait from its end.
func TestTracker(t *testing.T) {
	t0 := time.Now()
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	tr := New()
	tr.Started("1", false, at(0))
	tr.Done("1", at(100))
	select {
	case <-tr.Ends():
	default:
		t.Error("Done did not signal Ends")
	}
	tr.Started("2", false, at(400)) // a pause of 300 ms between the chain's steps
	tr.Started("2", true, at(450))  // a redirect hop: no pause
	const settle, most, long = 200 * time.Millisecond, 2 * time.Second, 10 * time.Second
	if w := tr.Window(settle, most); w != 600*time.Millisecond {
		t.Errorf("Window = %v, want 600ms (twice the 300 ms pause)", w)
	}
	tests := []struct {
		name         string
		now          int
		long         time.Duration
		ignoreBefore time.Time
		left         time.Duration
		busy         bool
	}{
		{"in flight", 500, long, time.Time{}, 600 * time.Millisecond, true},
		{"in flight longer than long", 500, 10 * time.Millisecond, time.Time{}, 550 * time.Millisecond, false},
		{"started before ignoreBefore", 500, long, at(460), 550 * time.Millisecond, false},
	}
	for _, tt := range tests {
		left, busy := tr.Left(at(tt.now), at(0), 600*time.Millisecond, tt.long, false, tt.ignoreBefore)
		if left != tt.left || busy != tt.busy {
			t.Errorf("%s: Left = %v, %v; want %v, %v", tt.name, left, busy, tt.left, tt.busy)
		}
	}
	tr.Done("2", at(700))
	if left, busy := tr.Left(at(1000), at(0), 600*time.Millisecond, long, false, time.Time{}); left != 300*time.Millisecond || busy {
		t.Errorf("after the end: Left = %v, %v; want 300ms, false", left, busy)
	}
	if left, _ := tr.Left(at(1000), at(800), 600*time.Millisecond, long, true, time.Time{}); left != 0 {
		t.Errorf("lenient, nothing started since: Left = %v, want 0", left)
	}
	tr.Reset()
	if w := tr.Window(settle, most); w != settle {
		t.Errorf("after Reset: Window = %v, want %v", w, settle)
	}
}

// TestActingCountsItsRequests: a request an action started counts as
// started since the action, though it was noted before the action's call
// returned (its event comes first on the browser's wire): once it ended,
// the page gets the window to use what it brought, not an idle network at
// once. Counted from the call's return, the lenient rule took it for a
// page that started nothing (TestContentRegionKeepsInfiniteList under
// load: 20 items of 30).
func TestActingCountsItsRequests(t *testing.T) {
	tr := New()
	acted := tr.Acting()
	tr.Started("more", false, time.Now())
	returned := time.Now().Add(time.Millisecond) // the action's call returns
	tr.Done("more", returned.Add(100*time.Millisecond))
	const window, long = 100 * time.Millisecond, 10 * time.Second
	now := returned.Add(110 * time.Millisecond)
	if left, busy := tr.Left(now, acted, window, long, true, time.Time{}); left != 90*time.Millisecond || busy {
		t.Errorf("Left from the action = %v, %v; want 90ms, false", left, busy)
	}
}
