//go:build unix

package runner

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime is this process's CPU time and its waited-for children's.
func cpuTime(t *testing.T) time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			t.Skipf("getrusage: %v", err)
		}
		total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return total
}
