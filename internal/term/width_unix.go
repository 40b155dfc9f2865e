//go:build unix

package term

import "golang.org/x/sys/unix"

// fdWidth is the terminal's columns on fd; 0 when not told (a pty never sized says 0).
func fdWidth(fd uintptr) int {
	ws, err := unix.IoctlGetWinsize(int(fd), unix.TIOCGWINSZ)
	if err != nil {
		return 0
	}
	return int(ws.Col)
}
