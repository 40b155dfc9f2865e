//go:build !unix

package live

import (
	"os/exec"
	"syscall"
)

func ownGroup(*exec.Cmd) {}

// signalGroup: without process groups, the process alone, killed.
func (p *process) signalGroup(syscall.Signal) {
	if p.cmd.Process != nil {
		p.cmd.Process.Kill()
	}
}
