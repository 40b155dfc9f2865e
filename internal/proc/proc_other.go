//go:build !unix && !windows

package proc

import (
	"os"
	"os/exec"
	"runtime"
)

type sysState struct{}

func prepare(*exec.Cmd, bool) int { return -1 }

func takeTerminal(int) {}
func attach(*Process)  {}
func release(*Process) {}

func setup() {}

func limits() string {
	return "on " + runtime.GOOS + ", processes are not grouped: what a process starts may outlive lembas-check, and " +
		"stopping one kills it at once"
}

func waitExited(*Process) bool { return false }

// exitedNow cannot look without reaping here: Exited alone says it.
func exitedNow(*Process) bool { return false }

func signalAll(p *Process, _ os.Signal) { _ = p.cmd.Process.Kill() }

func owned(*Process) []Leftover { return nil }

func signalEach([]Leftover, bool) {}

func allGone([]Leftover) bool { return true }

func strays() []Leftover { return nil }

func reapStrays() {}

func reapGroup(*Process) {}
