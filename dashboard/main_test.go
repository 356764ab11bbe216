package dashboard

import (
	"os"
	"testing"
)

var tempDirs []string

// makeTempDir makes a folder removed when the tests end (the shared store
// outlives any one test).
func makeTempDir() (string, error) {
	d, err := os.MkdirTemp("", "gleaner-dashboard-test-")
	if err == nil {
		tempDirs = append(tempDirs, d)
	}
	return d, err
}

func TestMain(m *testing.M) {
	code := m.Run()
	closeBrowser()
	if fixDB != nil {
		fixDB.Close()
	}
	if fixWeb != nil {
		fixWeb.Close()
	}
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	os.Exit(code)
}
