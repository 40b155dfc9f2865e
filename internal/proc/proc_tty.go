//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package proc

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"golang.org/x/sys/unix"
)

// terminal is the descriptor of cmd's stdin when it is the terminal lembas-check's group holds
// the foreground of, else -1.
func terminal(cmd *exec.Cmd) int {
	f, ok := cmd.Stdin.(*os.File)
	if !ok {
		return -1
	}
	fd := int(f.Fd())
	if pg, err := unix.IoctlGetInt(fd, unix.TIOCGPGRP); err != nil || pg != syscall.Getpgrp() {
		return -1
	}
	return fd
}

// foreground makes the new group the terminal's foreground group, when asked and stdin is the
// terminal, and returns the terminal (-1: none).
func foreground(cmd *exec.Cmd, term bool) int {
	if !term {
		return -1
	}
	fd := terminal(cmd)
	if fd >= 0 {
		cmd.SysProcAttr.Foreground = true
		cmd.SysProcAttr.Ctty = fd
	}
	return fd
}

// takeTerminal makes lembas-check's group the terminal's foreground group again. Asking from
// the background would stop lembas-check (SIGTTOU) unless the signal is ignored meanwhile.
func takeTerminal(fd int) {
	signal.Ignore(syscall.SIGTTOU)
	defer signal.Reset(syscall.SIGTTOU)
	_ = unix.IoctlSetPointerInt(fd, unix.TIOCSPGRP, syscall.Getpgrp())
}
