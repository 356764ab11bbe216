package cluster

import (
	"fmt"
	"time"

	"github.com/gleaner/gleaner/process"
)

// Cost is what one learning run (or one Assign call) spent.
type Cost struct {
	// Pages is the number of usable pages learned from (or assigned).
	Pages int
	// Fast counts the fast (pq-gram) distances computed, Exact the tree
	// edit distances computed; distances read from the cache count in
	// neither.
	Fast, Exact int
	// CPU is the process's CPU time (user and system) while the run went
	// on: other goroutines working at the same time count too.
	CPU time.Duration
	// PeakRSS is the process's peak resident set size in bytes when the
	// run ended (its high-water mark since it started: an upper bound of
	// the run's own peak), 0 where the system does not report it.
	PeakRSS int64
}

// PerPage is the CPU time per usable page, 0 without pages.
func (c Cost) PerPage() time.Duration {
	if c.Pages == 0 {
		return 0
	}
	return c.CPU / time.Duration(c.Pages)
}

func (c Cost) String() string {
	return fmt.Sprintf("%d pages, %d fast distances, %d exact TEDs, %.2f CPU s (%.3f s/page), peak RSS %d MB",
		c.Pages, c.Fast, c.Exact, c.CPU.Seconds(), c.PerPage().Seconds(), c.PeakRSS>>20)
}

// Add accumulates o into c (the peak is the larger of the two).
func (c *Cost) Add(o Cost) {
	c.Pages += o.Pages
	c.Fast += o.Fast
	c.Exact += o.Exact
	c.CPU += o.CPU
	c.PeakRSS = max(c.PeakRSS, o.PeakRSS)
}

// Meter measures a Cost from its start (StartMeter): what Learn and Assign
// report, and what a caller measures around them to count its own work too
// (parsing the pages).
type Meter struct{ cpu0 time.Duration }

// StartMeter starts measuring.
func StartMeter() Meter { return Meter{cpu0: process.CPU()} }

// Stop returns the cost since the start with the given counts.
func (m Meter) Stop(pages, fast, exact int) Cost {
	return Cost{Pages: pages, Fast: fast, Exact: exact, CPU: process.CPU() - m.cpu0, PeakRSS: process.PeakRSS()}
}
