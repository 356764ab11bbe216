//go:build !unix

package process

import "time"

// CPU is not measured on this system: 0.
func CPU() time.Duration { return 0 }

// PeakRSS is not measured on this system: 0.
func PeakRSS() int64 { return 0 }
