//go:build unix && !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package proc

import "os/exec"

// foreground: handing the terminal over is not done on this OS; an interactive command that
// reads the terminal from its own group is stopped by it (SIGTTIN).
func foreground(*exec.Cmd, bool) int { return -1 }

func takeTerminal(int) {}
