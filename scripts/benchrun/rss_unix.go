//go:build unix

package main

import (
	"os"
	"syscall"
)

// peakKiB is a finished process's peak resident set, as getrusage says it (KiB on Linux, bytes on
// darwin: the figures in docs/performance.md are Linux's).
func peakKiB(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss)
	}
	return 0
}
