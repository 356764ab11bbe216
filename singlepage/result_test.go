package singlepage

import (
	"testing"
)

func TestResultText(t *testing.T) {
	tests := []struct {
		r    Result
		want string
	}{
		{Result{Title: "T", Body: "B1\n\nB2"}, "T\n\nB1\n\nB2"},
		{Result{Body: "B"}, "B"},
		{Result{Title: "T"}, "T"},
		{Result{}, ""},
	}
	for _, tt := range tests {
		if got := tt.r.Text(); got != tt.want {
			t.Errorf("Text() = %q, want %q", got, tt.want)
		}
	}
}
