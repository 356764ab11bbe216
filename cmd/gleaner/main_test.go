package main

import (
	"encoding/json"
	"os"
	"testing"
)

// TestMain runs the gleaner command itself when GLEANER_MAIN_ARGS holds
// its arguments (a JSON list): tests that signal a whole process start
// the test binary that way.
func TestMain(m *testing.M) {
	if a := os.Getenv("GLEANER_MAIN_ARGS"); a != "" {
		var args []string
		if err := json.Unmarshal([]byte(a), &args); err != nil {
			panic(err)
		}
		os.Args = append([]string{"gleaner"}, args...)
		main()
		return
	}
	os.Exit(m.Run())
}
