//go:build unix && !linux

package proc

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

type sysState struct{}

func prepare(cmd *exec.Cmd, term bool) int {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return foreground(cmd, term)
}

func attach(*Process)  {}
func release(*Process) {}

func setup() {}

func limits() string {
	return "on " + runtime.GOOS + ", a process that leaves its process group (setsid, a daemon) is not followed and " +
		"may outlive lembas-check; what a group leaves behind is ended but not named"
}

// waitExited cannot wait without reaping here: the process is reaped first.
func waitExited(*Process) bool { return false }

// exitedNow cannot look without reaping here: Exited alone says it.
func exitedNow(*Process) bool { return false }

func signalAll(p *Process, sig os.Signal) { signalGroup(p.pid, unixSignal(sig)) }

// owned is the rest of p's group, as one entry: its members cannot be listed here.
func owned(p *Process) []Leftover {
	if groupAlive(p.pid) {
		return []Leftover{{Pid: p.pid, Group: true}}
	}
	return nil
}

func groupAlive(pgid int) bool {
	err := syscall.Kill(-pgid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func signalEach(left []Leftover, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	for _, l := range left {
		if l.Group {
			signalGroup(l.Pid, sig)
		} else {
			_ = syscall.Kill(l.Pid, sig)
		}
	}
}

func allGone(left []Leftover) bool {
	for _, l := range left {
		if l.Group && groupAlive(l.Pid) {
			return false
		}
		if !l.Group && syscall.Kill(l.Pid, 0) == nil {
			return false
		}
	}
	return true
}

// strays cannot be found here: a descendant that left its group went to init.
func strays() []Leftover { return nil }

func reapStrays() {}

func reapGroup(*Process) {}
