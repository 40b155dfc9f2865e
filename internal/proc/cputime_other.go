//go:build !unix

package proc

import "time"

// CPUTime is not known here (no getrusage): ok is false, and the ratio checks that read it skip.
func CPUTime() (self, children time.Duration, ok bool) { return 0, 0, false }
