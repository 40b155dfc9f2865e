//go:build unix

package proc

import (
	"os"
	"syscall"
)

// unixSignal is sig as a Unix signal; nil (and any signal that is not one) is KILL.
func unixSignal(sig os.Signal) syscall.Signal {
	if s, ok := sig.(syscall.Signal); ok {
		return s
	}
	return syscall.SIGKILL
}

// signalGroup sends sig to every process in the group pgid.
func signalGroup(pgid int, sig syscall.Signal) { _ = syscall.Kill(-pgid, sig) }
