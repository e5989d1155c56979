//go:build !unix

package bench

import "time"

// processCPU is not measured on this system: cpu-ns/entity reads 0.
func processCPU() time.Duration { return 0 }
