//go:build unix

package fakeprovider_test

import (
	"syscall"
	"time"
)

// cpuTime is the process's CPU time so far (user and system): on a loaded machine the wall time
// of a round says more of the others than of the servers.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
