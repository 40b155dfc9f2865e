//go:build !unix

package fakeprovider_test

import "time"

// cpuTime is 0 where the OS gives no rusage (Windows): BenchmarkStreamCPU skips there.
func cpuTime() time.Duration { return 0 }
