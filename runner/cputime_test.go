package runner

import (
	"testing"
	"time"

	sysproc "github.com/LLeMbas/lembas-check/internal/proc"
)

// cpuTime is this process's CPU time and its waited-for children's (sysproc.CPUTime).
func cpuTime(t *testing.T) time.Duration {
	self, children, ok := sysproc.CPUTime()
	if !ok {
		t.Skip("this OS gives no process CPU time")
	}
	return self + children
}
