package tokens

import (
	"time"

	"github.com/LLeMbas/lembas-check/internal/proc"
)

// cpuTime is the process's CPU time so far (proc.CPUTime), 0 where the OS does not say.
func cpuTime() time.Duration {
	self, _, _ := proc.CPUTime()
	return self
}
