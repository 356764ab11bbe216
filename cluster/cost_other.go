//go:build !unix

package cluster

import "time"

// processCPU is not measured on this system.
func processCPU() time.Duration { return 0 }

// peakRSS is not measured on this system.
func peakRSS() int64 { return 0 }
