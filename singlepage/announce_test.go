package singlepage

import "testing"

// TestAnnouncedLinks: a list of links that a sentence of the article
// announces with a colon ("For more information, see:") is the article's;
// a list under a short label ("Related pages:"), or nested in an item
// of a list of labels only ("VIDEOS:"), and the menus are not.
func TestAnnouncedLinks(t *testing.T) {
	tests := []struct {
		file          string
		want, notWant []string
	}{
		{
			"announced-links.html",
			[]string{"see:", "Overview of store queues", "Queue command reference", "following kinds of maps:",
				"Plain maps", "Sorted maps", "Expiring maps", "Command line tools", "Use the interactive shell",
				"Measure throughput with the benchmark tool", "persistence explains"},
			[]string{"Persistence settings", "Backup and restore", "Watch the store start", "A tour of the dashboard",
				"Get started", "Legal notice"},
		},
	}
	for _, tt := range tests {
		checkBody(t, tt.file, gatherBody(t, tt.file), tt.want, tt.notWant)
	}
}
