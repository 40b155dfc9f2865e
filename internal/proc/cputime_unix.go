//go:build unix

package proc

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time (user and system) this process has used, and its waited-for
// children's; ok is false where the OS will not say. Ratios measured in CPU time hold on a
// loaded machine where wall times do not.
func CPUTime() (self, children time.Duration, ok bool) {
	var s, c syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &s) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c) != nil {
		return 0, 0, false
	}
	return time.Duration(s.Utime.Nano() + s.Stime.Nano()), time.Duration(c.Utime.Nano() + c.Stime.Nano()), true
}
