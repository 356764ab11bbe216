package crawler

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gleaner/gleaner/store"
)

// TestStoredConfig: a worker joining a crawl runs it with the configuration
// it was created with, "no delay" included (stored as 0 once the defaults
// are applied, it must not come back as the default second).
func TestStoredConfig(t *testing.T) {
	ctx := context.Background()
	db := tempDB(t)
	tests := []struct {
		name  string
		delay time.Duration
		want  time.Duration
	}{
		{"none", -1, -1},
		{"default", 0, DefaultDelay},
		{"short", 5 * time.Millisecond, 5 * time.Millisecond},
	}
	for _, tt := range tests {
		cfg := Config{Name: tt.name, Seeds: []string{"http://127.0.0.1:1/"}, Terms: []string{"wind"}, Delay: tt.delay, MaxPages: 7, AllowHosts: []string{"127.0.0.1:1"}}
		if err := Create(ctx, db, cfg); err != nil {
			t.Fatal(err)
		}
		got, err := StoredConfig(ctx, db, tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if got.Delay != tt.want || got.MaxPages != 7 || len(got.AllowHosts) != 1 {
			t.Errorf("%s: delay %v, max pages %d, allowed %v; want delay %v", tt.name, got.Delay, got.MaxPages, got.AllowHosts, tt.want)
		}
	}
	if _, err := StoredConfig(ctx, db, "missing"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("missing crawl: %v, want ErrNotFound", err)
	}
	if _, err := Join(ctx, db, "missing", JoinOptions{}); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("join a missing crawl: %v, want ErrNotFound", err)
	}
}
