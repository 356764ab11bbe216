//go:build !unix

package tedreport

import "time"

// processCPU is unknown here: 0.
func processCPU() time.Duration { return 0 }

// peakRSSMB is unknown here: 0.
func peakRSSMB() float64 { return 0 }
