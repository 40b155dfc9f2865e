//go:build !unix

package tokens

import "time"

// cpuTime is 0 where the OS gives no rusage (Windows): the ratio checks that read it skip there.
func cpuTime() time.Duration { return 0 }
